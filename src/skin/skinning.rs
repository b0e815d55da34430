//! CPU skinning: the tested reference the GPU shader must match.
//!
//! Both jobs take the rest mesh, the per-vertex influences and a palette, and
//! write into caller-owned buffers. [`skin_lbs_rows`] and [`skin_dqs`] do
//! not allocate; [`skin_lbs`] first turns its palette into rows, which a
//! caller skinning every frame keeps instead ([`lbs_palette`]).

use glam::{Mat3, Mat4, Vec3};

use crate::skin::dual_quat::RigidScale;
use crate::skin::four_lanes;
use crate::skin::influences::VertexInfluences;
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
/// direction, also for a singular blend), weights summing to 1 (the bones note's
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

/// [`skin_lbs_rows`]'s positions alone, bit for bit the same, without the
/// normals' cofactor and normalisation: what a caller that needs no
/// normals skins.
///
/// # Panics
///
/// As [`skin_lbs`].
pub fn skin_lbs_positions(
    mesh: &Mesh,
    influences: &[VertexInfluences],
    palette: &[MatrixRows],
    out_positions: &mut [Vec3],
) {
    skin_each_position(mesh, influences, out_positions, |p, _, influence, out_p| {
        four_lanes::lbs_positions(p, influence, palette, out_p);
    });
}

/// [`skin_dqs`]'s positions alone, bit for bit the same; a rigid palette
/// (see [`is_rigid`]) skips the normals.
///
/// # Panics
///
/// As [`skin_lbs`].
pub fn skin_dqs_positions(
    mesh: &Mesh,
    influences: &[VertexInfluences],
    palette: &[RigidScale],
    out_positions: &mut [Vec3],
) {
    if is_rigid(palette) {
        skin_each_position(mesh, influences, out_positions, |p, _, influence, out_p| {
            four_lanes::dqs_rigid_positions(p, influence, palette, out_p);
        });
    } else {
        skin_each_position(mesh, influences, out_positions, |p, n, influence, out_p| {
            four_lanes::dqs_scaled(p, n, influence, palette, out_p, &mut [Vec3::ZERO; 4]);
        });
    }
}

/// [`skin_each`] for the positions alone: `four` gets four vertices' rest
/// positions, normals (for kernels that need them) and influences, and
/// writes their skinned positions.
#[inline(always)]
fn skin_each_position(
    mesh: &Mesh,
    influences: &[VertexInfluences],
    out_positions: &mut [Vec3],
    mut four: impl FnMut(&[Vec3], &[Vec3], &[VertexInfluences], &mut [Vec3]),
) {
    let count = mesh.vertex_count();
    assert_eq!(influences.len(), count, "one influence list per vertex");
    assert_eq!(out_positions.len(), count, "one output position per vertex");
    let whole = count / 4 * 4;
    let groups = mesh.positions_model[..whole]
        .chunks_exact(4)
        .zip(mesh.normals_model[..whole].chunks_exact(4))
        .zip(influences[..whole].chunks_exact(4));
    for (((positions, normals), influence), out) in
        groups.zip(out_positions[..whole].chunks_exact_mut(4))
    {
        four(positions, normals, influence, out);
    }
    if count > whole {
        let (skinned, _) = padded(
            &mesh.positions_model[whole..],
            &mesh.normals_model[whole..],
            &influences[whole..],
            |p, n, influence, out_p, _| four(p, n, influence, out_p),
        );
        out_positions[whole..].copy_from_slice(&skinned[..count - whole]);
    }
}

pub use crate::skin::matrix_rows::MatrixRows;

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
        let (skinned, turned) = padded(
            &mesh.positions_model[whole..],
            &mesh.normals_model[whole..],
            &influences[whole..],
            four,
        );
        out_positions[whole..].copy_from_slice(&skinned[..rest]);
        out_normals[whole..].copy_from_slice(&turned[..rest]);
    }
}

/// [`skin_lbs_rows`] for one vertex: its skinned position and normal,
/// bit for bit what skinning the whole mesh gives it.
///
/// # Panics
///
/// If an influence names a bone outside `palette`.
pub fn lbs_vertex(
    position: Vec3,
    normal: Vec3,
    influence: &VertexInfluences,
    palette: &[MatrixRows],
) -> (Vec3, Vec3) {
    let (p, n) = padded(
        &[position],
        &[normal],
        &[*influence],
        |p, n, i, out_p, out_n| four_lanes::lbs(p, n, i, palette, out_p, out_n),
    );
    (p[0], n[0])
}

/// Runs `four` on up to four vertices, padded to four with uninfluenced
/// ones; the first `positions.len()` entries of the result are theirs.
#[inline(always)]
fn padded(
    positions: &[Vec3],
    normals: &[Vec3],
    influences: &[VertexInfluences],
    four: impl FnOnce(&[Vec3], &[Vec3], &[VertexInfluences], &mut [Vec3], &mut [Vec3]),
) -> ([Vec3; 4], [Vec3; 4]) {
    let count = positions.len();
    let mut rest_positions = [Vec3::ZERO; 4];
    let mut rest_normals = [Vec3::Z; 4];
    let mut rest_influences = [VertexInfluences::NONE; 4];
    rest_positions[..count].copy_from_slice(positions);
    rest_normals[..count].copy_from_slice(normals);
    rest_influences[..count].copy_from_slice(influences);
    let (mut skinned, mut turned) = ([Vec3::ZERO; 4], [Vec3::ZERO; 4]);
    four(
        &rest_positions,
        &rest_normals,
        &rest_influences,
        &mut skinned,
        &mut turned,
    );
    (skinned, turned)
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
/// Written for speed: four vertices at once (`four_lanes`), the blended
/// rotation applied to the point and the normal as two cross products each;
/// when every `S_i` is the identity (within `RIGID_TOLERANCE`, a rigid
/// pose) the scale/shear blend, its cofactor and the normal's
/// renormalisation are left out.
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
        skin_each(
            mesh,
            influences,
            out_positions,
            out_normals,
            |p, n, influence, out_p, out_n| {
                four_lanes::dqs_scaled(p, n, influence, palette, out_p, out_n)
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

/// [`skin_dqs`] for one vertex, bit for bit what skinning the whole mesh
/// gives it; `rigid` is [`is_rigid`] of the palette.
///
/// # Panics
///
/// If an influence names a bone outside `palette`.
pub fn dqs_vertex(
    position: Vec3,
    normal: Vec3,
    influence: &VertexInfluences,
    palette: &[RigidScale],
    rigid: bool,
) -> (Vec3, Vec3) {
    let (p, n) = padded(
        &[position],
        &[normal],
        &[*influence],
        |p, n, i, out_p, out_n| {
            if rigid {
                four_lanes::dqs_rigid(p, n, i, palette, out_p, out_n);
            } else {
                four_lanes::dqs_scaled(p, n, i, palette, out_p, out_n);
            }
        },
    );
    (p[0], n[0])
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

    /// A mesh of `count` vertices on four bones, up to four influences
    /// each, some with none, and a palette that turns, scales and moves.
    fn bent_mesh(count: usize) -> (Mesh, Vec<VertexInfluences>, Vec<Mat4>) {
        let positions = (0..count)
            .map(|v| {
                Vec3::new(
                    (v as f32 * 0.7).sin(),
                    v as f32 * 0.01,
                    (v as f32 * 1.3).cos(),
                )
            })
            .collect();
        let mut mesh = Mesh::new(positions, vec![]);
        for (v, normal) in mesh.normals_model.iter_mut().enumerate() {
            *normal = Vec3::new(1.0, v as f32 * 0.1, -0.5).normalize();
        }
        let influences = (0..count)
            .map(|v| match v % 5 {
                0 => VertexInfluences::NONE,
                k => {
                    let pairs: Vec<(u16, f32)> =
                        (0..k as u16).map(|b| (b, 1.0 + f32::from(b))).collect();
                    VertexInfluences::from_pairs(&pairs).0
                }
            })
            .collect();
        let palette = vec![
            Mat4::IDENTITY,
            Mat4::from_rotation_z(0.8),
            Mat4::from_scale_rotation_translation(
                Vec3::new(1.5, 0.5, 1.0),
                Quat::from_rotation_x(-1.1),
                Vec3::new(0.2, 1.0, -3.0),
            ),
            Mat4::from_rotation_translation(Quat::from_rotation_y(2.5), Vec3::X),
        ];
        (mesh, influences, palette)
    }

    #[test]
    fn positions_alone_are_the_positions_of_the_whole_skinning() {
        for count in [0, 1, 3, 4, 7, 41] {
            let (mesh, influences, palette) = bent_mesh(count);
            let rows: Vec<MatrixRows> = palette.iter().map(MatrixRows::from_affine).collect();
            let (mut whole, mut normals) = (vec![Vec3::ZERO; count], vec![Vec3::ZERO; count]);
            let mut alone = vec![Vec3::NAN; count];
            skin_lbs_rows(&mesh, &influences, &rows, &mut whole, &mut normals);
            skin_lbs_positions(&mesh, &influences, &rows, &mut alone);
            assert_eq!(alone, whole, "LBS, {count} vertices");
            // Rigid, and with the scale of bone 2.
            for dq_palette in [&palette[..2], &palette[..]] {
                let influences: Vec<VertexInfluences> = influences
                    .iter()
                    .map(|i| {
                        let mut i = *i;
                        i.bones = i.bones.map(|b| b % dq_palette.len() as u16);
                        i
                    })
                    .collect();
                let mut dq = vec![RigidScale::from_affine(&Mat4::IDENTITY); dq_palette.len()];
                dqs_palette(dq_palette, &mut dq);
                skin_dqs(&mesh, &influences, &dq, &mut whole, &mut normals);
                skin_dqs_positions(&mesh, &influences, &dq, &mut alone);
                assert_eq!(
                    alone,
                    whole,
                    "DQS, {count} vertices, rigid {}",
                    is_rigid(&dq)
                );
            }
        }
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
