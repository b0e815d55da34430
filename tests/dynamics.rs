//! Swinging limbs against closed formulas: a bone hanging from a fixed
//! parent swings with a pendulum's period `2π√(L/g)`, loses energy to
//! damping and never gains it, and does the same at 60 and 144 calls a
//! second.
#![allow(clippy::unwrap_used)]

use std::f32::consts::PI;

use glam::{Quat, Vec3};
use skinlab::rig::dynamics::{Dynamics, DynamicsSettings};
use skinlab::rig::limits::JointLimit;
use skinlab::rig::pose::{pose_to_model, BoneTransform};
use skinlab::rig::skeleton::{Bone, Skeleton};

const G: f32 = 9.81;

/// A fixed stand and a bone of `length` hanging from its tip, turned
/// `degrees` about Z from straight down.
fn pendulum(length: f32, degrees: f32) -> (Skeleton, Vec<BoneTransform>) {
    let skeleton = Skeleton::new(vec![
        Bone::new("stand", None, Vec3::ZERO, Quat::IDENTITY, 1.0),
        Bone::new(
            "arm",
            Some(0),
            Vec3::ZERO,
            Quat::from_rotation_z(PI),
            length,
        ),
    ])
    .unwrap();
    let mut pose = vec![BoneTransform::IDENTITY; 2];
    pose[1].rotation = Quat::from_rotation_z(degrees.to_radians());
    (skeleton, pose)
}

fn settings(damping: f32, stiffness: f32) -> DynamicsSettings {
    DynamicsSettings {
        bones: vec![1],
        gravity: Vec3::new(0.0, -G, 0.0),
        damping,
        stiffness,
    }
}

/// The tip, model space.
fn tip(skeleton: &Skeleton, pose: &[BoneTransform]) -> Vec3 {
    let mut frames = vec![glam::Mat4::IDENTITY; skeleton.len()];
    pose_to_model(skeleton, pose, &mut frames);
    frames[1].transform_point3(Vec3::new(0.0, skeleton.bones()[1].length, 0.0))
}

#[test]
fn a_released_bone_swings_with_the_pendulum_s_period() {
    for length in [0.5_f32, 1.0, 2.0] {
        let (skeleton, mut pose) = pendulum(length, 5.0);
        let origin = Vec3::new(0.0, 1.0, 0.0);
        let mut dynamics = Dynamics::new(settings(0.0, 0.0));
        let mut crossings = Vec::new();
        let mut previous = tip(&skeleton, &pose).x - origin.x;
        let dt = 1.0 / 240.0;
        for k in 1..=(240 * 12) {
            dynamics.advance(&skeleton, &[None, None], &mut pose, dt);
            let x = tip(&skeleton, &pose).x - origin.x;
            if previous.signum() != x.signum() && x != 0.0 {
                // Linear interpolation of the crossing time.
                crossings.push((k as f32 - x.abs() / (x - previous).abs()) * dt);
            }
            previous = x;
        }
        let halves: Vec<f32> = crossings.windows(2).map(|w| w[1] - w[0]).collect();
        let period = 2.0 * halves.iter().sum::<f32>() / halves.len() as f32;
        let expected = 2.0 * PI * (length / G).sqrt();
        assert!(
            (period - expected).abs() < 0.01 * expected,
            "L = {length}: period {period} s, 2π√(L/g) = {expected} s"
        );
    }
}

#[test]
fn with_damping_the_energy_never_increases() {
    let (skeleton, mut pose) = pendulum(1.0, 40.0);
    let mut dynamics = Dynamics::new(settings(0.8, 0.0));
    let energy = |pose: &[BoneTransform], dynamics: &Dynamics| {
        let v = dynamics.velocities()[0];
        0.5 * v.length_squared() + G * tip(&skeleton, pose).y
    };
    let mut previous = energy(&pose, &dynamics);
    let start = previous;
    for _ in 0..(60 * 10) {
        dynamics.advance(&skeleton, &[None, None], &mut pose, 1.0 / 60.0);
        let now = energy(&pose, &dynamics);
        assert!(
            now <= previous + 1e-4,
            "energy rose from {previous} to {now}"
        );
        previous = now;
    }
    assert!(
        previous < start - 1.0,
        "it came to rest: {start} → {previous}"
    );
}

#[test]
fn the_pose_does_not_depend_on_the_frame_rate() {
    let run = |calls_per_second: usize| {
        let (skeleton, mut pose) = pendulum(1.0, 30.0);
        let mut dynamics = Dynamics::new(settings(0.3, 4.0));
        for _ in 0..(2 * calls_per_second) {
            dynamics.advance(
                &skeleton,
                &[None, None],
                &mut pose,
                1.0 / calls_per_second as f32,
            );
        }
        tip(&skeleton, &pose)
    };
    let (slow, fast) = (run(60), run(144));
    assert!(slow.distance(fast) < 1e-3, "{slow} vs {fast}");
}

#[test]
fn a_limit_holds_while_swinging() {
    let (skeleton, mut pose) = pendulum(1.0, 60.0);
    let limit = JointLimit::Hinge {
        axis: Vec3::Z,
        min: -0.3,
        max: 0.3,
    };
    pose[1].rotation = limit.clamp(pose[1].rotation);
    let limits = [None, Some(limit)];
    let mut dynamics = Dynamics::new(settings(0.1, 0.0));
    for _ in 0..600 {
        dynamics.advance(&skeleton, &limits, &mut pose, 1.0 / 60.0);
        let angle = 2.0 * pose[1].rotation.z.atan2(pose[1].rotation.w);
        assert!(angle.abs() <= 0.3 + 1e-4, "{angle}");
    }
}

#[test]
fn the_stiffness_pulls_back_toward_the_animated_pose() {
    let (skeleton, mut pose) = pendulum(1.0, 0.0);
    let mut dynamics = Dynamics::new(DynamicsSettings {
        gravity: Vec3::ZERO,
        ..settings(2.0, 30.0)
    });
    dynamics.advance(&skeleton, &[None, None], &mut pose, 0.0);
    // A clip turns the bone by 50°; the bone follows it, late, and settles.
    pose[1].rotation = Quat::from_rotation_z(50f32.to_radians());
    dynamics.advance(&skeleton, &[None, None], &mut pose, 1.0 / 60.0);
    let early = 2.0 * pose[1].rotation.z.atan2(pose[1].rotation.w);
    assert!(early < 20f32.to_radians(), "it lags: {early}");
    for _ in 0..600 {
        dynamics.advance(&skeleton, &[None, None], &mut pose, 1.0 / 60.0);
    }
    let settled = 2.0 * pose[1].rotation.z.atan2(pose[1].rotation.w);
    assert!((settled - 50f32.to_radians()).abs() < 1e-2, "{settled}");
}
