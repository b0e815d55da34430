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
    // Each cell's first-found vertices as a list through `next`, in the
    // order they were found (no list allocated per cell).
    let mut head_tail: FxHashMap<(i64, i64, i64), (u32, u32)> = FxHashMap::default();
    let mut next = vec![u32::MAX; positions.len()];
    let mut first = Vec::with_capacity(positions.len());
    for (index, &p) in positions.iter().enumerate() {
        let scaled = p / cube;
        let cell = scaled.floor();
        let (x, y, z) = (cell.x as i64, cell.y as i64, cell.z as i64);
        // A copy within the tolerance (half a cell) lies in this cell or
        // the next one on the side of the cell `p` is nearer; cells within
        // 1 % of a cell of the middle are searched on both sides. The
        // cells are taken in the same order as the 27 around would be, so
        // the first copy found is the one a search of all 27 finds.
        let part = scaled - cell;
        let sides = |f: f32| [f < 0.51, true, f > 0.49];
        let [sx, sy, sz] = [sides(part.x), sides(part.y), sides(part.z)];
        let mut found: Option<u32> = None;
        'cells: for dx in (-1..=1).filter(|&d| sx[(d + 1) as usize]) {
            for dy in (-1..=1).filter(|&d| sy[(d + 1) as usize]) {
                for dz in (-1..=1).filter(|&d| sz[(d + 1) as usize]) {
                    let Some(&(mut at, _)) = head_tail.get(&(x + dx, y + dy, z + dz)) else {
                        continue;
                    };
                    while at != u32::MAX {
                        if positions[at as usize].distance(p) <= tolerance {
                            found = Some(at);
                            break 'cells;
                        }
                        at = next[at as usize];
                    }
                }
            }
        }
        match found {
            Some(earlier) => first.push(first[earlier as usize]),
            None => {
                first.push(index as u32);
                let entry = head_tail
                    .entry((x, y, z))
                    .or_insert((index as u32, index as u32));
                if entry.1 != index as u32 {
                    next[entry.1 as usize] = index as u32;
                    entry.1 = index as u32;
                }
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
    use proptest::prelude::*;

    proptest! {
        /// Places far apart (at least 4 tolerances), each taken by a few
        /// copies jittered within a tenth of the tolerance, anywhere in
        /// their cells (the search's cells are two tolerances wide), in a
        /// shuffled order: each vertex's first copy is the lowest index at
        /// its place.
        #[test]
        fn each_copy_finds_the_first_vertex_at_its_place(
            places in prop::collection::vec((prop::array::uniform3(0_i32..40), prop::array::uniform3(0.0_f32..1.0)), 1..40),
            copies in prop::collection::vec((0_usize..1000, prop::array::uniform3(-1.0_f32..1.0)), 1..120),
        ) {
            let tolerance = 0.01;
            // Place k on a lattice 4 tolerances apart, moved up to one
            // tolerance inside it: never within 2 tolerances of another.
            let centre = |k: usize| {
                let (cell, offset) = places[k];
                (Vec3::from_array(cell.map(|c| c as f32)) * 4.0 + Vec3::from_array(offset)) * tolerance
            };
            let mut unique = places.clone();
            unique.sort_by_key(|&(cell, _)| cell);
            unique.dedup_by_key(|&mut (cell, _)| cell);
            prop_assume!(unique.len() == places.len());
            let vertices: Vec<(usize, Vec3)> = copies
                .iter()
                .map(|&(k, jitter)| {
                    let k = k % places.len();
                    (k, centre(k) + Vec3::from_array(jitter) * 0.05 * tolerance)
                })
                .collect();
            let positions: Vec<Vec3> = vertices.iter().map(|&(_, p)| p).collect();
            let first = first_copies(&positions, tolerance);
            for (v, &(k, _)) in vertices.iter().enumerate() {
                let lowest = vertices.iter().position(|&(j, _)| j == k).unwrap_or(v);
                prop_assert_eq!(first[v] as usize, lowest, "vertex {} of place {}", v, k);
            }
        }
    }

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
