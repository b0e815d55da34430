//! The JS API of motion capture: `jointPositions`,
//! `reduceKeys` (`Lab.fromBvh` is in the file readers' module).

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{float_array, js_error, JsLab};
use crate::lab::index_from_f64;

/// `{before, after, maxError}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReductionView {
    before: usize,
    after: usize,
    max_error: f32,
}

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// Every bone's origin (its joint) as posed now, model space: `x, y, z`
    /// per bone in a `Float32Array`.
    #[wasm_bindgen(js_name = jointPositions)]
    pub fn joint_positions(&self) -> js_sys::Float32Array {
        float_array(&self.inner.joint_positions())
    }

    /// Removes clip `clip`'s keys while every joint stays within
    /// `tolerance` model units of the clip at each of its key times;
    /// `{before, after, maxError}`. With `apply === false` the clip is left
    /// as it is and only the figures are returned.
    #[wasm_bindgen(js_name = reduceKeys)]
    pub fn reduce_keys(
        &mut self,
        clip: f64,
        tolerance: f32,
        apply: Option<bool>,
    ) -> Result<JsValue, JsError> {
        const METHOD: &str = "reduceKeys";
        let clip = index_from_f64("clip", clip).map_err(|e| js_error(METHOD, e))?;
        let reduction = self
            .inner
            .reduce_keys(clip, tolerance, apply.unwrap_or(true))
            .map_err(|e| js_error(METHOD, e))?;
        let view = ReductionView {
            before: reduction.before,
            after: reduction.after,
            max_error: reduction.max_error,
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error(METHOD, e))
    }
}
