//! How skinning data is laid out for the GPU: plain arrays the renderer
//! uploads as they are, built here so the layout is tested natively.

use glam::{Mat4, Vec4};

use crate::skin::dual_quat::RigidScale;
use crate::skin::influences::VertexInfluences;
use crate::skin::morph::MorphTarget;
use crate::skin::SkinningMethod;

/// `vec4`s per bone in the palette: the three rows of `M_i` for LBS; `q_r`,
/// `q_d` and the three rows of `S_i` for DQS; the three rows of `M_i` and
/// its rotation `q_i` (the polar part) for CoR.
pub fn bone_stride(method: SkinningMethod) -> usize {
    match method {
        SkinningMethod::Lbs => 3,
        SkinningMethod::Cor => 4,
        SkinningMethod::Dqs => 5,
    }
}

/// Writes the palette as `vec4`s, [`bone_stride`] per bone, into `out`
/// (cleared first).
pub fn palette_vectors(
    method: SkinningMethod,
    palette: &[Mat4],
    dqs: &[RigidScale],
    out: &mut Vec<[f32; 4]>,
) {
    out.clear();
    match method {
        SkinningMethod::Lbs => {
            for matrix in palette {
                out.extend([0, 1, 2].map(|row| matrix.row(row).to_array()));
            }
        }
        SkinningMethod::Cor => {
            for (matrix, entry) in palette.iter().zip(dqs) {
                out.extend([0, 1, 2].map(|row| matrix.row(row).to_array()));
                out.push(entry.rigid.real.to_array());
            }
        }
        SkinningMethod::Dqs => {
            for entry in dqs {
                out.push(entry.rigid.real.to_array());
                out.push(entry.rigid.dual.to_array());
                out.extend([0, 1, 2].map(|row| entry.scale_shear.row(row).extend(0.0).to_array()));
            }
        }
    }
}

/// Joint indices as `u16 × 4` per vertex, for `vertexAttribIPointer`.
pub fn joint_indices(influences: &[VertexInfluences]) -> Vec<u16> {
    influences.iter().flat_map(|v| v.bones).collect()
}

/// Weights as `f32 × 4` per vertex.
pub fn joint_weights(influences: &[VertexInfluences]) -> Vec<f32> {
    influences.iter().flat_map(|v| v.weights).collect()
}

/// The LBS rows of one bone applied to a point, as the shader does:
/// `p' = (r0 · p, r1 · p, r2 · p)` with `p = (x, y, z, 1)`.
pub fn apply_rows(rows: &[[f32; 4]], point: glam::Vec3) -> glam::Vec3 {
    let p = point.extend(1.0);
    glam::Vec3::new(
        Vec4::from(rows[0]).dot(p),
        Vec4::from(rows[1]).dot(p),
        Vec4::from(rows[2]).dot(p),
    )
}

/// Texels per row of the morph texture; the shader finds texel `k` at
/// `(k mod W, k div W)`.
pub const MORPH_TEXTURE_WIDTH: usize = 2048;

/// Texels in a row of the palette texture. Bone `b`'s `k`-th vector is
/// texel `i = b · stride + k`, at `(i mod W, i div W)`: rows of 1024 keep
/// 65,535 bones of 4 vectors within 256 rows, far inside the 2048 × 2048
/// every WebGL2 device allows (one bone a row would need as many rows as
/// bones, past `MAX_TEXTURE_SIZE` from 2,048 to 16,384 bones on).
pub const PALETTE_TEXTURE_WIDTH: usize = 1024;

/// Rows of the palette texture for `vectors` palette vectors, at least one.
pub fn palette_texture_rows(vectors: usize) -> usize {
    vectors.div_ceil(PALETTE_TEXTURE_WIDTH).max(1)
}

/// Morph targets a draw applies at most: the ones with the largest weights.
pub const MAX_ACTIVE_MORPHS: usize = 16;

/// The morph offsets as texels: for the `t`-th of `targets`, its `V`
/// position offsets then its `V` normal offsets (zero when it has none), so
/// texel `(2t)·V + v` is vertex `v`'s position offset and `(2t + 1)·V + v`
/// its normal offset. Padded to whole rows of [`MORPH_TEXTURE_WIDTH`];
/// returns the texels and the number of rows.
pub fn morph_texels(targets: &[&MorphTarget], vertex_count: usize) -> (Vec<[f32; 4]>, usize) {
    let mut texels = Vec::with_capacity(2 * targets.len() * vertex_count);
    for target in targets {
        texels.extend(target.positions.iter().map(|d| d.extend(0.0).to_array()));
        match &target.normals {
            Some(normals) => texels.extend(normals.iter().map(|d| d.extend(0.0).to_array())),
            None => texels.extend(std::iter::repeat_n([0.0; 4], vertex_count)),
        }
    }
    let rows = morph_texture_rows(targets.len(), vertex_count);
    texels.resize(rows * MORPH_TEXTURE_WIDTH, [0.0; 4]);
    (texels, rows)
}

/// Rows of the morph texture for `targets` targets of `vertex_count`
/// vertices.
pub fn morph_texture_rows(targets: usize, vertex_count: usize) -> usize {
    (2 * targets * vertex_count)
        .div_ceil(MORPH_TEXTURE_WIDTH)
        .max(1)
}

/// How many of the largest active targets fit a texture of at most
/// `max_rows` rows: all of `active`, or fewer on a large mesh.
pub fn morphs_that_fit(active: usize, vertex_count: usize, max_rows: usize) -> usize {
    (0..=active)
        .rev()
        .find(|&k| morph_texture_rows(k, vertex_count) <= max_rows)
        .unwrap_or(0)
}

/// The targets a draw applies: those with a weight other than zero, the
/// largest [`MAX_ACTIVE_MORPHS`] by magnitude, as `(target, weight)`.
pub fn active_morphs(weights: &[f32], out: &mut Vec<(u32, f32)>) {
    // Largest magnitude first, equal ones in target order.
    let mut order: Vec<(f32, u32)> = weights
        .iter()
        .enumerate()
        .filter(|(_, w)| **w != 0.0)
        .map(|(t, &w)| (-w.abs(), t as u32))
        .collect();
    crate::rig::sorting::sort_keyed(&mut order);
    out.clear();
    out.extend(
        order
            .iter()
            .take(MAX_ACTIVE_MORPHS)
            .map(|&(_, t)| (t, weights[t as usize])),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_many_of_the_largest_morphs_as_the_texture_holds() {
        // 16 targets of 100,000 vertices: 1,563 rows, within 2,048.
        assert_eq!(morph_texture_rows(16, 100_000), 1563);
        assert_eq!(morphs_that_fit(16, 100_000, 2048), 16);
        // A million vertices: 977 rows a target, two fit 2,048 rows.
        assert_eq!(morphs_that_fit(16, 1_000_000, 2048), 2);
        assert_eq!(morphs_that_fit(0, 1_000_000, 2048), 0);
    }

    #[test]
    fn the_palette_texture_wraps_into_rows_within_the_smallest_allowed_size() {
        assert_eq!(palette_texture_rows(0), 1);
        assert_eq!(palette_texture_rows(3), 1);
        assert_eq!(palette_texture_rows(1024), 1);
        assert_eq!(palette_texture_rows(1025), 2);
        // 9,000 bones of 3 vectors: 27 rows, where one bone a row needs 9,000.
        assert_eq!(palette_texture_rows(9000 * 3), 27);
        assert!(palette_texture_rows(65_535 * 4) <= 2048);
    }
    use glam::{Quat, Vec3};

    #[test]
    fn lbs_rows_reproduce_the_matrix() {
        let matrix = Mat4::from_scale_rotation_translation(
            Vec3::new(1.0, 2.0, 1.0),
            Quat::from_rotation_z(0.3),
            Vec3::X,
        );
        let mut out = Vec::new();
        palette_vectors(SkinningMethod::Lbs, &[matrix], &[], &mut out);
        assert_eq!(out.len(), 3);
        let point = Vec3::new(0.5, -1.0, 2.0);
        assert!(apply_rows(&out, point).abs_diff_eq(matrix.transform_point3(point), 1e-6));
    }

    #[test]
    fn dqs_layout_has_five_vectors_per_bone() {
        let entry = RigidScale::from_affine(&Mat4::from_rotation_x(0.4));
        let mut out = Vec::new();
        palette_vectors(SkinningMethod::Dqs, &[], &[entry, entry], &mut out);
        assert_eq!(out.len(), 2 * bone_stride(SkinningMethod::Dqs));
        assert_eq!(out[5], entry.rigid.real.to_array());
    }
}
