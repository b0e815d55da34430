//! Whatever loads saves and reloads to the same scene: bytes read as a
//! `.glb`, scene JSON or a `.gltf`; a scene that loads is saved, and its
//! save must load again and save to the very same text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skinlab::Lab;

fuzz_target!(|data: &[u8]| {
    let lab = if data.starts_with(b"glTF") {
        Lab::from_glb(data).ok()
    } else {
        let Ok(text) = std::str::from_utf8(data) else {
            return;
        };
        Lab::from_json(text).ok().or_else(|| Lab::from_gltf(text).ok())
    };
    let Some(lab) = lab else {
        return;
    };
    let saved = lab.scene_json();
    let again = Lab::from_json(&saved).expect("Skinlab reads its own save");
    assert_eq!(again.scene_json(), saved, "a reload saves the same scene");
});
