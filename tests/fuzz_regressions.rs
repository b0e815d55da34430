//! Inputs the fuzzer (`cargo xtask fuzz`) once crashed on, replayed: each
//! must now give an error or a scene, never a panic. The files live in
//! `tests/fuzz_regressions/TARGET/`, copied there by the fuzz command.

use std::path::Path;

use skinlab::{Lab, SkinningMethod};

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_regressions")
        .join(target);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_file())
        .map(|entry| {
            let bytes = std::fs::read(entry.path()).unwrap_or_default();
            (entry.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

fn exercise(mut lab: Lab) {
    let _ = lab.skinned_positions(SkinningMethod::Lbs);
    let _ = lab.skinned_positions(SkinningMethod::Dqs);
    if !lab.animation_names().is_empty() {
        let _ = lab.set_animation_time(0, 0.5);
    }
}

#[test]
fn every_kept_crash_input_is_now_read_safely() {
    let mut replayed = 0;
    for (name, bytes) in inputs("scene_json") {
        println!("scene_json/{name}");
        if let Ok(lab) = Lab::from_json(&String::from_utf8_lossy(&bytes)) {
            exercise(lab);
        }
        replayed += 1;
    }
    for (name, bytes) in inputs("gltf") {
        println!("gltf/{name}");
        if let Ok(lab) = Lab::from_gltf(&String::from_utf8_lossy(&bytes)) {
            exercise(lab);
        }
        replayed += 1;
    }
    for (name, bytes) in inputs("roundtrip") {
        println!("roundtrip/{name}");
        if let Ok(lab) = Lab::from_glb(&bytes) {
            let saved = lab.scene_json();
            let again = Lab::from_json(&saved).expect("Skinlab reads its own save");
            assert_eq!(again.scene_json(), saved, "roundtrip/{name}");
        }
        replayed += 1;
    }
    for (name, bytes) in inputs("glb") {
        println!("glb/{name}");
        if let Ok(lab) = Lab::from_glb(&bytes) {
            exercise(lab);
        }
        replayed += 1;
    }
    println!("{replayed} fuzz regression inputs replayed");
}
