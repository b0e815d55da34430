//! Automatic weights from the rest pose: nearest bone (rigid), distance
//! falloff (smooth), bone heat (Baran and Popović 2007) and geodesic voxel
//! binding (Dionne and de Lasa 2013).

use glam::{Mat4, Vec2, Vec3};

use crate::rig::skeleton::Skeleton;
use crate::skin::influences::{VertexInfluences, MAX_INFLUENCES};
use crate::skin::mesh::Mesh;
use crate::weights::bounds_tree::BoundsTree;
use crate::weights::ldlt::Ldlt;
use crate::weights::sparse::{conjugate_gradient, CsrMatrix};
use crate::weights::weld::{Welded, WELD_TOLERANCE};

/// Which automatic weighting to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AutoWeights {
    /// Each vertex wholly to the nearest bone (the bones note's first option).
    NearestBone,
    /// `w_i ∝ 1 / d_i⁴`, the four largest kept.
    DistanceFalloff,
    /// Heat diffusion over the mesh from each bone.
    BoneHeat,
    /// Geodesic distance through the voxelised solid, by a falloff
    /// ([`crate::weights::voxel_bind`]): for meshes of many parts, holes
    /// or self-intersections.
    Voxel,
}

/// What a computation did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AutoWeightsReport {
    /// Vertices that had more than four bones with weight and were pruned.
    pub pruned_vertices: usize,
    /// Whether bone heat tested that each vertex sees its bone through the
    /// mesh (always: a bounding-volume hierarchy keeps it fast).
    pub visibility_checked: bool,
    /// Conjugate-gradient iterations, summed over the bones (0 when the
    /// system was factored).
    pub iterations: usize,
    /// The vertices the method gave no weight (bone heat where no bone is
    /// seen and none diffuses), each handed wholly to its nearest bone.
    pub unreached: Vec<u32>,
    /// The vertices nearer to a bone that deforms nothing than to any that
    /// deforms (set by the lab, which knows which bones deform).
    pub nearest_non_deforming: Vec<u32>,
}

/// Each bone as a model-space segment `(origin, tip)` where the mesh was
/// bound to it (its rest frame, for a bone bound where it rests).
pub fn bone_segments(skeleton: &Skeleton) -> Vec<(Vec3, Vec3)> {
    segments_in(skeleton.model_from_bone_bind(), skeleton)
}

/// Each bone as a model-space segment `(origin, tip)` in the bone frames
/// `frames` (model from bone, one per bone): `frame · 0` to `frame · (0,
/// length, 0)`.
pub fn segments_in(frames: &[Mat4], skeleton: &Skeleton) -> Vec<(Vec3, Vec3)> {
    frames
        .iter()
        .zip(skeleton.bones())
        .map(|(frame, bone)| {
            (
                frame.transform_point3(Vec3::ZERO),
                frame.transform_point3(Vec3::new(0.0, bone.length, 0.0)),
            )
        })
        .collect()
}

/// The point of segment `a..b` closest to `p`.
pub fn closest_on_segment(p: Vec3, a: Vec3, b: Vec3) -> Vec3 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    a + ab * t
}

/// Computes weights for every vertex by `method`.
pub fn compute(
    skeleton: &Skeleton,
    mesh: &Mesh,
    method: AutoWeights,
) -> (Vec<VertexInfluences>, AutoWeightsReport) {
    let every_bone: Vec<usize> = (0..skeleton.len()).collect();
    compute_for(skeleton, mesh, method, &every_bone)
}

/// As [`compute`], weighting only to `bones` (a glTF character's joints,
/// not the armature above them or its rigid parts).
pub fn compute_for(
    skeleton: &Skeleton,
    mesh: &Mesh,
    method: AutoWeights,
    bones: &[usize],
) -> (Vec<VertexInfluences>, AutoWeightsReport) {
    compute_with_progress(skeleton, mesh, method, bones, &mut |_, _| {})
}

/// As [`compute_for`], calling `progress(done, total)` as the work goes
/// (bone heat: after each bone's solve; distance: after each block of
/// vertices), for a page that shows how far a long computation is.
///
/// Longer than a screen: each method's preparation (the welded mesh, the
/// deforming bones, the segments) is shared, and each method is a branch of one
/// match over them.
pub fn compute_with_progress(
    skeleton: &Skeleton,
    mesh: &Mesh,
    method: AutoWeights,
    bones: &[usize],
    progress: &mut dyn FnMut(usize, usize),
) -> (Vec<VertexInfluences>, AutoWeightsReport) {
    let all_segments = bone_segments(skeleton);
    let segments: Vec<(Vec3, Vec3)> = bones.iter().map(|&b| all_segments[b]).collect();
    let mut report = AutoWeightsReport::default();
    // Each vertex keeps its largest weights as they are found, not one per
    // bone: 4,000 bones on 20,000 vertices would otherwise hold 80 million.
    let mut per_vertex = vec![Largest::default(); mesh.vertex_count()];
    match method {
        AutoWeights::NearestBone => {
            for (largest, &p) in per_vertex.iter_mut().zip(&mesh.positions_model) {
                largest.offer(nearest_bone(p, &segments, |_| true).0, 1.0);
            }
        }
        AutoWeights::DistanceFalloff => {
            let scale = mesh_scale(mesh);
            let total = per_vertex.len();
            for (vertex, (largest, &p)) in
                per_vertex.iter_mut().zip(&mesh.positions_model).enumerate()
            {
                for (bone, &(a, b)) in segments.iter().enumerate() {
                    let d = p.distance(closest_on_segment(p, a, b)) + 1e-3 * scale;
                    largest.offer(bone as u16, 1.0 / (d * d * d * d));
                }
                if vertex % 4096 == 4095 {
                    progress(vertex + 1, total);
                }
            }
        }
        AutoWeights::BoneHeat => {
            let total = segments.len();
            // Solved on the welded mesh, so that the copies of a vertex
            // (a seam, meshes that meet) share one weight.
            let welded = Welded::of(mesh, WELD_TOLERANCE * mesh_scale(mesh));
            let (visibility_checked, iterations) = bone_heat_each(
                welded.solved(mesh),
                &segments,
                HeatSolver::Factored,
                |bone, column| {
                    for (largest, &at) in per_vertex.iter_mut().zip(&welded.index) {
                        let w = column[at as usize].clamp(0.0, 1.0) as f32;
                        if w > 1e-4 {
                            largest.offer(bone as u16, w);
                        }
                    }
                    progress(bone + 1, total);
                },
            );
            report.visibility_checked = visibility_checked;
            report.iterations = iterations;
        }
        AutoWeights::Voxel => {
            let total = segments.len();
            crate::weights::voxel_bind::geodesic_distances(
                mesh,
                &segments,
                crate::weights::voxel_bind::DEFAULT_RESOLUTION,
                |bone, distances| {
                    for (largest, &d) in per_vertex.iter_mut().zip(distances) {
                        if d.is_finite() {
                            largest.offer(bone as u16, crate::weights::voxel_bind::falloff(d));
                        }
                    }
                    progress(bone + 1, total);
                },
            );
        }
    }
    // A vertex no bone reached goes wholly to its nearest one.
    for (vertex, (largest, &p)) in per_vertex.iter_mut().zip(&mesh.positions_model).enumerate() {
        if largest.kept == 0 && !segments.is_empty() {
            largest.offer(nearest_bone(p, &segments, |_| true).0, 1.0);
            report.unreached.push(vertex as u32);
        }
    }
    let influences = per_vertex
        .iter()
        .map(|largest| {
            // Positions in `bones` back to bone indices.
            let pairs: Vec<(u16, f32)> = largest.pairs[..largest.kept]
                .iter()
                .map(|&(k, w)| (bones.get(usize::from(k)).map_or(0, |&b| b as u16), w))
                .collect();
            let (fitted, _) = VertexInfluences::from_pairs(&pairs);
            report.pruned_vertices += usize::from(largest.seen > MAX_INFLUENCES);
            fitted
        })
        .collect();
    (influences, report)
}

/// A vertex's largest weights among those offered, in descending order,
/// equal weights in the order offered (as a stable sort of all of them
/// would keep them), and how many positive weights were offered.
#[derive(Clone, Copy, Default)]
struct Largest {
    pairs: [(u16, f32); MAX_INFLUENCES],
    kept: usize,
    seen: usize,
}

impl Largest {
    fn offer(&mut self, bone: u16, weight: f32) {
        if weight <= 0.0 {
            return;
        }
        self.seen += 1;
        // After every kept weight at least as large: ties keep their order.
        let slot = self.pairs[..self.kept]
            .iter()
            .position(|&(_, w)| weight > w)
            .unwrap_or(self.kept);
        if slot >= MAX_INFLUENCES {
            return;
        }
        let end = (self.kept + 1).min(MAX_INFLUENCES);
        self.pairs.copy_within(slot..end - 1, slot + 1);
        self.pairs[slot] = (bone, weight);
        self.kept = end;
    }
}

/// The length of the diagonal of the mesh's bounding box, at least 1e-3.
pub fn mesh_scale(mesh: &Mesh) -> f32 {
    let (min, max) = mesh.bounds();
    (max - min).length().max(1e-3)
}

/// The nearest bone among those `allowed`, and its distance; bone 0 if none
/// is allowed.
pub fn nearest_bone(
    p: Vec3,
    segments: &[(Vec3, Vec3)],
    allowed: impl Fn(usize) -> bool,
) -> (u16, f32) {
    segments
        .iter()
        .enumerate()
        .filter(|&(bone, _)| allowed(bone))
        .map(|(bone, &(a, b))| (bone as u16, p.distance(closest_on_segment(p, a, b))))
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .unwrap_or((0, f32::MAX))
}

/// How bone heat solves its system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeatSolver {
    /// Factor `L + M H` once (`LDLᵀ` after a minimum-degree ordering) and
    /// solve each bone by substitution; conjugate gradients if the factor
    /// would exceed [`MAX_FACTOR_ENTRIES`].
    Factored,
    /// Conjugate gradients for each bone (the earlier solver, kept as the
    /// reference the factored one is tested against).
    Iterative,
}

/// Entries of the `LDLᵀ` factor bone heat allows itself (12 bytes each:
/// 240 MB); counted before the factor is allocated.
pub const MAX_FACTOR_ENTRIES: usize = 20_000_000;

/// Solves `(L + M H) w_i = M H p_i` for every bone `i` (Baran and Popović
/// 2007, with `L` the cotangent Laplacian, `M` the lumped vertex areas,
/// `H_jj = 1 / d(j)²` for the distance to vertex `j`'s nearest visible bone
/// and `p_i(j) = 1` when that bone is `i`). Since `L · 1 = 0` the weights of
/// each vertex sum to 1. Returns one column per bone, whether visibility was
/// tested, and the iterations used.
pub fn bone_heat(mesh: &Mesh, segments: &[(Vec3, Vec3)]) -> (Vec<Vec<f64>>, bool, usize) {
    bone_heat_with(mesh, segments, HeatSolver::Factored)
}

/// [`bone_heat`] by the given solver.
pub fn bone_heat_with(
    mesh: &Mesh,
    segments: &[(Vec3, Vec3)],
    solver: HeatSolver,
) -> (Vec<Vec<f64>>, bool, usize) {
    let mut columns = Vec::with_capacity(segments.len());
    let (visibility, iterations) = bone_heat_each(mesh, segments, solver, |_, column| {
        columns.push(column.to_vec())
    });
    (columns, visibility, iterations)
}

/// [`bone_heat`], handing each bone's column to `take(bone, column)` as it
/// is solved instead of keeping them all; returns whether visibility was
/// tested (always, now that a hierarchy answers it) and the conjugate
/// gradient iterations used (0 when factored).
pub fn bone_heat_each(
    mesh: &Mesh,
    segments: &[(Vec3, Vec3)],
    solver: HeatSolver,
    mut take: impl FnMut(usize, &[f64]),
) -> (bool, usize) {
    let n = mesh.vertex_count();
    let nearest = nearest_visible_bones(mesh, segments);
    let (laplacian, areas) = cotangent_laplacian(mesh);
    let mut triplets = laplacian;
    let mut heat_source = vec![0.0; n];
    for (vertex, (bones, distance)) in nearest.iter().enumerate() {
        let h = areas[vertex] * bones.len() as f64 / (distance * distance);
        triplets.push((vertex, vertex, h));
        heat_source[vertex] = h / bones.len() as f64;
    }
    let matrix = CsrMatrix::from_triplets(n, triplets);
    let factor = match solver {
        HeatSolver::Factored => Ldlt::factor(&matrix, MAX_FACTOR_ENTRIES).ok(),
        HeatSolver::Iterative => None,
    };
    let mut iterations = 0;
    let mut b = vec![0.0; n];
    let mut x = vec![0.0; n];
    for bone in 0..segments.len() {
        // p_i(j) = 1/k for each of vertex j's k tied nearest bones.
        let share = |v: usize| {
            if nearest[v].0.contains(&bone) {
                1.0 / nearest[v].0.len() as f64
            } else {
                0.0
            }
        };
        for v in 0..n {
            b[v] = share(v) * heat_source[v] * nearest[v].0.len() as f64;
        }
        match &factor {
            Some(factor) => factor.solve(&b, &mut x),
            None => {
                for (v, x) in x.iter_mut().enumerate() {
                    *x = share(v);
                }
                iterations += conjugate_gradient(&matrix, &b, &mut x, 1e-9, 4 * n + 100);
            }
        }
        take(bone, &x);
    }
    (true, iterations)
}

/// For each vertex, its nearest visible bones (several when tied, as the
/// paper says: `p = 1/k` for each of `k` bones, `H = k / d²`) and the
/// distance; the nearest bones of all if none is visible. Bones are tried
/// nearest first, so most vertices test one or two segments against the
/// mesh.
fn nearest_visible_bones(mesh: &Mesh, segments: &[(Vec3, Vec3)]) -> Vec<(Vec<usize>, f64)> {
    let scale = mesh_scale(mesh);
    let tie = 1e-4 * scale;
    let occluders = Occluders::new(mesh);
    let mut by_distance: Vec<(f32, u32)> = Vec::with_capacity(segments.len());
    mesh.positions_model
        .iter()
        .enumerate()
        .map(|(vertex, &p)| {
            by_distance.clear();
            by_distance.extend(
                segments
                    .iter()
                    .enumerate()
                    .map(|(bone, &(a, b))| (p.distance(closest_on_segment(p, a, b)), bone as u32)),
            );
            crate::rig::sorting::sort_keyed(&mut by_distance);
            let sees = |bone: usize| {
                let (a, b) = segments[bone];
                occluders.sees(vertex as u32, p, closest_on_segment(p, a, b))
            };
            // The nearest visible bone and those tied with it (each tested),
            // or, when none is visible, the nearest of all and its ties.
            let first_visible = by_distance
                .iter()
                .position(|&(_, bone)| sees(bone as usize));
            let start = first_visible.unwrap_or(0);
            let best = by_distance.get(start).map_or(f32::MAX, |&(d, _)| d);
            let mut tied: Vec<usize> = by_distance[start..]
                .iter()
                .take_while(|&&(d, _)| d <= best + tie)
                .enumerate()
                .filter(|&(k, &(_, bone))| first_visible.is_none() || k == 0 || sees(bone as usize))
                .map(|(_, &(_, bone))| bone as usize)
                .collect();
            crate::rig::sorting::sort_stable_by_key(&mut tied, |&bone| bone);
            (tied, f64::from(best.max(1e-3 * scale)))
        })
        .collect()
}

/// The cotangent stiffness matrix as triplets, `L_ij = −(cot α + cot β) / 2`
/// per edge and `L_ii = −Σ_j L_ij`, and the lumped areas `M_ii = Σ A_t / 3`.
/// A vertex on no triangle gets a unit area, so its own heat term holds it.
fn cotangent_laplacian(mesh: &Mesh) -> (Vec<(usize, usize, f64)>, Vec<f64>) {
    let p = &mesh.positions_model;
    let mut triplets = Vec::new();
    let mut areas = vec![0.0; mesh.vertex_count()];
    for triangle in mesh.indices.chunks_exact(3) {
        let corners = [
            triangle[0] as usize,
            triangle[1] as usize,
            triangle[2] as usize,
        ];
        let area = 0.5
            * f64::from(
                (p[corners[1]] - p[corners[0]])
                    .cross(p[corners[2]] - p[corners[0]])
                    .length(),
            );
        if area <= 1e-12 {
            continue;
        }
        for k in 0..3 {
            areas[corners[k]] += area / 3.0;
            // The angle at corner k faces the edge (k+1, k+2).
            let (o, i, j) = (corners[k], corners[(k + 1) % 3], corners[(k + 2) % 3]);
            let (u, v) = (p[i] - p[o], p[j] - p[o]);
            let cot = f64::from(u.dot(v)) / f64::from(u.cross(v).length()).max(1e-12);
            let w = 0.5 * cot;
            triplets.extend([(i, j, -w), (j, i, -w), (i, i, w), (j, j, w)]);
        }
    }
    for area in areas.iter_mut().filter(|a| **a == 0.0) {
        *area = 1.0;
    }
    (triplets, areas)
}

/// What can hide a bone from a vertex: the boundary edges of a flat mesh, or
/// the triangles of a solid one, each in a bounding-volume hierarchy.
enum Occluders {
    Flat {
        z: f32,
        edges: Vec<(u32, u32)>,
        positions: Vec<Vec3>,
        hierarchy: BoundsTree,
    },
    Solid {
        triangles: Vec<[u32; 3]>,
        positions: Vec<Vec3>,
        hierarchy: BoundsTree,
    },
}

impl Occluders {
    fn new(mesh: &Mesh) -> Self {
        let positions = mesh.positions_model.clone();
        let z = positions.first().map_or(0.0, |p| p.z);
        let span = |corners: &[u32]| {
            corners.iter().fold(
                (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
                |(lo, hi), &i| (lo.min(positions[i as usize]), hi.max(positions[i as usize])),
            )
        };
        if positions.iter().all(|p| (p.z - z).abs() < 1e-5) {
            let mut count = std::collections::HashMap::new();
            for triangle in mesh.indices.chunks_exact(3) {
                for (a, b) in [(0, 1), (1, 2), (2, 0)] {
                    let edge = (triangle[a].min(triangle[b]), triangle[a].max(triangle[b]));
                    *count.entry(edge).or_insert(0) += 1;
                }
            }
            let mut edges: Vec<(u32, u32)> = count
                .into_iter()
                .filter(|&(_, c)| c == 1)
                .map(|(e, _)| e)
                .collect();
            crate::rig::sorting::sort_stable_by_key(&mut edges, |&edge| edge);
            let boxes: Vec<(Vec3, Vec3)> = edges.iter().map(|&(i, j)| span(&[i, j])).collect();
            Self::Flat {
                z,
                edges,
                hierarchy: BoundsTree::new(&boxes),
                positions,
            }
        } else {
            let triangles: Vec<[u32; 3]> = mesh
                .indices
                .chunks_exact(3)
                .map(|t| [t[0], t[1], t[2]])
                .collect();
            let boxes: Vec<(Vec3, Vec3)> = triangles.iter().map(|t| span(t)).collect();
            Self::Solid {
                triangles,
                hierarchy: BoundsTree::new(&boxes),
                positions,
            }
        }
    }

    /// Whether the segment from vertex `vertex` at `from` to `to` stays
    /// inside the mesh.
    fn sees(&self, vertex: u32, from: Vec3, to: Vec3) -> bool {
        match self {
            Self::Flat {
                z,
                edges,
                positions,
                hierarchy,
            } => {
                if (to.z - z).abs() > 1e-4 {
                    return true;
                }
                let (a, b) = (from.truncate(), to.truncate());
                // The box test is in 3D: lay the segment in the mesh's plane.
                let (from, to) = (a.extend(*z), b.extend(*z));
                !hierarchy.any_on_segment(from, to, |k| {
                    let (i, j) = edges[k as usize];
                    i != vertex
                        && j != vertex
                        && segments_cross(
                            a,
                            b,
                            positions[i as usize].truncate(),
                            positions[j as usize].truncate(),
                        )
                })
            }
            Self::Solid {
                triangles,
                positions,
                hierarchy,
            } => !hierarchy.any_on_segment(from, to, |k| {
                let t = triangles[k as usize];
                !t.contains(&vertex)
                    && segment_hits_triangle(
                        from,
                        to,
                        positions[t[0] as usize],
                        positions[t[1] as usize],
                        positions[t[2] as usize],
                    )
            }),
        }
    }
}

/// Whether the segment `a..b` crosses the edge `c..d`: `a` and `b` lie
/// strictly on opposite sides of the edge's line, and the edge reaches the
/// segment (passing through an end of the edge counts, so a ray through a
/// corner between two boundary edges is caught).
fn segments_cross(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let side = |p: Vec2, q: Vec2, r: Vec2| (q - p).perp_dot(r - p);
    let (d1, d2) = (side(c, d, a), side(c, d, b));
    let (d3, d4) = (side(a, b, c), side(a, b, d));
    d1 * d2 < 0.0 && d3 * d4 <= 0.0
}

/// Möller–Trumbore on the segment `from..to`, ignoring touches at its ends.
fn segment_hits_triangle(from: Vec3, to: Vec3, a: Vec3, b: Vec3, c: Vec3) -> bool {
    let direction = to - from;
    let (e1, e2) = (b - a, c - a);
    let h = direction.cross(e2);
    let det = e1.dot(h);
    if det.abs() < 1e-12 {
        return false;
    }
    let inverse = 1.0 / det;
    let s = from - a;
    let u = inverse * s.dot(h);
    if !(0.0..=1.0).contains(&u) {
        return false;
    }
    let q = s.cross(e1);
    let v = inverse * direction.dot(q);
    if v < 0.0 || u + v > 1.0 {
        return false;
    }
    let t = inverse * e2.dot(q);
    t > 1e-4 && t < 1.0 - 1e-4
}

#[cfg(test)]
mod largest_tests {
    use super::*;

    #[test]
    fn keeping_the_largest_as_offered_equals_sorting_them_all() {
        // Ties, zeros, more than four: the same four as a stable sort.
        let offers = [
            (0, 0.2),
            (1, 0.5),
            (2, 0.0),
            (3, 0.2),
            (4, 0.9),
            (5, 0.2),
            (6, 0.5),
            (7, 0.1),
        ];
        let mut largest = Largest::default();
        for &(bone, weight) in &offers {
            largest.offer(bone, weight);
        }
        let mut sorted: Vec<(u16, f32)> =
            offers.iter().copied().filter(|&(_, w)| w > 0.0).collect();
        sorted.sort_by(|a, b| b.1.total_cmp(&a.1));
        sorted.truncate(MAX_INFLUENCES);
        assert_eq!(largest.pairs[..largest.kept].to_vec(), sorted);
        assert_eq!(largest.seen, 7);
    }
}
