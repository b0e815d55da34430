//! Rotations between keys (the animation talk): three ways to turn a rigid
//! body from one orientation to another, and what each does to it.
//!
//! The talk warns that the entries of two rotation matrices cannot simply
//! be blended ("nicht zwangsweise in Orthonormalform → Verformung des
//! Körpers"), shows Euler angles turned per component (`R(πt, 0, 0)`,
//! `R(0, πt, πt)`), and hands complex turns to quaternions. Orientations
//! are written as Euler angles `(x, y, z)` in radians with
//! `R(x, y, z) = R_z(z) · R_y(y) · R_x(x)`. The samples are computed in
//! `f64` so that the errors they report are the method's, not rounding's.

use glam::{DMat3, DQuat, DVec3};

/// How orientations between two keys are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RotationMethod {
    /// `M(t) = (1 − t) · R_from + t · R_to`, entry by entry: not a rotation
    /// in between (it shrinks and shears the body).
    Matrix,
    /// `R((1 − t) · e_from + t · e_to)`: each Euler angle on its own; a
    /// rotation always, but along a detour, and stuck at gimbal lock.
    Euler,
    /// `slerp(q_from, q_to, t)` along the shorter arc: a rotation turning
    /// at constant speed about one fixed axis.
    Slerp,
}

impl RotationMethod {
    /// The method called `name` (`"matrix"`, `"euler"` or `"slerp"`).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "matrix" => Some(Self::Matrix),
            "euler" => Some(Self::Euler),
            "slerp" => Some(Self::Slerp),
            _ => None,
        }
    }
}

/// One orientation between the keys.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RotationSample {
    /// Where between the keys, `0 ≤ t ≤ 1`.
    pub t: f64,
    /// The interpolated matrix (a rotation only if the method keeps one).
    pub matrix: DMat3,
    /// `det M`: 1 for a rotation, less where the body shrinks.
    pub determinant: f64,
    /// The largest entry of `|MᵀM − I|`: 0 for a rotation.
    pub orthonormality_error: f64,
}

/// The most samples [`rotation_samples`] returns.
pub const MAX_ROTATION_SAMPLES: usize = 10_000;

/// `R(x, y, z) = R_z(z) · R_y(y) · R_x(x)`, radians.
pub fn euler_matrix(angles: DVec3) -> DMat3 {
    DMat3::from_rotation_z(angles.z)
        * DMat3::from_rotation_y(angles.y)
        * DMat3::from_rotation_x(angles.x)
}

/// The largest entry of `|MᵀM − I|`.
pub fn orthonormality_error(matrix: &DMat3) -> f64 {
    let gram = matrix.transpose() * *matrix - DMat3::IDENTITY;
    gram.to_cols_array()
        .iter()
        .fold(0.0_f64, |worst, entry| worst.max(entry.abs()))
}

/// `steps` orientations (clamped to `2..=`[`MAX_ROTATION_SAMPLES`]) at
/// `t_k = k / (steps − 1)` between the Euler angles `from` and `to`, found
/// by `method`.
pub fn rotation_samples(
    method: RotationMethod,
    from: DVec3,
    to: DVec3,
    steps: usize,
) -> Vec<RotationSample> {
    let steps = steps.clamp(2, MAX_ROTATION_SAMPLES);
    let (start, end) = (euler_matrix(from), euler_matrix(to));
    let (q_start, q_end) = (DQuat::from_mat3(&start), DQuat::from_mat3(&end));
    (0..steps)
        .map(|k| {
            let t = k as f64 / (steps - 1) as f64;
            let matrix = match method {
                RotationMethod::Matrix => start * (1.0 - t) + end * t,
                RotationMethod::Euler => euler_matrix(from.lerp(to, t)),
                RotationMethod::Slerp => DMat3::from_quat(q_start.slerp(q_end, t)),
            };
            RotationSample {
                t,
                matrix,
                determinant: matrix.determinant(),
                orthonormality_error: orthonormality_error(&matrix),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use super::*;

    #[test]
    fn blending_the_entries_of_a_half_turn_collapses_the_body() {
        // R(0,0,0) = I and R(π,0,0) = diag(1, −1, −1): halfway the matrix
        // is diag(1, 0, 0), which flattens the body onto the X axis.
        let samples = rotation_samples(RotationMethod::Matrix, DVec3::ZERO, DVec3::X * PI, 3);
        assert!(samples[1].determinant.abs() < 1e-12);
        assert!((samples[1].orthonormality_error - 1.0).abs() < 1e-12);
        assert!((samples[0].determinant - 1.0).abs() < 1e-12);
    }

    #[test]
    fn slerp_keeps_a_rotation_all_the_way() {
        let (from, to) = (DVec3::new(0.3, -1.2, 2.0), DVec3::new(-2.5, 0.7, 0.1));
        for sample in rotation_samples(RotationMethod::Slerp, from, to, 33) {
            assert!((sample.determinant - 1.0).abs() < 1e-9, "{sample:?}");
            assert!(sample.orthonormality_error < 1e-9, "{sample:?}");
        }
    }

    #[test]
    fn euler_samples_turn_each_angle_in_proportion() {
        // The animation talk's double rotation R(0, πt, πt).
        let to = DVec3::new(0.0, PI, PI);
        for sample in rotation_samples(RotationMethod::Euler, DVec3::ZERO, to, 5) {
            let expected =
                DMat3::from_rotation_z(PI * sample.t) * DMat3::from_rotation_y(PI * sample.t);
            assert!(sample.matrix.abs_diff_eq(expected, 1e-12));
        }
    }

    #[test]
    fn the_convention_turns_about_x_first() {
        // R(π/2, 0, π/2): X turn takes +Y to +Z, the Z turn leaves it there.
        let matrix = euler_matrix(DVec3::new(PI / 2.0, 0.0, PI / 2.0));
        assert!((matrix * DVec3::Y).abs_diff_eq(DVec3::Z, 1e-12));
        assert!((matrix * DVec3::X).abs_diff_eq(DVec3::Y, 1e-12));
    }

    #[test]
    fn methods_have_names_and_steps_are_bounded() {
        assert_eq!(
            RotationMethod::from_name("slerp"),
            Some(RotationMethod::Slerp)
        );
        assert_eq!(RotationMethod::from_name("nlerp"), None);
        let few = rotation_samples(RotationMethod::Euler, DVec3::ZERO, DVec3::ONE, 0);
        assert_eq!(few.len(), 2);
        let many = rotation_samples(RotationMethod::Euler, DVec3::ZERO, DVec3::ONE, usize::MAX);
        assert_eq!(many.len(), MAX_ROTATION_SAMPLES);
    }
}
