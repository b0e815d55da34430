//! The JS API of skinning with optimized centres of rotation: the method
//! `"cor"` wherever a method is named, and the centres job,
//! `lab.updateCentres()`, with `lab.centresCurrent()`.

use wasm_bindgen::prelude::*;

use super::JsLab;

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// Computes each vertex's centre of rotation from the weights as they
    /// are (the centres job); CoR skins with the last ones computed.
    #[wasm_bindgen(js_name = updateCentres)]
    pub fn update_centres(&mut self) {
        self.inner.update_centres();
    }

    /// Whether the centres of rotation are those of the weights as they
    /// are (false before the first `updateCentres()` and after a weight
    /// edit, until it runs again: CoR then shows stale centres).
    #[wasm_bindgen(js_name = centresCurrent)]
    pub fn centres_current(&self) -> bool {
        self.inner.centres_current()
    }
}
