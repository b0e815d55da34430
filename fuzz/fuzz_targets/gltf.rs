//! Embedded glTF from arbitrary bytes: an error or a scene, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skinlab::{Lab, SkinningMethod};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(mut lab) = Lab::from_gltf(text) {
        let _ = lab.skinned_positions(SkinningMethod::Lbs);
        if !lab.animation_names().is_empty() {
            let _ = lab.set_animation_time(0, 0.5);
        }
    }
});
