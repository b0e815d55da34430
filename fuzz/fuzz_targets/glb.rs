//! Binary glTF from arbitrary bytes: an error or a scene, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skinlab::{Lab, SkinningMethod};

fuzz_target!(|data: &[u8]| {
    if let Ok(mut lab) = Lab::from_glb(data) {
        let _ = lab.skinned_positions(SkinningMethod::Dqs);
        if !lab.animation_names().is_empty() {
            let _ = lab.set_animation_time(0, 0.5);
        }
    }
});
