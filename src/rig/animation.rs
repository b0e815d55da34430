//! Keyframe animation of the skeleton (seed 004): clips of per-joint
//! translation, rotation and scale keys, sampled at a time and turned into a
//! pose.
//!
//! A clip moves joints the way a scene graph does: each joint's global
//! transform is `G_j(t) = G_parent(t) · B_j · L_j(t)`, with `L_j(t)` its
//! animated local transform and `B_j` the constant transforms between it and
//! its parent joint. Skinlab's bones point along +Y, so bone `j`'s posed
//! frame is `R'_j(t) = G_j(t) · U_j` with `U_j` the constant turn that made
//! it point there. [`pose_from_frames`] then finds the animations `A_j` that
//! reproduce those frames.

use glam::{Mat4, Quat, Vec3};

use crate::rig::pose::BoneTransform;
use crate::rig::skeleton::{own_from_child_frame, parent_tip_from_bone, Skeleton};

/// Which part of a joint's local transform a channel drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The translation.
    Translation,
    /// The rotation (a quaternion).
    Rotation,
    /// The scale.
    Scale,
}

/// How values between two keys are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolation {
    /// Linear for vectors, spherical (slerp, shortest arc) for rotations.
    Linear,
    /// The earlier key's value until the next key.
    Step,
    /// glTF's cubic Hermite spline: each key has an in-tangent and an
    /// out-tangent, scaled by the key interval; rotations are normalised.
    CubicSpline,
}

/// One joint's keys for one target.
#[derive(Clone, Debug, PartialEq)]
pub struct Channel {
    /// The bone it moves.
    pub bone: usize,
    /// What it drives.
    pub target: Target,
    /// Key times in seconds, increasing.
    pub times: Vec<f32>,
    /// One value per key: `xyz` (w unused) or a quaternion `xyzw`.
    pub values: Vec<[f32; 4]>,
    /// For [`Interpolation::CubicSpline`]: each key's in-tangent and
    /// out-tangent (empty otherwise).
    pub tangents: Vec<[[f32; 4]; 2]>,
    /// How to interpolate.
    pub interpolation: Interpolation,
}

impl Channel {
    /// The channel's value at `time`, clamped to its first and last key.
    pub fn sample(&self, time: f32) -> [f32; 4] {
        let (Some(&first), Some(&last)) = (self.times.first(), self.times.last()) else {
            return [0.0, 0.0, 0.0, 1.0];
        };
        if time <= first || self.times.len() == 1 {
            return self.values[0];
        }
        if time >= last {
            return self.values[self.values.len() - 1];
        }
        let next = self
            .times
            .partition_point(|&t| t <= time)
            .min(self.times.len() - 1);
        let previous = next - 1;
        let (a, b) = (self.values[previous], self.values[next]);
        if self.interpolation == Interpolation::Step {
            return a;
        }
        let span = self.times[next] - self.times[previous];
        let f = if span > 0.0 {
            (time - self.times[previous]) / span
        } else {
            0.0
        };
        if self.interpolation == Interpolation::CubicSpline
            && self.tangents.len() == self.values.len()
        {
            let out_k = self.tangents[previous][1];
            let in_next = self.tangents[next][0];
            let value: [f32; 4] =
                std::array::from_fn(|k| hermite(f, span, a[k], out_k[k], b[k], in_next[k]));
            return match self.target {
                Target::Rotation => Quat::from_array(value).normalize().to_array(),
                _ => value,
            };
        }
        match self.target {
            Target::Rotation => Quat::from_array(a)
                .normalize()
                .slerp(Quat::from_array(b).normalize(), f)
                .to_array(),
            _ => std::array::from_fn(|k| a[k] + (b[k] - a[k]) * f),
        }
    }
}

/// The keys of the morph target weights: glTF's `weights` channel, every
/// target keyed together.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightsChannel {
    /// Key times in seconds, increasing.
    pub times: Vec<f32>,
    /// `targets` weights per key, key after key.
    pub values: Vec<f32>,
    /// For [`Interpolation::CubicSpline`]: per key, `targets` in-tangents
    /// then `targets` out-tangents (empty otherwise).
    pub tangents: Vec<f32>,
    /// How to interpolate.
    pub interpolation: Interpolation,
}

impl WeightsChannel {
    /// Weights per key.
    pub fn targets(&self) -> usize {
        self.values.len().checked_div(self.times.len()).unwrap_or(0)
    }

    /// The weights at `time` into `out` (one per target; extra entries are
    /// left alone), held at the first and last keys. Linear is a lerp, the
    /// cubic spline is glTF's Hermite form as for [`Channel::sample`].
    pub fn sample(&self, time: f32, out: &mut [f32]) {
        let n = self.targets();
        if n == 0 {
            return;
        }
        let count = n.min(out.len());
        let key = |k: usize| &self.values[k * n..k * n + count];
        let last = self.times.len() - 1;
        if time <= self.times[0] || last == 0 {
            out[..count].copy_from_slice(key(0));
            return;
        }
        if time >= self.times[last] {
            out[..count].copy_from_slice(key(last));
            return;
        }
        let next = self.times.partition_point(|&t| t <= time).min(last);
        let previous = next - 1;
        if self.interpolation == Interpolation::Step {
            out[..count].copy_from_slice(key(previous));
            return;
        }
        let span = self.times[next] - self.times[previous];
        let f = if span > 0.0 {
            (time - self.times[previous]) / span
        } else {
            0.0
        };
        let cubic = self.interpolation == Interpolation::CubicSpline
            && self.tangents.len() == 2 * self.values.len();
        for (target, slot) in out[..count].iter_mut().enumerate() {
            let (a, b) = (key(previous)[target], key(next)[target]);
            *slot = if cubic {
                let out_a = self.tangents[previous * 2 * n + n + target];
                let in_b = self.tangents[next * 2 * n + target];
                hermite(f, span, a, out_a, b, in_b)
            } else {
                a + (b - a) * f
            };
        }
    }
}

/// glTF's cubic Hermite form at `s ∈ [0, 1]` of an interval `span` seconds
/// long: `(2s³ − 3s² + 1) a + (s³ − 2s² + s) Δ b_a + (−2s³ + 3s²) b +
/// (s³ − s²) Δ a_b`, tangents in units per second.
pub fn hermite(s: f32, span: f32, a: f32, out_a: f32, b: f32, in_b: f32) -> f32 {
    let (s2, s3) = (s * s, s * s * s);
    (2.0 * s3 - 3.0 * s2 + 1.0) * a
        + (s3 - 2.0 * s2 + s) * span * out_a
        + (-2.0 * s3 + 3.0 * s2) * b
        + (s3 - s2) * span * in_b
}

/// A named animation.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    /// Its name, for the page.
    pub name: String,
    /// The time of its last key, seconds.
    pub duration: f32,
    /// Its channels.
    pub channels: Vec<Channel>,
    /// The morph target weights' keys, if it drives them.
    pub weights: Option<WeightsChannel>,
}

/// A joint's local transform, `T · R · S`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalTransform {
    /// Translation.
    pub translation: Vec3,
    /// Rotation.
    pub rotation: Quat,
    /// Scale.
    pub scale: Vec3,
}

impl LocalTransform {
    /// No translation, rotation or scale.
    pub const IDENTITY: Self = Self {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };

    /// Whether each part is within `tolerance` of `other`'s (`q` and `−q`
    /// being the same turn).
    pub fn abs_diff_eq(&self, other: &Self, tolerance: f32) -> bool {
        self.translation.abs_diff_eq(other.translation, tolerance)
            && (self.rotation.abs_diff_eq(other.rotation, tolerance)
                || self.rotation.abs_diff_eq(-other.rotation, tolerance))
            && self.scale.abs_diff_eq(other.scale, tolerance)
    }

    /// `T · R · S`.
    pub fn to_mat4(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }
}

/// What it takes to pose a skeleton from clips: per bone, parent before
/// child as the skeleton orders them.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Rig {
    /// The parent bone that moves this one, `None` for a root.
    pub parents: Vec<Option<usize>>,
    /// `B_j`: the constant transform between the parent joint (or the model
    /// origin) and this joint.
    pub between: Vec<Mat4>,
    /// The joint's local transform where no channel drives it.
    pub rest: Vec<LocalTransform>,
    /// `U_j`: the constant turn from the joint's frame to the bone's.
    pub turns: Vec<Quat>,
    /// Bones with no joint behind them (an added common root): fixed at
    /// the identity.
    pub fixed: Vec<bool>,
}

/// A rig and its clips.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Animation {
    /// How joints map onto bones.
    pub rig: Rig,
    /// The clips.
    pub clips: Vec<Clip>,
}

impl Animation {
    /// A rig over the skeleton's own bones, with no clips yet.
    pub fn of_skeleton(skeleton: &Skeleton) -> Self {
        Self {
            rig: Rig::of_skeleton(skeleton),
            clips: Vec::new(),
        }
    }

    /// `R'_j(t) = G_j(t) · U_j` for every bone, for `clip` at `time`.
    ///
    /// # Panics
    ///
    /// If `clip` is out of range or `out` does not have one entry per bone.
    pub fn frames_at(&self, clip: usize, time: f32, out: &mut [Mat4]) {
        let rig = &self.rig;
        assert_eq!(out.len(), rig.parents.len(), "one frame per bone");
        let mut locals = rig.rest.clone();
        for channel in &self.clips[clip].channels {
            let value = channel.sample(time);
            let local = &mut locals[channel.bone];
            match channel.target {
                Target::Translation => local.translation = Vec3::new(value[0], value[1], value[2]),
                Target::Rotation => local.rotation = Quat::from_array(value).normalize(),
                Target::Scale => local.scale = Vec3::new(value[0], value[1], value[2]),
            }
        }
        rig.frames(&locals, out);
    }
}

impl Rig {
    /// The rig whose joints are the bones themselves: `B_j = E_p · K_j`
    /// (the parent's tip, then the bone's origin and orientation), `U_j = I`
    /// and rest `L_j = I`, so that `G_j = G_p · B_j · A_j = R'_j` and a
    /// channel's value is the bone's own animation `A_j`.
    pub fn of_skeleton(skeleton: &Skeleton) -> Self {
        let bones = skeleton.bones();
        let between = bones
            .iter()
            .map(|bone| {
                let parent_tip = bone.parent.map_or(Mat4::IDENTITY, |parent| {
                    own_from_child_frame(bones[usize::from(parent)].length)
                });
                parent_tip * parent_tip_from_bone(bone)
            })
            .collect();
        Self {
            parents: bones.iter().map(|b| b.parent.map(usize::from)).collect(),
            between,
            rest: vec![LocalTransform::IDENTITY; bones.len()],
            turns: vec![Quat::IDENTITY; bones.len()],
            fixed: vec![false; bones.len()],
        }
    }

    /// Whether this rig is [`Rig::of_skeleton`]'s for `skeleton` (within
    /// `1e-6`), so that a scene file need not spell it out.
    pub fn is_of_skeleton(&self, skeleton: &Skeleton) -> bool {
        let own = Self::of_skeleton(skeleton);
        self.parents == own.parents
            && self.fixed == own.fixed
            && self
                .between
                .iter()
                .zip(&own.between)
                .all(|(a, b)| a.abs_diff_eq(*b, 1e-6))
            && self
                .turns
                .iter()
                .all(|q| q.abs_diff_eq(Quat::IDENTITY, 1e-6))
            && self
                .rest
                .iter()
                .all(|l| l.abs_diff_eq(&LocalTransform::IDENTITY, 1e-6))
    }

    /// Joint `bone`'s local transform that puts the bones at
    /// `model_from_bone_posed`: from `R'_j = G_p · B_j · L_j · U_j` with
    /// `G_p = R'_p · U_p⁻¹` (the identity for a root),
    /// `L_j = B_j⁻¹ · U_p · R'_p⁻¹ · R'_j · U_j⁻¹`. `None` for a fixed bone,
    /// which has no joint, or a frame that does not decompose.
    pub fn local_from_frames(
        &self,
        bone: usize,
        model_from_bone_posed: &[Mat4],
    ) -> Option<LocalTransform> {
        if self.fixed[bone] {
            return None;
        }
        let model_from_parent_joint = match self.parents[bone] {
            Some(parent) => {
                model_from_bone_posed[parent] * Mat4::from_quat(self.turns[parent].inverse())
            }
            None => Mat4::IDENTITY,
        };
        let local = (model_from_parent_joint * self.between[bone]).inverse()
            * model_from_bone_posed[bone]
            * Mat4::from_quat(self.turns[bone].inverse());
        let (scale, rotation, translation) = local.to_scale_rotation_translation();
        (scale.is_finite() && rotation.is_finite() && translation.is_finite()).then(|| {
            LocalTransform {
                translation,
                rotation: rotation.normalize(),
                scale,
            }
        })
    }

    /// `R'_j = G_j · U_j` for every bone, given each joint's local
    /// transform: `G_j = G_parent · B_j · L_j`.
    ///
    /// # Panics
    ///
    /// If `locals` or `out` do not have one entry per bone.
    pub fn frames(&self, locals: &[LocalTransform], out: &mut [Mat4]) {
        assert_eq!(out.len(), self.parents.len(), "one frame per bone");
        assert_eq!(locals.len(), self.parents.len(), "one local per bone");
        // Global joint transforms first, then each bone's turn.
        let mut globals = vec![Mat4::IDENTITY; out.len()];
        for bone in 0..out.len() {
            if self.fixed[bone] {
                continue;
            }
            let parent = self.parents[bone].map_or(Mat4::IDENTITY, |p| globals[p]);
            globals[bone] = parent * self.between[bone] * locals[bone].to_mat4();
        }
        for (bone, frame) in out.iter_mut().enumerate() {
            *frame = globals[bone] * Mat4::from_quat(self.turns[bone]);
        }
    }

    /// The frames of the joints' own node transforms: a glTF file's default
    /// pose.
    pub fn rest_frames(&self, out: &mut [Mat4]) {
        self.frames(&self.rest, out);
    }
}

/// The pose that puts every bone's own frame at `model_from_bone_posed`:
/// `A_i = F_i⁻¹ · R'_i` with `F_i = C'_p(i) · T(origin_i) · O_i` built on the
/// parent's target frame. Exact for frames reachable by a pose; scale that
/// is not along the bone's own axes is approximated by the nearest
/// axis-aligned scale.
///
/// # Panics
///
/// If the slices do not have one entry per bone.
pub fn pose_from_frames(
    skeleton: &Skeleton,
    model_from_bone_posed: &[Mat4],
    pose: &mut [BoneTransform],
) {
    assert_eq!(
        model_from_bone_posed.len(),
        skeleton.len(),
        "one frame per bone"
    );
    assert_eq!(pose.len(), skeleton.len(), "one transform per bone");
    for (index, bone) in skeleton.bones().iter().enumerate() {
        let model_from_parent_tip = match bone.parent {
            Some(parent) => {
                let parent = usize::from(parent);
                model_from_bone_posed[parent]
                    * own_from_child_frame(skeleton.bones()[parent].length)
            }
            None => Mat4::IDENTITY,
        };
        let unanimated = model_from_parent_tip * parent_tip_from_bone(bone);
        let animation = unanimated.inverse() * model_from_bone_posed[index];
        let (scale, rotation, translation) = animation.to_scale_rotation_translation();
        let finite = scale.is_finite() && rotation.is_finite() && translation.is_finite();
        pose[index] = if finite {
            BoneTransform {
                translation,
                rotation: rotation.normalize(),
                scale,
            }
        } else {
            BoneTransform::IDENTITY
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_interpolate_and_clamp() {
        let channel = Channel {
            bone: 0,
            target: Target::Translation,
            times: vec![1.0, 3.0],
            values: vec![[0.0, 0.0, 0.0, 0.0], [2.0, 4.0, 0.0, 0.0]],
            tangents: Vec::new(),
            interpolation: Interpolation::Linear,
        };
        assert_eq!(channel.sample(0.0), [0.0; 4]);
        assert_eq!(channel.sample(2.0), [1.0, 2.0, 0.0, 0.0]);
        assert_eq!(channel.sample(9.0), [2.0, 4.0, 0.0, 0.0]);
        let step = Channel {
            interpolation: Interpolation::Step,
            ..channel
        };
        assert_eq!(step.sample(2.9), [0.0; 4]);
    }

    #[test]
    fn rotations_slerp_halfway() {
        let channel = Channel {
            bone: 0,
            target: Target::Rotation,
            times: vec![0.0, 1.0],
            values: vec![
                Quat::IDENTITY.to_array(),
                Quat::from_rotation_z(1.0).to_array(),
            ],
            tangents: Vec::new(),
            interpolation: Interpolation::Linear,
        };
        let half = Quat::from_array(channel.sample(0.5));
        assert!(half.abs_diff_eq(Quat::from_rotation_z(0.5), 1e-6));
    }

    #[test]
    fn cubic_splines_follow_gltf_hermite_form() {
        // Two keys 2 s apart, value 0 → 1, out-tangent 1 at the first key and
        // in-tangent 0 at the second: p(s) = (s³ − 2s² + s)·2·1 + (−2s³ + 3s²)·1.
        let channel = Channel {
            bone: 0,
            target: Target::Translation,
            times: vec![1.0, 3.0],
            values: vec![[0.0; 4], [1.0, 0.0, 0.0, 0.0]],
            tangents: vec![[[0.0; 4], [1.0, 0.0, 0.0, 0.0]], [[0.0; 4], [0.0; 4]]],
            interpolation: Interpolation::CubicSpline,
        };
        for s in [0.25_f32, 0.5, 0.75] {
            let expected = (s.powi(3) - 2.0 * s * s + s) * 2.0 + (-2.0 * s.powi(3) + 3.0 * s * s);
            let found = channel.sample(1.0 + 2.0 * s)[0];
            assert!(
                (found - expected).abs() < 1e-6,
                "s = {s}: {found} vs {expected}"
            );
        }
        assert_eq!(channel.sample(0.0)[0], 0.0, "before the first key");
        assert_eq!(channel.sample(9.0)[0], 1.0, "after the last key");
        // A rotation comes out normalised.
        let turn = Channel {
            target: Target::Rotation,
            values: vec![[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0]],
            tangents: vec![[[0.0; 4]; 2]; 2],
            ..channel
        };
        let q = turn.sample(2.0);
        let length = q.iter().map(|v| v * v).sum::<f32>().sqrt();
        assert!((length - 1.0).abs() < 1e-6);
    }
}
