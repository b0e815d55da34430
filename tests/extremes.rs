//! Whatever loads saves and reloads to the same scene: extreme finite
//! numbers are normalised, clamped or refused by name, never turned into
//! something Skinlab itself would refuse.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use skinlab::formats::gltf::read_gltf;
use skinlab::Lab;

mod common;

/// SimpleSkin with one more buffer holding `floats`, viewed by a new
/// accessor of `count` elements of `kind`; returns the accessor's index.
fn add_accessor(doc: &mut Value, floats: &[f32], count: usize, kind: &str) -> usize {
    let bytes: Vec<u8> = floats.iter().flat_map(|v| v.to_le_bytes()).collect();
    let buffers = doc["buffers"].as_array_mut().unwrap();
    buffers.push(json!({
        "uri": format!("data:application/octet-stream;base64,{}", common::encode_base64(&bytes)),
        "byteLength": bytes.len()
    }));
    let buffer = buffers.len() - 1;
    let views = doc["bufferViews"].as_array_mut().unwrap();
    views.push(json!({"buffer": buffer, "byteLength": bytes.len()}));
    let view = views.len() - 1;
    let accessors = doc["accessors"].as_array_mut().unwrap();
    accessors
        .push(json!({"bufferView": view, "componentType": 5126, "count": count, "type": kind}));
    accessors.len() - 1
}

fn round_trips(lab: &Lab) {
    let saved = lab.scene_json();
    // A root's parent is null by design; no number is.
    let numbers_only = saved.replace("\"parent\": null", "");
    assert!(!numbers_only.contains("null"), "no number saved as null");
    let again = Lab::from_json(&saved).unwrap_or_else(|e| panic!("its own save is refused: {e}"));
    assert_eq!(again.scene_json(), saved, "a reload gives the same scene");
}

#[test]
fn a_rotation_whose_length_overflows_normalises_and_round_trips() {
    let mut lab = Lab::example("two-bone").unwrap();
    lab.set_bone_pose(1, [1e20, 0.0, 0.0, 0.0], [0.0; 3], [1.0; 3])
        .unwrap();
    assert_eq!(
        lab.bone_pose(1).unwrap().rotation.to_array(),
        [1.0, 0.0, 0.0, 0.0]
    );
    round_trips(&lab);
}

#[test]
fn weights_near_the_largest_float_keep_their_vertex_bound() {
    let mut lab = Lab::example("two-bone").unwrap();
    lab.set_influences(0, &[(0, 3e38), (1, 3e38)]).unwrap();
    let pairs = lab.influences(0).unwrap();
    assert_eq!(pairs.len(), 2, "{pairs:?}");
    assert!(
        pairs.iter().all(|(_, w)| (w - 0.5).abs() < 1e-6),
        "{pairs:?}"
    );
    round_trips(&lab);
}

#[test]
fn gltf_keys_that_are_not_finite_leave_the_clip_out_and_say_so() {
    let mut doc: Value = serde_json::from_str(&common::model_text("SimpleSkin")).unwrap();
    for bad in [f32::NAN, f32::INFINITY, -1.0] {
        let times = add_accessor(&mut doc, &[0.0, bad], 2, "SCALAR");
        doc["animations"][0]["samplers"][0]["input"] = times.into();
        let output = doc["animations"][0]["samplers"][0]["output"].clone();
        // Two keys' worth of rotations.
        let rotations = add_accessor(
            &mut doc,
            &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
            2,
            "VEC4",
        );
        doc["animations"][0]["samplers"][0]["output"] = rotations.into();
        let scene = read_gltf(&doc.to_string()).unwrap();
        assert!(
            scene.animation.clips.is_empty(),
            "{bad}: the clip is left out"
        );
        assert!(
            scene
                .not_drawn
                .iter()
                .any(|n| n.starts_with("animations[0]")),
            "{bad}: and said: {:?}",
            scene.not_drawn
        );
        doc["animations"][0]["samplers"][0]["output"] = output;
    }
}

#[test]
fn a_base_colour_factor_out_of_range_is_clamped() {
    let mut doc: Value = serde_json::from_str(&common::model_text("RiggedSimple")).unwrap();
    doc["materials"][0]["pbrMetallicRoughness"]["baseColorFactor"] = json!([1e39, -2.0, 0.5, 1.0]);
    let scene = read_gltf(&doc.to_string()).unwrap();
    assert_eq!(scene.base_colour.unwrap().factor, [1.0, 0.0, 0.5, 1.0]);
}

#[test]
fn a_vertex_naming_every_bone_is_checked_in_linear_time() {
    // 65,535 bones in a chain and 5 vertices each naming all of them: the
    // duplicate check goes through a set (the pairwise one took seconds).
    let bones: Vec<Value> = (0..65_535)
        .map(|k| json!({"parent": if k == 0 { Value::Null } else { json!(k - 1) }, "origin": [0, 0, 0], "orientation": [0, 0, 0, 1], "length": 0.001}))
        .collect();
    let every: Vec<Value> = (0..65_535).map(|b| json!([b, 1.0])).collect();
    let doc = json!({
        "bones": bones,
        "mesh": {"positions": [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 2, 0], "indices": [0, 1, 2, 1, 3, 2]},
        "influences": vec![every; 5],
    });
    let lab = Lab::from_json(&doc.to_string()).unwrap();
    assert_eq!(lab.scene().pruned_vertices, 5, "each kept its four largest");
}

/// Finite numbers from the whole range: ordinary, tiny, and near the
/// largest an `f32` holds.
fn extreme() -> impl proptest::strategy::Strategy<Value = f32> {
    use proptest::prelude::*;
    prop_oneof![
        -10.0_f32..10.0,
        proptest::num::f32::NORMAL | proptest::num::f32::SUBNORMAL | proptest::num::f32::ZERO,
        Just(f32::MAX),
        Just(-f32::MAX),
        Just(3e38_f32),
        Just(1e-38_f32),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// Any pose and weights the API accepts, however extreme, save and
    /// reload to the same scene (what it refuses, it refuses by name).
    #[test]
    fn extreme_poses_and_weights_round_trip(
        rotation in proptest::array::uniform4(extreme()),
        translation in proptest::array::uniform3(extreme()),
        scale in proptest::array::uniform3(extreme()),
        weights in (extreme(), extreme()),
    ) {
        let mut lab = Lab::example("two-bone-smooth").unwrap();
        if let Err(error) = lab.set_bone_pose(1, rotation, translation, scale) {
            proptest::prop_assert!(!error.to_string().is_empty());
        }
        if let Err(error) = lab.set_influences(6, &[(0, weights.0), (1, weights.1)]) {
            proptest::prop_assert!(!error.to_string().is_empty());
        }
        round_trips(&lab);
    }
}
