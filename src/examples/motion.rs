//! The keyframe and path examples (the animation talk): `walk`, two legs with a keyed
//! walk cycle, and `path`, a small fish riding a curvy Bézier path while
//! its tail beats. Both are seen from the side, moving in the view plane.

use std::f32::consts::{FRAC_PI_2, PI};

use glam::{Quat, Vec3};

use super::builder::{bone, MeshBuilder};
use super::limbs::strip_into;
use crate::rig::animation::{Animation, Clip, Interpolation};
use crate::rig::pose::BoneTransform;
use crate::scene::clip_doc::{clip_docs, PathDoc, SpeedDoc};
use crate::scene::doc::{BoneDoc, SceneDoc};

/// A clip of rotations about Z (degrees) and translations, keyed smooth.
struct ClipBuilder {
    clip: Clip,
}

impl ClipBuilder {
    fn new(name: &str) -> Self {
        Self {
            clip: Clip::new(name),
        }
    }

    /// Keys `bone` at each `(time, degrees about Z)`.
    fn turns(mut self, bone: usize, keys: &[(f32, f32)]) -> Self {
        for &(time, degrees) in keys {
            let local = BoneTransform {
                rotation: Quat::from_rotation_z(degrees.to_radians()),
                ..BoneTransform::IDENTITY
            };
            self.clip
                .set_key(bone, time, &local, Interpolation::CubicSpline);
        }
        self
    }

    /// Keys `bone` at each `(time, translation)` in its rest frame.
    fn moves(mut self, bone: usize, keys: &[(f32, Vec3)]) -> Self {
        for &(time, translation) in keys {
            let local = BoneTransform {
                translation,
                ..BoneTransform::IDENTITY
            };
            self.clip
                .set_key(bone, time, &local, Interpolation::CubicSpline);
        }
        self
    }

    fn into_docs(self) -> Vec<crate::scene::clip_doc::ClipDoc> {
        clip_docs(&Animation {
            clips: vec![self.clip],
        })
    }
}

/// Two legs under a short torso, walking on the spot: a one-second cycle
/// keyed at quarter beats, the right leg half a cycle behind the left, the
/// hips bobbing on each step. Forward is −X, as for the `leg` example.
///
/// Longer than a screen: the example's data, the legs, the torso and the
/// cycle's keys, written out as they are built.
pub(super) fn walk() -> SceneDoc {
    let mut mesh = MeshBuilder::default();
    strip_into(
        &mut mesh,
        &[Vec3::ZERO, Vec3::new(0.0, 0.6, 0.0)],
        0,
        0.22,
        3,
        0.0,
    );
    let mut bones = vec![bone("hips", None, Quat::IDENTITY, 0.6)];
    for (side, z) in [("left", 0.12_f32), ("right", -0.12)] {
        let first = bones.len() as u32;
        let joints = [
            Vec3::new(0.0, 0.0, z),
            Vec3::new(0.0, -0.9, z),
            Vec3::new(0.0, -1.8, z),
            Vec3::new(-0.4, -1.8, z),
        ];
        strip_into(&mut mesh, &joints, first, 0.12, 5, 0.3);
        let mut thigh = bone(
            &format!("{side} thigh"),
            Some(0),
            Quat::from_rotation_z(PI),
            0.9,
        );
        thigh.origin = [0.0, -0.6, z];
        bones.push(thigh);
        bones.push(bone(
            &format!("{side} shin"),
            Some(first),
            Quat::IDENTITY,
            0.9,
        ));
        bones.push(bone(
            &format!("{side} foot"),
            Some(first + 1),
            Quat::from_rotation_z(-FRAC_PI_2),
            0.4,
        ));
    }
    // Thigh: forward (negative about Z) at heel strike, back at toe-off.
    // Knee: nearly straight on the ground, folded most in mid-swing.
    let thigh = [
        (0.0, -25.0),
        (0.25, 0.0),
        (0.5, 20.0),
        (0.75, 0.0),
        (1.0, -25.0),
    ];
    let knee = [
        (0.0, 4.0),
        (0.25, 8.0),
        (0.5, 15.0),
        (0.75, 60.0),
        (1.0, 4.0),
    ];
    let foot = [
        (0.0, -10.0),
        (0.25, 0.0),
        (0.5, 20.0),
        (0.75, -5.0),
        (1.0, -10.0),
    ];
    let shifted = |keys: &[(f32, f32)]| -> Vec<(f32, f32)> {
        // Half a cycle later: the value at t is the left leg's at t + ½.
        (0..5)
            .map(|k| {
                let time = k as f32 * 0.25;
                (time, keys[(k + 2) % 4].1)
            })
            .collect()
    };
    let bob = [
        (0.0, Vec3::ZERO),
        (0.25, Vec3::new(0.0, 0.06, 0.0)),
        (0.5, Vec3::ZERO),
        (0.75, Vec3::new(0.0, 0.06, 0.0)),
        (1.0, Vec3::ZERO),
    ];
    let clip = ClipBuilder::new("walk")
        .moves(0, &bob)
        .turns(1, &thigh)
        .turns(2, &knee)
        .turns(3, &foot)
        .turns(4, &shifted(&thigh))
        .turns(5, &shifted(&knee))
        .turns(6, &shifted(&foot));
    let mut doc = mesh.into_doc(bones);
    doc.animations = clip.into_docs();
    doc
}

/// A two-bone fish (body and tail, along +X) whose body rides an S-shaped
/// path of two Bézier segments in four seconds, its tail beating in a
/// keyed clip. The control points crowd near the ends, so `naive` timing
/// visibly dawdles there and rushes through the middle.
pub(super) fn path() -> SceneDoc {
    let mut mesh = MeshBuilder::default();
    let joints = [
        Vec3::ZERO,
        Vec3::new(1.5, 0.0, 0.0),
        Vec3::new(2.5, 0.0, 0.0),
    ];
    strip_into(&mut mesh, &joints, 0, 0.42, 6, 0.35);
    let bones: Vec<BoneDoc> = vec![
        bone("body", None, Quat::from_rotation_z(-FRAC_PI_2), 1.5),
        bone("tail", Some(0), Quat::IDENTITY, 1.0),
    ];
    let clip = ClipBuilder::new("tail beat").turns(
        1,
        &[
            (0.0, -25.0),
            (0.25, 0.0),
            (0.5, 25.0),
            (0.75, 0.0),
            (1.0, -25.0),
        ],
    );
    let mut doc = mesh.into_doc(bones);
    doc.animations = clip.into_docs();
    doc.paths = vec![PathDoc {
        name: "S".to_owned(),
        points: [
            [-3.0, 0.0, 0.0],
            [-2.9, 0.1, 0.0],
            [-1.0, 3.0, 0.0],
            [0.0, 0.0, 0.0],
            [1.0, -3.0, 0.0],
            [2.9, -0.1, 0.0],
            [3.0, 0.0, 0.0],
        ]
        .concat(),
        bone: Some(0),
        duration: 4.0,
        timing: "uniform".to_owned(),
        // The characteristic curve the "curve" timing follows: a slow
        // start, a dash, a rest at the middle, a steady finish.
        speed: Some(SpeedDoc {
            times: vec![0.0, 1.0, 1.6, 2.6, 4.0],
            distances: vec![0.0, 0.08, 0.5, 0.52, 1.0],
        }),
    }];
    doc
}
