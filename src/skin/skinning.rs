//! CPU skinning: the tested reference the GPU shader must match.
//!
//! Both jobs take the rest mesh, the per-vertex influences and a palette, and
//! write into caller-owned buffers: no allocation per call.

use glam::{Mat3, Mat4, Vec3};

use crate::skin::dual_quat::{DualQuat, RigidScale};
use crate::skin::influences::VertexInfluences;
use crate::skin::mesh::Mesh;

fn check_lengths(
    mesh: &Mesh,
    influences: &[VertexInfluences],
    out_positions: &[Vec3],
    out_normals: &[Vec3],
) {
    let count = mesh.vertex_count();
    assert_eq!(influences.len(), count, "one influence list per vertex");
    assert_eq!(out_positions.len(), count, "one output position per vertex");
    assert_eq!(out_normals.len(), count, "one output normal per vertex");
}

/// The cofactor matrix of `m`, `det(m) · m⁻ᵀ`, with the sign of `det(m)`
/// removed: it maps normals like the inverse-transpose, even when `m` is
/// singular.
fn normal_matrix(m: &Mat3) -> Mat3 {
    let cofactor = Mat3::from_cols(
        m.y_axis.cross(m.z_axis),
        m.z_axis.cross(m.x_axis),
        m.x_axis.cross(m.y_axis),
    );
    if m.determinant() < 0.0 {
        -cofactor
    } else {
        cofactor
    }
}

/// Linear blend skinning: `Z = (Σ w_i M_i) · P` and
/// `n' = normalize((Σ w_i M_i)₃ₓ₃⁻ᵀ · n)`, weights summing to 1 (seed 001's
/// weighted mean). A vertex with no influence keeps its rest position.
///
/// # Panics
///
/// If a buffer does not have one entry per vertex, or an influence names a
/// bone outside `palette`.
pub fn skin_lbs(
    mesh: &Mesh,
    influences: &[VertexInfluences],
    palette: &[Mat4],
    out_positions: &mut [Vec3],
    out_normals: &mut [Vec3],
) {
    check_lengths(mesh, influences, out_positions, out_normals);
    for (vertex, influence) in influences.iter().enumerate() {
        let position = mesh.positions_model[vertex];
        let normal = mesh.normals_model[vertex];
        if influence.total_weight() <= 0.0 {
            out_positions[vertex] = position;
            out_normals[vertex] = normal;
            continue;
        }
        let mut blended = Mat4::ZERO;
        for (bone, weight) in influence.pairs() {
            blended += palette[usize::from(bone)] * weight;
        }
        out_positions[vertex] = blended.transform_point3(position);
        out_normals[vertex] = (normal_matrix(&Mat3::from_mat4(blended)) * normal)
            .try_normalize()
            .unwrap_or(normal);
    }
}

/// Splits each palette entry `M_i` into a dual quaternion and a scale/shear
/// part (see [`RigidScale::from_affine`]), once per frame, for [`skin_dqs`].
///
/// # Panics
///
/// If the slices' lengths differ.
pub fn dqs_palette(palette: &[Mat4], out: &mut [RigidScale]) {
    assert_eq!(palette.len(), out.len(), "one entry per bone");
    for (entry, matrix) in out.iter_mut().zip(palette) {
        *entry = RigidScale::from_affine(matrix);
    }
}

/// Dual quaternion skinning: blend `q̂ = Σ w_i s_i q̂_i` with `s_i = ±1` so
/// each `q_r,i` lies in the hemisphere of the vertex's first (largest)
/// influence, normalise, and apply to the point after the linearly blended
/// scale/shear part `S = Σ w_i S_i`: `Z = q̂ (S · P)`.
///
/// Volume is kept where linear blending collapses (a 180° twist). With every
/// `S_i = I` this is Kavan et al.'s DQS; with one influence it equals LBS.
///
/// # Panics
///
/// As [`skin_lbs`].
pub fn skin_dqs(
    mesh: &Mesh,
    influences: &[VertexInfluences],
    palette: &[RigidScale],
    out_positions: &mut [Vec3],
    out_normals: &mut [Vec3],
) {
    check_lengths(mesh, influences, out_positions, out_normals);
    for (vertex, influence) in influences.iter().enumerate() {
        let position = mesh.positions_model[vertex];
        let normal = mesh.normals_model[vertex];
        let mut pairs = influence.pairs();
        let Some((first_bone, first_weight)) = pairs.next() else {
            out_positions[vertex] = position;
            out_normals[vertex] = normal;
            continue;
        };
        let first = &palette[usize::from(first_bone)];
        let pivot = first.rigid.real;
        let mut rigid = first.rigid.scaled(first_weight);
        let mut scale_shear = first.scale_shear * first_weight;
        for (bone, weight) in pairs {
            let entry = &palette[usize::from(bone)];
            let sign = if entry.rigid.real.dot(pivot) < 0.0 {
                -weight
            } else {
                weight
            };
            rigid = rigid.add(&entry.rigid.scaled(sign));
            scale_shear += entry.scale_shear * weight;
        }
        let rigid = rigid.try_normalize().unwrap_or(DualQuat::IDENTITY);
        out_positions[vertex] = rigid.transform_point3(scale_shear * position);
        out_normals[vertex] = (rigid.real * (normal_matrix(&scale_shear) * normal))
            .try_normalize()
            .unwrap_or(normal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    fn one_vertex(position: Vec3, influence: VertexInfluences) -> (Mesh, Vec<VertexInfluences>) {
        let mut mesh = Mesh::new(vec![position], vec![]);
        mesh.normals_model[0] = Vec3::X;
        (mesh, vec![influence])
    }

    #[test]
    fn lbs_is_the_weighted_mean_of_the_transformed_points() {
        let palette = [
            Mat4::IDENTITY,
            Mat4::from_translation(Vec3::new(2.0, 0.0, 0.0)),
        ];
        let (inf, _) = VertexInfluences::from_pairs(&[(0, 0.25), (1, 0.75)]);
        let (mesh, influences) = one_vertex(Vec3::new(0.0, 1.0, 0.0), inf);
        let mut out = [Vec3::ZERO];
        let mut normals = [Vec3::ZERO];
        skin_lbs(&mesh, &influences, &palette, &mut out, &mut normals);
        assert!(out[0].abs_diff_eq(Vec3::new(1.5, 1.0, 0.0), 1e-6));
        assert!(normals[0].abs_diff_eq(Vec3::X, 1e-6));
    }

    #[test]
    fn a_free_vertex_stays_put() {
        let palette = [Mat4::from_translation(Vec3::ONE)];
        let (mesh, influences) = one_vertex(Vec3::new(4.0, 5.0, 6.0), VertexInfluences::NONE);
        let mut out = [Vec3::ZERO];
        let mut normals = [Vec3::ZERO];
        skin_lbs(&mesh, &influences, &palette, &mut out, &mut normals);
        assert_eq!(out[0], Vec3::new(4.0, 5.0, 6.0));
        let mut dq = [RigidScale::from_affine(&palette[0])];
        dqs_palette(&palette, &mut dq);
        skin_dqs(&mesh, &influences, &dq, &mut out, &mut normals);
        assert_eq!(out[0], Vec3::new(4.0, 5.0, 6.0));
    }

    #[test]
    fn lbs_normals_use_the_inverse_transpose() {
        // Squash y by 1/2: a normal along (1,1) tilts towards y, to (1,2).
        let palette = [Mat4::from_scale(Vec3::new(1.0, 0.5, 1.0))];
        let (mut mesh, influences) = one_vertex(Vec3::ZERO, VertexInfluences::single(0));
        mesh.normals_model[0] = Vec3::new(1.0, 1.0, 0.0).normalize();
        let mut out = [Vec3::ZERO];
        let mut normals = [Vec3::ZERO];
        skin_lbs(&mesh, &influences, &palette, &mut out, &mut normals);
        assert!(normals[0].abs_diff_eq(Vec3::new(1.0, 2.0, 0.0).normalize(), 1e-6));
    }

    #[test]
    fn dqs_takes_the_short_way_between_antipodal_quaternions() {
        // The same rotation, once as q and once as −q: the blend must not
        // cancel out.
        let rotation = Quat::from_rotation_z(1.0);
        let mut palette = [RigidScale::from_affine(&Mat4::from_quat(rotation)); 2];
        palette[1].rigid.real = -palette[1].rigid.real;
        palette[1].rigid.dual = -palette[1].rigid.dual;
        let (inf, _) = VertexInfluences::from_pairs(&[(0, 0.5), (1, 0.5)]);
        let (mesh, influences) = one_vertex(Vec3::X, inf);
        let mut out = [Vec3::ZERO];
        let mut normals = [Vec3::ZERO];
        skin_dqs(&mesh, &influences, &palette, &mut out, &mut normals);
        assert!(out[0].abs_diff_eq(rotation * Vec3::X, 1e-6), "{}", out[0]);
    }

    #[test]
    fn dqs_half_twist_keeps_the_radius() {
        let palette = [Mat4::IDENTITY, Mat4::from_rotation_y(std::f32::consts::PI)];
        let mut dq = [RigidScale::from_affine(&Mat4::IDENTITY); 2];
        dqs_palette(&palette, &mut dq);
        let (inf, _) = VertexInfluences::from_pairs(&[(0, 0.5), (1, 0.5)]);
        let (mesh, influences) = one_vertex(Vec3::X, inf);
        let (mut out, mut normals) = ([Vec3::ZERO], [Vec3::ZERO]);
        skin_dqs(&mesh, &influences, &dq, &mut out, &mut normals);
        assert!((out[0].length() - 1.0).abs() < 1e-5);
        skin_lbs(&mesh, &influences, &palette, &mut out, &mut normals);
        assert!(out[0].length() < 1e-5);
    }
}
