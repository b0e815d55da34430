//! The JS API of lip-sync: `Lab.visemeTrack`, `lab.sayText`.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{js_error, JsLab};
use crate::rig::visemes::{viseme_track, SpeechLanguage, VisemeKey};

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

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// The visemes of `text` in `lang` (`"en"` or `"de"`): `[{time,
    /// duration, viseme, char}]`, `viseme` one of `rest A E I O U MBP FV C`,
    /// `char` the index in the text it comes from.
    #[wasm_bindgen(js_name = visemeTrack)]
    pub fn viseme_track(text: &str, lang: &str) -> Result<JsValue, JsError> {
        const METHOD: &str = "visemeTrack";
        let track = viseme_track(text, language(METHOD, lang)?);
        serde_wasm_bindgen::to_value(&views(&track)).map_err(|e| js_error(METHOD, e))
    }

    /// Keys a recording (`samples`, mono, at `sampleRate`) as the clip
    /// "recording": 30 times a second the jaw opens and the "A" target
    /// weighs in by the loudness; returns `{clip, openness}` (one number in
    /// 0–1 per 1/30 s).
    #[wasm_bindgen(js_name = sayRecording)]
    pub fn say_recording(&mut self, samples: &[f32], sample_rate: f32) -> Result<JsValue, JsError> {
        const METHOD: &str = "sayRecording";
        let (clip, openness) = self
            .inner
            .say_recording(samples, sample_rate)
            .map_err(|e| js_error(METHOD, e))?;
        #[derive(Serialize)]
        struct Heard {
            clip: usize,
            openness: Vec<f32>,
        }
        serde_wasm_bindgen::to_value(&Heard { clip, openness }).map_err(|e| js_error(METHOD, e))
    }

    /// Keys `text` as the clip "speech" on the face's morph targets and
    /// jaw; returns `{clip, track}`.
    #[wasm_bindgen(js_name = sayText)]
    pub fn say_text(&mut self, text: &str, lang: &str) -> Result<JsValue, JsError> {
        const METHOD: &str = "sayText";
        let (clip, track) = self
            .inner
            .say_text(text, language(METHOD, lang)?)
            .map_err(|e| js_error(METHOD, e))?;
        #[derive(Serialize)]
        struct Said {
            clip: usize,
            track: Vec<VisemeView>,
        }
        serde_wasm_bindgen::to_value(&Said {
            clip,
            track: views(&track),
        })
        .map_err(|e| js_error(METHOD, e))
    }
}
