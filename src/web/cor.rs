//! The JS API of skinning with optimized centres of rotation: the method
//! `"cor"` wherever a method is named, and the centres job,
//! `lab.updateCentres()`, with `lab.centresCurrent()`.

use wasm_bindgen::prelude::*;

use super::{js_error, JsLab};

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

    /// The centres job with `progress(done, total)` called as it goes.
    #[wasm_bindgen(js_name = updateCentresProgress)]
    pub fn update_centres_progress(&mut self, progress: &js_sys::Function) {
        let mut report = |done: usize, total: usize| {
            // A progress callback that throws only loses its report.
            let _ = progress.call2(
                &JsValue::NULL,
                &(done as f64).into(),
                &(total as f64).into(),
            );
        };
        self.inner.update_centres_reporting(&mut report);
    }

    /// The centres of rotation as the centres job last computed them, four
    /// numbers a vertex (`x, y, z` and 1, or four zeros for a vertex that
    /// keeps LBS), and the weights revision they are of:
    /// `{centres: Float32Array, revision}`, or `null` before the job ran.
    #[wasm_bindgen(js_name = centresArray)]
    pub fn centres_array(&self) -> JsValue {
        let (Some(centres), Some(revision)) = (
            self.inner.centres_of_rotation(),
            self.inner.centres_revision(),
        ) else {
            return JsValue::NULL;
        };
        let flat: Vec<f32> = centres
            .iter()
            .flat_map(|c| c.map_or([0.0; 4], |c| c.extend(1.0).to_array()))
            .collect();
        let view = js_sys::Object::new();
        // Setting a key on a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(
            &view,
            &"centres".into(),
            &js_sys::Float32Array::from(flat.as_slice()),
        );
        let _ = js_sys::Reflect::set(&view, &"revision".into(), &(revision as f64).into());
        view.into()
    }

    /// Takes centres computed elsewhere, as `centresArray` gives them, for
    /// the weights revision `revision`; throws, changing nothing, when the
    /// weights changed since or the array does not fit the mesh.
    #[wasm_bindgen(js_name = setCentresArray)]
    pub fn set_centres_array(&mut self, centres: &[f32], revision: f64) -> Result<(), JsError> {
        const METHOD: &str = "setCentresArray";
        if centres.len() % 4 != 0 {
            return Err(js_error(METHOD, "four numbers a vertex"));
        }
        let centres = centres
            .chunks_exact(4)
            .map(|c| (c[3] > 0.5).then(|| glam::Vec3::new(c[0], c[1], c[2])))
            .collect();
        self.inner
            .set_centres(centres, revision as u64)
            .map_err(|e| js_error(METHOD, e))
    }
}
