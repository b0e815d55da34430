//! Skinning with optimized centres of rotation (Le and Hodgins, "Real-time
//! Skeletal Skinning with Optimized Centers of Rotation", SIGGRAPH 2016):
//! each vertex turns rigidly, by the blend of its bones' rotations, about a
//! centre of rotation `p*` chosen from the triangles whose weights are like
//! its own. It keeps the volume LBS loses at a twist (the candy wrapper)
//! without the bulge DQS makes at a bent joint.
//!
//! Precompute, on the mesh's own triangles (no subdivision), with `w_t` a
//! triangle's weights (the mean of its corners'), `c_t` its centroid and
//! `A_t` its area:
//!
//! ```text
//! s(w_p, w_v) = Σ_{j≠k} w_pj w_pk w_vj w_vk · exp(−(w_pj w_vk − w_pk w_vj)² / σ²),  σ = 0.1
//! p*_i        = Σ_t s(w_i, w_t) A_t c_t / Σ_t s(w_i, w_t) A_t
//! ```
//!
//! A term needs both `j` and `k` in both supports, so only triangles that
//! share at least two bones with a vertex contribute: the triangles are
//! indexed by the bone pairs they carry, and each vertex visits the
//! triangles of its own pairs. Triangles whose weights agree to 1/256 are
//! summed into one term (their areas and centroids exactly, their weights
//! as the area-weighted mean), and vertices of equal weights share one
//! centre. A vertex with no similar triangle (one bone, say) has no centre
//! and keeps LBS.
//!
//! At pose time, with `q_j` the rotation of `M_j` (its polar part), each
//! flipped into the first one's hemisphere:
//!
//! ```text
//! q  = normalise(Σ_j w_j q_j)
//! t  = LBS(p*) − R(q) p*,   LBS(p*) = Σ_j w_j M_j p*
//! v' = R(q) v + t,          n' = R(q) n
//! ```

use glam::{Quat, Vec3};
use rustc_hash::FxHashMap;

use super::dual_quat::RigidScale;
use super::influences::VertexInfluences;
use super::matrix_rows::MatrixRows;
use super::mesh::Mesh;
use super::skinning::{lbs_vertex, skin_lbs_rows};

/// `σ` of the weight similarity: how alike two weightings must be.
pub const SIGMA: f32 = 0.1;

/// A sparse weighting: `(bone, weight)` pairs sorted by bone, weights
/// summing to 1.
type Weighting = Vec<(u16, f32)>;

/// The normalised, bone-sorted pairs of a vertex's influences.
fn weighting(influence: &VertexInfluences) -> Weighting {
    let total = influence.total_weight();
    let mut pairs: Weighting = influence
        .pairs()
        .filter(|_| total > 0.0)
        .map(|(bone, weight)| (bone, weight / total))
        .collect();
    pairs.sort_unstable_by_key(|&(bone, _)| bone);
    pairs
}

/// `s(a, b) = Σ_{j≠k} a_j a_k b_j b_k · exp(−(a_j b_k − a_k b_j)² / σ²)`,
/// over the ordered pairs of bones both weightings hold (the others give
/// zero terms). Both are sorted by bone.
pub fn similarity(a: &[(u16, f32)], b: &[(u16, f32)]) -> f32 {
    // The bones both hold, with each one's two weights.
    let mut shared = [(0.0_f32, 0.0_f32); 16];
    let mut count = 0;
    let (mut i, mut k) = (0, 0);
    while i < a.len() && k < b.len() && count < shared.len() {
        match a[i].0.cmp(&b[k].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => k += 1,
            std::cmp::Ordering::Equal => {
                shared[count] = (a[i].1, b[k].1);
                count += 1;
                i += 1;
                k += 1;
            }
        }
    }
    let shared = &shared[..count];
    let mut sum = 0.0;
    for (j, &(aj, bj)) in shared.iter().enumerate() {
        for &(ak, bk) in &shared[j + 1..] {
            let cross = aj * bk - ak * bj;
            // The unordered pair stands for (j, k) and (k, j), whose terms
            // are equal.
            sum += 2.0 * aj * ak * bj * bk * (-(cross * cross) / (SIGMA * SIGMA)).exp();
        }
    }
    sum
}

/// A group of triangles while it is gathered, with `Σ A_t w_t` per bone.
type Group = (Triangle, Vec<f32>);

/// The triangles of one group as the precompute uses them: their weights,
/// `Σ A_t c_t` and `Σ A_t`.
struct Triangle {
    weighting: Weighting,
    centroid: Vec3,
    area: f32,
}

/// Each vertex's centre of rotation, model space at rest, or `None` where
/// no triangle's weights are like the vertex's (it keeps LBS).
pub fn centres_of_rotation(mesh: &Mesh, influences: &[VertexInfluences]) -> Vec<Option<Vec3>> {
    centres_with_progress(mesh, influences, &mut |_, _| {})
}

/// [`centres_of_rotation`], calling `progress(done, total)` every 4,096
/// vertices, for a page that shows how far it is.
pub fn centres_with_progress(
    mesh: &Mesh,
    influences: &[VertexInfluences],
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Option<Vec3>> {
    let weightings: Vec<Weighting> = influences.iter().map(weighting).collect();
    let positions = &mesh.positions_model;
    // Triangles of (nearly) the same weights act as one: their areas and
    // area-weighted centroids add up exactly (a tube's ring of triangles is
    // one), and their weights are the area-weighted mean of theirs, which
    // differ by less than 1/(2 · TRIANGLE_GRID) per bone.
    let mut groups: FxHashMap<Vec<(u16, i32)>, Group> = FxHashMap::default();
    for corners in mesh.indices.chunks_exact(3) {
        let [a, b, c] = [corners[0], corners[1], corners[2]].map(|v| v as usize);
        let weighting = mean_weighting(&[&weightings[a], &weightings[b], &weightings[c]]);
        let area = 0.5
            * (positions[b] - positions[a])
                .cross(positions[c] - positions[a])
                .length();
        if area <= 0.0 || weighting.len() < 2 {
            // No area, or one bone: every similarity with it is zero.
            continue;
        }
        let centroid = (positions[a] + positions[b] + positions[c]) / 3.0;
        let (group, weight_sums) = groups.entry(grid_key(&weighting)).or_insert_with(|| {
            let sums = vec![0.0; weighting.len()];
            (
                Triangle {
                    weighting: weighting.clone(),
                    centroid: Vec3::ZERO,
                    area: 0.0,
                },
                sums,
            )
        });
        // `centroid` holds Σ A_t c_t until the groups are complete.
        group.centroid += area * centroid;
        group.area += area;
        for (sum, &(_, w)) in weight_sums.iter_mut().zip(&weighting) {
            *sum += area * w;
        }
    }
    let triangles: Vec<Triangle> = groups
        .into_values()
        .map(|(mut group, sums)| {
            for ((_, w), sum) in group.weighting.iter_mut().zip(sums) {
                *w = sum / group.area;
            }
            group
        })
        .collect();
    // Each group under every pair of bones it carries.
    let mut by_pair: FxHashMap<(u16, u16), Vec<u32>> = FxHashMap::default();
    for (t, triangle) in triangles.iter().enumerate() {
        for_each_pair(&triangle.weighting, |pair| {
            by_pair.entry(pair).or_default().push(t as u32);
        });
    }
    // The group last visited, so one reached through several shared pairs
    // counts once; and the centre of each weighting met, since vertices with
    // the same weights have the same centre.
    let mut seen = vec![u32::MAX; triangles.len()];
    let mut known: FxHashMap<Vec<(u16, u32)>, Option<Vec3>> = FxHashMap::default();
    let total = weightings.len();
    let mut visit = 0_u32;
    weightings
        .iter()
        .enumerate()
        .map(|(vertex, weights)| {
            if vertex % 4096 == 0 {
                progress(vertex, total);
            }
            if weights.len() < 2 {
                return None;
            }
            *known.entry(key(weights)).or_insert_with(|| {
                visit += 1;
                let mut weighted = Vec3::ZERO;
                let mut sum = 0.0_f32;
                for_each_pair(weights, |pair| {
                    for &t in by_pair.get(&pair).map_or(&[][..], Vec::as_slice) {
                        if std::mem::replace(&mut seen[t as usize], visit) == visit {
                            continue;
                        }
                        let group = &triangles[t as usize];
                        let s = similarity(weights, &group.weighting);
                        // Σ s A c over the group, and Σ s A.
                        weighted += s * group.centroid;
                        sum += s * group.area;
                    }
                });
                (sum > 0.0).then(|| weighted / sum)
            })
        })
        .collect()
}

/// A weighting as a hash key: its bones and the bits of its weights.
fn key(weights: &[(u16, f32)]) -> Vec<(u16, u32)> {
    weights.iter().map(|&(b, w)| (b, w.to_bits())).collect()
}

/// Steps per unit weight of the grid triangles are grouped on: two
/// triangles share a term when each of their bones' weights rounds to the
/// same 1/256 (an 8-bit weight's resolution, far finer than `σ`).
const TRIANGLE_GRID: f32 = 256.0;

/// A triangle's weighting on the grid, as a hash key.
fn grid_key(weights: &[(u16, f32)]) -> Vec<(u16, i32)> {
    weights
        .iter()
        .map(|&(b, w)| (b, (w * TRIANGLE_GRID).round() as i32))
        .collect()
}

/// Calls `f` with every pair `(j, k)`, `j < k`, of the bones in `weights`.
fn for_each_pair(weights: &[(u16, f32)], mut f: impl FnMut((u16, u16))) {
    for (i, &(j, _)) in weights.iter().enumerate() {
        for &(k, _) in &weights[i + 1..] {
            f((j, k));
        }
    }
}

/// The mean of weightings, sorted by bone.
fn mean_weighting(corners: &[&Weighting]) -> Weighting {
    let mut all: Weighting = corners.iter().flat_map(|w| w.iter().copied()).collect();
    all.sort_unstable_by_key(|&(bone, _)| bone);
    let mut mean: Weighting = Vec::with_capacity(all.len());
    for (bone, weight) in all {
        match mean.last_mut() {
            Some((last, sum)) if *last == bone => *sum += weight,
            _ => mean.push((bone, weight)),
        }
    }
    let n = corners.len() as f32;
    for (_, weight) in &mut mean {
        *weight /= n;
    }
    mean
}

/// `LBS(p) = Σ_j w_j M_j p` for one vertex's influences, with the palette
/// as rows.
fn lbs_point(influence: &VertexInfluences, rows: &[MatrixRows], point: Vec3) -> Vec3 {
    let total = influence.total_weight();
    let p = point.extend(1.0);
    influence
        .pairs()
        .map(|(bone, weight)| {
            let MatrixRows([x, y, z]) = rows[usize::from(bone)];
            weight / total * Vec3::new(x.dot(p), y.dot(p), z.dot(p))
        })
        .sum()
}

/// Where a vertex's centre of rotation goes in the pose: `LBS(p*)` (the
/// vertex turns about it there).
pub fn posed_centre(influence: &VertexInfluences, centre: Vec3, rows: &[MatrixRows]) -> Vec3 {
    lbs_point(influence, rows, centre)
}

/// A vertex turned about its centre `centre`: `v' = R(q) v + LBS(p*) −
/// R(q) p*`, `n' = R(q) n`.
fn about_centre(
    position: Vec3,
    normal: Vec3,
    influence: &VertexInfluences,
    centre: Vec3,
    rows: &[MatrixRows],
    rigid: &[RigidScale],
) -> (Vec3, Vec3) {
    let rotation = blended_rotation(influence, rigid);
    let translation = lbs_point(influence, rows, centre) - rotation * centre;
    (rotation * position + translation, rotation * normal)
}

/// One vertex skinned with its centre of rotation, or by LBS (bit for bit
/// [`lbs_vertex`]) when it has none. `(position, normal)`, model space.
pub fn cor_vertex(
    position: Vec3,
    normal: Vec3,
    influence: &VertexInfluences,
    centre: Option<Vec3>,
    rows: &[MatrixRows],
    rigid: &[RigidScale],
) -> (Vec3, Vec3) {
    match centre {
        Some(centre) if influence.total_weight() > 0.0 => {
            about_centre(position, normal, influence, centre, rows, rigid)
        }
        _ => lbs_vertex(position, normal, influence, rows),
    }
}

/// `normalise(Σ_j w_j q_j)`, each `q_j` (the rotation of bone `j`'s `M_j`,
/// its polar part) flipped into the hemisphere of the first.
pub fn blended_rotation(influence: &VertexInfluences, rigid: &[RigidScale]) -> Quat {
    let mut pairs = influence.pairs();
    let Some((first, first_weight)) = pairs.next() else {
        return Quat::IDENTITY;
    };
    let reference = rigid[usize::from(first)].rigid.real;
    let mut sum = reference * first_weight;
    for (bone, weight) in pairs {
        let q = rigid[usize::from(bone)].rigid.real;
        let q = if q.dot(reference) < 0.0 { -q } else { q };
        sum += q * weight;
    }
    let length = sum.length();
    if length > 1e-12 {
        sum * length.recip()
    } else {
        Quat::IDENTITY
    }
}

/// Every vertex of `mesh` skinned into `positions` and `normals`: all by
/// LBS first (the same loop as LBS itself), then each vertex with a centre
/// turned about it.
///
/// # Panics
///
/// If the slices' lengths differ from the mesh's vertex count.
pub fn skin_cor(
    mesh: &Mesh,
    influences: &[VertexInfluences],
    centres: &[Option<Vec3>],
    rows: &[MatrixRows],
    rigid: &[RigidScale],
    positions: &mut [Vec3],
    normals: &mut [Vec3],
) {
    skin_lbs_rows(mesh, influences, rows, positions, normals);
    for (v, centre) in centres.iter().enumerate() {
        let Some(centre) = *centre else { continue };
        if influences[v].total_weight() <= 0.0 {
            continue;
        }
        (positions[v], normals[v]) = about_centre(
            mesh.positions_model[v],
            mesh.normals_model[v],
            &influences[v],
            centre,
            rows,
            rigid,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two(a: f32) -> Weighting {
        vec![(0, a), (1, 1.0 - a)]
    }

    #[test]
    fn similarity_is_symmetric_largest_for_equal_weights_and_zero_on_one_bone() {
        let (a, b) = (two(0.3), two(0.6));
        assert!((similarity(&a, &b) - similarity(&b, &a)).abs() < 1e-7);
        assert!(similarity(&a, &a) > similarity(&a, &b));
        assert_eq!(similarity(&[(0, 1.0)], &a), 0.0);
        // Equal halves: 2 · (½)⁴ · e⁰.
        assert!((similarity(&two(0.5), &two(0.5)) - 0.125).abs() < 1e-7);
    }

    #[test]
    fn a_triangle_mean_keeps_every_bone_of_its_corners() {
        let mean = mean_weighting(&[&vec![(0, 1.0)], &two(0.5), &vec![(2, 1.0)]]);
        assert_eq!(mean.iter().map(|&(b, _)| b).collect::<Vec<_>>(), [0, 1, 2]);
        assert!((mean.iter().map(|&(_, w)| w).sum::<f32>() - 1.0).abs() < 1e-6);
    }
}
