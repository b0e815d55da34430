//! Swinging limbs (the bones note's "physikalische Simulation (pendelnder
//! Arm usw.)"): secondary motion on chosen bones. Each dynamic bone is a
//! pendulum with its mass at its tip, hung from its origin wherever its
//! parent puts it, under gravity, damping and a stiffness that pulls it
//! back toward the pose the animation (or the hand) gives it.
//!
//! Stepped at a fixed step [`DYNAMICS_STEP`] whatever the frame rate (the
//! remainder carried to the next call), each step, parents first:
//!
//! ```text
//! v ← (v + h·(g + k·(a − x))) / (1 + h·c)     semi-implicit, damping implicit
//! x ← o + L · (x + h·v − o) / |x + h·v − o|    back onto the bone's sphere
//! v ← (x_new − x_old) / h                        the velocity the move implies
//! ```
//!
//! with `x` the tip, `o` the bone's origin, `a` where the animated pose puts
//! the tip, `L` the bone's length, `g` gravity, `c` the damping and `k` the
//! stiffness (both per second). The bone is then turned so its tip points at
//! `x`, within its joint limit.

use glam::{Mat4, Quat, Vec3};

use super::chain::shortest_arc;
use super::limits::JointLimit;
use super::pose::{pose_to_model, BoneTransform};
use super::skeleton::{own_from_child_frame, parent_tip_from_bone, Skeleton};

/// Seconds per step: short enough that a frame rate's remainder (a step at
/// most) moves a swinging tip by well under a thousandth of its length.
pub const DYNAMICS_STEP: f32 = 1.0 / 480.0;

/// The most steps one call takes (a long pause is not caught up).
pub const MAX_STEPS_PER_CALL: usize = 480;

/// What swings and how.
#[derive(Clone, Debug, PartialEq)]
pub struct DynamicsSettings {
    /// The dynamic bones (any order; stepped parents first).
    pub bones: Vec<usize>,
    /// Gravity, model units per second², model space.
    pub gravity: Vec3,
    /// Damping `c`, per second (0: none).
    pub damping: f32,
    /// Stiffness `k` toward the animated pose, per second² (0: none).
    pub stiffness: f32,
}

/// One swinging bone between calls.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Swing {
    /// The tip, model space.
    tip: Vec3,
    /// Its velocity, model units per second.
    velocity: Vec3,
    /// The rotation the animation (or the hand) gives the bone.
    animated: Quat,
    /// The rotation the last step left it at.
    swung: Quat,
}

/// The state of the swinging bones between calls.
#[derive(Clone, Debug, PartialEq)]
pub struct Dynamics {
    settings: DynamicsSettings,
    /// Per dynamic bone, once the first call has started from the pose.
    swings: Option<Vec<Swing>>,
    /// Seconds not yet stepped.
    carried: f32,
    /// The pose the last call ended at: the bones that do not swing move
    /// from it to the pose given, across the steps of a call, as the hand
    /// or the clip moved them over that frame (not all in the first step).
    previous: Option<Vec<BoneTransform>>,
}

impl Dynamics {
    /// Bones `settings.bones` swing (sorted, duplicates dropped).
    pub fn new(mut settings: DynamicsSettings) -> Self {
        crate::rig::sorting::sort_stable_by_key(&mut settings.bones, |&bone| bone);
        settings.bones.dedup();
        Self {
            settings,
            swings: None,
            carried: 0.0,
            previous: None,
        }
    }

    /// The settings.
    pub fn settings(&self) -> &DynamicsSettings {
        &self.settings
    }

    /// Each dynamic bone's tip velocity, model space (zero before the first
    /// call).
    pub fn velocities(&self) -> Vec<Vec3> {
        match &self.swings {
            Some(swings) => swings.iter().map(|s| s.velocity).collect(),
            None => vec![Vec3::ZERO; self.settings.bones.len()],
        }
    }

    /// Advances `dt` seconds on `pose` (one transform per bone). A dynamic
    /// bone's rotation in `pose` that differs from what the last call left
    /// there is a new animated rotation (a clip played, a hand turned it);
    /// `pose` receives the swung rotations. Returns the steps taken.
    ///
    /// Longer than a screen: one fixed-step integration loop whose steps share
    /// the bones' frames, their swings and the pose given last; it reads top to
    /// bottom as the integration runs.
    pub fn advance(
        &mut self,
        skeleton: &Skeleton,
        limits: &[Option<JointLimit>],
        pose: &mut [BoneTransform],
        dt: f32,
    ) -> usize {
        let bones = skeleton.bones();
        let mut slot = vec![None; bones.len()];
        for (k, &bone) in self.settings.bones.iter().enumerate() {
            if let Some(entry) = slot.get_mut(bone) {
                *entry = Some(k);
            }
        }
        let mut frames = vec![Mat4::IDENTITY; bones.len()];
        let swings = self.swings.get_or_insert_with(|| {
            pose_to_model(skeleton, pose, &mut frames);
            self.settings
                .bones
                .iter()
                .map(|&b| {
                    let rotation = pose.get(b).map_or(Quat::IDENTITY, |t| t.rotation);
                    Swing {
                        tip: frames
                            .get(b)
                            .map_or(Vec3::ZERO, |f| f.transform_point3(tip_local(skeleton, b))),
                        velocity: Vec3::ZERO,
                        animated: rotation,
                        swung: rotation,
                    }
                })
                .collect()
        });
        for (k, &bone) in self.settings.bones.iter().enumerate() {
            let Some(transform) = pose.get_mut(bone) else {
                continue;
            };
            if transform.rotation != swings[k].swung {
                swings[k].animated = transform.rotation;
            }
            transform.rotation = swings[k].swung;
        }
        let time = self.carried + if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        // A hair of slack: 1/60 s is four steps, not 3.9999.
        let steps = ((time / DYNAMICS_STEP + 1e-3).floor() as usize).min(MAX_STEPS_PER_CALL);
        self.carried = if steps == MAX_STEPS_PER_CALL {
            0.0
        } else {
            (time - steps as f32 * DYNAMICS_STEP).max(0.0)
        };
        let settings = &self.settings;
        let h = DYNAMICS_STEP;
        let given: Vec<BoneTransform> = pose.to_vec();
        let previous = self.previous.get_or_insert_with(|| given.clone());
        for step in 1..=steps {
            let f = step as f32 / steps as f32;
            for (index, (now, before)) in pose.iter_mut().zip(previous.iter()).enumerate() {
                if slot[index].is_none() {
                    let after = given[index];
                    *now = BoneTransform {
                        translation: before.translation.lerp(after.translation, f),
                        rotation: before.rotation.slerp(after.rotation, f),
                        scale: before.scale.lerp(after.scale, f),
                    };
                }
            }
            // Parents first, each frame composed once a step.
            for (index, bone) in bones.iter().enumerate() {
                let above = match bone.parent {
                    Some(parent) => {
                        let parent = usize::from(parent);
                        frames[parent] * own_from_child_frame(bones[parent].length)
                    }
                    None => Mat4::IDENTITY,
                };
                let placed = above * parent_tip_from_bone(bone);
                frames[index] = placed * bone.animated(&pose[index]);
                let Some(k) = slot[index] else { continue };
                // The frame the rotation turns in, and the tip before it.
                let pivot = placed * Mat4::from_translation(pose[index].translation);
                let arm = rotated_tip(skeleton, index, &pose[index]);
                let length = arm.length();
                if length <= f32::EPSILON {
                    continue;
                }
                let origin = pivot.transform_point3(Vec3::ZERO);
                let swing = swings[k];
                let target = pivot.transform_point3(swing.animated * arm);
                let force = settings.gravity + settings.stiffness * (target - swing.tip);
                let velocity = (swing.velocity + h * force) / (1.0 + h * settings.damping.max(0.0));
                let moved = swing.tip + h * velocity;
                let wanted = pivot
                    .inverse()
                    .transform_vector3((moved - origin).normalize_or(Vec3::NEG_Y));
                let current = pose[index].rotation * arm;
                let turn =
                    shortest_arc(current.normalize_or(Vec3::Y), wanted.normalize_or(Vec3::Y));
                let mut rotation = (turn * pose[index].rotation).normalize();
                if let Some(limit) = limits.get(index).copied().flatten() {
                    rotation = limit.clamp(rotation);
                }
                pose[index].rotation = rotation;
                frames[index] = placed * bone.animated(&pose[index]);
                let tip = frames[index].transform_point3(tip_local(skeleton, index));
                swings[k] = Swing {
                    tip,
                    velocity: (tip - swing.tip) / h,
                    animated: swing.animated,
                    swung: rotation,
                };
            }
        }
        if steps > 0 {
            // The bones that do not swing end where they were given.
            for (index, transform) in pose.iter_mut().enumerate() {
                if slot[index].is_none() {
                    *transform = given[index];
                }
            }
            *previous = pose.to_vec();
        }
        steps
    }
}

/// The bone's tip in its own frame: `(0, length, 0)`.
fn tip_local(skeleton: &Skeleton, bone: usize) -> Vec3 {
    Vec3::new(0.0, skeleton.bones()[bone].length, 0.0)
}

/// The tip relative to the pivot before the rotation: what `R(q)` turns,
/// `U⁻¹ · S · U · (0, L, 0)` for a joint with a turn and rest scale.
fn rotated_tip(skeleton: &Skeleton, bone: usize, pose: &BoneTransform) -> Vec3 {
    let this = &skeleton.bones()[bone];
    let unrotated = BoneTransform {
        rotation: Quat::IDENTITY,
        translation: Vec3::ZERO,
        scale: pose.scale,
    };
    this.animated(&unrotated)
        .transform_point3(tip_local(skeleton, bone))
}
