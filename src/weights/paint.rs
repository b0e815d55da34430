//! Weight painting: brushes, auto-normalisation with locked bones, and the
//! X-mirror. Points come in as plain numbers (screen positions of the
//! posed, skinned vertices), so everything here is tested natively.

use glam::{Vec2, Vec3};
use rustc_hash::FxHashMap;

use crate::skin::influences::{VertexInfluences, MAX_INFLUENCES};

/// How a brush's effect fades from its centre (`t = 0`) to its rim (`t = 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Falloff {
    /// `1 − 3t² + 2t³`: full in the middle, easing to zero at the rim.
    Smooth,
    /// `1 − t`.
    Linear,
    /// `1` everywhere inside the brush.
    Constant,
}

impl Falloff {
    /// Its name as [`Brush::parse`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Smooth => "smooth",
            Self::Linear => "linear",
            Self::Constant => "constant",
        }
    }

    /// The factor at relative distance `t = d / r`; zero outside the brush.
    pub fn factor(self, t: f32) -> f32 {
        if !(0.0..=1.0).contains(&t) {
            return 0.0;
        }
        match self {
            Self::Smooth => 1.0 - t * t * (3.0 - 2.0 * t),
            Self::Linear => 1.0 - t,
            Self::Constant => 1.0,
        }
    }
}

/// What a dab does to the painted bone's weight `w` with the brush's local
/// strength `s = strength · falloff`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaintMode {
    /// `w + s`.
    Add,
    /// `w − s`.
    Subtract,
    /// `w + (value − w) · s`: towards the brush's value.
    Set,
    /// `w + (mean of neighbours' w − w) · s`.
    Smooth,
}

impl PaintMode {
    /// Its name as [`Brush::parse`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Add => "add",
            Self::Subtract => "subtract",
            Self::Set => "set",
            Self::Smooth => "smooth",
        }
    }
}

/// A weight brush.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Brush {
    /// Radius, in the units of the points painted (CSS pixels on screen).
    pub radius: f32,
    /// 0..1.
    pub strength: f32,
    /// How the effect fades towards the rim.
    pub falloff: Falloff,
    /// What the brush does.
    pub mode: PaintMode,
    /// The target weight of [`PaintMode::Set`].
    pub value: f32,
}

/// Why a brush was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BrushError {
    /// The falloff is not one of `smooth`, `linear`, `constant`.
    #[error("unknown falloff '{0}'; use smooth, linear or constant")]
    UnknownFalloff(String),
    /// The mode is not one of `add`, `subtract`, `set`, `smooth`.
    #[error("unknown mode '{0}'; use add, subtract, set or smooth")]
    UnknownMode(String),
    /// A number is NaN, infinite or negative.
    #[error("{name}: {value} must be a finite number ≥ 0")]
    BadNumber {
        /// Which number.
        name: &'static str,
        /// Its value.
        value: f32,
    },
}

impl Brush {
    /// A brush from the names the page uses; strength and value are capped
    /// at 1.
    pub fn parse(
        radius: f32,
        strength: f32,
        falloff: &str,
        mode: &str,
        value: f32,
    ) -> Result<Self, BrushError> {
        let falloff = match falloff {
            "smooth" => Falloff::Smooth,
            "linear" => Falloff::Linear,
            "constant" => Falloff::Constant,
            _ => return Err(BrushError::UnknownFalloff(falloff.to_owned())),
        };
        let mode = match mode {
            "add" => PaintMode::Add,
            "subtract" => PaintMode::Subtract,
            "set" => PaintMode::Set,
            "smooth" => PaintMode::Smooth,
            _ => return Err(BrushError::UnknownMode(mode.to_owned())),
        };
        for (name, value) in [("radius", radius), ("strength", strength), ("value", value)] {
            if !value.is_finite() || value < 0.0 {
                return Err(BrushError::BadNumber { name, value });
            }
        }
        Ok(Self {
            radius,
            strength: strength.min(1.0),
            falloff,
            mode,
            value: value.min(1.0),
        })
    }

    /// The brush's effect on a point `distance` from its centre:
    /// `strength · falloff(distance / radius)`.
    pub fn effect(&self, distance: f32) -> f32 {
        if self.radius <= 0.0 {
            return 0.0;
        }
        self.strength.clamp(0.0, 1.0) * self.falloff.factor(distance / self.radius)
    }
}

/// Sets `bone`'s weight of one vertex to `target` and keeps the weights
/// summing to 1 by scaling the other *unlocked* bones:
/// `w_o ← w_o · (1 − L − w) / Σ unlocked others`, with `L` the locked
/// weights, which never change. The painted weight is clamped to `0..1 − L`;
/// when no unlocked bone can take up the rest, the painted weight takes it.
/// A locked painted bone is left alone. At most four influences are kept:
/// the smallest unlocked one is dropped and its weight shared among the
/// other unlocked bones (a vertex with four locked bones takes no fifth).
///
/// Returns the new influences and how many pairs were pruned.
pub fn set_weight(
    vertex: &VertexInfluences,
    bone: u16,
    target: f32,
    locked: &[bool],
) -> (VertexInfluences, usize) {
    let is_locked = |b: u16| locked.get(usize::from(b)).copied().unwrap_or(false);
    if is_locked(bone) {
        return (*vertex, 0);
    }
    let mut pairs: Vec<(u16, f32)> = vertex.pairs().filter(|&(b, _)| b != bone).collect();
    let locked_sum: f32 = pairs
        .iter()
        .filter(|&&(b, _)| is_locked(b))
        .map(|&(_, w)| w)
        .sum();
    let free_others: f32 = pairs
        .iter()
        .filter(|&&(b, _)| !is_locked(b))
        .map(|&(_, w)| w)
        .sum();
    let room = (1.0 - locked_sum).max(0.0);
    let mut weight = target.clamp(0.0, room);
    if free_others <= 1e-9 {
        // Nobody else can take the rest: the painted bone keeps it all.
        weight = room;
    } else {
        let scale = (room - weight) / free_others;
        for pair in pairs.iter_mut().filter(|(b, _)| !is_locked(*b)) {
            pair.1 *= scale;
        }
    }
    pairs.push((bone, weight));
    pairs.retain(|&(_, w)| w > 1e-7);
    let mut pruned = 0;
    while pairs.len() > MAX_INFLUENCES {
        // Drop the smallest unlocked pair other than the painted bone and
        // hand its weight to the unlocked bones left, so locked weights stay
        // exactly as they were. With nothing unlocked to drop, the painted
        // bone cannot join this vertex: leave it unchanged.
        let Some(k) = pairs
            .iter()
            .enumerate()
            .filter(|(_, &(b, _))| b != bone && !is_locked(b))
            .min_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
            .map(|(k, _)| k)
        else {
            return (*vertex, 0);
        };
        let (_, dropped) = pairs.remove(k);
        let unlocked: f32 = pairs
            .iter()
            .filter(|&&(b, _)| !is_locked(b))
            .map(|&(_, w)| w)
            .sum();
        if unlocked <= 0.0 {
            return (*vertex, 0);
        }
        let grow = (unlocked + dropped) / unlocked;
        for pair in pairs.iter_mut().filter(|(b, _)| !is_locked(*b)) {
            pair.1 *= grow;
        }
        pruned += 1;
    }
    (VertexInfluences::from_pairs(&pairs).0, pruned)
}

/// What one dab changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DabReport {
    /// Vertices whose weights changed.
    pub touched: usize,
    /// Influences dropped to keep four per vertex.
    pub pruned: usize,
}

/// Everything a dab needs to know about the mesh.
pub struct PaintTarget<'a> {
    /// Where each vertex is, in the brush's space (screen pixels).
    pub points: &'a [Vec2],
    /// Whether each vertex may be painted (e.g. faces the viewer).
    pub paintable: &'a [bool],
    /// Each vertex's mesh neighbours, for smoothing.
    pub neighbours: &'a [Vec<u32>],
    /// Locked bones.
    pub locked: &'a [bool],
    /// The mirror of each vertex and of each bone, when X-mirror is on.
    pub mirror: Option<(&'a [Option<u32>], &'a [u16])>,
}

/// Buffers a dab reuses from one call to the next, so a stroke of many dabs
/// allocates only while the brush first grows.
#[derive(Clone, Debug, Default)]
pub struct DabScratch {
    /// (vertex, bone) → strength of this dab.
    strokes: FxHashMap<(u32, u16), f32>,
    /// The same, sorted, so dabs apply in a fixed order.
    keys: Vec<((u32, u16), f32)>,
    /// Smoothing's targets, computed before any weight changes.
    targets: Vec<f32>,
    /// The vertices whose weights the last dab changed.
    changed: Vec<u32>,
}

impl DabScratch {
    /// The vertices whose weights the last dab changed (one may repeat):
    /// all a lab must skin again after it.
    pub fn changed_vertices(&self) -> &[u32] {
        &self.changed
    }
}

/// Applies one dab of `brush` at `centre` to `bone`'s weights.
///
/// # Panics
///
/// If the target's slices do not have one entry per vertex.
pub fn dab(
    influences: &mut [VertexInfluences],
    target: &PaintTarget,
    bone: u16,
    centre: Vec2,
    brush: &Brush,
) -> DabReport {
    dab_with(
        influences,
        target,
        bone,
        centre,
        brush,
        &mut DabScratch::default(),
    )
}

/// [`dab`] with buffers kept by the caller across the dabs of a stroke.
///
/// # Panics
///
/// If the target's slices do not have one entry per vertex.
///
/// Longer than a screen: one dab in its three stages (each vertex's strength
/// under the brush and its mirror twin's, the smoothing targets read before any
/// is written, then the writes), sharing the table of (vertex, bone) strengths.
pub fn dab_with(
    influences: &mut [VertexInfluences],
    target: &PaintTarget,
    bone: u16,
    centre: Vec2,
    brush: &Brush,
    scratch: &mut DabScratch,
) -> DabReport {
    assert_eq!(
        target.points.len(),
        influences.len(),
        "one point per vertex"
    );
    assert_eq!(
        target.paintable.len(),
        influences.len(),
        "one flag per vertex"
    );
    // (vertex, bone) → strength, so a vertex under the brush and mirrored onto
    // from the other side is painted once, at the larger strength.
    let strokes = &mut scratch.strokes;
    strokes.clear();
    for (vertex, point) in target.points.iter().enumerate() {
        if !target.paintable[vertex] {
            continue;
        }
        let strength = brush.effect(point.distance(centre));
        if strength <= 0.0 {
            continue;
        }
        let mut add = |key: (u32, u16)| {
            let entry = strokes.entry(key).or_insert(0.0);
            *entry = entry.max(strength);
        };
        add((vertex as u32, bone));
        if let Some((vertices, bones)) = target.mirror {
            if let (Some(Some(mirror_vertex)), Some(&mirror_bone)) =
                (vertices.get(vertex), bones.get(usize::from(bone)))
            {
                add((*mirror_vertex, mirror_bone));
            }
        }
    }
    let keys = &mut scratch.keys;
    keys.clear();
    keys.extend(strokes.drain());
    crate::rig::sorting::sort_stable_by_key(keys, |&(key, _)| key);
    // Smoothing reads the weights as they were before this dab: its targets
    // are all computed before the first one is written.
    let targets = &mut scratch.targets;
    targets.clear();
    if brush.mode == PaintMode::Smooth {
        targets.extend(keys.iter().map(|&((vertex, painted_bone), strength)| {
            let vertex = vertex as usize;
            let current = influences[vertex].weight_of(painted_bone);
            let around = &target.neighbours[vertex];
            if around.is_empty() {
                return current;
            }
            let mean = around
                .iter()
                .map(|&n| influences[n as usize].weight_of(painted_bone))
                .sum::<f32>()
                / around.len() as f32;
            current + (mean - current) * strength
        }));
    }
    let mut report = DabReport::default();
    let changed = &mut scratch.changed;
    changed.clear();
    for (index, &((vertex, painted_bone), strength)) in keys.iter().enumerate() {
        let vertex = vertex as usize;
        let current = influences[vertex].weight_of(painted_bone);
        let target_weight = match brush.mode {
            PaintMode::Add => current + strength,
            PaintMode::Subtract => current - strength,
            PaintMode::Set => current + (brush.value.clamp(0.0, 1.0) - current) * strength,
            PaintMode::Smooth => targets[index],
        };
        let (updated, pruned) = set_weight(
            &influences[vertex],
            painted_bone,
            target_weight,
            target.locked,
        );
        if updated != influences[vertex] {
            influences[vertex] = updated;
            report.touched += 1;
            changed.push(vertex as u32);
        }
        report.pruned += pruned;
    }
    report
}

/// For each vertex, the vertex at its mirror image `(−x, y, z)` within
/// `tolerance`, if there is one (itself for a vertex on the plane x = 0);
/// the nearest, the lowest index among equally near ones.
///
/// The vertices are hashed into cubes of side `2 · tolerance`, each cube's
/// vertices chained in index order through one array (no list per cube). A
/// ball of radius `tolerance` around the image reaches at most one more
/// cube per axis, the one on the side of the cube's nearer face: 8 cubes
/// to look in, and the search ends at an exact image (a symmetric mesh's
/// usual case), so a 100,000-vertex mesh is mapped in a few milliseconds.
pub fn mirror_vertices(positions: &[Vec3], tolerance: f32) -> Vec<Option<u32>> {
    const END: u32 = u32::MAX;
    let cube = 2.0 * tolerance.max(1e-6);
    let cell = |p: Vec3| (p / cube).floor();
    let key = |c: Vec3| (c.x as i64, c.y as i64, c.z as i64);
    let mut first: FxHashMap<(i64, i64, i64), u32> = FxHashMap::default();
    first.reserve(positions.len());
    let mut next = vec![END; positions.len()];
    // Backwards, so each chain runs in increasing index order.
    for (index, &p) in positions.iter().enumerate().rev() {
        let head = first.entry(key(cell(p))).or_insert(END);
        next[index] = *head;
        *head = index as u32;
    }
    positions
        .iter()
        .map(|&p| {
            let image = Vec3::new(-p.x, p.y, p.z);
            let home = cell(image);
            // −1 or +1 per axis: towards the nearer face of the home cube.
            let side = (image / cube - home).cmplt(Vec3::splat(0.5));
            let step = Vec3::select(side, Vec3::splat(-1.0), Vec3::ONE);
            let mut best: Option<(u32, f32)> = None;
            for corner in 0..8 {
                let offset = Vec3::new(
                    if corner & 1 == 0 { 0.0 } else { step.x },
                    if corner & 2 == 0 { 0.0 } else { step.y },
                    if corner & 4 == 0 { 0.0 } else { step.z },
                );
                let mut candidate = first.get(&key(home + offset)).copied().unwrap_or(END);
                while candidate != END {
                    let distance = positions[candidate as usize].distance(image);
                    let better = best.is_none_or(|(index, d)| {
                        distance < d || (distance == d && candidate < index)
                    });
                    if distance <= tolerance && better {
                        best = Some((candidate, distance));
                    }
                    candidate = next[candidate as usize];
                }
                if best.is_some_and(|(_, d)| d == 0.0) {
                    break;
                }
            }
            best.map(|(index, _)| index)
        })
        .collect()
}

/// For each bone, the bone whose rest origin and tip are its mirror image in
/// x (itself when it lies on the plane x = 0 or has no mirror).
pub fn mirror_bones(origins: &[Vec3], tips: &[Vec3], tolerance: f32) -> Vec<u16> {
    let flip = |p: Vec3| Vec3::new(-p.x, p.y, p.z);
    (0..origins.len())
        .map(|bone| {
            (0..origins.len())
                .find(|&other| {
                    origins[other].distance(flip(origins[bone])) <= tolerance
                        && tips[other].distance(flip(tips[bone])) <= tolerance
                })
                .unwrap_or(bone) as u16
        })
        .collect()
}

/// Each vertex's neighbours along the edges of `indices`' triangles,
/// increasing, each once (a degenerate triangle's vertex is not its own
/// neighbour).
///
/// Counted, then filled into one array and each vertex's few sorted: no
/// hashing of the mesh's edges, about 5 ms for 100,000 vertices natively.
pub fn triangle_neighbours(vertex_count: usize, indices: &[u32]) -> Vec<Vec<u32>> {
    let mut starts = vec![0_usize; vertex_count + 1];
    for &vertex in indices {
        starts[vertex as usize + 1] += 2;
    }
    for k in 0..vertex_count {
        starts[k + 1] += starts[k];
    }
    let mut fill = starts.clone();
    let mut flat = vec![0_u32; starts[vertex_count]];
    for triangle in indices.chunks_exact(3) {
        for k in 0..3 {
            let vertex = triangle[k] as usize;
            for other in [triangle[(k + 1) % 3], triangle[(k + 2) % 3]] {
                flat[fill[vertex]] = other;
                fill[vertex] += 1;
            }
        }
    }
    (0..vertex_count)
        .map(|vertex| {
            let around = &mut flat[starts[vertex]..fill[vertex]];
            // A fan's hub (a cap's centre) can have thousands: the shared
            // sort stays O(n log n) for them.
            crate::rig::sorting::sort_stable_by_key(around, |&other| other);
            let mut neighbours: Vec<u32> = Vec::with_capacity(around.len() / 2);
            for &other in around.iter() {
                if other as usize != vertex && neighbours.last() != Some(&other) {
                    neighbours.push(other);
                }
            }
            neighbours
        })
        .collect()
}

/// Each vertex's neighbours along mesh edges.
pub fn vertex_neighbours(vertex_count: usize, edges: &[(u32, u32)]) -> Vec<Vec<u32>> {
    let mut neighbours = vec![Vec::new(); vertex_count];
    for &(a, b) in edges {
        neighbours[a as usize].push(b);
        neighbours[b as usize].push(a);
    }
    neighbours
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weights(v: &VertexInfluences) -> Vec<(u16, f32)> {
        let mut pairs: Vec<_> = v.pairs().collect();
        pairs.sort_by_key(|p| p.0);
        pairs
    }

    #[test]
    fn falloffs_go_from_full_to_nothing() {
        for falloff in [Falloff::Smooth, Falloff::Linear, Falloff::Constant] {
            assert_eq!(falloff.factor(0.0), 1.0);
            assert_eq!(falloff.factor(1.01), 0.0);
        }
        assert_eq!(Falloff::Smooth.factor(0.5), 0.5);
        assert_eq!(Falloff::Linear.factor(0.25), 0.75);
        assert_eq!(Falloff::Constant.factor(0.99), 1.0);
        assert!(Falloff::Smooth.factor(0.1) > Falloff::Linear.factor(0.1));
        let brush = Brush {
            radius: 10.0,
            strength: 0.5,
            falloff: Falloff::Linear,
            mode: PaintMode::Add,
            value: 1.0,
        };
        assert_eq!(brush.effect(5.0), 0.25);
        assert_eq!(brush.effect(11.0), 0.0);
    }

    #[test]
    fn auto_normalise_scales_the_unlocked_others() {
        let (vertex, _) = VertexInfluences::from_pairs(&[(0, 0.5), (1, 0.3), (2, 0.2)]);
        let (painted, pruned) = set_weight(&vertex, 0, 0.8, &[]);
        assert_eq!(pruned, 0);
        let w = weights(&painted);
        assert!((w[0].1 - 0.8).abs() < 1e-6);
        assert!(
            (w[1].1 - 0.12).abs() < 1e-6 && (w[2].1 - 0.08).abs() < 1e-6,
            "{w:?}"
        );
        assert!((painted.total_weight() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn locked_bones_never_change() {
        let (vertex, _) = VertexInfluences::from_pairs(&[(0, 0.5), (1, 0.3), (2, 0.2)]);
        let locked = [false, true, false];
        let (painted, _) = set_weight(&vertex, 0, 0.9, &locked);
        let w = weights(&painted);
        assert!(
            (w[1].1 - 0.3).abs() < 1e-6,
            "the locked bone keeps 0.3: {w:?}"
        );
        assert!(
            (w[0].1 - 0.7).abs() < 1e-6,
            "the painted bone is capped at 1 − locked"
        );
        assert!(
            w.iter().all(|&(b, _)| b != 2),
            "bone 2 gave up all its weight"
        );
        let (unchanged, _) = set_weight(&vertex, 1, 0.0, &locked);
        assert_eq!(unchanged, vertex, "painting a locked bone does nothing");
    }

    #[test]
    fn a_sole_bone_cannot_be_subtracted_away() {
        let vertex = VertexInfluences::single(3);
        let (painted, _) = set_weight(&vertex, 3, 0.2, &[]);
        assert_eq!(weights(&painted), vec![(3, 1.0)]);
        let (added, _) = set_weight(&vertex, 1, 0.25, &[]);
        assert_eq!(weights(&added), vec![(1, 0.25), (3, 0.75)]);
    }

    #[test]
    fn a_fifth_bone_prunes_the_smallest_unlocked() {
        let (vertex, _) = VertexInfluences::from_pairs(&[(0, 0.4), (1, 0.3), (2, 0.2), (3, 0.1)]);
        let (painted, pruned) = set_weight(&vertex, 4, 0.3, &[false, false, false, true]);
        assert_eq!(pruned, 1);
        let bones: Vec<u16> = weights(&painted).iter().map(|p| p.0).collect();
        assert_eq!(
            bones,
            vec![0, 1, 3, 4],
            "bone 2 is dropped, locked bone 3 kept"
        );
        assert!((painted.total_weight() - 1.0).abs() < 1e-6);
        assert!(
            (painted.weight_of(3) - 0.1).abs() < 1e-6,
            "the locked weight is untouched by the pruning"
        );
        // Four locked bones leave no room for a fifth.
        let all_locked = [true; 4];
        assert_eq!(set_weight(&vertex, 4, 0.3, &all_locked), (vertex, 0));
    }

    fn strip_target<'a>(
        points: &'a [Vec2],
        paintable: &'a [bool],
        neighbours: &'a [Vec<u32>],
    ) -> PaintTarget<'a> {
        PaintTarget {
            points,
            paintable,
            neighbours,
            locked: &[],
            mirror: None,
        }
    }

    #[test]
    fn a_dab_paints_inside_its_radius_only() {
        let points: Vec<Vec2> = (0..5).map(|k| Vec2::new(k as f32 * 10.0, 0.0)).collect();
        let paintable = vec![true; 5];
        let neighbours = vertex_neighbours(5, &[(0, 1), (1, 2), (2, 3), (3, 4)]);
        let mut influences = vec![VertexInfluences::single(0); 5];
        let brush = Brush {
            radius: 15.0,
            strength: 1.0,
            falloff: Falloff::Constant,
            mode: PaintMode::Set,
            value: 0.5,
        };
        let report = dab(
            &mut influences,
            &strip_target(&points, &paintable, &neighbours),
            1,
            Vec2::ZERO,
            &brush,
        );
        assert_eq!(report.touched, 2);
        assert_eq!(influences[0].weight_of(1), 0.5);
        assert_eq!(influences[1].weight_of(1), 0.5);
        assert_eq!(influences[2].weight_of(1), 0.0);
    }

    #[test]
    fn smoothing_pulls_towards_the_neighbours() {
        let points: Vec<Vec2> = (0..3).map(|k| Vec2::new(k as f32, 0.0)).collect();
        let paintable = vec![true; 3];
        let neighbours = vertex_neighbours(3, &[(0, 1), (1, 2)]);
        let mut influences = vec![
            VertexInfluences::single(1),
            VertexInfluences::single(0),
            VertexInfluences::single(1),
        ];
        let brush = Brush {
            radius: 0.5,
            strength: 0.5,
            falloff: Falloff::Constant,
            mode: PaintMode::Smooth,
            value: 1.0,
        };
        dab(
            &mut influences,
            &strip_target(&points, &paintable, &neighbours),
            1,
            Vec2::new(1.0, 0.0),
            &brush,
        );
        assert!((influences[1].weight_of(1) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn mirror_maps_vertices_and_bones_across_x() {
        let positions = [
            Vec3::new(-1.0, 2.0, 0.0),
            Vec3::new(1.0, 2.0, 0.0),
            Vec3::new(0.0, 5.0, 0.0),
            Vec3::new(3.0, 0.0, 0.0),
        ];
        assert_eq!(
            mirror_vertices(&positions, 1e-3),
            vec![Some(1), Some(0), Some(2), None]
        );
        let origins = [Vec3::ZERO, Vec3::Y, Vec3::Y];
        let tips = [Vec3::Y, Vec3::new(-1.0, 2.0, 0.0), Vec3::new(1.0, 2.0, 0.0)];
        assert_eq!(mirror_bones(&origins, &tips, 1e-3), vec![0, 2, 1]);
    }

    proptest::proptest! {
        /// Neighbours from the triangles are those along the mesh's edges.
        #[test]
        fn triangle_neighbours_are_the_edges_neighbours(
            indices in proptest::collection::vec(0_u32..12, 0..90)
        ) {
            let indices = &indices[..indices.len() / 3 * 3];
            let mesh = crate::skin::mesh::Mesh::new(vec![Vec3::ZERO; 12], indices.to_vec());
            let mut expected = vertex_neighbours(12, &mesh.edges());
            for (vertex, around) in expected.iter_mut().enumerate() {
                around.retain(|&other| other as usize != vertex);
                around.sort_unstable();
                around.dedup();
            }
            proptest::prop_assert_eq!(triangle_neighbours(12, indices), expected);
        }

        /// The hashed search finds what comparing every pair finds: the
        /// nearest vertex within the tolerance, the lowest index on a tie.
        /// Coordinates on a grid of a third of the tolerance put images
        /// exactly on, just inside and just outside cube faces and the
        /// tolerance itself.
        #[test]
        fn mirror_search_equals_comparing_every_pair(
            steps in proptest::collection::vec((-9_i32..9, -4_i32..4, -4_i32..4), 1..60)
        ) {
            let tolerance = 0.3;
            let positions: Vec<Vec3> = steps
                .iter()
                .map(|&(x, y, z)| Vec3::new(x as f32, y as f32, z as f32) * 0.1)
                .collect();
            let every_pair: Vec<Option<u32>> = positions
                .iter()
                .map(|&p| {
                    let image = Vec3::new(-p.x, p.y, p.z);
                    let mut best: Option<(u32, f32)> = None;
                    for (k, q) in positions.iter().enumerate() {
                        let d = q.distance(image);
                        if d <= tolerance && best.is_none_or(|(_, b)| d < b) {
                            best = Some((k as u32, d));
                        }
                    }
                    best.map(|(k, _)| k)
                })
                .collect();
            proptest::prop_assert_eq!(mirror_vertices(&positions, tolerance), every_pair);
        }
    }

    #[test]
    fn a_mirrored_dab_paints_the_other_side_with_the_other_bone() {
        let points = [Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0)];
        let paintable = [true, true];
        let neighbours = vertex_neighbours(2, &[]);
        let mirror_vertex = [Some(1), Some(0)];
        let mirror_bone = [0_u16, 2, 1];
        let target = PaintTarget {
            points: &points,
            paintable: &paintable,
            neighbours: &neighbours,
            locked: &[],
            mirror: Some((&mirror_vertex, &mirror_bone)),
        };
        let mut influences = vec![VertexInfluences::single(0); 2];
        let brush = Brush {
            radius: 5.0,
            strength: 1.0,
            falloff: Falloff::Constant,
            mode: PaintMode::Add,
            value: 1.0,
        };
        dab(&mut influences, &target, 1, Vec2::new(-10.0, 0.0), &brush);
        assert_eq!(influences[0].weight_of(1), 1.0);
        assert_eq!(
            influences[1].weight_of(2),
            1.0,
            "the mirror vertex gets the mirror bone"
        );
    }
}
