//! The `robot` example: rigid parts (every vertex on one joint, weight 1),
//! hinges at every joint, and the IK solvers reaching targets in its
//! workspace within those hinges.
#![allow(clippy::unwrap_used)]

use glam::Vec3;
use skinlab::lab::Lab;
use skinlab::rig::chain_ik::IkMethod;
use skinlab::rig::limits::JointLimit;

#[test]
fn every_vertex_rides_one_joint_with_weight_one() {
    let lab = Lab::example("robot").unwrap();
    let scene = lab.scene();
    for (v, influences) in scene.influences.iter().enumerate() {
        let pairs: Vec<(u16, f32)> = influences.pairs().collect();
        assert_eq!(pairs.len(), 1, "vertex {v}: {pairs:?}");
        assert_eq!(pairs[0].1, 1.0, "vertex {v}");
    }
    assert!(scene.meshes.len() > 4, "its parts are meshes of their own");
}

#[test]
fn ik_reaches_targets_in_the_workspace_within_the_hinges() {
    let base = Vec3::new(-1.0, -1.4, 0.0) + Vec3::new(0.0, 0.5, 0.0);
    let mut reached = 0;
    let targets: Vec<Vec3> = (0..20)
        .map(|k| {
            let angle = -1.2 + 2.4 * k as f32 / 19.0;
            let radius = 1.0 + 1.4 * ((k * 7) % 5) as f32 / 5.0;
            base + Vec3::new(angle.sin(), angle.cos(), 0.0) * radius
        })
        .collect();
    for method in [IkMethod::Ccd, IkMethod::Fabrik] {
        for target in &targets {
            let mut lab = Lab::example("robot").unwrap();
            let report = lab
                .solve_ik(&skinlab::lab::IkGoal {
                    tip: 4,
                    chain: 3,
                    target_model: *target,
                    method,
                    iterations: Some(128),
                    tolerance: None,
                    fallback_normal: Vec3::Z,
                    stretch: None,
                })
                .unwrap();
            reached += usize::from(report.reached);
            for bone in 0..lab.bone_count() {
                if let Some(JointLimit::Hinge { axis, min, max }) = lab.limit(bone).unwrap() {
                    let angle = skinlab::rig::limits::twist_angle(
                        lab.bone_pose(bone).unwrap().rotation,
                        axis,
                    );
                    assert!(
                        angle >= min - 1e-4 && angle <= max + 1e-4,
                        "bone {bone}: {angle}"
                    );
                }
            }
        }
    }
    assert!(reached >= 36, "{reached} of 40 targets reached");
}
