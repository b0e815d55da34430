//! A scene read from a glTF or BVH file crosses from the file readers'
//! wasm module to the page's as handover bytes (scene JSON and what it does
//! not carry, `formats::handover`), and back for `.glb` export: it must come
//! back the same scene, skin to the same positions and export the same file.
#![allow(clippy::unwrap_used)]

use skinlab::examples::capture;
use skinlab::formats::export::glb_from_scene;
use skinlab::formats::gltf::read_gltf;
use skinlab::formats::handover::{handover_bytes, scene_from_handover};
use skinlab::{Lab, Scene, SkinningMethod};

fn assert_survives_handover(name: &str, scene: Scene) {
    let back =
        scene_from_handover(&handover_bytes(&scene)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        back.to_json_compact(),
        scene.to_json_compact(),
        "{name}: the scene JSON changed"
    );
    assert_eq!(back.base_colour, scene.base_colour, "{name}: base colour");
    assert_eq!(back.not_drawn, scene.not_drawn, "{name}: not drawn");
    assert_eq!(
        back.pruned_vertices, scene.pruned_vertices,
        "{name}: pruned"
    );
    assert_eq!(
        glb_from_scene(&back).unwrap(),
        glb_from_scene(&scene).unwrap(),
        "{name}: the exported .glb differs"
    );
    let original = Lab::new(scene);
    let read = Lab::new(back);
    for method in [SkinningMethod::Lbs, SkinningMethod::Dqs] {
        assert_eq!(
            original.skinned_positions(method),
            read.skinned_positions(method),
            "{name}: skinned positions differ"
        );
    }
}

#[test]
fn the_shipped_models_survive_the_handover() {
    let mut textured = 0;
    for name in ["Fox", "RiggedFigure", "RiggedSimple", "SimpleSkin"] {
        let path = format!(
            "{}/www/models/{name}/{name}.gltf",
            env!("CARGO_MANIFEST_DIR")
        );
        let scene = read_gltf(&std::fs::read_to_string(path).unwrap()).unwrap();
        textured += usize::from(
            scene
                .base_colour
                .as_ref()
                .is_some_and(|c| c.image.is_some()),
        );
        assert_survives_handover(name, scene);
    }
    assert!(textured > 0, "no model carried a texture across");
}

#[test]
fn the_captured_walk_survives_the_handover() {
    assert_survives_handover("capture", capture().unwrap());
}

/// The examples the page's wasm module leaves to the file readers' module
/// reach the page as handover bytes: each must arrive as it was built.
#[test]
fn every_example_survives_the_handover() {
    for name in skinlab::examples::listed_names() {
        let scene = skinlab::examples::example(name).unwrap_or_else(|| panic!("{name}: no scene"));
        assert_survives_handover(name, scene);
    }
}
