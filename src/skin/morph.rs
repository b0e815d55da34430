//! Morph targets (the bones note): each vertex the weighted sum of its versions,
//! the base weighted `1 − Σ m_k`. Stored as offsets `D_k = S_k − B`, that
//! sum is `B + Σ m_k D_k` — the same thing, since
//! `(1 − Σ m_k) B + Σ m_k S_k = B + Σ m_k (S_k − B)`. Morphing comes before
//! skinning: `Z = Σ w_i M_i (B + Σ m_k D_k)`, as glTF orders them.

use glam::Vec3;

use super::mesh::Mesh;

/// One target: per-vertex offsets from the base mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct MorphTarget {
    /// A label for the page.
    pub name: String,
    /// `D_k`: one position offset per vertex, model space.
    pub positions: Vec<Vec3>,
    /// Normal offsets, one per vertex, when the target has them.
    pub normals: Option<Vec<Vec3>>,
}

/// The morphed base: `B + Σ m_k D_k` for positions and
/// `normalize(N + Σ m_k dN_k)` for normals (skinning takes unit normals),
/// written into `out`, whose triangles are the base's.
///
/// # Panics
///
/// If a target or `weights` does not match the base's vertex count or the
/// number of targets.
pub fn morph(base: &Mesh, targets: &[MorphTarget], weights: &[f32], out: &mut Mesh) {
    assert_eq!(targets.len(), weights.len(), "one weight per target");
    out.positions_model.clone_from(&base.positions_model);
    out.normals_model.clone_from(&base.normals_model);
    if out.indices != base.indices {
        out.indices.clone_from(&base.indices);
    }
    for (target, &weight) in targets.iter().zip(weights) {
        if weight == 0.0 {
            continue;
        }
        assert_eq!(
            target.positions.len(),
            base.vertex_count(),
            "one offset per vertex"
        );
        for (position, offset) in out.positions_model.iter_mut().zip(&target.positions) {
            *position += weight * *offset;
        }
        if let Some(normals) = &target.normals {
            for (normal, offset) in out.normals_model.iter_mut().zip(normals) {
                *normal += weight * *offset;
            }
        }
    }
    if targets.iter().any(|target| target.normals.is_some()) {
        for (normal, base) in out.normals_model.iter_mut().zip(&base.normals_model) {
            *normal = normal.try_normalize().unwrap_or(*base);
        }
    }
}

/// Whether any weight is not zero, so morphing changes anything.
pub fn any_active(weights: &[f32]) -> bool {
    weights.iter().any(|&w| w != 0.0)
}

/// The base weight of the bones note's absolute form, `1 − Σ m_k`.
pub fn base_weight(weights: &[f32]) -> f32 {
    1.0 - weights.iter().sum::<f32>()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip() -> Mesh {
        Mesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![0, 1, 2])
    }

    fn raise(name: &str, dy: f32) -> MorphTarget {
        MorphTarget {
            name: name.to_owned(),
            positions: vec![Vec3::ZERO, Vec3::new(0.0, dy, 0.0), Vec3::ZERO],
            normals: None,
        }
    }

    #[test]
    fn zero_weights_leave_the_base_one_weight_gives_the_target_two_add() {
        let base = strip();
        let targets = [raise("up", 1.0), raise("more", 0.5)];
        let mut out = base.clone();
        morph(&base, &targets, &[0.0, 0.0], &mut out);
        assert_eq!(out.positions_model, base.positions_model);
        morph(&base, &targets, &[1.0, 0.0], &mut out);
        assert_eq!(out.positions_model[1], Vec3::new(1.0, 1.0, 0.0));
        morph(&base, &targets, &[1.0, 1.0], &mut out);
        assert_eq!(out.positions_model[1], Vec3::new(1.0, 1.5, 0.0));
        // The bones note's absolute form gives the same point.
        let weights = [0.3_f32, 0.4];
        morph(&base, &targets, &weights, &mut out);
        let shapes = [Vec3::new(1.0, 1.0, 0.0), Vec3::new(1.0, 0.5, 0.0)];
        let absolute =
            base_weight(&weights) * Vec3::X + weights[0] * shapes[0] + weights[1] * shapes[1];
        assert!(out.positions_model[1].abs_diff_eq(absolute, 1e-6));
    }
}
