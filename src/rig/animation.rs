//! Keyframe animation of the skeleton (the animation talk): clips of per-joint
//! translation, rotation and scale keys, sampled at a time and turned into a
//! pose.
//!
//! A channel drives part of a bone's animation `A_i` directly; a glTF clip,
//! which drives a joint's local transform, is converted key by key when the
//! file is read ([`BindSpace`]).

use glam::{Mat4, Quat, Vec3};

use crate::rig::pose::BoneTransform;
use crate::rig::skeleton::{own_from_child_frame, parent_tip_from_bone, Bone, Skeleton};

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
    /// Writes the channel's value at `time` into the part of `transform` it
    /// drives (a rotation normalised).
    pub fn apply(&self, time: f32, transform: &mut BoneTransform) {
        let value = self.sample(time);
        match self.target {
            Target::Translation => transform.translation = Vec3::new(value[0], value[1], value[2]),
            Target::Rotation => transform.rotation = Quat::from_array(value).normalize(),
            Target::Scale => transform.scale = Vec3::new(value[0], value[1], value[2]),
        }
    }

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

/// The clips of a scene. A channel's values are the bone's animation
/// `A_i` (translation, rotation, scale about its rest), for a bone written
/// as a bone and for a glTF joint alike: a glTF clip, which drives the
/// joint's local transform `L_j`, is turned into that form once, when the
/// file is read (see [`BindSpace`]), so playing a clip writes the pose
/// directly and nothing is taken apart per frame.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Animation {
    /// The clips.
    pub clips: Vec<Clip>,
}

impl Animation {
    /// The pose of clip `clip` at `time`: each driven part of `A_i` from its
    /// channel, every other part at rest (identity).
    ///
    /// # Panics
    ///
    /// If `clip` is out of range.
    pub fn pose_at(&self, clip: usize, time: f32, pose: &mut [BoneTransform]) {
        pose.fill(BoneTransform::IDENTITY);
        for channel in &self.clips[clip].channels {
            if let Some(transform) = pose.get_mut(channel.bone) {
                channel.apply(time, transform);
            }
        }
    }
}

/// The constant map from a glTF joint's local transform `L = T(t)·R(r)·S(s)`
/// to the bone's animation `A`, for a bone with turn `U`, parent turn `U_p`,
/// parent length `ℓ_p`, origin `o`, orientation `O` and rest scale `S`:
/// from `T(ℓ_p·Y + o) · O · T(t_A) · R(q_A) · U⁻¹ · S(S ⊙ s_A) · U =
/// U_p⁻¹ · T(t) · R(r) · S(s) · U`,
///
/// ```text
/// t_A = P · t,   q_A = rot(P) · r · U,   s_A = s ⊘ S,
/// P = (T(ℓ_p·Y + o) · O)⁻¹ · U_p⁻¹ (rigid)
/// ```
///
/// Each map is affine in `t` and `s` and a constant left and right product
/// for `r`, so it commutes with linear, spherical and Hermite
/// interpolation: a clip converted key by key plays exactly as the file's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BindSpace {
    /// `P`'s rotation.
    pub left_rotation: Quat,
    /// `P`'s translation.
    pub left_translation: Vec3,
    /// `U`.
    pub right_rotation: Quat,
    /// `S`, the rest scale.
    pub rest_scale: Vec3,
}

impl BindSpace {
    /// The map for `bone`, whose parent has length `parent_length` and
    /// turn `parent_turn` (0 and the identity for a root).
    pub fn of_bone(bone: &Bone, parent_length: f32, parent_turn: Quat) -> Self {
        Self::from_left(
            Self::left_of(bone, parent_length, parent_turn),
            bone.turn,
            bone.rest_scale,
        )
    }

    /// The map of every bone of `skeleton`, in bone order.
    pub fn of_skeleton(skeleton: &Skeleton) -> Vec<Self> {
        let bones = skeleton.bones();
        bones
            .iter()
            .map(|bone| {
                let (length, turn) = bone.parent.map_or((0.0, Quat::IDENTITY), |p| {
                    let parent = &bones[usize::from(p)];
                    (parent.length, parent.turn)
                });
                Self::of_bone(bone, length, turn)
            })
            .collect()
    }

    /// The joint-local rotation `r` whose animation is `q_A`:
    /// `r = rot(P)⁻¹ · q_A · U⁻¹`, the inverse of [`Self::rotation`].
    pub fn local_rotation(&self, q_a: Quat) -> Quat {
        self.left_rotation.inverse() * q_a * self.right_rotation.inverse()
    }

    /// The joint-local translation `t` whose animation is `t_A`:
    /// `t = P⁻¹ · t_A`, the inverse of [`Self::translation`].
    pub fn local_translation(&self, t_a: Vec3) -> Vec3 {
        self.left_rotation.inverse() * (t_a - self.left_translation)
    }

    /// `P = (T(ℓ_p·Y + o) · O)⁻¹ · U_p⁻¹` for `bone`.
    pub fn left_of(bone: &Bone, parent_length: f32, parent_turn: Quat) -> Mat4 {
        let unanimated = own_from_child_frame(parent_length) * parent_tip_from_bone(bone);
        unanimated.inverse() * Mat4::from_quat(parent_turn.inverse())
    }

    /// The map with the rigid left factor `left` (its scale, if any, is
    /// dropped), the right turn `right_rotation` and the rest scale.
    pub fn from_left(left: Mat4, right_rotation: Quat, rest_scale: Vec3) -> Self {
        let (_, rotation, translation) = left.to_scale_rotation_translation();
        Self {
            left_rotation: rotation.normalize(),
            left_translation: translation,
            right_rotation,
            rest_scale,
        }
    }

    /// `A` for the joint-local translation, rotation and scale `local`.
    pub fn animation(&self, local: &BoneTransform) -> BoneTransform {
        BoneTransform {
            translation: self.translation(local.translation),
            rotation: self.rotation(local.rotation),
            scale: self.scale(local.scale),
        }
    }

    /// `t_A = P · t`.
    pub fn translation(&self, t: Vec3) -> Vec3 {
        self.left_rotation * t + self.left_translation
    }

    /// A translation tangent: `P`'s linear part only.
    pub fn translation_tangent(&self, dt: Vec3) -> Vec3 {
        self.left_rotation * dt
    }

    /// `q_A = rot(P) · r · U` (a linear map of the four numbers, so it
    /// serves for tangents too).
    pub fn rotation(&self, r: Quat) -> Quat {
        self.left_rotation * r * self.right_rotation
    }

    /// `s_A = s ⊘ S` (linear, so it serves for tangents too).
    pub fn scale(&self, s: Vec3) -> Vec3 {
        s / self.rest_scale
    }

    /// Converts a channel of joint-local keys (values and tangents) into
    /// keys of `A`, in place.
    pub fn convert_channel(&self, channel: &mut Channel) {
        let convert = |value: [f32; 4], tangent: bool| -> [f32; 4] {
            let v = Vec3::new(value[0], value[1], value[2]);
            match channel.target {
                Target::Rotation => self.rotation(Quat::from_array(value)).to_array(),
                Target::Translation if tangent => {
                    self.translation_tangent(v).extend(0.0).to_array()
                }
                Target::Translation => self.translation(v).extend(0.0).to_array(),
                Target::Scale => self.scale(v).extend(0.0).to_array(),
            }
        };
        for value in &mut channel.values {
            *value = convert(*value, false);
        }
        for pair in &mut channel.tangents {
            *pair = [convert(pair[0], true), convert(pair[1], true)];
        }
    }
}

/// The pose that puts every bone's own frame at `model_from_bone_posed`:
/// `A_i = F_i⁻¹ · R'_i` with `F_i = C'_p(i) · T(origin_i) · O_i` built on the
/// parent's target frame ([`Bone::animation_from`] for a joint with scale
/// or a turn). Exact for frames reachable by a pose; scale that is not
/// along the bone's own axes is approximated by the nearest axis-aligned
/// scale.
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
        pose[index] = bone
            .animation_from(unanimated.inverse() * model_from_bone_posed[index])
            .unwrap_or(BoneTransform::IDENTITY);
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
