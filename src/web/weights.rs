//! `Lab`'s weights: each vertex's influences, locks and deforming bones,
//! the brush, weight edits kept across reloads, and 8-bit quantisation.
//! Automatic weights are the file readers' module's (`converters/`), which
//! `www/converters.js` puts on `Lab` as `lab.autoWeights(method)`.

use wasm_bindgen::prelude::*;

use super::*;

/// `{maxWeightError, meanWeightError, maxPositionError}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct QuantisationView {
    max_weight_error: f32,
    mean_weight_error: f32,
    max_position_error: f32,
}

/// `lab.paintDab`'s options (the points are read apart, as a typed array).
#[derive(serde::Deserialize)]
struct DabView {
    bone: f64,
    at: [f32; 2],
    #[serde(default)]
    mirror: bool,
    #[serde(flatten)]
    brush: BrushOptions,
}

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// Vertex `vertex`'s `[[bone, weight], ...]`, normalised, largest first.
    pub fn influences(&self, vertex: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "influences";
        let vertex = index_from_f64("vertex", vertex).map_err(|e| js_error(METHOD, e))?;
        let pairs = self
            .inner
            .influences(vertex)
            .map_err(|e| js_error(METHOD, e))?;
        serde_wasm_bindgen::to_value(&pairs).map_err(|e| js_error(METHOD, e))
    }

    /// Replaces vertex `vertex`'s influences with `[[bone, weight], ...]`;
    /// normalised and pruned to four. Returns how many pairs were pruned.
    #[wasm_bindgen(js_name = setInfluences)]
    pub fn set_influences(&mut self, vertex: f64, pairs: JsValue) -> Result<u32, JsError> {
        const METHOD: &str = "setInfluences";
        let vertex = index_from_f64("vertex", vertex).map_err(|e| js_error(METHOD, e))?;
        let raw: Vec<(f64, f64)> = serde_wasm_bindgen::from_value(pairs).map_err(|e| {
            js_error(
                METHOD,
                format!("influences must be [[bone, weight], ...] ({e})"),
            )
        })?;
        let pairs = raw
            .iter()
            .map(|&(bone, weight)| Ok((index_from_f64("bone", bone)? as u32, weight as f32)))
            .collect::<Result<Vec<_>, EditError>>()
            .map_err(|e| js_error(METHOD, e))?;
        let fitting = self
            .inner
            .set_influences(vertex, &pairs)
            .map_err(|e| js_error(METHOD, e))?;
        Ok(fitting.pruned as u32)
    }

    /// Locks (`true`) or unlocks bone `bone`'s weights against painting and
    /// auto-normalisation.
    #[wasm_bindgen(js_name = setLocked)]
    pub fn set_locked(&mut self, bone: f64, locked: bool) -> Result<(), JsError> {
        const METHOD: &str = "setLocked";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .set_locked(bone, locked)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Whether bone `bone` is locked.
    #[wasm_bindgen(js_name = isLocked)]
    pub fn is_locked(&self, bone: f64) -> Result<bool, JsError> {
        const METHOD: &str = "isLocked";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .bone_pose(bone)
            .map_err(|e| js_error(METHOD, e))?;
        Ok(self.inner.locked()[bone])
    }

    /// Whether bone `bone` deforms: takes skin from the automatic methods,
    /// the brush and typed weights.
    #[wasm_bindgen(js_name = boneDeforms)]
    pub fn bone_deforms(&self, bone: f64) -> Result<bool, JsError> {
        const METHOD: &str = "boneDeforms";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .bone_deforms(bone)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Marks bone `bone` as deforming or not (one undo step after
    /// `checkpoint()`); a bone turned off hands its weight to its nearest
    /// deforming ancestor (or the deforming bone nearest each vertex).
    /// Returns how many vertices' weights moved.
    #[wasm_bindgen(js_name = setBoneDeforms)]
    pub fn set_bone_deforms(&mut self, bone: f64, on: bool) -> Result<u32, JsError> {
        const METHOD: &str = "setBoneDeforms";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .set_bone_deforms(bone, on)
            .map(|moved| moved as u32)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Keeps the weights as they are now as what `weightEditsBytes()`
    /// compares with (the scene as it opened, for the share link).
    #[wasm_bindgen(js_name = keepWeightsAsBaseline)]
    pub fn keep_weights_as_baseline(&mut self) {
        self.inner.keep_weights_as_baseline();
    }

    /// The vertices whose weights differ from the kept baseline, with their
    /// pairs, in the share link's bytes (`formats::weight_edits`); empty when
    /// none differ or no baseline was kept.
    #[wasm_bindgen(js_name = weightEditsBytes)]
    pub fn weight_edits_bytes(&self) -> Vec<u8> {
        let edits = self.inner.weight_edits();
        if edits.is_empty() {
            return Vec::new();
        }
        crate::formats::weight_edits::encode(&edits)
    }

    /// Readies painting on this mesh (the copies of each place a stroke
    /// paints alike), so that the first stroke does not wait for it: what
    /// the page calls when idle after the Weights mode opens.
    #[wasm_bindgen(js_name = preparePainting)]
    pub fn prepare_painting(&mut self) {
        self.inner.prepare_painting();
    }

    /// How many places of the mesh hold copies (a seam, meshes that meet)
    /// with different weights: places that part when posed. Automatic
    /// weights and the brush give copies the same weights; typed weights
    /// or the file may not.
    #[wasm_bindgen(js_name = seamsApart)]
    pub fn seams_apart(&self) -> u32 {
        self.inner.seams_apart() as u32
    }

    /// The bones whose deform flag differs from the kept baseline, as
    /// `[[bone, on], …]` (empty when none differ or no baseline was kept):
    /// what a share link carries beside the weight edits.
    #[wasm_bindgen(js_name = deformEdits)]
    pub fn deform_edits(&self) -> Result<JsValue, JsError> {
        let edits: Vec<(u32, bool)> = self
            .inner
            .deform_edits()
            .into_iter()
            .map(|(bone, on)| (bone as u32, on))
            .collect();
        serde_wasm_bindgen::to_value(&edits).map_err(|e| js_error("deformEdits", e))
    }

    /// Sets the weights a share link's bytes give; throws an `Error` naming
    /// a bad edit, changing nothing.
    #[wasm_bindgen(js_name = applyWeightEditsBytes)]
    pub fn apply_weight_edits_bytes(&mut self, bytes: &[u8]) -> Result<(), JsError> {
        const METHOD: &str = "applyWeightEditsBytes";
        let edits = crate::formats::weight_edits::decode(bytes, self.inner.vertex_count())
            .map_err(|error| js_error(METHOD, error))?;
        self.inner
            .apply_weight_edits(&edits)
            .map_err(|error| js_error(METHOD, error))
    }

    /// Every vertex's influences as four slots a vertex: `{bones:
    /// Uint16Array, weights: Float32Array}` (an empty slot has weight 0), for
    /// moving a worker's result to the page in one piece.
    #[wasm_bindgen(js_name = influenceArrays)]
    pub fn influence_arrays(&self) -> Result<JsValue, JsError> {
        let all = self.inner.all_influences();
        let bones: Vec<u16> = all.iter().flat_map(|v| v.bones).collect();
        let weights: Vec<f32> = all.iter().flat_map(|v| v.weights).collect();
        let view = js_sys::Object::new();
        let set = |key: &str, value: JsValue| js_sys::Reflect::set(&view, &key.into(), &value);
        set("bones", js_sys::Uint16Array::from(bones.as_slice()).into())
            .and_then(|_| {
                set(
                    "weights",
                    js_sys::Float32Array::from(weights.as_slice()).into(),
                )
            })
            .map_err(|_| js_error("influenceArrays", "could not build the result"))?;
        Ok(view.into())
    }

    /// Sets every vertex's influences from [`JsLab::influence_arrays`]'s two
    /// arrays, each vertex validated; throws and changes nothing on a bad one.
    #[wasm_bindgen(js_name = setInfluenceArrays)]
    pub fn set_influence_arrays(&mut self, bones: &[u16], weights: &[f32]) -> Result<(), JsError> {
        self.inner
            .set_all_influences(bones, weights)
            .map_err(|e| js_error("setInfluenceArrays", e))
    }

    /// Paints one dab on a bone's weights, as the page's brush does:
    /// `{points, bone, at: [x, y], radius, strength, falloff?, mode?,
    /// value?, mirror?}`. `points` (a `Float32Array` or array) holds `x, y`
    /// per vertex in the brush's space (screen pixels), the brush sits at
    /// `at`; `falloff` is `smooth` (default), `linear` or `constant`, `mode`
    /// `add` (default), `subtract`, `set` (to `value`) or `smooth`. Returns
    /// how many vertices changed.
    #[wasm_bindgen(js_name = paintDab)]
    pub fn paint_dab(&mut self, options: JsValue) -> Result<u32, JsError> {
        const METHOD: &str = "paintDab";
        let points = js_sys::Reflect::get(&options, &"points".into())
            .ok()
            .filter(|p| js_sys::Array::is_array(p) || p.is_instance_of::<js_sys::Float32Array>())
            .map(|p| js_sys::Float32Array::new(&p).to_vec())
            .ok_or_else(|| {
                js_error(
                    METHOD,
                    "points: a Float32Array or an array of x, y per vertex",
                )
            })?;
        let known = [&["points", "bone", "at", "mirror"][..], BrushOptions::KEYS].concat();
        refuse_unknown_keys(METHOD, &options, &known)?;
        // The rest without the points, which serde does not read from a
        // typed array (a shallow copy: the caller's object is left alone).
        let rest = js_sys::Object::assign(&js_sys::Object::new(), options.unchecked_ref());
        // Deleting a key of a fresh plain object cannot fail.
        let _ = js_sys::Reflect::delete_property(&rest, &"points".into());
        let dab: DabView =
            serde_wasm_bindgen::from_value(rest.into()).map_err(|e| js_error(METHOD, e))?;
        let bone = index_from_f64("bone", dab.bone).map_err(|e| js_error(METHOD, e))?;
        let brush = dab.brush.brush(METHOD)?;
        if points.len() != 2 * self.inner.vertex_count() {
            return Err(js_error(
                METHOD,
                format!(
                    "points: expected {} numbers (x, y per vertex), got {}",
                    2 * self.inner.vertex_count(),
                    points.len()
                ),
            ));
        }
        let points: Vec<glam::Vec2> = points.chunks_exact(2).map(glam::Vec2::from_slice).collect();
        let paintable = vec![true; points.len()];
        let report = self
            .inner
            .paint_dab(
                &points,
                &paintable,
                bone,
                glam::Vec2::from_array(dab.at),
                &brush,
                dab.mirror,
            )
            .map_err(|e| js_error(METHOD, e))?;
        Ok(report.touched as u32)
    }

    /// Vertices that listed more than four bones in the loaded scene and were
    /// pruned to the four largest.
    #[wasm_bindgen(js_name = prunedVertexCount)]
    pub fn pruned_vertex_count(&self) -> u32 {
        self.inner.scene().pruned_vertices as u32
    }

    /// What 8-bit (`unorm8`) weights cost in the current pose under
    /// `method` (default `lbs`): `{maxWeightError, meanWeightError,
    /// maxPositionError}`, the last in model units.
    #[wasm_bindgen(js_name = quantisationReport)]
    pub fn quantisation_report(&self, method: Option<String>) -> Result<JsValue, JsError> {
        const METHOD: &str = "quantisationReport";
        let method: SkinningMethod = method
            .as_deref()
            .unwrap_or("lbs")
            .parse()
            .map_err(|e| js_error(METHOD, e))?;
        let (report, max_position_error) = self.inner.quantisation_error(method);
        let view = QuantisationView {
            max_weight_error: report.max_weight_error,
            mean_weight_error: report.mean_weight_error,
            max_position_error,
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error(METHOD, e))
    }

    /// Switches the engine note's 8-bit weights on or off: when on, the CPU
    /// reference and the GPU both skin with the `unorm8` weights.
    #[wasm_bindgen(js_name = setQuantised)]
    pub fn set_quantised(&mut self, on: bool) {
        self.inner.set_quantised(on);
    }

    /// Whether 8-bit weights are on.
    #[wasm_bindgen(js_name = isQuantised)]
    pub fn is_quantised(&self) -> bool {
        self.inner.is_quantised()
    }
}
