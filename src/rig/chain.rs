//! A limited chain being solved: the skeleton, its pose, its limits and the
//! posed frames kept in step, which each IK method (CCD, FABRIK, the damped
//! least squares finish) turns joint by joint.

use glam::{Mat4, Quat, Vec3};

use crate::rig::limits::{twist_angle, JointLimit};
use crate::rig::pose::{pose_to_model_stretched, BoneTransform};
use crate::rig::skeleton::{own_from_child_frame, parent_tip_from_bone, Skeleton};

/// The skeleton, its pose, its limits and the posed frames, kept in step.
pub(super) struct Chain<'a> {
    pub(super) skeleton: &'a Skeleton,
    pub(super) pose: &'a mut [BoneTransform],
    pub(super) limits: &'a [Option<JointLimit>],
    /// Each bone's stretch along its own +Y (1: none).
    pub(super) stretch: &'a [f32],
    pub(super) frames: Vec<Mat4>,
}

impl Chain<'_> {
    pub(super) fn update(&mut self) {
        pose_to_model_stretched(self.skeleton, self.pose, self.stretch, &mut self.frames);
    }

    pub(super) fn origin(&self, bone: usize) -> Vec3 {
        self.frames[bone].transform_point3(Vec3::ZERO)
    }

    pub(super) fn end(&self, bone: usize) -> Vec3 {
        let length = self.skeleton.bones()[bone].length;
        self.frames[bone].transform_point3(Vec3::new(0.0, length, 0.0))
    }

    /// The rotation of bone `bone`'s frame before its own animation, `F`.
    pub(super) fn unanimated_rotation(&self, bone: usize) -> Quat {
        let this = &self.skeleton.bones()[bone];
        let parent_tip = match this.parent {
            Some(parent) => {
                let parent = usize::from(parent);
                self.frames[parent] * own_from_child_frame(self.skeleton.bones()[parent].length)
            }
            None => Mat4::IDENTITY,
        };
        let (_, rotation, _) =
            (parent_tip * parent_tip_from_bone(this)).to_scale_rotation_translation();
        rotation.normalize()
    }

    /// Turns `bone` about its posed origin so that `from` moves toward `to`
    /// (model space), clamped to its limit; then updates the frames.
    pub(super) fn turn(&mut self, bone: usize, from: Vec3, to: Vec3) {
        let origin = self.origin(bone);
        let (Some(a), Some(b)) = (
            (from - origin).try_normalize(),
            (to - origin).try_normalize(),
        ) else {
            return;
        };
        let frame = self.unanimated_rotation(bone);
        let rotation = match self.limits[bone] {
            // A hinge turns about its axis only: by the angle between `a`
            // and `b` seen along the axis, added to its angle and clamped.
            Some(JointLimit::Hinge { axis, min, max }) => {
                let axis_model = frame * axis;
                let flat = |v: Vec3| (v - axis_model * v.dot(axis_model)).try_normalize();
                let (Some(a), Some(b)) = (flat(a), flat(b)) else {
                    return;
                };
                let step = a.cross(b).dot(axis_model).atan2(a.dot(b));
                let now = twist_angle(self.pose[bone].rotation, axis);
                Quat::from_axis_angle(axis, (now + step).clamp(min, max))
            }
            limit => {
                let turn_local = frame.inverse() * shortest_arc(a, b) * frame;
                let rotation = (turn_local * self.pose[bone].rotation).normalize();
                limit.map_or(rotation, |limit| limit.clamp(rotation))
            }
        };
        if rotation.is_finite() {
            self.pose[bone].rotation = rotation;
            self.update();
        }
    }
}

/// The shortest rotation taking unit `a` to unit `b`, exact for tiny angles
/// too (`atan2` of the cross and dot products; glam's `from_rotation_arc`
/// rounds turns under about 7e-4 rad to none, which stalls convergence).
pub(crate) fn shortest_arc(a: Vec3, b: Vec3) -> Quat {
    let cross = a.cross(b);
    let angle = cross.length().atan2(a.dot(b));
    match cross.try_normalize() {
        Some(axis) => Quat::from_axis_angle(axis, angle),
        None if a.dot(b) < 0.0 => Quat::from_axis_angle(a.any_orthonormal_vector(), angle),
        None => Quat::IDENTITY,
    }
}
