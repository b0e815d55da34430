//! The pursuit example (the animation talk): a grey point runs along a path
//! at a steady speed and a car steers straight at it at its own speed. The
//! point is placed by arc length, so its speed along the curve is what was
//! asked — reparametrisation at work; the car only ever sees where the
//! point is now.
//!
//! The car integrates `x′ = v_f · (p(t) − x) / |p(t) − x|` with fixed steps
//! `Δt` (explicit Euler), and sits on the point once a step would carry it
//! past: then it keeps to the point as long as `v_f` allows.

use glam::Vec3;

use super::path::{ArcLengthTable, BezierPath};

/// The most steps a pursuit is integrated over.
pub const MAX_PURSUIT_STEPS: usize = 100_000;

/// Where the point and the car are at each step.
#[derive(Clone, Debug, PartialEq)]
pub struct Pursuit {
    /// Seconds, `k · Δt`.
    pub times: Vec<f32>,
    /// The point, model space.
    pub targets: Vec<Vec3>,
    /// The car, model space.
    pub followers: Vec<Vec3>,
    /// `|p − x|` at each step.
    pub distances: Vec<f32>,
}

/// What a pursuit is asked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PursuitSetup {
    /// The point's speed along the path, model units a second.
    pub target_speed: f32,
    /// The car's speed, model units a second.
    pub follower_speed: f32,
    /// How far along the path the point starts (the car starts at the
    /// path's start), model units.
    pub lead: f32,
    /// Seconds simulated.
    pub seconds: f32,
    /// Steps of `Δt = seconds / steps` (clamped to 1..=[`MAX_PURSUIT_STEPS`]).
    pub steps: usize,
}

/// Runs the pursuit on `path`, the point placed through `table`.
pub fn pursue(path: &BezierPath, table: &ArcLengthTable, setup: PursuitSetup) -> Pursuit {
    let steps = setup.steps.clamp(1, MAX_PURSUIT_STEPS);
    let dt = setup.seconds.max(0.0) / steps as f32;
    let target_at = |time: f32| {
        let s = (setup.lead.max(0.0) + setup.target_speed.max(0.0) * time).min(table.length());
        path.point(table.parameter(s))
    };
    let mut car = path.point(0.0);
    let mut out = Pursuit {
        times: Vec::with_capacity(steps + 1),
        targets: Vec::with_capacity(steps + 1),
        followers: Vec::with_capacity(steps + 1),
        distances: Vec::with_capacity(steps + 1),
    };
    for k in 0..=steps {
        let time = k as f32 * dt;
        let target = target_at(time);
        out.times.push(time);
        out.targets.push(target);
        out.followers.push(car);
        out.distances.push(target.distance(car));
        // The step toward where the point is now.
        let gap = target - car;
        let reach = setup.follower_speed.max(0.0) * dt;
        car = if gap.length() <= reach {
            target
        } else {
            car + gap.normalize_or_zero() * reach
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line() -> BezierPath {
        BezierPath::new(
            (0..4)
                .map(|k| Vec3::new(k as f32 * 10.0 / 3.0, 0.0, 0.0))
                .collect(),
        )
        .unwrap()
    }

    #[test]
    fn on_a_line_the_gap_closes_at_the_difference_of_the_speeds() {
        let path = line();
        let table = ArcLengthTable::new(&path, 1024);
        let setup = PursuitSetup {
            target_speed: 1.0,
            follower_speed: 1.5,
            lead: 2.0,
            seconds: 3.0,
            steps: 300,
        };
        let run = pursue(&path, &table, setup);
        for (time, distance) in run.times.iter().zip(&run.distances) {
            let expected = (2.0 - 0.5 * time).max(0.0);
            assert!(
                (distance - expected).abs() < 1e-3,
                "t = {time}: {distance} vs {expected}"
            );
        }
    }

    #[test]
    fn a_slow_car_falls_behind_and_a_fast_one_catches_up() {
        let path = line();
        let table = ArcLengthTable::new(&path, 1024);
        let setup = |follower_speed| PursuitSetup {
            target_speed: 1.0,
            follower_speed,
            lead: 1.0,
            seconds: 6.0,
            steps: 600,
        };
        let slow = pursue(&path, &table, setup(0.5));
        let fast = pursue(&path, &table, setup(3.0));
        assert!(slow.distances.last().unwrap() > &3.0);
        // Caught: one step behind the point, `v_t · Δt`.
        assert!(fast.distances.last().unwrap() < &(0.01 + 1e-4));
    }
}
