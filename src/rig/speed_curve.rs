//! The characteristic curve of a path (the animation talk's `V(u)`): how far
//! along the path the rider is at each time, drawn and edited apart from
//! the path's shape.
//!
//! The talk's four steps: the time `t`; the distance `s = V(t)` from the
//! curve; the parameter `u` with arc length `s` (the table); the point
//! `Q(u)`. The curve passes through points `(t_k, d_k)` — times in seconds,
//! distances as fractions of the path's length, so the curve survives an
//! edit of the path — joined by Fritsch–Carlson monotone cubic Hermite
//! pieces: with non-decreasing `d_k` the rider never turns back.

/// Why points do not make a speed curve.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpeedCurveError {
    /// Fewer than two points, or times and distances of different lengths.
    #[error("a speed curve needs two or more (time, distance) pairs; found {times} times and {distances} distances")]
    Count {
        /// Times given.
        times: usize,
        /// Distances given.
        distances: usize,
    },
    /// More points than [`MAX_SPEED_POINTS`].
    #[error("a speed curve has {found} points; at most {max}")]
    TooMany {
        /// Points given.
        found: usize,
        /// [`MAX_SPEED_POINTS`].
        max: usize,
    },
    /// Times not increasing, or not finite.
    #[error("speed curve time {index} ({value}) is not finite and after the one before")]
    Time {
        /// The point.
        index: usize,
        /// Its time.
        value: f32,
    },
    /// A distance outside `[0, 1]`, smaller than the one before, or not
    /// finite.
    #[error("speed curve distance {index} ({value}) is not between the one before and 1")]
    Distance {
        /// The point.
        index: usize,
        /// Its distance.
        value: f32,
    },
}

/// The most points a speed curve may have.
pub const MAX_SPEED_POINTS: usize = 256;

/// The smallest gap kept between neighbouring times when a point is
/// dragged, seconds.
pub const MIN_TIME_GAP: f32 = 1e-3;

/// A monotone distance-over-time curve.
#[derive(Clone, Debug, PartialEq)]
pub struct SpeedCurve {
    times: Vec<f32>,
    distances: Vec<f32>,
    /// `m_k = dd/dt` at each point, after the Fritsch–Carlson limiter.
    slopes: Vec<f32>,
}

impl SpeedCurve {
    /// The curve through `(times[k], distances[k])`: times increasing,
    /// distances non-decreasing within `[0, 1]`.
    pub fn new(times: Vec<f32>, distances: Vec<f32>) -> Result<Self, SpeedCurveError> {
        if times.len() != distances.len() || times.len() < 2 {
            return Err(SpeedCurveError::Count {
                times: times.len(),
                distances: distances.len(),
            });
        }
        if times.len() > MAX_SPEED_POINTS {
            return Err(SpeedCurveError::TooMany {
                found: times.len(),
                max: MAX_SPEED_POINTS,
            });
        }
        for (index, &value) in times.iter().enumerate() {
            if !value.is_finite() || (index > 0 && value <= times[index - 1]) {
                return Err(SpeedCurveError::Time { index, value });
            }
        }
        for (index, &value) in distances.iter().enumerate() {
            let floor = if index > 0 { distances[index - 1] } else { 0.0 };
            if !(floor..=1.0).contains(&value) {
                return Err(SpeedCurveError::Distance { index, value });
            }
        }
        let slopes = fritsch_carlson(&times, &distances);
        Ok(Self {
            times,
            distances,
            slopes,
        })
    }

    /// Constant speed over `duration` seconds: `(0, 0)` to `(T, 1)` through
    /// `points − 2` evenly spaced points between, ready to be dragged.
    pub fn uniform(duration: f32, points: usize) -> Self {
        let n = points.clamp(2, MAX_SPEED_POINTS);
        let duration = if duration.is_finite() && duration > 0.0 {
            duration
        } else {
            1.0
        };
        let fractions: Vec<f32> = (0..n).map(|k| k as f32 / (n - 1) as f32).collect();
        let times = fractions.iter().map(|f| f * duration).collect();
        // Evenly spaced points on a line: always a valid curve.
        Self::new(times, fractions).unwrap_or_else(|_| unreachable!("a line is monotone"))
    }

    /// The points' times, seconds.
    pub fn times(&self) -> &[f32] {
        &self.times
    }

    /// The points' distances, fractions of the path's length.
    pub fn distances(&self) -> &[f32] {
        &self.distances
    }

    /// `V(t)`: the fraction of the path's length covered at `time`, held at
    /// the first and last point outside them. On `[t_k, t_{k+1}]`, with
    /// `h = t_{k+1} − t_k` and `x = (t − t_k)/h`:
    /// `V = H₀₀(x)·d_k + H₁₀(x)·h·m_k + H₀₁(x)·d_{k+1} + H₁₁(x)·h·m_{k+1}`.
    pub fn fraction_at(&self, time: f32) -> f32 {
        let last = self.times.len() - 1;
        if time.is_nan() || time <= self.times[0] {
            return self.distances[0];
        }
        if time >= self.times[last] {
            return self.distances[last];
        }
        let k = self.times.partition_point(|&t| t <= time).clamp(1, last) - 1;
        // In f64: the piece is monotone in exact arithmetic, and f32
        // rounding of its four terms could step one unit back.
        let wide = |v: f32| f64::from(v);
        let h = wide(self.times[k + 1]) - wide(self.times[k]);
        let x = (wide(time) - wide(self.times[k])) / h;
        let (x2, x3) = (x * x, x * x * x);
        let value = (2.0 * x3 - 3.0 * x2 + 1.0) * wide(self.distances[k])
            + (x3 - 2.0 * x2 + x) * h * wide(self.slopes[k])
            + (-2.0 * x3 + 3.0 * x2) * wide(self.distances[k + 1])
            + (x3 - x2) * h * wide(self.slopes[k + 1]);
        (value as f32).clamp(self.distances[k], self.distances[k + 1])
    }

    /// Moves point `index` to `(time, distance)` as near as the curve
    /// allows: its time strictly between its neighbours' (the first point
    /// stays at its time), its distance between theirs and within `[0, 1]`,
    /// so the curve stays monotone whatever is asked. Returns where the
    /// point went; `None` for an index out of range or a value not finite.
    pub fn set_point(&mut self, index: usize, time: f32, distance: f32) -> Option<(f32, f32)> {
        if index >= self.times.len() || !time.is_finite() || !distance.is_finite() {
            return None;
        }
        let last = self.times.len() - 1;
        let time = if index == 0 {
            self.times[0]
        } else {
            let low = self.times[index - 1] + MIN_TIME_GAP;
            let high = if index < last {
                self.times[index + 1] - MIN_TIME_GAP
            } else {
                f32::MAX
            };
            time.clamp(low, high.max(low))
        };
        let low = if index > 0 {
            self.distances[index - 1]
        } else {
            0.0
        };
        let high = if index < last {
            self.distances[index + 1]
        } else {
            1.0
        };
        let distance = distance.clamp(low, high.max(low));
        self.times[index] = time;
        self.distances[index] = distance;
        self.slopes = fritsch_carlson(&self.times, &self.distances);
        Some((time, distance))
    }
}

/// Fritsch and Carlson (1980), "Monotone piecewise cubic interpolation":
/// secants `δ_k = (d_{k+1} − d_k)/(t_{k+1} − t_k)`; slopes the mean of the
/// neighbouring secants (0 where one is flat, one-sided at the ends); then
/// on each piece with `α = m_k/δ_k`, `β = m_{k+1}/δ_k` and `α² + β² > 9`,
/// both scaled by `3/√(α² + β²)`, which keeps the piece monotone.
fn fritsch_carlson(times: &[f32], distances: &[f32]) -> Vec<f32> {
    let n = times.len();
    let secants: Vec<f32> = (0..n - 1)
        .map(|k| (distances[k + 1] - distances[k]) / (times[k + 1] - times[k]))
        .collect();
    let mut slopes = vec![0.0_f32; n];
    slopes[0] = secants[0];
    slopes[n - 1] = secants[n - 2];
    for k in 1..n - 1 {
        let (before, after) = (secants[k - 1], secants[k]);
        slopes[k] = if before * after <= 0.0 {
            0.0
        } else {
            (before + after) / 2.0
        };
    }
    for (k, &secant) in secants.iter().enumerate() {
        if secant == 0.0 {
            slopes[k] = 0.0;
            slopes[k + 1] = 0.0;
            continue;
        }
        let (alpha, beta) = (slopes[k] / secant, slopes[k + 1] / secant);
        let radius = alpha.hypot(beta);
        if radius > 3.0 {
            let tau = 3.0 / radius;
            slopes[k] = tau * alpha * secant;
            slopes[k + 1] = tau * beta * secant;
        }
    }
    slopes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_passes_through_its_points_and_holds_outside() {
        let curve = SpeedCurve::new(vec![0.0, 1.0, 3.0], vec![0.0, 0.6, 1.0]).unwrap();
        assert_eq!(curve.fraction_at(1.0), 0.6);
        assert_eq!(curve.fraction_at(-1.0), 0.0);
        assert_eq!(curve.fraction_at(9.0), 1.0);
        let uniform = SpeedCurve::uniform(2.0, 4);
        for t in [0.1_f32, 0.7, 1.3, 1.9] {
            assert!((uniform.fraction_at(t) - t / 2.0).abs() < 1e-6, "t = {t}");
        }
    }

    #[test]
    fn a_pause_stays_a_pause() {
        // A flat stretch between two equal distances does not wobble.
        let curve = SpeedCurve::new(vec![0.0, 1.0, 2.0, 3.0], vec![0.0, 0.5, 0.5, 1.0]).unwrap();
        for k in 0..=20 {
            let t = 1.0 + k as f32 / 20.0;
            assert_eq!(curve.fraction_at(t), 0.5);
        }
    }

    #[test]
    fn bad_points_are_refused_by_name() {
        assert!(matches!(
            SpeedCurve::new(vec![0.0], vec![0.0]),
            Err(SpeedCurveError::Count { .. })
        ));
        assert_eq!(
            SpeedCurve::new(vec![0.0, 0.0], vec![0.0, 1.0]),
            Err(SpeedCurveError::Time {
                index: 1,
                value: 0.0
            })
        );
        assert_eq!(
            SpeedCurve::new(vec![0.0, 1.0, 2.0], vec![0.0, 0.7, 0.5]),
            Err(SpeedCurveError::Distance {
                index: 2,
                value: 0.5
            })
        );
        assert!(matches!(
            SpeedCurve::new(vec![0.0, 1.0], vec![0.0, 1.5]),
            Err(SpeedCurveError::Distance { index: 1, .. })
        ));
    }

    #[test]
    fn a_drag_is_clamped_between_the_neighbours() {
        let mut curve = SpeedCurve::uniform(3.0, 4);
        assert_eq!(
            curve.set_point(1, 5.0, -2.0),
            Some((2.0 - MIN_TIME_GAP, 0.0))
        );
        assert_eq!(curve.set_point(0, 1.0, 0.5), Some((0.0, 0.0)));
        assert_eq!(curve.set_point(3, 4.0, 2.0), Some((4.0, 1.0)));
        assert_eq!(curve.set_point(4, 1.0, 0.5), None);
        assert_eq!(curve.set_point(2, f32::NAN, 0.5), None);
    }
}
