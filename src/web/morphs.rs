//! The JS API of morph targets: `lab.morphNames()`,
//! `lab.morphWeights()`, `lab.setMorphWeights([…])`; and the enclosed
//! volume, `lab.volume(method)` and `lab.restVolume()`.

use wasm_bindgen::prelude::*;

use super::{js_error, numbers, JsLab};

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// The morph targets' names, in order.
    #[wasm_bindgen(js_name = morphNames)]
    pub fn morph_names(&self) -> Vec<String> {
        self.inner.morph_names()
    }

    /// One weight per morph target.
    #[wasm_bindgen(js_name = morphWeights)]
    pub fn morph_weights(&self) -> Vec<f32> {
        self.inner.morph_weights().to_vec()
    }

    /// Sets every morph weight: one finite number per target. The sum may
    /// pass 1 (the base weight `1 − Σ` goes negative): that extrapolates.
    #[wasm_bindgen(js_name = setMorphWeights)]
    pub fn set_morph_weights(&mut self, weights: JsValue) -> Result<(), JsError> {
        const METHOD: &str = "setMorphWeights";
        let weights: Vec<f32> = numbers(METHOD, "weights", weights)?
            .into_iter()
            .map(|w| w as f32)
            .collect();
        self.inner
            .set_morph_weights(&weights)
            .map_err(|e| js_error(METHOD, e))
    }

    /// The volume the skin encloses in the current pose, skinned by
    /// `method` (`"lbs"` or `"dqs"`); open ends are closed by fans.
    pub fn volume(&self, method: &str) -> Result<f32, JsError> {
        let method = method.parse().map_err(|e| js_error("volume", e))?;
        Ok(self.inner.volume(method))
    }

    /// How far the skin leaves the rest surface skinned by `method`:
    /// `{outward, inward}`, the largest growth (a bulge) and shrink (a
    /// collapse) of a vertex's distance from its nearest bone, model units.
    #[wasm_bindgen(js_name = surfaceDeparture)]
    pub fn surface_departure(&self, method: &str) -> Result<JsValue, JsError> {
        let method = method
            .parse()
            .map_err(|e| js_error("surfaceDeparture", e))?;
        let (outward, inward) = self.inner.surface_departure(method);
        let view = js_sys::Object::new();
        // Setting a key on a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&view, &"outward".into(), &outward.into());
        let _ = js_sys::Reflect::set(&view, &"inward".into(), &inward.into());
        Ok(view.into())
    }

    /// The volume the rest mesh encloses.
    #[wasm_bindgen(js_name = restVolume)]
    pub fn rest_volume(&self) -> f32 {
        self.inner.rest_volume()
    }
}
