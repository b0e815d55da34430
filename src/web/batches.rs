//! The JS API of seed 003's draw-call split (DESIGN §7):
//! `lab.splitByBoneBudget(maxBones)` → `[{bones, triangles}]`.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{js_error, JsLab};
use crate::lab::index_from_f64;
use crate::skin::batches::split_by_bone_budget;

/// One batch: its sub-palette's bones and its triangles.
#[derive(Serialize)]
struct BatchView {
    bones: Vec<u16>,
    triangles: usize,
}

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
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
