//! The straightforward formulation of LBS and DQS, one formula per line:
//! what [`super::skinning`]'s loops, written for speed, are tested against
//! (they agree to 1e-5; `tests/skinning_speed.rs`).

use glam::{Mat3, Mat4, Vec3};

use crate::skin::dual_quat::{DualQuat, RigidScale};
use crate::skin::influences::VertexInfluences;
use crate::skin::mesh::Mesh;
use crate::skin::skinning::check_lengths;

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
/// `n' = normalize((Σ w_i M_i)₃ₓ₃⁻ᵀ · n)`, weights summing to 1 (the bones note's
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
