//! The lessons' one-off figures that the page's module leaves to this one:
//! the rotation lab's samples (`Lab.rotationSamples`) and lip-sync
//! (`Lab.visemeTrack`, `lab.sayText`, `lab.sayRecording`). A first frame
//! never runs them; each runs once on a button or a choice. The lip-sync
//! tools key a clip on a copy of the page's scene and hand it back as clip
//! JSON, which the page's `Lab` takes with `setClipJson` or `addClipJson`.

use glam::DVec3;
use serde::{Deserialize, Serialize};
use skinlab::rig::rotations::{rotation_samples as samples_of, RotationMethod};
use skinlab::rig::visemes::{viseme_track as track_of, SpeechLanguage, VisemeKey};
use wasm_bindgen::prelude::*;

use crate::js_error;
use crate::tools::{object, scratch_lab};

/// `{t, matrix (3×3, column-major), determinant, orthonormalityError}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RotationSampleView {
    t: f64,
    matrix: [f64; 9],
    determinant: f64,
    orthonormality_error: f64,
}

/// `Lab.rotationSamples`'s request: `{method, from, to, steps}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SamplesOptions {
    method: String,
    from: Vec<f64>,
    to: Vec<f64>,
    steps: f64,
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

/// `{method, from, to, steps}`: `steps` orientations between the Euler
/// angles `from` and `to` (`R(x, y, z) = R_z(z)·R_y(y)·R_x(x)`, radians)
/// found by `method`: `"matrix"` (entries blended), `"euler"` (angles
/// blended) or `"slerp"`; each `{t, matrix, determinant,
/// orthonormalityError}`.
#[wasm_bindgen(js_name = rotationSamples)]
pub fn rotation_samples(request: JsValue) -> Result<JsValue, JsError> {
    const METHOD: &str = "rotationSamples";
    let SamplesOptions {
        method,
        from,
        to,
        steps,
    } = serde_wasm_bindgen::from_value(request)
        .map_err(|e| js_error(METHOD, format!("options: {e}")))?;
    let how = RotationMethod::from_name(&method).ok_or_else(|| {
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
    let views: Vec<RotationSampleView> = samples_of(how, from, to, steps as usize)
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

/// `{time, duration, viseme, char}`.
#[derive(Serialize)]
struct VisemeView {
    time: f32,
    duration: f32,
    viseme: &'static str,
    #[serde(rename = "char")]
    char_index: usize,
}

fn views(track: &[VisemeKey]) -> Vec<VisemeView> {
    track
        .iter()
        .map(|k| VisemeView {
            time: k.time,
            duration: k.duration,
            viseme: k.viseme.name(),
            char_index: k.char_index,
        })
        .collect()
}

fn language(method: &str, code: &str) -> Result<SpeechLanguage, JsError> {
    SpeechLanguage::from_code(code)
        .ok_or_else(|| js_error(method, format!("language '{code}' is not en or de")))
}

/// The visemes of `text` in `lang` (`"en"` or `"de"`): `[{time, duration,
/// viseme, char}]`, `viseme` one of `rest A E I O U MBP FV C`, `char` the
/// index in the text it comes from.
#[wasm_bindgen(js_name = visemeTrack)]
pub fn viseme_track(text: &str, lang: &str) -> Result<JsValue, JsError> {
    const METHOD: &str = "visemeTrack";
    let track = track_of(text, language(METHOD, lang)?);
    serde_wasm_bindgen::to_value(&views(&track)).map_err(|e| js_error(METHOD, e))
}

/// Keys `text` in `lang` as the clip "speech" on the morph targets and the
/// jaw of the scene in `scene` (handover bytes), replacing one of that
/// name: `{clip, json, track}`.
#[wasm_bindgen(js_name = sayText)]
pub fn say_text(scene: &[u8], text: &str, lang: &str) -> Result<JsValue, JsError> {
    const METHOD: &str = "sayText";
    let mut lab = scratch_lab(METHOD, scene)?;
    let (clip, track) = lab
        .say_text(text, language(METHOD, lang)?)
        .map_err(|e| js_error(METHOD, e))?;
    keyed_clip(METHOD, &lab, clip, ("track", &views(&track)))
}

/// Keys a recording (`samples`, mono, at `sampleRate`) as the clip
/// "recording" of the scene in `scene`: 30 times a second the jaw opens
/// and the "A" target weighs in by the loudness. `{clip, json, openness}`,
/// `openness` one number in 0–1 per 1/30 s.
#[wasm_bindgen(js_name = sayRecording)]
pub fn say_recording(scene: &[u8], samples: &[f32], sample_rate: f32) -> Result<JsValue, JsError> {
    const METHOD: &str = "sayRecording";
    let mut lab = scratch_lab(METHOD, scene)?;
    let (clip, openness) = lab
        .say_recording(samples, sample_rate)
        .map_err(|e| js_error(METHOD, e))?;
    keyed_clip(METHOD, &lab, clip, ("openness", &openness))
}

/// Clip `clip`, keyed in `lab`, handed back as `{clip, json, [name]:
/// figures}`: its index in the scene it was keyed on (the page's clips, in
/// the same order) and its clip JSON, with what the keying measured.
fn keyed_clip(
    method: &str,
    lab: &skinlab::Lab,
    clip: usize,
    (name, figures): (&str, &impl Serialize),
) -> Result<JsValue, JsError> {
    let json = lab.clip_json(clip).map_err(|e| js_error(method, e))?;
    let figures = serde_wasm_bindgen::to_value(figures).map_err(|e| js_error(method, e))?;
    object(&[
        ("clip", JsValue::from(clip as f64)),
        ("json", JsValue::from(json)),
        (name, figures),
    ])
    .map(JsValue::from)
}
