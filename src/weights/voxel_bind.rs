//! Geodesic voxel binding (after Dionne and de Lasa 2013): the mesh's
//! solid is voxelised, and each bone's distance to each vertex is measured
//! through the solid only, so that an arm resting against the hip takes no
//! weight from it and a mesh of many parts, holes or self-intersections
//! still binds. Distances turn into weights by a falloff.
//!
//! - **Voxels**: a grid of `resolution` cells along the bounding box's
//!   longest side. Cells a triangle passes through are the surface; cells
//!   reached from the grid's border without crossing the surface are
//!   outside; the rest (surface included) are the solid. A mesh with holes
//!   leaks, and its solid is then its surface shell, along which distances
//!   are still measured.
//! - **Distances**: from the solid cells a bone passes through (or, for a
//!   bone outside the solid, the solid cell nearest its segment), over the solid's
//!   26-neighbourhood (steps of 1, √2, √3 cells), by Dijkstra's algorithm;
//!   a vertex takes the distance of the solid cell nearest it, plus its
//!   offset from that cell's centre.
//! - **Falloff**: `w = ((1 − α)·d + α·d²)^−2` with `d` in cells (plus one,
//!   so that a bone's own cells weigh finitely) and `α = 0.2`; the four
//!   largest are kept and normalised by the caller.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::{IVec3, Vec3};

use crate::skin::mesh::Mesh;

/// Cells along the longest side when not told otherwise.
pub const DEFAULT_RESOLUTION: usize = 96;

/// The most cells along the longest side.
pub const MAX_RESOLUTION: usize = 256;

/// The falloff's blend of linear and squared distance.
const ALPHA: f32 = 0.2;

/// A voxel grid over a box.
struct Grid {
    origin: Vec3,
    cell: f32,
    size: IVec3,
}

impl Grid {
    fn over(mesh: &Mesh, resolution: usize) -> Self {
        let (min, max) = mesh.bounds();
        let longest = (max - min).max_element().max(f32::MIN_POSITIVE);
        let cell = longest / resolution as f32;
        // One empty cell around everything, so that the outside is connected.
        let origin = min - Vec3::splat(cell);
        let size = (((max - min) / cell).ceil().as_ivec3() + IVec3::splat(3)).max(IVec3::ONE);
        Self { origin, cell, size }
    }

    fn count(&self) -> usize {
        (self.size.x * self.size.y * self.size.z) as usize
    }

    fn cell_of(&self, p: Vec3) -> IVec3 {
        ((p - self.origin) / self.cell)
            .floor()
            .as_ivec3()
            .clamp(IVec3::ZERO, self.size - 1)
    }

    fn index(&self, c: IVec3) -> usize {
        (c.x + self.size.x * (c.y + self.size.y * c.z)) as usize
    }

    fn centre(&self, index: usize) -> Vec3 {
        let i = index as i32;
        let c = IVec3::new(
            i % self.size.x,
            (i / self.size.x) % self.size.y,
            i / (self.size.x * self.size.y),
        );
        self.origin + (c.as_vec3() + 0.5) * self.cell
    }

    fn inside(&self, c: IVec3) -> bool {
        c.cmpge(IVec3::ZERO).all() && c.cmplt(self.size).all()
    }

    /// Marks the cells of points along `a`–`b`, half a cell apart.
    fn mark_segment(&self, a: Vec3, b: Vec3, mut mark: impl FnMut(usize)) {
        let steps = ((b - a).length() / (0.5 * self.cell)).ceil().max(1.0) as usize;
        for k in 0..=steps {
            mark(self.index(self.cell_of(a.lerp(b, k as f32 / steps as f32))));
        }
    }
}

/// The 26 neighbours of a cell and the length of each step, in cells.
fn neighbours() -> Vec<(IVec3, f32)> {
    let mut list = Vec::with_capacity(26);
    for z in -1..=1 {
        for y in -1..=1 {
            for x in -1..=1 {
                let d = IVec3::new(x, y, z);
                if d != IVec3::ZERO {
                    list.push((d, d.as_vec3().length()));
                }
            }
        }
    }
    list
}

/// The solid: surface cells and those the outside cannot reach.
fn solid(grid: &Grid, mesh: &Mesh) -> Vec<bool> {
    let mut surface = vec![false; grid.count()];
    let p = &mesh.positions_model;
    for t in mesh.indices.chunks_exact(3) {
        let [a, b, c] = [p[t[0] as usize], p[t[1] as usize], p[t[2] as usize]];
        // Rows from the edge a–b towards c, half a cell apart.
        let rows = ((c - a).length().max((c - b).length()) / (0.5 * grid.cell))
            .ceil()
            .max(1.0) as usize;
        for r in 0..=rows {
            let f = r as f32 / rows as f32;
            grid.mark_segment(a.lerp(c, f), b.lerp(c, f), |i| surface[i] = true);
        }
    }
    // The outside, flooded from the border cell (0, 0, 0), which the
    // margin leaves empty.
    let mut outside = vec![false; grid.count()];
    let mut stack = vec![IVec3::ZERO];
    outside[0] = true;
    let faces = [
        IVec3::X,
        IVec3::NEG_X,
        IVec3::Y,
        IVec3::NEG_Y,
        IVec3::Z,
        IVec3::NEG_Z,
    ];
    while let Some(c) = stack.pop() {
        for d in faces {
            let n = c + d;
            if grid.inside(n) {
                let i = grid.index(n);
                if !outside[i] && !surface[i] {
                    outside[i] = true;
                    stack.push(n);
                }
            }
        }
    }
    outside.iter().map(|o| !o).collect()
}

/// Each bone's geodesic distance (in cells) to each vertex through the
/// solid of `mesh`, at `resolution` cells along its longest side; calls
/// `each(bone, distances)` once a bone is measured.
///
/// Longer than a screen: the grid, the solid, each vertex's cell and the
/// Dijkstra per bone share the grid's arrays, which are allocated once and
/// reused for every bone.
pub fn geodesic_distances(
    mesh: &Mesh,
    segments: &[(Vec3, Vec3)],
    resolution: usize,
    mut each: impl FnMut(usize, &[f32]),
) {
    if mesh.vertex_count() == 0 {
        return;
    }
    let grid = Grid::over(mesh, resolution.clamp(8, MAX_RESOLUTION));
    let solid = solid(&grid, mesh);
    let solid_cells: Vec<usize> = (0..grid.count()).filter(|&i| solid[i]).collect();
    let nearest_solid = |p: Vec3| -> usize {
        let own = grid.index(grid.cell_of(p));
        if solid[own] || solid_cells.is_empty() {
            return own;
        }
        nearest_to_segment(&grid, &solid_cells, (p, p))
    };
    // Each vertex's solid cell and its offset from the cell's centre.
    let vertex_cells: Vec<(usize, f32)> = mesh
        .positions_model
        .iter()
        .map(|&p| {
            let cell = nearest_solid(p);
            (cell, grid.centre(cell).distance(p) / grid.cell)
        })
        .collect();
    let steps = neighbours();
    let mut distance = vec![f32::INFINITY; grid.count()];
    let mut out = vec![0.0f32; mesh.vertex_count()];
    for (bone, &(a, b)) in segments.iter().enumerate() {
        distance.fill(f32::INFINITY);
        let mut heap = BinaryHeap::new();
        let mut seeded = false;
        grid.mark_segment(a, b, |i| {
            if solid[i] && distance[i] > 0.0 {
                distance[i] = 0.0;
                heap.push(Reverse((0u32, i)));
                seeded = true;
            }
        });
        if !seeded {
            let start = nearest_to_segment(&grid, &solid_cells, (a, b));
            distance[start] = 0.0;
            heap.push(Reverse((0u32, start)));
        }
        while let Some(Reverse((key, i))) = heap.pop() {
            let d = f32::from_bits(key);
            if d > distance[i] {
                continue;
            }
            let centre = grid.cell_of(grid.centre(i));
            for &(step, length) in &steps {
                let n = centre + step;
                if !grid.inside(n) {
                    continue;
                }
                let j = grid.index(n);
                let next = d + length;
                if solid[j] && next < distance[j] {
                    distance[j] = next;
                    // Non-negative floats order as their bits do.
                    heap.push(Reverse((next.to_bits(), j)));
                }
            }
        }
        for (slot, &(cell, offset)) in out.iter_mut().zip(&vertex_cells) {
            *slot = distance[cell] + offset;
        }
        each(bone, &out);
    }
}

/// The cell of `cells` (the solid's, not empty) whose centre is nearest
/// the segment `a`–`b` (a point where `a` is `b`): where a bone outside
/// the solid starts, and the cell of a vertex outside it.
fn nearest_to_segment(grid: &Grid, cells: &[usize], (a, b): (Vec3, Vec3)) -> usize {
    let along = b - a;
    let length_squared = along.length_squared().max(f32::MIN_POSITIVE);
    let gap = |cell: usize| {
        let p = grid.centre(cell);
        let t = ((p - a).dot(along) / length_squared).clamp(0.0, 1.0);
        p.distance_squared(a + along * t)
    };
    cells
        .iter()
        .copied()
        .min_by(|&x, &y| gap(x).total_cmp(&gap(y)))
        .unwrap_or(0)
}

/// The falloff of a geodesic distance `d` in cells.
pub fn falloff(d: f32) -> f32 {
    let d = d + 1.0;
    let blended = (1.0 - ALPHA) * d + ALPHA * d * d;
    1.0 / (blended * blended)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_goes_around_through_the_solid_not_across_a_gap() {
        // Two upright boxes joined at the bottom by a bar (a U): a bone in
        // the left box is far from the right box's top by way of the bar,
        // though close across the gap.
        let mut points = Vec::new();
        let mut indices = Vec::new();
        for (min, max) in [
            (Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 4.0, 1.0)),
            (Vec3::new(1.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0)),
            (Vec3::new(2.0, 0.0, 0.0), Vec3::new(3.0, 4.0, 1.0)),
        ] {
            let (p, i) = crate::skin::mesh::test_box(min, max, points.len() as u32);
            points.extend(p);
            indices.extend(i);
        }
        let mesh = Mesh::new(points, indices);
        let left_bone = (Vec3::new(0.5, 2.5, 0.5), Vec3::new(0.5, 3.5, 0.5));
        let mut distances = Vec::new();
        geodesic_distances(&mesh, &[left_bone], 48, |_, d| distances = d.to_vec());
        // Vertex 6 of the third box is its top-left corner (2, 4, 0).
        let right_top = 16 + 2;
        let left_top = 2;
        let cell = 3.0 / 48.0;
        let straight = Vec3::new(2.0, 4.0, 0.0).distance(Vec3::new(0.5, 3.5, 0.5)) / cell;
        assert!(
            distances[right_top] > 2.0 * straight,
            "{} cells, straight {straight}",
            distances[right_top]
        );
        assert!(distances[left_top] < distances[right_top] / 3.0);
        assert!(falloff(distances[left_top]) > 100.0 * falloff(distances[right_top]));
    }
}
