//! Motion that keeps its shape on any rest pose: the walk capture rests
//! with its arms down; played on characters that rest in a T-pose or an
//! A-pose, each limb points where the capture's does, within a few degrees.
#![allow(clippy::unwrap_used)]

mod common;

use glam::{Quat, Vec3};
use skinlab::lab::Lab;

/// The capture's own skeleton, its arms raised at rest by `degrees` from
/// where the capture rests them (90: a T-pose; 45: an A-pose).
fn capture_resting_arms_up(degrees: f32) -> Lab {
    let capture = Lab::example("capture").unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&capture.scene_json()).unwrap();
    doc["animations"] = serde_json::json!([]);
    let names = common::bone_names(&capture);
    for (side, sign) in [("LeftArm", 1.0f32), ("RightArm", -1.0)] {
        let arm = names.iter().position(|n| n == side).unwrap();
        // Out sideways: about the model's forward axis, each arm its own way.
        let at = capture.scene().skeleton.model_from_bone_rest()[arm];
        let (_, rest, _) = at.to_scale_rotation_translation();
        let down = rest * Vec3::Y;
        let out = Vec3::new(sign, 0.0, 0.0);
        let axis = down.cross(out).normalize();
        let raise = Quat::from_axis_angle(axis, degrees.to_radians());
        // The raise in model space, on the bone's rest orientation.
        let parent = capture.scene().skeleton.bones()[arm]
            .parent
            .map(usize::from)
            .unwrap();
        let (_, parent_rest, _) =
            capture.scene().skeleton.model_from_bone_rest()[parent].to_scale_rotation_translation();
        let orientation = Quat::from_array(
            serde_json::from_value(doc["bones"][arm]["orientation"].clone()).unwrap(),
        );
        let raised = parent_rest.inverse() * raise * parent_rest * orientation;
        doc["bones"][arm]["orientation"] = serde_json::json!(raised.normalize().to_array());
    }
    Lab::from_json(&doc.to_string()).unwrap()
}

#[test]
fn the_walk_keeps_its_arms_down_on_characters_resting_in_a_t_pose_or_an_a_pose() {
    for degrees in [90.0, 45.0] {
        let mut target = capture_resting_arms_up(degrees);
        let arm = common::bone(&target, "LeftArm");
        let capture = Lab::example("capture").unwrap();
        let rest_apart = common::pointing(&target, arm)
            .angle_between(common::pointing(&capture, arm))
            .to_degrees();
        assert!(
            rest_apart > degrees - 5.0,
            "the arms rest {rest_apart}° apart"
        );
        let (angle, at, _) = common::worst_limb_angle(&mut target);
        println!("arms raised {degrees}° at rest: limbs within {angle:.2}° of the capture's (worst: {at})");
        assert!(angle < 3.0, "{degrees}°: {angle}° at {at}");
    }
}

#[test]
fn the_walk_on_ufbxs_maya_character_points_its_limbs_as_the_capture_does() {
    let bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fbx/ufbx-maya_kenney_character_7700_binary.fbx"),
    )
    .unwrap();
    let mut kenney = Lab::new(skinlab::formats::fbx::scene_from_fbx(&bytes).unwrap());
    let (angle, at, _) = common::worst_limb_angle(&mut kenney);
    println!("the Maya character: limbs within {angle:.2}° of the capture's (worst: {at})");
    assert!(angle < 5.0, "{angle}° at {at}");
}
