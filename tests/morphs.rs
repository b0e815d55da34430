//! Morph targets before skinning (the bones note): zero weights give
//! the skinned base, one weight the target, two weights add, morph-then-skin
//! matches a hand computation, and bad morph data is refused by name.
#![allow(clippy::unwrap_used)]

use glam::{Quat, Vec3};
use serde_json::{json, Value};
use skinlab::{Lab, SceneError, SkinningMethod};

/// The skinning note's two-bone strip along +Y with two morph targets: `lift` moves
/// vertex 4 (the tip) by +X, `widen` moves vertex 0 by −X and vertex 4 by
/// +Z.
fn strip() -> Value {
    let positions: Vec<f32> = (0..=4).flat_map(|y| [0.0, y as f32, 0.0]).collect();
    let mut lift = vec![0.0_f32; 15];
    lift[12] = 1.0;
    let mut widen = vec![0.0_f32; 15];
    widen[0] = -1.0;
    widen[14] = 2.0;
    json!({
        "bones": [
            {"name": "bone 1", "parent": null, "origin": [0,0,0], "orientation": [0,0,0,1], "length": 2.0},
            {"name": "bone 2", "parent": 0, "origin": [0,0,0], "orientation": [0,0,0,1], "length": 2.0}
        ],
        "mesh": {"positions": positions, "indices": []},
        "influences": [[[0, 1.0]], [[0, 1.0]], [[0, 0.5], [1, 0.5]], [[1, 1.0]], [[1, 1.0]]],
        "morphs": [{"name": "lift", "positions": lift}, {"name": "widen", "positions": widen}],
        "morphWeights": [0.0, 0.0]
    })
}

fn lab(doc: &Value) -> Lab {
    Lab::from_json(&doc.to_string()).unwrap()
}

#[test]
fn weights_zero_one_and_two_together() {
    let mut lab = lab(&strip());
    assert_eq!(lab.morph_names(), ["lift", "widen"]);
    let rest: Vec<Vec3> = lab.skinned_positions(SkinningMethod::Lbs).to_vec();
    assert_eq!(
        rest,
        lab.scene().mesh.positions_model,
        "zero weights: the base"
    );
    lab.set_morph_weights(&[1.0, 0.0]).unwrap();
    assert_eq!(
        lab.skinned_positions(SkinningMethod::Lbs)[4],
        Vec3::new(1.0, 4.0, 0.0)
    );
    lab.set_morph_weights(&[1.0, 0.5]).unwrap();
    let both = lab.skinned_positions(SkinningMethod::Dqs).to_vec();
    assert!(
        both[4].abs_diff_eq(Vec3::new(1.0, 4.0, 1.0), 1e-6),
        "{}",
        both[4]
    );
    assert!(both[0].abs_diff_eq(Vec3::new(-0.5, 0.0, 0.0), 1e-6));
    // Past a sum of 1 it extrapolates, and that is allowed.
    lab.set_morph_weights(&[2.0, 1.0]).unwrap();
    assert_eq!(
        lab.skinned_positions(SkinningMethod::Lbs)[4],
        Vec3::new(2.0, 4.0, 2.0)
    );
}

#[test]
fn morph_then_skin_equals_a_hand_computation() {
    let mut lab = lab(&strip());
    // Bone 2 turned 90° about Z at its origin (0, 2, 0).
    let quarter = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    lab.set_bone_pose(1, quarter.to_array(), [0.0; 3], [1.0; 3])
        .unwrap();
    lab.set_morph_weights(&[0.5, 0.0]).unwrap();
    // Vertex 4: morphed to (0.5, 4, 0), then M_2 turns it about (0, 2, 0):
    // (0.5, 2) relative → (−2, 0.5) → (−2, 2.5, 0).
    for method in [SkinningMethod::Lbs, SkinningMethod::Dqs] {
        let p = lab.skinned_positions(method)[4];
        assert!(
            p.abs_diff_eq(Vec3::new(-2.0, 2.5, 0.0), 1e-5),
            "{method:?}: {p}"
        );
    }
    // Vertex 2, half and half, is not morphed: LBS gives the mean of (0, 2)
    // and the turned (0, 2) = itself.
    assert!(
        lab.skinned_positions(SkinningMethod::Lbs)[2].abs_diff_eq(Vec3::new(0.0, 2.0, 0.0), 1e-6)
    );
}

#[test]
fn morph_weights_are_one_undo_step_and_survive_the_scene_json() {
    let mut lab = lab(&strip());
    lab.checkpoint();
    lab.set_morph_weights(&[0.25, 0.75]).unwrap();
    let saved = lab.scene_json();
    let back = Lab::from_json(&saved).unwrap();
    assert_eq!(back.morph_weights(), [0.25, 0.75]);
    assert_eq!(
        back.skinned_positions(SkinningMethod::Lbs),
        lab.skinned_positions(SkinningMethod::Lbs)
    );
    assert!(lab.undo());
    assert_eq!(lab.morph_weights(), [0.0, 0.0]);
}

#[test]
fn bad_morph_data_is_refused_by_name() {
    let mut doc = strip();
    doc["morphs"][1]["positions"] = json!([0.0, 1.0]);
    match Lab::from_json(&doc.to_string()).unwrap_err() {
        SceneError::WrongLength { field, found, .. } => {
            assert_eq!(field, "morphs[1].positions");
            assert_eq!(found, 2);
        }
        other => panic!("{other}"),
    }
    let mut doc = strip();
    doc["morphs"][0]["normals"] = json!(vec![0.0; 14]);
    assert!(Lab::from_json(&doc.to_string())
        .unwrap_err()
        .to_string()
        .contains("morphs[0].normals"));
    let mut doc = strip();
    doc["morphWeights"] = json!([0.0, 0.0, 1.0]);
    assert!(Lab::from_json(&doc.to_string())
        .unwrap_err()
        .to_string()
        .starts_with("morphWeights"));
    let mut doc = strip();
    doc["morphs"][0]["positions"][3] = json!(1e39);
    assert!(matches!(
        Lab::from_json(&doc.to_string()).unwrap_err(),
        SceneError::NonFinite { field, .. } if field == "morphs[0].positions[3]"
    ));
    let mut lab = lab(&strip());
    assert!(lab.set_morph_weights(&[f32::NAN, 0.0]).is_err());
    assert!(lab.set_morph_weights(&[1.0]).is_err());
    assert_eq!(
        lab.morph_weights(),
        [0.0, 0.0],
        "a refused edit changes nothing"
    );
}
