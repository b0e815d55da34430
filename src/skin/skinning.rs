//! CPU skinning: the tested reference the GPU shader must match.
//!
//! Both jobs take the rest mesh, the per-vertex influences and a palette, and
//! write into caller-owned buffers: no allocation per call.

use glam::{Mat3, Mat3A, Mat4, Vec3, Vec3A, Vec4};

use crate::skin::dual_quat::RigidScale;
use crate::skin::four_lanes;
use crate::skin::influences::{VertexInfluences, MAX_INFLUENCES};
use crate::skin::mesh::Mesh;

pub(crate) fn check_lengths(
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

/// How far from the identity every scale/shear part of a DQS palette may be
/// for the rigid fast path, which leaves `S` out. A pose of rotations alone
/// has `S = I` exactly, but in `f32` the product of rotations down a chain
/// drifts from orthonormal with its length: measured in a pose of small
/// turns, 9.5e-7 at the leaf of 64 bones, 8.6e-6 in the 240-bone `tail`,
/// 1.1e-5 in the 300-bone `chain`. Such an `S` is rounding, not a scale
/// anyone set (the reference carries the same rounding the other way); left
/// out, it moves a vertex at distance `r` from the origin by at most `3τr`.
const RIGID_TOLERANCE: f32 = 2e-5;

/// Linear blend skinning: `Z = (Σ w_i M_i) · P` and
/// `n' = normalize(cof(Σ w_i M_i)₃ₓ₃ · n)` (the cofactor matrix
/// `det · M⁻ᵀ` with the sign of `det` removed: the inverse-transpose's
/// direction, also for a singular blend), weights summing to 1 (seed 001's
/// weighted mean). A vertex with no influence keeps its rest position.
///
/// Written for speed: the blended matrix is built once per vertex from the
/// palette's rows (three SIMD vectors), unused slots (weight 0, bone 0) are
/// blended in rather than branched over, and the rest, the point, the
/// cofactor's three cross products and the normalisation, runs on four
/// vertices at once (`four_lanes`).
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
    let rows: Vec<MatrixRows> = palette.iter().map(MatrixRows::from_affine).collect();
    skin_lbs_rows(mesh, influences, &rows, out_positions, out_normals);
}

/// [`skin_lbs`] with the palette already in rows (see [`lbs_palette`]): no
/// allocation, what a caller that skins every frame uses.
///
/// # Panics
///
/// As [`skin_lbs`].
pub fn skin_lbs_rows(
    mesh: &Mesh,
    influences: &[VertexInfluences],
    palette: &[MatrixRows],
    out_positions: &mut [Vec3],
    out_normals: &mut [Vec3],
) {
    skin_each(
        mesh,
        influences,
        out_positions,
        out_normals,
        |p, n, influence, out_p, out_n| four_lanes::lbs(p, n, influence, palette, out_p, out_n),
    );
}

/// A skinning matrix `M` (affine: last row `0 0 0 1`) as its first three
/// rows, `(m_r0, m_r1, m_r2, t_r)` for `r = 0, 1, 2`: the layout the fast
/// LBS loop blends, 12 multiply-adds per influence where four columns
/// would take 16.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatrixRows(pub [Vec4; 3]);

impl MatrixRows {
    /// The first three rows of `matrix`.
    pub fn from_affine(matrix: &Mat4) -> Self {
        let rows = matrix.transpose();
        Self([rows.x_axis, rows.y_axis, rows.z_axis])
    }
}

/// Turns each palette entry into its rows, once per frame, for
/// [`skin_lbs_rows`].
///
/// # Panics
///
/// If the slices' lengths differ.
pub fn lbs_palette(palette: &[Mat4], out: &mut [MatrixRows]) {
    assert_eq!(palette.len(), out.len(), "one entry per bone");
    for (entry, matrix) in out.iter_mut().zip(palette) {
        *entry = MatrixRows::from_affine(matrix);
    }
}

/// Skins every vertex of `mesh` into the output buffers, four at a time
/// with `four` (rest positions, normals and influences of four vertices in;
/// their skinned positions and normals written to the four-entry output
/// slices); the last `count mod 4` go through `four` padded with
/// uninfluenced vertices. The loop [`skin_lbs`] and [`skin_dqs`] share.
///
/// # Panics
///
/// If a buffer does not have one entry per vertex.
#[inline(always)]
fn skin_each(
    mesh: &Mesh,
    influences: &[VertexInfluences],
    out_positions: &mut [Vec3],
    out_normals: &mut [Vec3],
    mut four: impl FnMut(&[Vec3], &[Vec3], &[VertexInfluences], &mut [Vec3], &mut [Vec3]),
) {
    check_lengths(mesh, influences, out_positions, out_normals);
    let whole = mesh.vertex_count() / 4 * 4;
    let groups = mesh.positions_model[..whole]
        .chunks_exact(4)
        .zip(mesh.normals_model[..whole].chunks_exact(4))
        .zip(influences[..whole].chunks_exact(4));
    let outputs = out_positions[..whole]
        .chunks_exact_mut(4)
        .zip(out_normals[..whole].chunks_exact_mut(4));
    for (((positions, normals), influence), (out_position, out_normal)) in groups.zip(outputs) {
        four(positions, normals, influence, out_position, out_normal);
    }
    let rest = mesh.vertex_count() - whole;
    if rest > 0 {
        let mut positions = [Vec3::ZERO; 4];
        let mut normals = [Vec3::Z; 4];
        let mut influence = [VertexInfluences::NONE; 4];
        positions[..rest].copy_from_slice(&mesh.positions_model[whole..]);
        normals[..rest].copy_from_slice(&mesh.normals_model[whole..]);
        influence[..rest].copy_from_slice(&influences[whole..]);
        let (mut skinned, mut turned) = ([Vec3::ZERO; 4], [Vec3::ZERO; 4]);
        four(&positions, &normals, &influence, &mut skinned, &mut turned);
        out_positions[whole..].copy_from_slice(&skinned[..rest]);
        out_normals[whole..].copy_from_slice(&turned[..rest]);
    }
}

/// [`skin_lbs`] for one vertex: its skinned position and normal.
///
/// # Panics
///
/// If an influence names a bone outside `palette`.
#[inline(always)]
pub fn lbs_vertex(
    position: Vec3,
    normal: Vec3,
    influence: &VertexInfluences,
    palette: &[Mat4],
) -> (Vec3, Vec3) {
    let w = influence.weights;
    // Weights are non-negative and largest first: all zero means none.
    if w[0] <= 0.0 {
        return (position, normal);
    }
    let b = influence.bones;
    let m = &palette[usize::from(b[0])];
    let (mut x, mut y, mut z, mut t) = (
        m.x_axis * w[0],
        m.y_axis * w[0],
        m.z_axis * w[0],
        m.w_axis * w[0],
    );
    for k in 1..MAX_INFLUENCES {
        let m = &palette[usize::from(b[k])];
        x += m.x_axis * w[k];
        y += m.y_axis * w[k];
        z += m.z_axis * w[k];
        t += m.w_axis * w[k];
    }
    let skinned = (x * position.x + y * position.y + z * position.z + t).truncate();
    let (a, b, c) = (
        Vec3A::from_vec4(x),
        Vec3A::from_vec4(y),
        Vec3A::from_vec4(z),
    );
    let bc = b.cross(c);
    let turned = bc * normal.x + c.cross(a) * normal.y + a.cross(b) * normal.z;
    let oriented = if a.dot(bc) < 0.0 { -turned } else { turned };
    (skinned, oriented.try_normalize().map_or(normal, Vec3::from))
}

/// The rotation matrix of the quaternion `q` (any length), given
/// `s = 2 / |q|²`: `I + s (…)`, the familiar formula with `s` in place of 2.
fn rotation_matrix(q: Vec4, s: f32) -> Mat3A {
    let (x, y, z, w) = (q.x, q.y, q.z, q.w);
    let (xs, ys, zs) = (x * s, y * s, z * s);
    let (wx, wy, wz) = (w * xs, w * ys, w * zs);
    let (xx, xy, xz) = (x * xs, x * ys, x * zs);
    let (yy, yz, zz) = (y * ys, y * zs, z * zs);
    Mat3A::from_cols(
        Vec3A::new(1.0 - (yy + zz), xy + wz, xz - wy),
        Vec3A::new(xy - wz, 1.0 - (xx + zz), yz + wx),
        Vec3A::new(xz + wy, yz - wx, 1.0 - (xx + yy)),
    )
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
/// Written for speed: when every `S_i` is the identity (within
/// `RIGID_TOLERANCE`, a rigid pose) the scale/shear blend and its cofactor
/// are left out and the rotation is applied to four vertices at once
/// (`four_lanes`); otherwise the blended rotation is turned into a matrix
/// once per vertex and applied to the point and the normal.
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
    if is_rigid(palette) {
        skin_each(
            mesh,
            influences,
            out_positions,
            out_normals,
            |p, n, influence, out_p, out_n| {
                four_lanes::dqs_rigid(p, n, influence, palette, out_p, out_n)
            },
        );
    } else {
        // A scale or shear in the palette: one vertex at a time.
        skin_each(
            mesh,
            influences,
            out_positions,
            out_normals,
            |p, n, influence, out_p, out_n| {
                for k in 0..4 {
                    (out_p[k], out_n[k]) = dqs_vertex(p[k], n[k], &influence[k], palette, false);
                }
            },
        );
    }
}

/// Whether every scale/shear part of `palette` is the identity (within
/// `RIGID_TOLERANCE`): then [`dqs_vertex`] may leave them out.
pub fn is_rigid(palette: &[RigidScale]) -> bool {
    palette.iter().all(|entry| {
        entry
            .scale_shear
            .abs_diff_eq(Mat3::IDENTITY, RIGID_TOLERANCE)
    })
}

/// [`skin_dqs`] for one vertex; `rigid` is [`is_rigid`] of the palette.
/// `normal` is unit (the mesh's and the morphed normals are).
///
/// # Panics
///
/// If an influence names a bone outside `palette`.
#[inline(always)]
pub fn dqs_vertex(
    position: Vec3,
    normal: Vec3,
    influence: &VertexInfluences,
    palette: &[RigidScale],
    rigid: bool,
) -> (Vec3, Vec3) {
    let w = influence.weights;
    if w[0] <= 0.0 {
        return (position, normal);
    }
    let b = influence.bones;
    let first = &palette[usize::from(b[0])].rigid;
    let pivot = Vec4::from(first.real);
    let mut real = pivot * w[0];
    let mut dual = Vec4::from(first.dual) * w[0];
    for k in 1..MAX_INFLUENCES {
        let entry = &palette[usize::from(b[k])].rigid;
        let entry_real = Vec4::from(entry.real);
        let sign = if entry_real.dot(pivot) < 0.0 {
            -w[k]
        } else {
            w[k]
        };
        real += entry_real * sign;
        dual += Vec4::from(entry.dual) * sign;
    }
    // The blend is normalised without a square root: for `q = real` and
    // `s = 2 / |q|²`, `R(q/|q|)` is the usual matrix with `s` in place of
    // 2, and `t = 2 vec(q̂_d q̂_r*)` of the normalised blend is
    // `s · vec(dual · q*)` (the part of `dual` along `q` adds only to the
    // scalar part, so removing it changes nothing here).
    let (real, dual) = if real.length_squared() < 1e-16 {
        (Vec4::W, Vec4::ZERO)
    } else {
        (real, dual)
    };
    let s = 2.0 / real.length_squared();
    let turn = rotation_matrix(real, s);
    // vec(d q*) = q_w d_v − d_w q_v + q_v × d_v.
    let (q_v, d_v) = (Vec3A::from_vec4(real), Vec3A::from_vec4(dual));
    let translation = Vec3::from((d_v * real.w - q_v * dual.w + q_v.cross(d_v)) * s);
    let (point, turned_normal) = if rigid {
        (Vec3A::from(position), Vec3A::from(normal))
    } else {
        let mut m = Mat3A::from(palette[usize::from(b[0])].scale_shear) * w[0];
        for k in 1..MAX_INFLUENCES {
            m += Mat3A::from(palette[usize::from(b[k])].scale_shear) * w[k];
        }
        let bc = m.y_axis.cross(m.z_axis);
        let turned = bc * normal.x
            + m.z_axis.cross(m.x_axis) * normal.y
            + m.x_axis.cross(m.y_axis) * normal.z;
        let oriented = if m.x_axis.dot(bc) < 0.0 {
            -turned
        } else {
            turned
        };
        (m * Vec3A::from(position), oriented)
    };
    // A rigid blend turns the unit normal by a rotation, which keeps its
    // length (to rounding): no square root needed. A scale or shear does
    // not, and the normal is renormalised.
    let turned_normal = turn * turned_normal;
    let turned_normal = if rigid {
        Vec3::from(turned_normal)
    } else {
        turned_normal.try_normalize().map_or(normal, Vec3::from)
    };
    (Vec3::from(turn * point) + translation, turned_normal)
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
