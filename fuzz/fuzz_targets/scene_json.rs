//! Scene JSON from arbitrary bytes: an error or a scene, never a panic, and
//! a scene that loads can be skinned and written back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skinlab::{Lab, SkinningMethod};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(mut lab) = Lab::from_json(text) {
        let _ = lab.skinned_positions(SkinningMethod::Lbs);
        let _ = lab.skinned_positions(SkinningMethod::Dqs);
        let _ = lab.scene_json();
    }
});
