//! What a mesh brings to binding, counted before it is bound: loose parts
//! (eyes, teeth, buttons), vertices that repeat an earlier one's place (UV
//! seams, meshes that meet), edges that more than two triangles share,
//! triangles of no area, and triangles wound against their neighbours.
//! Each figure is of the mesh with its coincident vertices welded, as the
//! automatic weights solve on it.

use rustc_hash::FxHashMap;

use super::auto_weights::mesh_scale;
use super::weld::{first_copies, WELD_TOLERANCE};
use crate::skin::mesh::Mesh;

/// The figures of [`mesh_report`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MeshReport {
    /// Pieces of surface that share no edge or vertex place with another.
    pub loose_parts: usize,
    /// Vertices at the place of an earlier vertex.
    pub duplicate_vertices: usize,
    /// Edges (between welded places) that three or more triangles share.
    pub non_manifold_edges: usize,
    /// Edges that one triangle alone has: the rim of an open surface.
    pub open_edges: usize,
    /// Triangles whose area is below `1e-12` of the size squared, or that
    /// name one place twice.
    pub degenerate_triangles: usize,
    /// Triangles wound against the most of their loose part (each part's
    /// smaller side of an orientation that the shared edges pass on).
    pub flipped_triangles: usize,
    /// The bounding box's diagonal.
    pub size: f32,
}

/// Counts what [`MeshReport`] lists for `mesh`.
pub fn mesh_report(mesh: &Mesh) -> MeshReport {
    let size = mesh_scale(mesh);
    let first = first_copies(&mesh.positions_model, WELD_TOLERANCE * size);
    let duplicate_vertices = first
        .iter()
        .enumerate()
        .filter(|&(v, &f)| f as usize != v)
        .count();
    let place = |v: u32| first[v as usize];
    let triangles: Vec<[u32; 3]> = mesh
        .indices
        .chunks_exact(3)
        .map(|t| [place(t[0]), place(t[1]), place(t[2])])
        .collect();
    let positions = &mesh.positions_model;
    let area_floor = 1e-12 * size * size;
    let degenerate = |t: &[u32; 3]| {
        let [a, b, c] = t.map(|v| positions[v as usize]);
        t[0] == t[1]
            || t[1] == t[2]
            || t[0] == t[2]
            || (b - a).cross(c - a).length() * 0.5 <= area_floor
    };
    let degenerate_triangles = triangles.iter().filter(|t| degenerate(t)).count();
    // Each undirected edge with the triangles that use it and the way each
    // goes along it.
    let mut edges: FxHashMap<(u32, u32), Vec<(usize, bool)>> = FxHashMap::default();
    for (k, t) in triangles.iter().enumerate() {
        if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
            continue;
        }
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            edges
                .entry((a.min(b), a.max(b)))
                .or_default()
                .push((k, a < b));
        }
    }
    let non_manifold_edges = edges.values().filter(|users| users.len() > 2).count();
    let open_edges = edges.values().filter(|users| users.len() == 1).count();
    let (loose_parts, flipped_triangles) = parts_and_flips(mesh.vertex_count(), &triangles, &edges);
    MeshReport {
        loose_parts,
        duplicate_vertices,
        non_manifold_edges,
        open_edges,
        degenerate_triangles,
        flipped_triangles,
        size,
    }
}

/// The loose parts (triangles joined through shared places, and vertices
/// no triangle uses left out) and the flipped triangles: an orientation
/// spread from each part's first triangle across its two-triangle edges,
/// each part counting the smaller of its two sides.
fn parts_and_flips(
    vertex_count: usize,
    triangles: &[[u32; 3]],
    edges: &FxHashMap<(u32, u32), Vec<(usize, bool)>>,
) -> (usize, usize) {
    // Parts by places: a union–find over the vertices.
    let mut parent: Vec<u32> = (0..vertex_count as u32).collect();
    fn root(parent: &mut [u32], mut v: u32) -> u32 {
        while parent[v as usize] != v {
            parent[v as usize] = parent[parent[v as usize] as usize];
            v = parent[v as usize];
        }
        v
    }
    let mut used = vec![false; vertex_count];
    for t in triangles {
        for &v in t {
            used[v as usize] = true;
        }
        let a = root(&mut parent, t[0]);
        for &v in &t[1..] {
            let b = root(&mut parent, v);
            parent[b as usize] = a;
        }
    }
    let parts = (0..vertex_count as u32)
        .filter(|&v| used[v as usize] && root(&mut parent, v) == v)
        .count();
    // Orientation: a triangle's side relative to the first of its region.
    let mut side: Vec<Option<bool>> = vec![None; triangles.len()];
    let mut neighbours: Vec<Vec<(usize, bool)>> = vec![Vec::new(); triangles.len()];
    for users in edges.values() {
        if let [(t, forward_t), (u, forward_u)] = users[..] {
            // Consistent winding goes opposite ways along a shared edge.
            neighbours[t].push((u, forward_t == forward_u));
            neighbours[u].push((t, forward_t == forward_u));
        }
    }
    let mut flipped = 0;
    let mut stack = Vec::new();
    for start in 0..triangles.len() {
        if side[start].is_some() || neighbours[start].is_empty() {
            continue;
        }
        side[start] = Some(false);
        stack.push(start);
        let mut counts = [0usize; 2];
        while let Some(t) = stack.pop() {
            let mine = side[t].unwrap_or(false);
            counts[usize::from(mine)] += 1;
            for &(u, against) in &neighbours[t] {
                if side[u].is_none() {
                    side[u] = Some(mine ^ against);
                    stack.push(u);
                }
            }
        }
        flipped += counts[0].min(counts[1]);
    }
    (parts, flipped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// A closed tetrahedron, its faces wound outwards.
    fn tetrahedron(offset: Vec3) -> (Vec<Vec3>, Vec<u32>) {
        let points = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]
            .map(|p| p + offset)
            .to_vec();
        (points, vec![0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3])
    }

    #[test]
    fn a_closed_solid_has_nothing_to_report() {
        let (points, indices) = tetrahedron(Vec3::ZERO);
        let report = mesh_report(&Mesh::new(points, indices));
        assert_eq!(
            (
                report.loose_parts,
                report.duplicate_vertices,
                report.non_manifold_edges
            ),
            (1, 0, 0)
        );
        assert_eq!(
            (
                report.open_edges,
                report.degenerate_triangles,
                report.flipped_triangles
            ),
            (0, 0, 0)
        );
        assert!((report.size - 3f32.sqrt()).abs() < 1e-6);
    }

    #[test]
    fn each_defect_is_counted_where_it_was_made() {
        // Two solids apart; the second's last face wound backwards and
        // its first corner repeated as a vertex of its own (a seam).
        let (mut points, mut indices) = tetrahedron(Vec3::ZERO);
        let (more, more_indices) = tetrahedron(Vec3::splat(5.0));
        points.extend(&more);
        indices.extend(more_indices.iter().map(|i| i + 4));
        let last = indices.len() - 3;
        indices.swap(last, last + 1);
        points.push(points[4]);
        indices[12] = 8;
        // A fin: a third triangle on the first solid's edge 0–1, and a
        // triangle of no area.
        points.push(Vec3::new(0.5, -1.0, 0.0));
        indices.extend([0, 1, 9]);
        indices.extend([0, 1, 1]);
        let report = mesh_report(&Mesh::new(points, indices));
        assert_eq!(report.loose_parts, 2);
        assert_eq!(report.duplicate_vertices, 1);
        assert_eq!(report.non_manifold_edges, 1);
        assert_eq!(report.degenerate_triangles, 1);
        assert_eq!(report.flipped_triangles, 1);
    }
}
