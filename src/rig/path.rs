//! Path animation (the animation talk): a point moving along a chain of cubic Bézier
//! segments at a speed the animator chooses, found through arc length.
//!
//! The curve parameter `u` does not advance with distance: moving `u` at a
//! constant rate bunches the points where the control points crowd. The
//! the animation talk's cure is "Annäherung durch Aufsummierung": sample the curve at
//! `u_k = k / (N − 1)`, sum the chords into a table of lengths
//! `l_k = l_{k−1} + |B(u_k) − B(u_{k−1})|`, and find the `u` of an arc
//! length `s` by binary search and linear interpolation between entries.

use glam::Vec3;

use super::speed_curve::SpeedCurve;

/// How time maps onto the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// Constant speed: arc length `s = L · t / T`.
    Uniform,
    /// Ease in and out: `s = L · (3f² − 2f³)` with `f = t / T`.
    Ease,
    /// The parameter proportional to time, `u = t / T`: the uneven speed
    /// the animation talk warns about.
    Naive,
    /// The path's characteristic curve: `s = L · V(t)` (see
    /// [`SpeedCurve`]).
    Curve,
}

impl Timing {
    /// The name the scene JSON uses.
    pub fn name(self) -> &'static str {
        match self {
            Self::Uniform => "uniform",
            Self::Ease => "ease",
            Self::Naive => "naive",
            Self::Curve => "curve",
        }
    }

    /// The timing called `name`, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "uniform" => Some(Self::Uniform),
            "ease" => Some(Self::Ease),
            "naive" => Some(Self::Naive),
            "curve" => Some(Self::Curve),
            _ => None,
        }
    }
}

/// Why control points do not make a path.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PathError {
    /// Not `3n + 1` points with `n ≥ 1`.
    #[error("a path needs 3n + 1 control points (n ≥ 1 segments), found {found}")]
    PointCount {
        /// Points given.
        found: usize,
    },
    /// A coordinate is NaN or infinite.
    #[error("control point {point} is not finite")]
    NonFinite {
        /// The point.
        point: usize,
    },
    /// More segments than [`MAX_PATH_SEGMENTS`].
    #[error("a path has {found} segments; at most {max} are read")]
    TooManySegments {
        /// Segments given.
        found: usize,
        /// [`MAX_PATH_SEGMENTS`].
        max: usize,
    },
}

/// The most cubic segments a path may have: far more than a lecture's
/// curve, few enough that its arc-length diagnostics stay in milliseconds.
pub const MAX_PATH_SEGMENTS: usize = 4096;

/// A chain of cubic Bézier segments `P0 C0 D0 P1 C1 D1 P2 …`: segment `i`
/// runs from `P_i` to `P_{i+1}` pulled towards `C_i` and `D_i`.
#[derive(Clone, Debug, PartialEq)]
pub struct BezierPath {
    points: Vec<Vec3>,
}

impl BezierPath {
    /// The path through `points`, in model space.
    pub fn new(points: Vec<Vec3>) -> Result<Self, PathError> {
        if points.len() < 4 || (points.len() - 1) % 3 != 0 {
            return Err(PathError::PointCount {
                found: points.len(),
            });
        }
        let segments = (points.len() - 1) / 3;
        if segments > MAX_PATH_SEGMENTS {
            return Err(PathError::TooManySegments {
                found: segments,
                max: MAX_PATH_SEGMENTS,
            });
        }
        if let Some(point) = points.iter().position(|p| !p.is_finite()) {
            return Err(PathError::NonFinite { point });
        }
        Ok(Self { points })
    }

    /// The control points.
    pub fn points(&self) -> &[Vec3] {
        &self.points
    }

    /// Number of cubic segments.
    pub fn segments(&self) -> usize {
        (self.points.len() - 1) / 3
    }

    /// The segment of `u ∈ [0, 1]` and the parameter within it.
    fn locate(&self, u: f32) -> (usize, f32) {
        let n = self.segments();
        let scaled = u.clamp(0.0, 1.0) * n as f32;
        let segment = (scaled.floor() as usize).min(n - 1);
        (segment, scaled - segment as f32)
    }

    /// `B(u) = (1−v)³ P + 3(1−v)² v C + 3(1−v) v² D + v³ P'` on the
    /// segment `u` falls in, `v` its parameter there.
    pub fn point(&self, u: f32) -> Vec3 {
        let (segment, v) = self.locate(u);
        let [p, c, d, q] = self.segment(segment);
        let w = 1.0 - v;
        p * (w * w * w) + c * (3.0 * w * w * v) + d * (3.0 * w * v * v) + q * (v * v * v)
    }

    /// `dB/du = n · (3(1−v)² (C − P) + 6(1−v) v (D − C) + 3 v² (P' − D))`.
    pub fn derivative(&self, u: f32) -> Vec3 {
        let (segment, v) = self.locate(u);
        let [p, c, d, q] = self.segment(segment);
        let w = 1.0 - v;
        ((c - p) * (3.0 * w * w) + (d - c) * (6.0 * w * v) + (q - d) * (3.0 * v * v))
            * self.segments() as f32
    }

    fn segment(&self, segment: usize) -> [Vec3; 4] {
        std::array::from_fn(|k| self.points[3 * segment + k])
    }

    /// `∫₀ᵘ |B'(x)| dx` by 5-point Gauss–Legendre on 64 panels per segment:
    /// the reference the chord table is measured against.
    pub fn integrated_length_to(&self, u: f32) -> f32 {
        self.integrated_lengths_to(&[u])[0]
    }

    /// [`BezierPath::integrated_length_to`] at each of `us` (ascending), in
    /// one pass over the panels: `∫₀^{u_k}` is the sum of the whole panels
    /// below `u_k` and the part of the panel it falls in.
    pub fn integrated_lengths_to(&self, us: &[f32]) -> Vec<f32> {
        const NODES: [(f64, f64); 5] = [
            (0.0, 0.568_888_888_888_889),
            (-0.538_469_310_105_683, 0.478_628_670_499_366),
            (0.538_469_310_105_683, 0.478_628_670_499_366),
            (-0.906_179_845_938_664, 0.236_926_885_056_189),
            (0.906_179_845_938_664, 0.236_926_885_056_189),
        ];
        let panels = 64 * self.segments();
        let width = 1.0 / panels as f64;
        let over = |start: f64, end: f64, total: &mut f64| {
            let (middle, half) = ((start + end) / 2.0, (end - start) / 2.0);
            for (x, weight) in NODES {
                let at = (middle + half * x) as f32;
                *total += weight * half * f64::from(self.derivative(at).length());
            }
        };
        let mut out = Vec::with_capacity(us.len());
        let mut whole = 0.0_f64; // the panels below `panel`
        let mut panel = 0;
        for &u in us {
            let u = f64::from(u.clamp(0.0, 1.0));
            while panel < panels && (panel + 1) as f64 * width <= u {
                over(panel as f64 * width, (panel + 1) as f64 * width, &mut whole);
                panel += 1;
            }
            let mut total = whole;
            let start = panel as f64 * width;
            if panel < panels && start < u {
                over(start, u, &mut total);
            }
            out.push(total as f32);
        }
        out
    }
}

/// The animation talk's table of cumulative chord lengths over `u_k = k / (N − 1)`.
#[derive(Clone, Debug, PartialEq)]
pub struct ArcLengthTable {
    lengths: Vec<f32>,
}

/// The fewest entries a table may have (one chord).
pub const MIN_TABLE_ENTRIES: usize = 2;

/// The most entries a table may have; beyond it the chords are shorter than
/// `f32` resolves on lecture-sized paths.
pub const MAX_TABLE_ENTRIES: usize = 65_536;

impl ArcLengthTable {
    /// `l_0 = 0`, `l_k = l_{k−1} + |B(u_k) − B(u_{k−1})|` for
    /// `entries` samples (clamped to
    /// [`MIN_TABLE_ENTRIES`]`..=`[`MAX_TABLE_ENTRIES`]).
    pub fn new(path: &BezierPath, entries: usize) -> Self {
        let entries = entries.clamp(MIN_TABLE_ENTRIES, MAX_TABLE_ENTRIES);
        let step = 1.0 / (entries - 1) as f32;
        let mut lengths = Vec::with_capacity(entries);
        let mut previous = path.point(0.0);
        // Summed in f64: thousands of short chords added in f32 lose more
        // to rounding (≈ N·ε of the length) than the chords themselves.
        let mut total = 0.0_f64;
        lengths.push(0.0);
        for k in 1..entries {
            let point = path.point(k as f32 * step);
            total += f64::from(point.distance(previous));
            lengths.push(total as f32);
            previous = point;
        }
        Self { lengths }
    }

    /// The entries `l_k`.
    pub fn lengths(&self) -> &[f32] {
        &self.lengths
    }

    /// `u_k` of entry `k`.
    pub fn parameter_of_entry(&self, k: usize) -> f32 {
        k as f32 / (self.lengths.len() - 1) as f32
    }

    /// The path's length as the table sums it, `l_{N−1}`.
    pub fn length(&self) -> f32 {
        self.lengths[self.lengths.len() - 1]
    }

    /// The arc length at parameter `u`, interpolated linearly between
    /// the entries either side of it: the inverse of
    /// [`ArcLengthTable::parameter`].
    pub fn length_at(&self, u: f32) -> f32 {
        let last = self.lengths.len() - 1;
        let scaled = u.clamp(0.0, 1.0) * last as f32;
        let k = (scaled.floor() as usize).min(last - 1);
        let within = scaled - k as f32;
        self.lengths[k] + within * (self.lengths[k + 1] - self.lengths[k])
    }

    /// The `u` at arc length `s` (clamped to the path): the entry with
    /// `l_k ≤ s < l_{k+1}` by binary search, then
    /// `u = u_k + (s − l_k) / (l_{k+1} − l_k) · (u_{k+1} − u_k)`.
    pub fn parameter(&self, s: f32) -> f32 {
        let s = s.clamp(0.0, self.length());
        let next = self
            .lengths
            .partition_point(|&l| l <= s)
            .clamp(1, self.lengths.len() - 1);
        let k = next - 1;
        let span = self.lengths[next] - self.lengths[k];
        let within = if span > 0.0 {
            (s - self.lengths[k]) / span
        } else {
            0.0
        };
        self.parameter_of_entry(k)
            + within * (self.parameter_of_entry(next) - self.parameter_of_entry(k))
    }

    /// How far the table is off, against [`BezierPath::integrated_length_to`]:
    /// `(length error, lookup error)`, the first `L_table − L`, the second
    /// the largest `|∫₀^{u(s)} |B'| − s|` over `samples` arc lengths.
    pub fn error(&self, path: &BezierPath, samples: usize) -> (f32, f32) {
        let samples = samples.max(2);
        let arc: Vec<f32> = (0..samples)
            .map(|k| self.length() * k as f32 / (samples - 1) as f32)
            .collect();
        // u(s) grows with s: one pass of the integral serves every sample,
        // and u = 1 last gives the whole length.
        let mut us: Vec<f32> = arc.iter().map(|&s| self.parameter(s)).collect();
        us.push(1.0);
        let integrals = path.integrated_lengths_to(&us);
        let exact = integrals[samples];
        let worst = arc
            .iter()
            .zip(&integrals)
            .map(|(s, integral)| (integral - s).abs())
            .fold(0.0, f32::max);
        (self.length() - exact, worst)
    }
}

/// A path a bone (or nothing yet) rides over `duration` seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct PathAnimation {
    /// A label.
    pub name: String,
    /// The curve, model space.
    pub path: BezierPath,
    /// The bone whose origin rides it, if any.
    pub bone: Option<usize>,
    /// Seconds from start to end.
    pub duration: f32,
    /// How time maps onto the path.
    pub timing: Timing,
    /// The characteristic curve [`Timing::Curve`] follows; kept while
    /// another timing is chosen, so switching back finds it again.
    pub speed: Option<SpeedCurve>,
}

impl PathAnimation {
    /// The curve parameter at `time` (clamped to the duration):
    /// `u = f` under `naive`, else the table's `u(s)` for `s = L · f`,
    /// `L · (3f² − 2f³)` or `L · V(t)`, `f = t / T`.
    pub fn parameter_at(&self, table: &ArcLengthTable, time: f32) -> f32 {
        if self.timing == Timing::Naive {
            return self.fraction_at(time);
        }
        table.parameter(table.length() * self.fraction_at(time))
    }

    /// The fraction of the way covered at `time`: of the length (`uniform`,
    /// `ease`, `curve`) or of the parameter (`naive`). A curve timing
    /// without a curve runs uniform.
    pub fn fraction_at(&self, time: f32) -> f32 {
        let f = if self.duration > 0.0 {
            (time / self.duration).clamp(0.0, 1.0)
        } else {
            1.0
        };
        match (self.timing, &self.speed) {
            (Timing::Ease, _) => f * f * (3.0 - 2.0 * f),
            (Timing::Curve, Some(curve)) => curve.fraction_at(time),
            _ => f,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn straight() -> BezierPath {
        // Uneven control points on a line: the speed in u varies.
        BezierPath::new(vec![
            Vec3::ZERO,
            Vec3::new(0.1, 0.0, 0.0),
            Vec3::new(0.2, 0.0, 0.0),
            Vec3::new(3.0, 0.0, 0.0),
        ])
        .unwrap()
    }

    #[test]
    fn bad_control_points_are_refused() {
        assert_eq!(
            BezierPath::new(vec![Vec3::ZERO; 5]),
            Err(PathError::PointCount { found: 5 })
        );
        let mut points = vec![Vec3::ZERO; 7];
        points[4].y = f32::NAN;
        assert_eq!(
            BezierPath::new(points),
            Err(PathError::NonFinite { point: 4 })
        );
    }

    #[test]
    fn a_path_of_more_segments_than_the_limit_is_refused() {
        let points = vec![Vec3::ZERO; 3 * (MAX_PATH_SEGMENTS + 1) + 1];
        assert_eq!(
            BezierPath::new(points),
            Err(PathError::TooManySegments {
                found: MAX_PATH_SEGMENTS + 1,
                max: MAX_PATH_SEGMENTS
            })
        );
        assert!(BezierPath::new(vec![Vec3::ZERO; 3 * MAX_PATH_SEGMENTS + 1]).is_ok());
    }

    #[test]
    fn the_integral_at_many_parameters_in_one_pass_is_the_arc_length() {
        // Evenly spaced control points on a line: B(u) = (3u, 0, 0), so
        // ∫₀ᵘ |B'| = 3u exactly, on each of two segments.
        let path = BezierPath::new(
            (0..7)
                .map(|k| Vec3::new(k as f32 * 0.5, 0.0, 0.0))
                .collect(),
        )
        .unwrap();
        let us = [0.0, 0.1, 0.25, 0.5, 0.77, 1.0];
        let lengths = path.integrated_lengths_to(&us);
        for (u, length) in us.iter().zip(&lengths) {
            assert!((length - 3.0 * u).abs() < 1e-5, "∫ to {u}: {length}");
            assert_eq!(*length, path.integrated_length_to(*u));
        }
    }

    #[test]
    fn a_straight_segment_has_its_length_and_uniform_lookup() {
        let path = straight();
        let table = ArcLengthTable::new(&path, 256);
        assert!((table.length() - 3.0).abs() < 1e-5);
        for s in [0.3_f32, 1.0, 2.2] {
            assert!(
                (path.point(table.parameter(s)).x - s).abs() < 3e-3,
                "s = {s}"
            );
        }
    }

    #[test]
    fn the_table_is_monotone_and_clamps() {
        let path = straight();
        let table = ArcLengthTable::new(&path, 1);
        assert_eq!(table.lengths().len(), MIN_TABLE_ENTRIES);
        assert_eq!(table.parameter(-1.0), 0.0);
        assert_eq!(table.parameter(99.0), 1.0);
        let fine = ArcLengthTable::new(&path, 64);
        assert!(fine.lengths().windows(2).all(|w| w[1] >= w[0]));
    }

    #[test]
    fn timings_map_time_to_arc_length() {
        let path = PathAnimation {
            name: String::new(),
            path: straight(),
            bone: None,
            duration: 2.0,
            timing: Timing::Uniform,
            speed: None,
        };
        let table = ArcLengthTable::new(&path.path, 1024);
        let at = |p: &PathAnimation, t| p.path.point(p.parameter_at(&table, t)).x;
        assert!((at(&path, 1.0) - 1.5).abs() < 1e-3);
        let ease = PathAnimation {
            timing: Timing::Ease,
            ..path.clone()
        };
        assert!((at(&ease, 0.5) - 3.0 * 0.15625).abs() < 1e-3);
        let naive = PathAnimation {
            timing: Timing::Naive,
            ..path
        };
        // u = ½ is far from the middle of this line.
        assert!((at(&naive, 1.0) - 1.5).abs() > 0.5);
    }
}
