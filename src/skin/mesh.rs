//! The skin: a triangle mesh in model space, in its rest (bind) pose.

use glam::Vec3;

/// A triangle mesh in model space, rest pose.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    /// Vertex positions, model space, rest pose.
    pub positions_model: Vec<Vec3>,
    /// Unit vertex normals, model space, rest pose: the area-weighted mean of
    /// the adjacent faces' normals (+Z for a vertex on no triangle).
    pub normals_model: Vec<Vec3>,
    /// Three vertex indices per triangle, counter-clockwise seen from the
    /// front.
    pub indices: Vec<u32>,
}

impl Mesh {
    /// Builds a mesh and derives its normals. The caller guarantees that
    /// `indices.len()` is a multiple of 3 and every index is in range.
    pub fn new(positions_model: Vec<Vec3>, indices: Vec<u32>) -> Self {
        let normals_model = vertex_normals(&positions_model, &indices);
        Self {
            positions_model,
            normals_model,
            indices,
        }
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.positions_model.len()
    }

    /// The bounding box's lowest and highest corners (infinite, the wrong
    /// way round, for no vertices).
    pub fn bounds(&self) -> (Vec3, Vec3) {
        self.positions_model.iter().fold(
            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
            |(lo, hi), &p| (lo.min(p), hi.max(p)),
        )
    }

    /// Each edge `(a, b)` with `a < b` once, in order of first appearance.
    pub fn edges(&self) -> Vec<(u32, u32)> {
        // FxHash, not SipHash: a 100,000-vertex mesh has 300,000 edges, and
        // nothing here needs protection from chosen collisions.
        let mut seen = rustc_hash::FxHashSet::default();
        let mut edges = Vec::new();
        for triangle in self.indices.chunks_exact(3) {
            for (a, b) in [(0, 1), (1, 2), (2, 0)] {
                let edge = (triangle[a].min(triangle[b]), triangle[a].max(triangle[b]));
                if seen.insert(edge) {
                    edges.push(edge);
                }
            }
        }
        edges
    }
}

/// `n_v = normalize(Σ_faces (b − a) × (c − a))` over the faces around `v`:
/// area-weighted face normals.
pub fn vertex_normals(positions: &[Vec3], indices: &[u32]) -> Vec<Vec3> {
    let mut sums = vec![Vec3::ZERO; positions.len()];
    for triangle in indices.chunks_exact(3) {
        let [a, b, c] = [0, 1, 2].map(|k| triangle[k] as usize);
        let face = (positions[b] - positions[a]).cross(positions[c] - positions[a]);
        for vertex in [a, b, c] {
            sums[vertex] += face;
        }
    }
    sums.into_iter()
        .map(|sum| sum.try_normalize().unwrap_or(Vec3::Z))
        .collect()
}

/// A closed box from `min` to `max` as eight corners and twelve triangles,
/// its indices counted from `first`: a solid for tests.
#[cfg(test)]
pub(crate) fn test_box(min: Vec3, max: Vec3, first: u32) -> (Vec<Vec3>, Vec<u32>) {
    let corner = |k: u32| {
        Vec3::new(
            if k & 1 == 0 { min.x } else { max.x },
            if k & 2 == 0 { min.y } else { max.y },
            if k & 4 == 0 { min.z } else { max.z },
        )
    };
    let quads = [
        [0, 1, 3, 2],
        [4, 6, 7, 5],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
        [0, 2, 6, 4],
        [1, 5, 7, 3],
    ];
    let indices = quads
        .iter()
        .flat_map(|q| [q[0], q[1], q[2], q[0], q[2], q[3]])
        .map(|i| i + first)
        .collect();
    ((0..8).map(corner).collect(), indices)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counter_clockwise_quad_faces_plus_z() {
        let positions = vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y];
        let mesh = Mesh::new(positions, vec![0, 1, 2, 0, 2, 3]);
        assert!(mesh.normals_model.iter().all(|n| *n == Vec3::Z));
        assert_eq!(mesh.edges().len(), 5);
    }
}
