//! Inverse kinematics with joint limits: the analytic solver against seed
//! 004's closed formula, CCD and FABRIK on random limited chains whose
//! targets come from random limit-respecting poses, and targets out of
//! reach.
#![allow(clippy::unwrap_used)]

use std::f32::consts::{FRAC_PI_2, PI};

use glam::{Quat, Vec3};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use skinlab::rig::chain_ik::{solve_chain, IkMethod, IkRequest};
use skinlab::rig::limits::JointLimit;
use skinlab::rig::pose::pose_to_model;
use skinlab::{Bone, BoneTransform, Skeleton};

/// A chain of bones, each the child of the one before, the first turned by
/// `first` (so the chain lies along its +Y turned by it).
fn chain(lengths: &[f32], first: Quat) -> Skeleton {
    let bones = lengths
        .iter()
        .enumerate()
        .map(|(k, &length)| Bone {
            name: format!("b{k}"),
            parent: k.checked_sub(1).map(|p| p as u16),
            origin_in_parent: Vec3::ZERO,
            orientation: if k == 0 { first } else { Quat::IDENTITY },
            length,
            turn: Quat::IDENTITY,
            rest_scale: Vec3::ONE,
        })
        .collect();
    Skeleton::new(bones).unwrap()
}

fn tip_end(skeleton: &Skeleton, pose: &[BoneTransform]) -> Vec3 {
    let mut frames = vec![glam::Mat4::IDENTITY; skeleton.len()];
    pose_to_model(skeleton, pose, &mut frames);
    let tip = skeleton.len() - 1;
    frames[tip].transform_point3(Vec3::new(0.0, skeleton.bones()[tip].length, 0.0))
}

fn turned(rotation: Quat) -> BoneTransform {
    BoneTransform {
        rotation,
        ..BoneTransform::IDENTITY
    }
}

fn request(skeleton: &Skeleton, target: Vec3, method: IkMethod) -> IkRequest {
    IkRequest {
        tip: skeleton.len() - 1,
        chain: skeleton.len(),
        target_model: target,
        method,
        iterations: 64,
        tolerance: 1e-3,
        fallback_normal: Vec3::Z,
    }
}

/// Solves with the defaults of [`request`].
fn solve(
    skeleton: &Skeleton,
    pose: &mut [BoneTransform],
    limits: &[Option<JointLimit>],
    target: Vec3,
    method: IkMethod,
) -> skinlab::rig::chain_ik::IkReport {
    solve_chain(skeleton, pose, limits, &request(skeleton, target, method)).unwrap()
}

/// The signed angle of a turn about +Z.
fn angle_about_z(q: Quat) -> f32 {
    let (axis, angle) = q.to_axis_angle();
    if axis.z < 0.0 {
        -angle
    } else {
        angle
    }
}

#[test]
fn analytic_equals_the_animation_talks_closed_formula_on_planar_chains() {
    // The animation talk: θ2 = arccos((x² + y² − l1² − l2²) / (2 l1 l2)),
    // θ1 = atan2(y, x) − atan2(l2 sin θ2, l1 + l2 cos θ2), angles from +X.
    let along_x = Quat::from_rotation_z(-FRAC_PI_2);
    let cases = [
        (2.0, 2.0, 2.5, 1.5),
        (3.0, 1.5, 1.0, 3.0),
        (1.0, 2.0, -1.5, 1.2),
        (2.0, 1.0, 2.2, -1.0),
    ];
    for (l1, l2, x, y) in cases {
        let skeleton = chain(&[l1, l2], along_x);
        let theta2 = ((x * x + y * y - l1 * l1 - l2 * l2) / (2.0 * l1 * l2)).acos();
        for elbow in [1.0_f32, -1.0] {
            let theta2 = elbow * theta2;
            let theta1 = y.atan2(x) - (l2 * theta2.sin()).atan2(l1 + l2 * theta2.cos());
            // Start near this elbow's solution, so it is the nearer one.
            let mut pose = vec![
                turned(Quat::from_rotation_z(theta1 + 0.2)),
                turned(Quat::from_rotation_z(theta2 - 0.2 * elbow)),
            ];
            let limits = vec![None; 2];
            let report = solve_chain(
                &skeleton,
                &mut pose,
                &limits,
                &request(&skeleton, Vec3::new(x, y, 0.0), IkMethod::Analytic),
            )
            .unwrap();
            assert!(report.reached, "{l1} {l2} ({x}, {y}): {report:?}");
            let found = (
                angle_about_z(pose[0].rotation),
                angle_about_z(pose[1].rotation),
            );
            let wrap = |a: f32| (a + PI).rem_euclid(2.0 * PI) - PI;
            assert!(
                wrap(found.0 - theta1).abs() < 1e-3 && wrap(found.1 - theta2).abs() < 1e-3,
                "({x}, {y}) elbow {elbow}: solver {found:?}, formula ({theta1}, {theta2})"
            );
        }
    }
}

#[test]
fn a_knee_hinge_never_bends_backwards() {
    // The animation talk's leg along −Y: hip, then a knee that bends one way only.
    let skeleton = chain(&[1.0, 1.0], Quat::from_rotation_z(PI));
    let knee = JointLimit::Hinge {
        axis: Vec3::X,
        min: 0.0,
        max: 2.6,
    };
    let limits = vec![None, Some(knee)];
    for target in [
        Vec3::new(0.0, -1.5, 0.8),
        Vec3::new(0.0, -1.5, -0.8),
        Vec3::new(0.0, -0.5, 0.0),
        Vec3::new(0.0, -3.0, 0.0),
    ] {
        for method in [IkMethod::Analytic, IkMethod::Ccd, IkMethod::Fabrik] {
            let mut pose = vec![BoneTransform::IDENTITY; 2];
            let report = solve(&skeleton, &mut pose, &limits, target, method);
            let bend = skinlab::rig::limits::twist_angle(pose[1].rotation, Vec3::X);
            assert!(
                (-1e-5..=2.6 + 1e-5).contains(&bend),
                "{method:?} to {target}: knee at {bend}"
            );
            assert!(knee.excess(pose[1].rotation) < 1e-5);
            println!(
                "{method:?} to {target}: reached {}, error {:.2e}, knee {bend:.3}",
                report.reached, report.error
            );
        }
    }
}

#[test]
fn out_of_reach_the_chain_points_at_the_target_and_says_so() {
    let skeleton = chain(&[1.0, 1.0, 1.0], Quat::IDENTITY);
    let target = Vec3::new(5.0, 3.0, 1.0);
    for method in [IkMethod::Ccd, IkMethod::Fabrik] {
        let mut pose = vec![turned(Quat::from_rotation_z(0.4)); 3];
        let report = solve(&skeleton, &mut pose, &[None; 3], target, method);
        assert!(!report.reached, "{method:?}");
        let tip = tip_end(&skeleton, &pose);
        assert!(
            tip.normalize().angle_between(target.normalize()) < 1e-2,
            "{method:?}: the chain points at the target ({tip})"
        );
        assert!(
            (tip.length() - 3.0).abs() < 1e-2,
            "{method:?}: stretched out"
        );
        assert!((report.error - (target.length() - 3.0)).abs() < 1e-2);
    }
    // With a cone on the first bone, it stretches as far as the cone allows.
    let cone = JointLimit::Swing {
        swing: 0.3,
        twist_min: -PI,
        twist_max: PI,
    };
    let limits = vec![Some(cone), None, None];
    let mut pose = vec![BoneTransform::IDENTITY; 3];
    let report = solve_chain(
        &skeleton,
        &mut pose,
        &limits,
        &request(&skeleton, target, IkMethod::Ccd),
    )
    .unwrap();
    assert!(!report.reached);
    assert!(cone.excess(pose[0].rotation) < 1e-5);
}

fn limit_strategy() -> impl Strategy<Value = Option<JointLimit>> {
    prop_oneof![
        Just(None),
        (
            -1.0f32..1.0,
            -1.0f32..1.0,
            -1.0f32..1.0,
            0.3f32..2.5,
            0.3f32..2.5
        )
            .prop_filter_map("a hinge axis", |(x, y, z, below, above)| {
                Vec3::new(x, y, z).try_normalize().map(|axis| {
                    Some(JointLimit::Hinge {
                        axis,
                        min: -below,
                        max: above,
                    })
                })
            }),
        (0.3f32..2.5, 0.2f32..PI).prop_map(|(swing, twist)| Some(JointLimit::Swing {
            swing,
            twist_min: -twist,
            twist_max: twist,
        })),
    ]
}

/// A random chain, random limits, and a target the chain can reach within
/// them (the tip of a random pose clamped to the limits).
fn case() -> impl Strategy<Value = (Vec<f32>, Vec<Option<JointLimit>>, Vec<Quat>)> {
    (2usize..=6).prop_flat_map(|n| {
        (
            proptest::collection::vec(0.3f32..2.0, n),
            proptest::collection::vec(limit_strategy(), n),
            proptest::collection::vec(
                (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, -1.5f32..1.5).prop_map(
                    |(x, y, z, angle)| {
                        Vec3::new(x, y, z)
                            .try_normalize()
                            .map_or(Quat::IDENTITY, |axis| Quat::from_axis_angle(axis, angle))
                    },
                ),
                n,
            ),
        )
    })
}

fn limited_pose(limits: &[Option<JointLimit>], rotations: &[Quat]) -> Vec<BoneTransform> {
    rotations
        .iter()
        .zip(limits)
        .map(|(&q, limit)| turned(limit.map_or(q, |l| l.clamp(q))))
        .collect()
}

/// Solves `cases` random chains from the straight rest pose with both
/// solvers; checks every limit and the report, returns how many each
/// reached within 64 sweeps.
fn reach_rates(free: bool, cases: usize) -> [usize; 2] {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut reached = [0usize; 2];
    let mut sweeps = [0usize; 2];
    for _ in 0..cases {
        let (lengths, limits, rotations) = case().new_tree(&mut runner).unwrap().current();
        let limits = if free {
            vec![None; limits.len()]
        } else {
            limits
        };
        let skeleton = chain(&lengths, Quat::IDENTITY);
        let target = tip_end(&skeleton, &limited_pose(&limits, &rotations));
        for (k, method) in [IkMethod::Ccd, IkMethod::Fabrik].into_iter().enumerate() {
            let mut pose = vec![BoneTransform::IDENTITY; lengths.len()];
            let mut request = request(&skeleton, target, method);
            request.tolerance = 1e-3 * lengths.iter().sum::<f32>();
            let report = solve_chain(&skeleton, &mut pose, &limits, &request).unwrap();
            if report.reached {
                reached[k] += 1;
                sweeps[k] += report.iterations;
            }
            assert!(
                (tip_end(&skeleton, &pose).distance(target) - report.error).abs() < 1e-4,
                "the report tells the truth"
            );
            for (bone, limit) in limits.iter().enumerate() {
                if let Some(limit) = limit {
                    let excess = limit.excess(pose[bone].rotation);
                    assert!(
                        excess < 1e-5,
                        "{method:?} bone {bone}: {excess} rad outside {limit:?}"
                    );
                }
            }
        }
    }
    for (k, name) in ["CCD", "FABRIK"].iter().enumerate() {
        println!(
            "{name}, {} joints: reached {} of {cases} ({:.1}%) within 64 sweeps, {:.1} sweeps on average",
            if free { "free" } else { "limited" },
            reached[k],
            100.0 * reached[k] as f32 / cases as f32,
            sweeps[k] as f32 / reached[k].max(1) as f32
        );
    }
    reached
}

#[test]
fn ccd_and_fabrik_reach_targets_of_random_chains_and_keep_every_limit() {
    // 2–6 bones, targets from random poses within the limits, tolerance
    // 0.1% of the chain's length, starting straight; at least 95 % reached
    // within 64 sweeps (the figures are printed).
    let cases = 500;
    let free = reach_rates(true, cases);
    let limited = reach_rates(false, cases);
    let rate = |n: usize| n as f32 / cases as f32;
    assert!(rate(free[0]) >= 0.95, "CCD, free joints");
    assert!(rate(free[1]) >= 0.95, "FABRIK, free joints");
    assert!(rate(limited[0]) >= 0.95, "CCD, limited joints");
    assert!(rate(limited[1]) >= 0.95, "FABRIK, limited joints");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn analytic_reaches_every_reachable_planar_target_with_hinges(
        l1 in 0.5f32..2.0, l2 in 0.5f32..2.0, a1 in -1.2f32..1.2, a2 in 0.1f32..2.4
    ) {
        // Hinges about Z, the knee bending one way; the target comes from a
        // pose within them.
        let skeleton = chain(&[l1, l2], Quat::IDENTITY);
        let limits = vec![
            Some(JointLimit::Hinge { axis: Vec3::Z, min: -1.3, max: 1.3 }),
            Some(JointLimit::Hinge { axis: Vec3::Z, min: 0.0, max: 2.5 }),
        ];
        let target = tip_end(&skeleton, &[turned(Quat::from_rotation_z(a1)), turned(Quat::from_rotation_z(a2))]);
        let mut pose = vec![BoneTransform::IDENTITY; 2];
        let report = solve_chain(&skeleton, &mut pose, &limits, &request(&skeleton, target, IkMethod::Analytic)).unwrap();
        prop_assert!(report.reached, "{:?}", report);
        for (bone, limit) in limits.iter().enumerate() {
            prop_assert!(limit.unwrap().excess(pose[bone].rotation) < 1e-5);
        }
    }
}

#[test]
fn a_limit_outline_runs_through_the_directions_its_angles_point_the_bone() {
    use skinlab::lab::{Lab, LIMIT_OUTLINE_SAMPLES};
    let mut lab = Lab::example("leg").unwrap();
    // The knee (a hinge about Z, 0°–150°) bent by 0.8 rad: its end lies
    // along the outline's direction for 0.8, and dragging a handle to that
    // end reads 0.8 back.
    lab.set_bone_transform(1, BoneTransform::from_rotation(Quat::from_rotation_z(0.8)))
        .unwrap();
    let origin = lab.model_from_bone_posed()[1].transform_point3(Vec3::ZERO);
    let end = lab.model_from_bone_posed()[1].transform_point3(Vec3::new(0.0, 1.0, 0.0));
    let angle = lab.limit_angle_toward(1, end).unwrap().unwrap();
    assert!((angle - 0.8).abs() < 1e-5, "{angle}");
    let outline = lab.limit_outline(1, 1.0).unwrap();
    assert_eq!(outline.len(), LIMIT_OUTLINE_SAMPLES);
    let max = 150_f32.to_radians();
    let expected_at = |a: f32| {
        let mut probe = Lab::example("leg").unwrap();
        probe
            .set_bone_transform(1, BoneTransform::from_rotation(Quat::from_rotation_z(a)))
            .unwrap();
        probe.model_from_bone_posed()[1].transform_point3(Vec3::new(0.0, 1.0, 0.0))
    };
    assert!(outline[0].distance(expected_at(0.0)) < 1e-5);
    assert!(outline[LIMIT_OUTLINE_SAMPLES - 1].distance(expected_at(max)) < 1e-5);
    for point in &outline {
        assert!((point.distance(origin) - 1.0).abs() < 1e-5);
    }
    // The hip's cone (1.7 rad): every rim point is 1.7 rad off the bone's
    // rest direction, and reads back as 1.7.
    let hip_origin = lab.model_from_bone_posed()[0].transform_point3(Vec3::ZERO);
    for point in lab.limit_outline(0, 2.0).unwrap() {
        let read = lab.limit_angle_toward(0, point).unwrap().unwrap();
        assert!((read - 1.7).abs() < 1e-4, "{read}");
        assert!((point.distance(hip_origin) - 2.0).abs() < 1e-5);
    }
    // A free bone has no outline.
    lab.set_limit(1, None).unwrap();
    assert!(lab.limit_outline(1, 1.0).unwrap().is_empty());
    assert_eq!(lab.limit_angle_toward(1, end).unwrap(), None);
}

#[test]
fn the_goose_step_dips_and_drags_where_ik_keeps_the_foot_on_the_ground() {
    use skinlab::lab::Lab;
    use skinlab::rig::gait::Gait;
    let mut lab = Lab::example("leg").unwrap();
    let before = lab.bone_pose(0).unwrap();
    let mut figures = Vec::new();
    for gait in [Gait::GooseStep, Gait::HipAndKnee, Gait::Ik] {
        let trace = lab.gait_trace(gait, 1, 100).unwrap();
        assert_eq!(trace.ankle_model.len(), 100);
        println!(
            "{gait:?}: ankle off the ground in the stance up to {:.3}, lowest in the swing {:+.3}",
            trace.stance_off_ground, trace.swing_clearance
        );
        figures.push((trace.stance_off_ground, trace.swing_clearance));
    }
    assert_eq!(
        lab.bone_pose(0).unwrap(),
        before,
        "the trace leaves the pose"
    );
    // The leg is 2 long, the ground 1.92 down: a stiff leg dips 0.08 below
    // it mid-stance (exactly: 2 − 1.92) and cannot lift in the swing.
    let (goose_stance, goose_swing) = figures[0];
    assert!((goose_stance - 0.08).abs() < 1e-3, "{goose_stance}");
    assert!(
        goose_swing < -0.07,
        "the stiff leg drags through the ground"
    );
    // Bending the knee over time lifts the foot mid-swing (the leg hangs
    // along −Y: up is +Y), but the stance still dips, and early in the
    // swing the foot still scrapes.
    let mid_swing = |lab: &mut Lab, gait| lab.gait_trace(gait, 1, 100).unwrap().ankle_model[80].y;
    let lifted = mid_swing(&mut lab, Gait::HipAndKnee) - mid_swing(&mut lab, Gait::GooseStep);
    assert!(lifted > 0.1, "{lifted}");
    assert!(figures[1].1 > figures[0].1 && (figures[1].0 - 0.08).abs() < 1e-3);
    // IK: on the ground through the stance, clear of it in the swing.
    assert!(figures[2].0 < 1e-4, "{}", figures[2].0);
    assert!(figures[2].1 >= -1e-4);
    // The knee bends the one way its hinge allows at every phase.
    for k in 0..50 {
        lab.pose_gait(Gait::Ik, 1, k as f32 / 50.0).unwrap();
        let knee = skinlab::rig::limits::twist_angle(lab.bone_pose(1).unwrap().rotation, Vec3::Z);
        assert!(
            (-1e-5..=150_f32.to_radians() + 1e-5).contains(&knee),
            "{knee}"
        );
    }
}

#[test]
fn the_arm_reaches_the_rim_of_its_cup_within_its_limits() {
    use skinlab::lab::{IkGoal, Lab};
    let lab = Lab::example("arm").unwrap();
    assert_eq!(lab.bone_count(), 5);
    // The cup's bone stands upright from its base to its rim.
    let frames = lab.model_from_bone_posed().to_vec();
    let base = frames[4].transform_point3(Vec3::ZERO);
    let rim = frames[4].transform_point3(Vec3::new(0.0, 0.4, 0.0));
    assert!(base.distance(Vec3::new(2.0, 1.0, 0.0)) < 1e-5, "{base}");
    assert!(rim.distance(Vec3::new(2.0, 1.4, 0.0)) < 1e-5, "{rim}");
    for method in [IkMethod::Ccd, IkMethod::Fabrik] {
        let mut lab = Lab::example("arm").unwrap();
        let report = lab
            .solve_ik(&IkGoal {
                tip: 3,
                chain: 3,
                target_model: rim,
                method,
                iterations: None,
                tolerance: None,
                fallback_normal: Vec3::Z,
                stretch: None,
            })
            .unwrap();
        assert!(report.reached, "{method:?}: {report:?}");
        let limits: Vec<_> = (0..5).map(|b| lab.limit(b).unwrap()).collect();
        for (bone, limit) in limits.iter().enumerate() {
            if let Some(limit) = limit {
                assert!(limit.excess(lab.bone_pose(bone).unwrap().rotation) < 1e-5);
            }
        }
    }
}
