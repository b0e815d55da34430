//! The engine note's palette formats, as the shader receives and uses them, with
//! the CPU reference of what each computes.
//!
//! - `mat4`: the four rows of `M_i` (the last, `0 0 0 1`, sent but unused).
//! - `mat4x3`: the three rows that matter; the same result in 3/4 of the
//!   space.
//! - quaternion + translation: the rotation `q_i` of `M_i`'s polar split and
//!   its translation column `t_i`, rebuilt in the shader as `[R(q_i) | t_i]`
//!   and blended linearly. Scale is lost: a scaled bone's vertices land
//!   where the unscaled bone would put them.
//! - dual quaternion: `q̂_i` of the rigid part, blended as DQS. Scale is
//!   lost the same way.

use glam::{Mat3, Mat4, Vec3};

use super::batches::PaletteFormat;
use super::dual_quat::RigidScale;
use super::influences::VertexInfluences;
use super::mesh::Mesh;
use super::skinning::{skin_dqs, skin_lbs};

impl PaletteFormat {
    /// The name the page and the API use.
    pub fn name(self) -> &'static str {
        match self {
            PaletteFormat::Mat4 => "mat4",
            PaletteFormat::Mat4x3 => "mat4x3",
            PaletteFormat::QuatTranslation => "quat-translation",
            PaletteFormat::DualQuat => "dual-quat",
        }
    }

    /// The format called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|format| format.name() == name)
    }

    /// Whether the shader blends the bones as dual quaternions (DQS);
    /// otherwise it blends matrices (LBS).
    pub fn blends_dual_quaternions(self) -> bool {
        self == PaletteFormat::DualQuat
    }
}

/// The palette as `format` sends it: [`PaletteFormat::vectors_per_bone`]
/// `vec4`s per bone, into `out` (cleared first). `dqs` is the polar split
/// of `palette` ([`super::skinning::dqs_palette`]).
pub fn format_vectors(
    format: PaletteFormat,
    palette: &[Mat4],
    dqs: &[RigidScale],
    out: &mut Vec<[f32; 4]>,
) {
    out.clear();
    for (matrix, split) in palette.iter().zip(dqs) {
        match format {
            PaletteFormat::Mat4 => out.extend([0, 1, 2, 3].map(|row| matrix.row(row).to_array())),
            PaletteFormat::Mat4x3 => out.extend([0, 1, 2].map(|row| matrix.row(row).to_array())),
            PaletteFormat::QuatTranslation => {
                out.push(split.rigid.real.to_array());
                out.push(matrix.w_axis.truncate().extend(0.0).to_array());
            }
            PaletteFormat::DualQuat => {
                out.push(split.rigid.real.to_array());
                out.push(split.rigid.dual.to_array());
            }
        }
    }
}

/// What the shader computes with `format`: LBS with the matrices the format
/// can express, or DQS of the rigid parts. Writes positions and normals.
///
/// # Panics
///
/// As [`skin_lbs`]; also if `dqs` does not have one entry per bone.
pub fn skin_with_format(
    format: PaletteFormat,
    mesh: &Mesh,
    influences: &[VertexInfluences],
    palette: &[Mat4],
    dqs: &[RigidScale],
    out_positions: &mut [Vec3],
    out_normals: &mut [Vec3],
) {
    assert_eq!(palette.len(), dqs.len(), "one split per bone");
    match format {
        PaletteFormat::Mat4 | PaletteFormat::Mat4x3 => {
            skin_lbs(mesh, influences, palette, out_positions, out_normals);
        }
        PaletteFormat::QuatTranslation => {
            let rigid: Vec<Mat4> = palette
                .iter()
                .zip(dqs)
                .map(|(matrix, split)| {
                    Mat4::from_rotation_translation(split.rigid.real, matrix.w_axis.truncate())
                })
                .collect();
            skin_lbs(mesh, influences, &rigid, out_positions, out_normals);
        }
        PaletteFormat::DualQuat => {
            let rigid: Vec<RigidScale> = dqs
                .iter()
                .map(|split| RigidScale {
                    rigid: split.rigid,
                    scale_shear: Mat3::IDENTITY,
                })
                .collect();
            skin_dqs(mesh, influences, &rigid, out_positions, out_normals);
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::Quat;

    use super::*;
    use crate::skin::skinning::dqs_palette;

    fn strip() -> (Mesh, Vec<VertexInfluences>) {
        let positions: Vec<Vec3> = (0..12)
            .map(|k| Vec3::new((k % 2) as f32, k as f32 * 0.3, 0.0))
            .collect();
        let influences = (0..12)
            .map(|k| {
                let t = k as f32 / 11.0;
                VertexInfluences::from_pairs(&[(0, 1.0 - t), (1, t)]).0
            })
            .collect();
        (Mesh::new(positions, Vec::new()), influences)
    }

    fn skinned(format: PaletteFormat, palette: &[Mat4]) -> Vec<Vec3> {
        let (mesh, influences) = strip();
        let mut dqs = vec![RigidScale::from_affine(&Mat4::IDENTITY); palette.len()];
        dqs_palette(palette, &mut dqs);
        let mut positions = vec![Vec3::ZERO; 12];
        let mut normals = vec![Vec3::ZERO; 12];
        skin_with_format(
            format,
            &mesh,
            &influences,
            palette,
            &dqs,
            &mut positions,
            &mut normals,
        );
        positions
    }

    #[test]
    fn names_round_trip() {
        for format in PaletteFormat::ALL {
            assert_eq!(PaletteFormat::from_name(format.name()), Some(format));
        }
        assert_eq!(PaletteFormat::from_name("mat3"), None);
    }

    #[test]
    fn every_format_sends_its_vectors() {
        let palette = [Mat4::IDENTITY, Mat4::from_translation(Vec3::X)];
        let mut dqs = vec![RigidScale::from_affine(&Mat4::IDENTITY); 2];
        dqs_palette(&palette, &mut dqs);
        let mut out = Vec::new();
        for format in PaletteFormat::ALL {
            format_vectors(format, &palette, &dqs, &mut out);
            assert_eq!(out.len(), 2 * format.vectors_per_bone(), "{format:?}");
        }
    }

    #[test]
    fn rigid_poses_agree_and_scale_is_lost_without_a_matrix() {
        let rigid = [
            Mat4::from_rotation_translation(Quat::from_rotation_z(0.4), Vec3::new(0.5, 0.0, 0.0)),
            Mat4::from_rotation_translation(Quat::from_rotation_z(-0.9), Vec3::new(0.0, 1.0, 0.2)),
        ];
        let reference = skinned(PaletteFormat::Mat4, &rigid);
        for format in [PaletteFormat::Mat4x3, PaletteFormat::QuatTranslation] {
            let found = skinned(format, &rigid);
            let worst = found
                .iter()
                .zip(&reference)
                .map(|(a, b)| a.distance(*b))
                .fold(0.0, f32::max);
            assert!(worst < 1e-5, "{format:?}: {worst}");
        }
        let scaled = [
            rigid[0] * Mat4::from_scale(Vec3::new(1.0, 1.5, 1.0)),
            rigid[1],
        ];
        let reference = skinned(PaletteFormat::Mat4, &scaled);
        for format in [PaletteFormat::QuatTranslation, PaletteFormat::DualQuat] {
            let found = skinned(format, &scaled);
            let worst = found
                .iter()
                .zip(&reference)
                .map(|(a, b)| a.distance(*b))
                .fold(0.0, f32::max);
            assert!(worst > 0.1, "{format:?} drops the scale: {worst}");
        }
    }
}
