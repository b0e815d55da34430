//! Hostile inputs for each fuzz target, replayed: each must give an error
//! or a scene, never a panic. The files live in
//! `tests/fuzz_regressions/TARGET/`: those `tests/support/hostile-inputs.py`
//! wrote (lying lengths, counts of 2³¹, cycles, truncations, overflowing
//! numbers; the round trip's are valid files), and any input the fuzzer
//! (`cargo xtask fuzz`) crashes on, which the fuzz command copies there.

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
    // A folder that is missing or empty would pass by replaying nothing.
    for target in ["scene_json", "gltf", "glb", "roundtrip"] {
        assert!(
            !inputs(target).is_empty(),
            "tests/fuzz_regressions/{target}/ holds no input to replay"
        );
    }
    let hostile = ["scene_json", "gltf", "glb"]
        .iter()
        .map(|t| inputs(t).len())
        .sum::<usize>();
    assert_eq!(replayed, hostile + inputs("roundtrip").len());
}

#[test]
fn the_kept_hostile_files_are_refused_and_the_round_trip_files_read() {
    for (name, bytes) in inputs("gltf") {
        assert!(
            Lab::from_gltf(&String::from_utf8_lossy(&bytes)).is_err(),
            "gltf/{name} is refused"
        );
    }
    for (name, bytes) in inputs("glb") {
        assert!(Lab::from_glb(&bytes).is_err(), "glb/{name} is refused");
    }
    for (name, bytes) in inputs("roundtrip") {
        let lab = Lab::from_glb(&bytes).unwrap_or_else(|e| panic!("roundtrip/{name}: {e}"));
        assert!(lab.vertex_count() > 0, "roundtrip/{name}");
    }
}
