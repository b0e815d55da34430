//! Stretchy joints: targets beyond a chain's reach, up to `stretch` times
//! it, are reached by stretching every bone of the chain, none past
//! `stretch`; children start at the stretched tip without being stretched
//! themselves; the skinning palette carries the stretch.
#![allow(clippy::unwrap_used)]

use glam::{Quat, Vec3};
use skinlab::lab::{IkGoal, Lab};
use skinlab::rig::chain_ik::IkMethod;

/// A seeded generator (xorshift), so a failure can be replayed.
fn random(seed: &mut u32) -> f32 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 17;
    *seed ^= *seed << 5;
    (*seed >> 8) as f32 / (1u32 << 24) as f32
}

/// A planar chain of `count` bones of random lengths, bent at random, as scene JSON.
fn chain(count: usize, seed: &mut u32) -> (Lab, f32) {
    let mut bones = Vec::new();
    let mut reach = 0.0;
    for k in 0..count {
        let length = 0.5 + random(seed);
        reach += length;
        let turn = Quat::from_rotation_z(random(seed) - 0.5);
        bones.push(serde_json::json!({
            "name": format!("b{k}"),
            "parent": if k == 0 { serde_json::Value::Null } else { (k - 1).into() },
            "origin": [0.0, 0.0, 0.0],
            "orientation": turn.to_array(),
            "length": length,
        }));
    }
    let scene = serde_json::json!({
        "bones": bones,
        "mesh": {"positions": [0.0, 0.0, 0.0], "indices": []},
        "influences": [[[0, 1.0]]],
    });
    (Lab::from_json(&scene.to_string()).unwrap(), reach)
}

#[test]
fn targets_up_to_stretch_times_the_reach_are_reached_within_the_stretch() {
    let mut seed = 0x1234_5678;
    let mut reached = 0;
    let mut tried = 0;
    for trial in 0..60 {
        let count = 2 + trial % 4;
        let (mut lab, reach) = chain(count, &mut seed);
        let stretch = 1.1 + random(&mut seed);
        let root = lab.model_from_bone_posed()[0].transform_point3(Vec3::ZERO);
        let angle = std::f32::consts::TAU * random(&mut seed);
        let distance = reach * (1.0 + (stretch - 1.0) * 0.999 * random(&mut seed));
        let target = root + Vec3::new(angle.cos(), angle.sin(), 0.0) * distance;
        let method = [IkMethod::Ccd, IkMethod::Fabrik][trial % 2];
        let method = if count == 2 && trial % 3 == 0 {
            IkMethod::Analytic
        } else {
            method
        };
        let report = lab
            .solve_ik(&IkGoal {
                tip: count - 1,
                chain: count,
                target_model: target,
                method,
                iterations: Some(256),
                tolerance: Some(1e-4 * reach),
                fallback_normal: Vec3::Z,
                stretch: Some(stretch),
            })
            .unwrap();
        tried += 1;
        reached += usize::from(report.reached);
        for bone in 0..count {
            let s = lab.bone_stretch(bone).unwrap();
            assert!(
                s >= 1.0 && s <= stretch + 1e-6,
                "bone {bone}: {s} > {stretch}"
            );
        }
        // Each bone's drawn length is its stretched length, and the next
        // bone starts at its end.
        let frames = lab.model_from_bone_posed().to_vec();
        for bone in 0..count - 1 {
            let length = lab.scene().skeleton.bones()[bone].length;
            let end = frames[bone].transform_point3(Vec3::new(0.0, length, 0.0));
            let next = frames[bone + 1].transform_point3(Vec3::ZERO);
            assert!(end.distance(next) < 1e-4 * reach);
            // The child is not stretched by its parent: its axes are unit.
            let (scale, _, _) = frames[bone + 1].to_scale_rotation_translation();
            let own = lab.bone_stretch(bone + 1).unwrap();
            assert!(
                (scale - Vec3::new(1.0, own, 1.0)).length() < 1e-4,
                "{scale}"
            );
        }
    }
    assert!(reached * 100 >= tried * 95, "{reached} of {tried} reached");
}

#[test]
fn a_near_target_is_reached_unstretched_and_a_later_rigid_solve_unstretches() {
    let mut seed = 7;
    let (mut lab, reach) = chain(3, &mut seed);
    let goal = |target: Vec3, stretch| IkGoal {
        tip: 2,
        chain: 3,
        target_model: target,
        method: IkMethod::Fabrik,
        iterations: None,
        tolerance: None,
        fallback_normal: Vec3::Z,
        stretch,
    };
    lab.solve_ik(&goal(Vec3::new(0.3 * reach, 0.3 * reach, 0.0), Some(2.0)))
        .unwrap();
    assert!((0..3).all(|b| lab.bone_stretch(b).unwrap() == 1.0));
    lab.solve_ik(&goal(Vec3::new(1.5 * reach, 0.0, 0.0), Some(2.0)))
        .unwrap();
    assert!(lab.bone_stretch(0).unwrap() > 1.4);
    // The palette carries the stretch: M_0 scales the bone's own +Y.
    let m = lab.skinning_matrix(0).unwrap();
    let stretched = m.transform_vector3(
        lab.scene().skeleton.model_from_bone_rest()[0].transform_vector3(Vec3::Y),
    );
    assert!((stretched.length() - lab.bone_stretch(0).unwrap()).abs() < 1e-4);
    lab.solve_ik(&goal(Vec3::new(1.5 * reach, 0.0, 0.0), None))
        .unwrap();
    assert!((0..3).all(|b| lab.bone_stretch(b).unwrap() == 1.0));
    lab.solve_ik(&goal(Vec3::new(1.5 * reach, 0.0, 0.0), Some(2.0)))
        .unwrap();
    lab.reset_pose();
    assert_eq!(lab.bone_stretch(0).unwrap(), 1.0);
}
