//! The JS API of the rotation lab (the animation talk's "Rotationen"):
//! `Lab.rotationSamples`.

use glam::DVec3;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{js_error, JsLab};
use crate::rig::rotations::{rotation_samples, RotationMethod};

/// `{t, matrix (3×3, column-major), determinant, orthonormalityError}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RotationSampleView {
    t: f64,
    matrix: [f64; 9],
    determinant: f64,
    orthonormality_error: f64,
}

fn angles(method: &str, what: &str, values: &[f64]) -> Result<DVec3, JsError> {
    match values {
        [x, y, z] if values.iter().all(|v| v.is_finite()) => Ok(DVec3::new(*x, *y, *z)),
        _ => Err(js_error(
            method,
            format!("{what} must be three finite Euler angles [x, y, z] in radians"),
        )),
    }
}

/// `Lab.rotationSamples`'s request: `{method, from, to, steps}`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SamplesOptions {
    method: String,
    from: Vec<f64>,
    to: Vec<f64>,
    steps: f64,
}

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// `{method, from, to, steps}`: `steps` orientations between the Euler
    /// angles `from` and `to` (`R(x, y, z) = R_z(z)·R_y(y)·R_x(x)`, radians)
    /// found by `method`:
    /// `"matrix"` (entries blended), `"euler"` (angles blended) or
    /// `"slerp"`; each `{t, matrix, determinant, orthonormalityError}`.
    #[wasm_bindgen(js_name = rotationSamples)]
    pub fn rotation_samples(request: JsValue) -> Result<JsValue, JsError> {
        const METHOD: &str = "rotationSamples";
        let SamplesOptions {
            method,
            from,
            to,
            steps,
        } = super::options(METHOD, request)?;
        let method = method.as_str();
        let how = RotationMethod::from_name(method).ok_or_else(|| {
            js_error(
                METHOD,
                format!("method '{method}' is not matrix, euler or slerp"),
            )
        })?;
        let (from, to) = (angles(METHOD, "from", &from)?, angles(METHOD, "to", &to)?);
        if !steps.is_finite() || steps < 2.0 {
            return Err(js_error(
                METHOD,
                format!("steps must be at least 2, got {steps}"),
            ));
        }
        let views: Vec<RotationSampleView> = rotation_samples(how, from, to, steps as usize)
            .into_iter()
            .map(|sample| RotationSampleView {
                t: sample.t,
                matrix: sample.matrix.to_cols_array(),
                determinant: sample.determinant,
                orthonormality_error: sample.orthonormality_error,
            })
            .collect();
        serde_wasm_bindgen::to_value(&views).map_err(|e| js_error(METHOD, e))
    }
}
