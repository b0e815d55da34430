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
//! indexed by the bone pairs they carry. `s` is a sum over pairs, so the
//! centre's two sums are too: for each set of bones vertices share, each pair
//! of it gathers once the triangles carrying both, with their two weights side
//! by side, and each vertex of that set sums its pairs' terms four triangles
//! at a time. Triangles whose weights agree to 1/256 are summed into one term
//! (their areas and centroids exactly, their weights as the area-weighted
//! mean), and vertices of equal weights share one centre. A vertex with no
//! similar triangle (one bone, say) has no centre and keeps LBS.
//!
//! At pose time, with `q_j` the rotation of `M_j` (its polar part), each
//! flipped into the first one's hemisphere:
//!
//! ```text
//! q  = normalise(Σ_j w_j q_j)
//! t  = LBS(p*) − R(q) p*,   LBS(p*) = Σ_j w_j M_j p*
//! v' = R(q) v + t,          n' = R(q) n
//! ```

use glam::{Quat, Vec3, Vec4};
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
    crate::rig::sorting::sort_stable_by_key(&mut pairs, |&(bone, _)| bone);
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
///
/// Longer than a screen: the precompute of the module documentation, the
/// triangles' weights, areas and centroids and each vertex's weighted sum over
/// them, with the progress calls between blocks; its arrays are shared by every
/// step.
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
    // Vertices of the same weights share one centre; vertices of the same
    // bones share the groups that carry two of those bones. `s` is a sum
    // over the pairs of bones both hold, and so are `Σ s A c` and `Σ s A`:
    // per bone set, each pair's groups are gathered once with their two
    // weights, and each weighting of that set sums each pair's terms in one
    // tight loop.
    let mut unique: Vec<&Weighting> = Vec::new();
    let mut slot_of: FxHashMap<Vec<(u16, u32)>, usize> = FxHashMap::default();
    let vertex_slot: Vec<Option<usize>> = weightings
        .iter()
        .map(|weights| {
            (weights.len() >= 2).then(|| {
                *slot_of.entry(key(weights)).or_insert_with(|| {
                    unique.push(weights);
                    unique.len() - 1
                })
            })
        })
        .collect();
    let mut by_set: FxHashMap<Vec<u16>, Vec<usize>> = FxHashMap::default();
    for (slot, weights) in unique.iter().enumerate() {
        by_set
            .entry(weights.iter().map(|&(bone, _)| bone).collect())
            .or_default()
            .push(slot);
    }
    let mut centres: Vec<Option<Vec3>> = vec![None; unique.len()];
    let total = unique.len();
    let mut done = 0;
    // Each slot's centre is its own: the sets may come in any order.
    for (bones, slots) in by_set {
        let terms = PairTerms::gather(&bones, &by_pair, &triangles);
        for slot in slots {
            if done % 4096 == 0 {
                progress(done, total);
            }
            done += 1;
            let a: Vec<f32> = unique[slot].iter().map(|&(_, w)| w).collect();
            centres[slot] = terms.centre(&a);
        }
    }
    vertex_slot
        .into_iter()
        .map(|slot| slot.and_then(|k| centres[k]))
        .collect()
}

/// For one set of bones, per pair `(p, q)` of it, the groups carrying both:
/// their two weights, `A` and `Σ A c`, side by side.
struct PairTerms {
    pairs: Vec<(usize, usize, PairGroups)>,
}

#[derive(Default)]
struct PairGroups {
    weight_p: Vec<f32>,
    weight_q: Vec<f32>,
    area: Vec<f32>,
    /// `Σ A c`, one coordinate a list, so four groups load at once.
    moment: [Vec<f32>; 3],
}

impl PairTerms {
    fn gather(
        bones: &[u16],
        by_pair: &FxHashMap<(u16, u16), Vec<u32>>,
        triangles: &[Triangle],
    ) -> Self {
        let mut pairs = Vec::new();
        for p in 0..bones.len() {
            for q in p + 1..bones.len() {
                let mut groups = PairGroups::default();
                for &t in by_pair
                    .get(&(bones[p], bones[q]))
                    .map_or(&[][..], Vec::as_slice)
                {
                    let group = &triangles[t as usize];
                    let weight = |bone: u16| {
                        group
                            .weighting
                            .binary_search_by_key(&bone, |&(b, _)| b)
                            .map_or(0.0, |k| group.weighting[k].1)
                    };
                    groups.weight_p.push(weight(bones[p]));
                    groups.weight_q.push(weight(bones[q]));
                    groups.area.push(group.area);
                    for (list, value) in groups.moment.iter_mut().zip(group.centroid.to_array()) {
                        list.push(value);
                    }
                }
                pairs.push((p, q, groups));
            }
        }
        PairTerms { pairs }
    }

    /// `p*` for the weights `a` on this set's bones, or `None` when no
    /// group is similar. Four groups a step in `Vec4` lanes (`simd128` in
    /// wasm, SSE natively), each lane summing its own; the lanes are added
    /// in a fixed order, so the result does not depend on the machine.
    fn centre(&self, a: &[f32]) -> Option<Vec3> {
        let mut weighted = [Vec4::ZERO; 3];
        let mut sum = Vec4::ZERO;
        let inverse_variance = Vec4::splat(1.0 / (SIGMA * SIGMA));
        for (p, q, groups) in &self.pairs {
            let (ap, aq) = (Vec4::splat(a[*p]), Vec4::splat(a[*q]));
            // The unordered pair stands for (p, q) and (q, p), whose terms
            // are equal.
            let scale = 2.0 * ap * aq;
            let n = groups.area.len();
            let whole = n - n % 4;
            let load = |list: &[f32], start: usize| Vec4::from_slice(&list[start..start + 4]);
            for start in (0..whole).step_by(4) {
                let (bp, bq) = (load(&groups.weight_p, start), load(&groups.weight_q, start));
                let cross = ap * bq - aq * bp;
                let s = scale * bp * bq * exp_of_negative4(-(cross * cross) * inverse_variance);
                for (axis, list) in weighted.iter_mut().zip(&groups.moment) {
                    *axis += s * load(list, start);
                }
                sum += s * load(&groups.area, start);
            }
            // The last groups in lane 0.
            for k in whole..n {
                let (bp, bq) = (groups.weight_p[k], groups.weight_q[k]);
                let cross = a[*p] * bq - a[*q] * bp;
                let s = 2.0
                    * a[*p]
                    * a[*q]
                    * bp
                    * bq
                    * exp_of_negative(-(cross * cross) * inverse_variance.x);
                for (axis, list) in weighted.iter_mut().zip(&groups.moment) {
                    axis.x += s * list[k];
                }
                sum.x += s * groups.area[k];
            }
        }
        let add = |lanes: Vec4| (lanes.x + lanes.y) + (lanes.z + lanes.w);
        let sum = add(sum);
        (sum > 0.0).then(|| Vec3::new(add(weighted[0]), add(weighted[1]), add(weighted[2])) / sum)
    }
}

/// The Taylor coefficients of `2^f = e^(f ln 2)` to degree 6.
const TWO_TO_F: [f32; 7] = [
    1.0,
    std::f32::consts::LN_2,
    0.240_226_5,
    0.055_504_11,
    0.009_618_129,
    0.001_333_355_8,
    0.000_154_035_3,
];

/// [`exp_of_negative`] on four lanes: the same operations, in `simd128`
/// instructions in wasm.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn exp_of_negative4(y: Vec4) -> Vec4 {
    use std::arch::wasm32::{
        f32x4_nearest, i32x4_add, i32x4_shl, i32x4_splat, i32x4_trunc_sat_f32x4,
    };
    let t = (y * std::f32::consts::LOG2_E).max(Vec4::splat(-126.0));
    let i = Vec4::from(f32x4_nearest(t.into()));
    let f = t - i;
    let c = TWO_TO_F;
    let two_to_f = c[0] + f * (c[1] + f * (c[2] + f * (c[3] + f * (c[4] + f * (c[5] + f * c[6])))));
    let bits = i32x4_shl(
        i32x4_add(i32x4_trunc_sat_f32x4(i.into()), i32x4_splat(127)),
        23,
    );
    two_to_f * Vec4::from(bits)
}

/// [`exp_of_negative`] on four lanes.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn exp_of_negative4(y: Vec4) -> Vec4 {
    Vec4::from_array(y.to_array().map(exp_of_negative))
}

/// `e^y` for `y ≤ 0`, within 10⁻⁶ of it relatively down to `e^−10`
/// (f32's own precision; further down f32's rounding of `y · log₂e` grows
/// it to 10⁻⁵ at `e^−87`), and 0 below: `y · log₂e = i + f` with `i`
/// the nearest integer and `|f| ≤ ½`, `2^f` by its Taylor polynomial to
/// degree 6 (the remainder `(f ln 2)⁷/7! ≤ 1.2·10⁻⁷`), `2^i` written into
/// the exponent's bits. No call and no branch, unlike `f32::exp` in wasm.
pub fn exp_of_negative(y: f32) -> f32 {
    let c = TWO_TO_F;
    let t = (y * std::f32::consts::LOG2_E).max(-126.0);
    let i = t.round_ties_even();
    let f = t - i;
    let two_to_f = c[0] + f * (c[1] + f * (c[2] + f * (c[3] + f * (c[4] + f * (c[5] + f * c[6])))));
    // 2^i for −126 ≤ i ≤ 0: a normal f32 with exponent bits i + 127.
    let two_to_i = f32::from_bits(((i as i32 + 127) as u32) << 23);
    two_to_f * two_to_i
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
    crate::rig::sorting::sort_stable_by_key(&mut all, |&(bone, _)| bone);
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
    fn the_branchless_exponential_is_exp_to_f32_precision() {
        // Relative error: 10⁻⁶ where a term weighs (e^y ≥ e^−10), and
        // 10⁻⁵ further down, where f32's own rounding of y · log₂e grows.
        let (mut near, mut far) = (0.0_f64, 0.0_f64);
        for k in 0..=200_000 {
            let y = -(k as f32) * 0.0005; // 0 down to −100
            let exact = f64::from(y).exp();
            let ours = f64::from(exp_of_negative(y));
            if exact > 1e-37 {
                let error = (ours - exact).abs() / exact;
                if y >= -10.0 {
                    near = near.max(error);
                } else {
                    far = far.max(error);
                }
            } else {
                assert!(ours < 1e-36, "{y}: {ours}");
            }
        }
        assert!(near < 1e-6, "worst relative error down to e^-10: {near:e}");
        assert!(far < 1e-5, "worst relative error below: {far:e}");
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
