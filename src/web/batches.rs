//! The JS API of the engine note's GPU limits: the draw-call split
//! `lab.splitByBoneBudget(maxBones)` → `[{bones, triangles}]`, and the
//! palette formats: `lab.formatPositions(format)`, `lab.formatError(format)`,
//! `lab.formatFigures(budget)`.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{js_error, JsLab};
use crate::lab::index_from_f64;
use crate::skin::batches::{split_by_bone_budget, PaletteFormat};

/// One batch: its sub-palette's bones and its triangles.
#[derive(Serialize)]
struct BatchView {
    bones: Vec<u16>,
    triangles: usize,
}

/// One format's figures under a budget.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FiguresView {
    format: &'static str,
    vectors_per_bone: usize,
    bones_per_draw: usize,
    draws: Option<usize>,
    bytes_per_frame: usize,
}

/// The format called `name`, or an error naming the known ones.
pub(crate) fn palette_format(method: &str, name: &str) -> Result<PaletteFormat, JsError> {
    PaletteFormat::from_name(name).ok_or_else(|| {
        js_error(
            method,
            format!(
                "unknown palette format '{name}'; use mat4, mat4x3, quat-translation or dual-quat"
            ),
        )
    })
}

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// Positions as the shader computes them with palette format `format`
    /// (`"mat4"`, `"mat4x3"`, `"quat-translation"`, `"dual-quat"`).
    #[wasm_bindgen(js_name = formatPositions)]
    pub fn format_positions(&self, format: &str) -> Result<js_sys::Float32Array, JsError> {
        let format = palette_format("formatPositions", format)?;
        let positions = self.inner.format_positions(format);
        Ok(js_sys::Float32Array::from(bytemuck::cast_slice::<
            glam::Vec3,
            f32,
        >(&positions)))
    }

    /// The largest distance, model units, between `format`'s positions and
    /// the full matrices': what dropping scale costs in this pose.
    #[wasm_bindgen(js_name = formatError)]
    pub fn format_error(&self, format: &str) -> Result<f32, JsError> {
        let format = palette_format("formatError", format)?;
        Ok(self.inner.format_error(format))
    }

    /// Keeps at most `cap` (1–4) influences per vertex in skinning, on the
    /// CPU and the GPU (the stored weights stay).
    #[wasm_bindgen(js_name = setInfluenceCap)]
    pub fn set_influence_cap(&mut self, cap: f64) -> Result<(), JsError> {
        let cap = index_from_f64("cap", cap).map_err(|e| js_error("setInfluenceCap", e))?;
        self.inner.set_influence_cap(cap);
        Ok(())
    }

    /// The influence cap (4: none).
    #[wasm_bindgen(js_name = influenceCap)]
    pub fn influence_cap(&self) -> usize {
        self.inner.influence_cap()
    }

    /// Per vertex, how far the cap and 8-bit weights move it in this pose
    /// (`"lbs"` or `"dqs"`), against the stored weights.
    #[wasm_bindgen(js_name = influenceErrors)]
    pub fn influence_errors(&self, method: &str) -> Result<js_sys::Float32Array, JsError> {
        let method = method.parse().map_err(|e| js_error("influenceErrors", e))?;
        Ok(js_sys::Float32Array::from(
            self.inner.influence_errors(method).as_slice(),
        ))
    }

    /// Every format under `budget` vertex uniform vectors: `[{format,
    /// vectorsPerBone, bonesPerDraw, draws, bytesPerFrame}]`.
    #[wasm_bindgen(js_name = formatFigures)]
    pub fn format_figures(&self, budget: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "formatFigures";
        let budget = index_from_f64("budget", budget).map_err(|e| js_error(METHOD, e))?;
        let views: Vec<FiguresView> = self
            .inner
            .format_figures(budget)
            .into_iter()
            .map(|f| FiguresView {
                format: f.format.name(),
                vectors_per_bone: f.vectors_per_bone,
                bones_per_draw: f.bones_per_draw,
                draws: f.draws,
                bytes_per_frame: f.bytes_per_frame,
            })
            .collect();
        serde_wasm_bindgen::to_value(&views).map_err(|e| js_error(METHOD, e))
    }

    /// Splits the mesh's triangles into batches touching at most
    /// `maxBones` bones each (greedy first fit): `[{bones: [...],
    /// triangles}]`, `triangles` being how many each holds.
    #[wasm_bindgen(js_name = splitByBoneBudget)]
    pub fn split_by_bone_budget(&self, max_bones: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "splitByBoneBudget";
        let max = index_from_f64("maxBones", max_bones).map_err(|e| js_error(METHOD, e))?;
        let scene = self.inner.scene();
        let batches = split_by_bone_budget(&scene.mesh.indices, &scene.influences, max)
            .map_err(|e| js_error(METHOD, e))?;
        let views: Vec<BatchView> = batches
            .into_iter()
            .map(|batch| BatchView {
                bones: batch.bones,
                triangles: batch.triangles.len(),
            })
            .collect();
        serde_wasm_bindgen::to_value(&views).map_err(|e| js_error(METHOD, e))
    }
}
