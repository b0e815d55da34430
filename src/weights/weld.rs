//! Coincident vertices: a file splits a vertex where its UVs or normals
//! part (a seam) and where two meshes of one skin meet (a body and its
//! head). Each copy is a vertex of its own to the mesh's connectivity, so
//! a method that solves over the surface gives the copies their own weights
//! and the skin tears there when posed. Welding them first, and copying
//! the result back, gives one place one weight.

use glam::Vec3;
use rustc_hash::FxHashMap;

use crate::skin::mesh::Mesh;

/// The distance under which two vertices are one place, as a fraction of
/// the mesh's bounding-box diagonal.
pub const WELD_TOLERANCE: f32 = 1e-5;

/// For each vertex, the first vertex (lowest index) at its place, within
/// `tolerance`: itself when it has no earlier copy. A copy of a copy points
/// at the first of the chain.
pub fn first_copies(positions: &[Vec3], tolerance: f32) -> Vec<u32> {
    let cube = 2.0 * tolerance.max(f32::MIN_POSITIVE);
    let cell = |p: Vec3| {
        let c = (p / cube).floor();
        (c.x as i64, c.y as i64, c.z as i64)
    };
    let mut by_cell: FxHashMap<(i64, i64, i64), Vec<u32>> = FxHashMap::default();
    let mut first = Vec::with_capacity(positions.len());
    for (index, &p) in positions.iter().enumerate() {
        let (x, y, z) = cell(p);
        let mut found: Option<u32> = None;
        // The 27 cells around: a copy within the tolerance lies in one.
        'cells: for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let Some(list) = by_cell.get(&(x + dx, y + dy, z + dz)) else {
                        continue;
                    };
                    if let Some(&earlier) = list
                        .iter()
                        .find(|&&e| positions[e as usize].distance(p) <= tolerance)
                    {
                        found = Some(earlier);
                        break 'cells;
                    }
                }
            }
        }
        match found {
            Some(earlier) => first.push(first[earlier as usize]),
            None => {
                first.push(index as u32);
                by_cell.entry((x, y, z)).or_default().push(index as u32);
            }
        }
    }
    first
}

/// A mesh with its coincident vertices welded into one.
pub struct Welded {
    /// The welded mesh; `None` when no two vertices share a place.
    pub mesh: Option<Mesh>,
    /// Each vertex of the original mesh's vertex in the welded one.
    pub index: Vec<u32>,
}

impl Welded {
    /// Welds the vertices of `mesh` within `tolerance` of each other;
    /// triangles that collapse are left out.
    pub fn of(mesh: &Mesh, tolerance: f32) -> Self {
        let first = first_copies(&mesh.positions_model, tolerance);
        let mut index = vec![0u32; first.len()];
        let mut positions = Vec::new();
        for (vertex, &copy) in first.iter().enumerate() {
            index[vertex] = if copy as usize == vertex {
                positions.push(mesh.positions_model[vertex]);
                (positions.len() - 1) as u32
            } else {
                index[copy as usize]
            };
        }
        if positions.len() == first.len() {
            return Self { mesh: None, index };
        }
        let indices: Vec<u32> = mesh
            .indices
            .chunks_exact(3)
            .map(|t| {
                [
                    index[t[0] as usize],
                    index[t[1] as usize],
                    index[t[2] as usize],
                ]
            })
            .filter(|[a, b, c]| a != b && b != c && a != c)
            .flatten()
            .collect();
        Self {
            mesh: Some(Mesh::new(positions, indices)),
            index,
        }
    }

    /// The mesh to solve on: the welded one, or `original` when nothing welded.
    pub fn solved<'a>(&'a self, original: &'a Mesh) -> &'a Mesh {
        self.mesh.as_ref().unwrap_or(original)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_point_at_their_first_vertex_and_others_at_themselves() {
        let p = [
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(1e-7, 0.0, 0.0),
            Vec3::X,
            Vec3::Y,
        ];
        assert_eq!(first_copies(&p, 1e-5), vec![0, 1, 0, 1, 4]);
    }

    #[test]
    fn a_seam_welds_into_one_strip() {
        // Two quads side by side, the shared edge split into copies.
        let positions = vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(2.0, 1.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
        ];
        let indices = vec![0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7];
        let welded = Welded::of(&Mesh::new(positions, indices), 1e-5);
        let mesh = welded.mesh.unwrap();
        assert_eq!(mesh.vertex_count(), 6);
        assert_eq!(welded.index[4], welded.index[1]);
        assert_eq!(welded.index[7], welded.index[2]);
        assert_eq!(mesh.indices.len(), 12);
    }
}
