//! Unit dual quaternions for rigid transforms, and the split of an affine
//! skinning matrix into a rigid part and a scale/shear part.
//!
//! A rigid transform `x ↦ q x q* + t` is the dual quaternion
//! `q̂ = q_r + ε q_d` with `q_r = q` and `q_d = ½ (t, 0) q_r`
//! (Kavan, Collins, Žára, O'Sullivan 2008).

use glam::{Mat3, Mat4, Quat, Vec3, Vec4};

/// A dual quaternion `real + ε dual`; unit when `|real| = 1` and
/// `real · dual = 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DualQuat {
    /// The rotation part `q_r`.
    pub real: Quat,
    /// The translation part `q_d = ½ (t, 0) q_r`.
    pub dual: Quat,
}

impl DualQuat {
    /// The identity transform.
    pub const IDENTITY: Self = Self {
        real: Quat::IDENTITY,
        dual: Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
    };

    /// The rigid transform "rotate by `rotation`, then translate by
    /// `translation`": `q_d = ½ (t, 0) q_r`.
    pub fn from_rotation_translation(rotation: Quat, translation: Vec3) -> Self {
        let t = Quat::from_xyzw(translation.x, translation.y, translation.z, 0.0);
        Self {
            real: rotation,
            dual: (t * rotation) * 0.5,
        }
    }

    /// The translation `t = 2 q_d q_r*` (vector part), for a unit dual
    /// quaternion.
    pub fn translation(&self) -> Vec3 {
        let t = (self.dual * self.real.conjugate()) * 2.0;
        Vec3::new(t.x, t.y, t.z)
    }

    /// Applies the rigid transform to a point: `q_r p q_r* + t`.
    pub fn transform_point3(&self, point: Vec3) -> Vec3 {
        self.real * point + self.translation()
    }

    /// `w · self` component-wise, the term of a dual quaternion blend.
    pub fn scaled(&self, weight: f32) -> Self {
        Self {
            real: self.real * weight,
            dual: self.dual * weight,
        }
    }

    /// Component-wise sum, for blending.
    pub fn add(&self, other: &Self) -> Self {
        Self {
            real: self.real + other.real,
            dual: self.dual + other.dual,
        }
    }

    /// Divides by `|q_r|`, making a blend a unit dual quaternion again; also
    /// removes the part of `q_d` along `q_r` so that `q_r · q_d = 0`.
    ///
    /// Returns `None` when `|q_r|` is (nearly) zero, which a blend of
    /// hemisphere-aligned unit quaternions with positive weights never is.
    pub fn try_normalize(&self) -> Option<Self> {
        let norm = self.real.length();
        if norm < 1e-8 {
            return None;
        }
        let real = self.real / norm;
        let dual = self.dual / norm;
        let along = Vec4::from(real).dot(Vec4::from(dual));
        Some(Self {
            real,
            dual: dual - real * along,
        })
    }
}

/// An affine skinning matrix split as `M = [Q | t] · S`: a rigid part
/// `x ↦ Q x + t` and a scale/shear part `S` applied first.
///
/// With `S = I` this is plain DQS; otherwise it is the two-phase skinning of
/// Kavan et al. 2008, §4: `S` is blended linearly, the rigid parts as dual
/// quaternions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidScale {
    /// The rigid part as a unit dual quaternion.
    pub rigid: DualQuat,
    /// The scale/shear part `S = Qᵀ A`, acting about the model origin.
    pub scale_shear: Mat3,
}

impl RigidScale {
    /// Splits `matrix` (affine, last row `0 0 0 1`) into its rotation `Q` by
    /// polar decomposition of the 3x3 part `A = Q · S`, and `S = Qᵀ A`.
    ///
    /// For any `Q` the split is exact, `Q (S p) + t = M p`; the polar `Q` is
    /// the rotation closest to `A`, which makes the blend of rigid parts
    /// meaningful. When `det A ≤ 0` (a mirror or a collapsed axis) no
    /// rotation is closest, and `Q = I`, `S = A` is used: that bone then
    /// blends linearly, never wrongly.
    pub fn from_affine(matrix: &Mat4) -> Self {
        let linear = Mat3::from_mat4(*matrix);
        let translation = matrix.w_axis.truncate();
        let rotation = polar_rotation(&linear).unwrap_or(Mat3::IDENTITY);
        let real = Quat::from_mat3(&rotation).normalize();
        let rotation = Mat3::from_quat(real);
        Self {
            rigid: DualQuat::from_rotation_translation(real, translation),
            scale_shear: rotation.transpose() * linear,
        }
    }
}

/// The orthogonal factor `Q` of `A = Q S` by Higham's iteration
/// `Q ← ½ (Q + Q⁻ᵀ)`; `None` when `det A` is not clearly positive.
fn polar_rotation(linear: &Mat3) -> Option<Mat3> {
    let scale = linear
        .to_cols_array()
        .iter()
        .fold(0.0_f32, |m, v| m.max(v.abs()));
    if scale == 0.0 || linear.determinant() <= 1e-9 * scale * scale * scale {
        return None;
    }
    let mut rotation = *linear;
    for _ in 0..32 {
        let next = (rotation + rotation.inverse().transpose()) * 0.5;
        let change = (next - rotation)
            .to_cols_array()
            .iter()
            .fold(0.0_f32, |m, v| m.max(v.abs()));
        rotation = next;
        if change < 1e-7 {
            break;
        }
    }
    Some(rotation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_translation_roundtrip() {
        let rotation = Quat::from_rotation_y(0.7) * Quat::from_rotation_x(-0.3);
        let translation = Vec3::new(1.0, -2.0, 0.5);
        let dq = DualQuat::from_rotation_translation(rotation, translation);
        assert!(dq.translation().abs_diff_eq(translation, 1e-6));
        let point = Vec3::new(0.3, 0.4, -0.5);
        let expected = rotation * point + translation;
        assert!(dq.transform_point3(point).abs_diff_eq(expected, 1e-6));
    }

    #[test]
    fn affine_split_is_exact_with_scale_and_shear() {
        let matrix = Mat4::from_rotation_translation(Quat::from_rotation_z(0.4), Vec3::X)
            * Mat4::from_scale(Vec3::new(1.0, 2.0, 0.5))
            * Mat4::from_rotation_z(-0.9);
        let split = RigidScale::from_affine(&matrix);
        let point = Vec3::new(0.2, -1.0, 3.0);
        let via_split = split.rigid.transform_point3(split.scale_shear * point);
        assert!(via_split.abs_diff_eq(matrix.transform_point3(point), 1e-5));
    }

    #[test]
    fn rigid_matrix_has_identity_scale_part() {
        let matrix = Mat4::from_rotation_translation(Quat::from_rotation_x(2.0), Vec3::ONE);
        let split = RigidScale::from_affine(&matrix);
        assert!(split.scale_shear.abs_diff_eq(Mat3::IDENTITY, 1e-5));
    }

    #[test]
    fn mirror_falls_back_to_a_linear_part() {
        let matrix = Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0));
        let split = RigidScale::from_affine(&matrix);
        assert_eq!(split.rigid.real, Quat::IDENTITY);
        let point = Vec3::new(1.0, 2.0, 3.0);
        assert!(split
            .rigid
            .transform_point3(split.scale_shear * point)
            .abs_diff_eq(Vec3::new(-1.0, 2.0, 3.0), 1e-6));
    }
}
