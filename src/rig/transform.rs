//! A bone's animation `A_i` as translation, rotation and scale, the one
//! joint transform every pose, clip and file uses.

use glam::{Mat4, Quat, Vec3};

/// A bone's animation `A_i = T(translation) · Rot(rotation) · S(scale)`,
/// applied in the bone's own frame (about its origin).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneTransform {
    /// Translation, in the bone's own rest frame.
    pub translation: Vec3,
    /// Rotation about the bone's origin; a unit quaternion.
    pub rotation: Quat,
    /// Scale along the bone's own axes.
    pub scale: Vec3,
}

impl BoneTransform {
    /// Whether translation, rotation (`q` and `−q` being the same turn)
    /// and scale are each within `tolerance` of `other`'s.
    pub fn abs_diff_eq(&self, other: &Self, tolerance: f32) -> bool {
        self.translation.abs_diff_eq(other.translation, tolerance)
            && (self.rotation.abs_diff_eq(other.rotation, tolerance)
                || self.rotation.abs_diff_eq(-other.rotation, tolerance))
            && self.scale.abs_diff_eq(other.scale, tolerance)
    }

    /// The transform that leaves the bone in its rest pose.
    pub const IDENTITY: Self = Self {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };

    /// A pure rotation about the bone's origin.
    pub fn from_rotation(rotation: Quat) -> Self {
        Self {
            rotation,
            ..Self::IDENTITY
        }
    }

    /// The matrix `A_i = T(t) · Rot(q) · S(s)`.
    pub fn to_mat4(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }
}

impl Default for BoneTransform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// `q / |q|` for a finite quaternion, or `None` for one too short to be a
/// rotation (`|q| < 1e-6`). A quaternion that is unit to float rounding
/// comes back bit for bit (so a scene survives a save and a reload
/// exactly); one whose length overflows `f32` (`[1e20, 0, 0, 0]`) is
/// divided by its largest component first, so it normalises instead of
/// collapsing to zero.
pub fn unit_rotation(q: Quat) -> Option<Quat> {
    if !q.is_finite() {
        return None;
    }
    let largest = q
        .to_array()
        .into_iter()
        .fold(0.0_f32, |m, v| m.max(v.abs()));
    if largest == 0.0 {
        return None;
    }
    let norm = q.length();
    if norm.is_finite() && norm > 0.0 {
        if norm < 1e-6 {
            return None;
        }
        return Some(if (norm - 1.0).abs() <= 1e-6 {
            q
        } else {
            q / norm
        });
    }
    // The length overflowed or underflowed: scale first.
    let scaled = q / largest;
    let norm_scaled = scaled.length();
    (largest * norm_scaled >= 1e-6).then(|| scaled / norm_scaled)
}
