//! The JS API of motion capture: `jointPositions` (`Lab.fromBvh` and key
//! reduction, `lab.reduceKeys`, are the file readers' module's, which
//! hands a reduced clip back through `setClipJson`).

use wasm_bindgen::prelude::*;

use super::{float_array, JsLab};

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// Every bone's origin (its joint) as posed now, model space: `x, y, z`
    /// per bone in a `Float32Array`.
    #[wasm_bindgen(js_name = jointPositions)]
    pub fn joint_positions(&self) -> js_sys::Float32Array {
        float_array(&self.inner.joint_positions())
    }
}
