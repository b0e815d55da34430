//! Keyframe sampling (the animation talk, glTF 2.0 §3.11 "Animations") checked
//! against values computed by hand here, and the arc-length path against
//! known lengths and an independent numerical integration.

#![allow(clippy::unwrap_used)]

use glam::{Quat, Vec3};
use skinlab::rig::animation::{Channel, Interpolation, Target};
use skinlab::rig::path::{ArcLengthTable, BezierPath, PathAnimation, Timing};

fn channel(
    target: Target,
    interpolation: Interpolation,
    times: &[f32],
    values: &[[f32; 4]],
) -> Channel {
    Channel {
        bone: 0,
        target,
        times: times.to_vec(),
        values: values.to_vec(),
        tangents: Vec::new(),
        interpolation,
    }
}

fn close(a: [f32; 4], b: [f32; 4], tolerance: f32) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= tolerance)
}

#[test]
fn step_linear_and_scale_hold_outside_their_keys() {
    let scale = channel(
        Target::Scale,
        Interpolation::Linear,
        &[1.0, 2.0],
        &[[1.0, 1.0, 1.0, 0.0], [3.0, 2.0, 1.0, 0.0]],
    );
    assert_eq!(scale.sample(1.25), [1.5, 1.25, 1.0, 0.0]);
    assert_eq!(
        scale.sample(-5.0),
        [1.0, 1.0, 1.0, 0.0],
        "before the first key"
    );
    assert_eq!(
        scale.sample(7.0),
        [3.0, 2.0, 1.0, 0.0],
        "after the last key"
    );
    let step = channel(
        Target::Rotation,
        Interpolation::Step,
        &[0.0, 1.0],
        &[
            Quat::IDENTITY.to_array(),
            Quat::from_rotation_x(1.0).to_array(),
        ],
    );
    assert_eq!(step.sample(0.999), Quat::IDENTITY.to_array());
    assert_eq!(step.sample(1.0), Quat::from_rotation_x(1.0).to_array());
}

#[test]
fn a_single_key_is_constant() {
    let single = channel(
        Target::Translation,
        Interpolation::Linear,
        &[0.7],
        &[[1.0, 2.0, 3.0, 0.0]],
    );
    for t in [-1.0, 0.7, 9.0] {
        assert_eq!(single.sample(t), [1.0, 2.0, 3.0, 0.0]);
    }
}

#[test]
fn equal_key_times_jump() {
    // Keys a, b at t = 1 and c at t = 1 again, d at 2: left of 1 runs a→b,
    // from 1 on runs c→d.
    let jump = channel(
        Target::Translation,
        Interpolation::Linear,
        &[0.0, 1.0, 1.0, 2.0],
        &[
            [0.0; 4],
            [1.0, 0.0, 0.0, 0.0],
            [5.0, 0.0, 0.0, 0.0],
            [7.0, 0.0, 0.0, 0.0],
        ],
    );
    assert!((jump.sample(0.5)[0] - 0.5).abs() < 1e-6);
    assert!((jump.sample(0.9999)[0] - 0.9999).abs() < 1e-4);
    assert_eq!(jump.sample(1.0)[0], 5.0);
    assert!((jump.sample(1.5)[0] - 6.0).abs() < 1e-6);
}

#[test]
fn linear_rotations_slerp_and_cubic_rotations_are_normalised() {
    let slerp = channel(
        Target::Rotation,
        Interpolation::Linear,
        &[0.0, 4.0],
        &[
            Quat::from_rotation_y(0.2).to_array(),
            Quat::from_rotation_y(1.8).to_array(),
        ],
    );
    // A quarter of the way: 0.2 + 0.25 · 1.6 = 0.6 about Y.
    assert!(close(
        slerp.sample(1.0),
        Quat::from_rotation_y(0.6).to_array(),
        1e-6
    ));
    let mut cubic = channel(
        Target::Rotation,
        Interpolation::CubicSpline,
        &[0.0, 0.5],
        &[
            Quat::IDENTITY.to_array(),
            Quat::from_rotation_z(1.0).to_array(),
        ],
    );
    // Tangents in units per second, scaled by the interval Δ = 0.5:
    // p(s) = (2s³−3s²+1) v0 + (s³−2s²+s) Δ b0 + (−2s³+3s²) v1 + (s³−s²) Δ a1.
    let (b0, a1) = ([0.0, 0.0, 0.8, 0.0], [0.0, 0.0, -0.4, 0.2]);
    cubic.tangents = vec![[[0.0; 4], b0], [a1, [0.0; 4]]];
    let (v0, v1) = (cubic.values[0], cubic.values[1]);
    let s = 0.3_f32;
    let h = [
        2.0 * s.powi(3) - 3.0 * s * s + 1.0,
        s.powi(3) - 2.0 * s * s + s,
        -2.0 * s.powi(3) + 3.0 * s * s,
        s.powi(3) - s * s,
    ];
    let raw: [f32; 4] = std::array::from_fn(|c| {
        h[0] * v0[c] + h[1] * 0.5 * b0[c] + h[2] * v1[c] + h[3] * 0.5 * a1[c]
    });
    let norm = raw.iter().map(|x| x * x).sum::<f32>().sqrt();
    let expected = raw.map(|x| x / norm);
    assert!(
        close(cubic.sample(0.15), expected, 1e-6),
        "{:?} vs {expected:?}",
        cubic.sample(0.15)
    );
}

/// `|B'(u)|` of one cubic segment, written out here rather than taken from
/// the crate.
fn speed(p: [Vec3; 4], u: f64) -> f64 {
    let w = 1.0 - u;
    let d = (p[1] - p[0]).as_dvec3() * (3.0 * w * w)
        + (p[2] - p[1]).as_dvec3() * (6.0 * w * u)
        + (p[3] - p[2]).as_dvec3() * (3.0 * u * u);
    d.length()
}

/// `∫₀ᵘ |B'|` over the whole path by Simpson's rule, 20 000 steps per segment.
fn integrated(points: &[Vec3], u: f64) -> f64 {
    let segments = (points.len() - 1) / 3;
    let mut total = 0.0;
    for segment in 0..segments {
        let start = segment as f64 / segments as f64;
        if u <= start {
            break;
        }
        let end_local = ((u - start) * segments as f64).min(1.0);
        let p = [0, 1, 2, 3].map(|k| points[3 * segment + k]);
        let n = 20_000;
        let h = end_local / n as f64;
        let mut sum = speed(p, 0.0) + speed(p, end_local);
        for k in 1..n {
            sum += speed(p, k as f64 * h) * if k % 2 == 1 { 4.0 } else { 2.0 };
        }
        // du = dv / n and |dB/du| = n · |dB/dv|: the factors cancel.
        total += sum * h / 3.0;
    }
    total
}

#[test]
fn path_lengths_match_a_straight_line_and_a_quarter_circle() {
    let line = BezierPath::new(vec![
        Vec3::ZERO,
        Vec3::new(1.0, 2.0, 0.0),
        Vec3::new(2.0, 4.0, 0.0),
        Vec3::new(3.0, 6.0, 0.0),
    ])
    .unwrap();
    let expected = 45.0_f32.sqrt();
    let table = ArcLengthTable::new(&line, 256);
    assert!((table.length() - expected).abs() < 1e-5 * expected);
    // The usual quarter circle of radius 2: handles 0.5523 · r along the
    // tangents. Its length is π r / 2 to within the curve's own 3e-4.
    let k = 0.552_284_8 * 2.0;
    let arc = BezierPath::new(vec![
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(2.0, k, 0.0),
        Vec3::new(k, 2.0, 0.0),
        Vec3::new(0.0, 2.0, 0.0),
    ])
    .unwrap();
    let quarter = std::f32::consts::PI;
    let table = ArcLengthTable::new(&arc, 256);
    println!(
        "quarter circle: table {} vs π r/2 = {quarter}",
        table.length()
    );
    assert!((table.length() - quarter).abs() < 3e-4 * quarter);
}

fn curvy() -> BezierPath {
    BezierPath::new(vec![
        Vec3::new(-3.0, 0.0, 0.0),
        Vec3::new(-2.9, 0.1, 0.0),
        Vec3::new(-1.0, 3.0, 0.0),
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, -3.0, 0.0),
        Vec3::new(2.9, -0.1, 1.0),
        Vec3::new(3.0, 0.0, 1.0),
    ])
    .unwrap()
}

#[test]
fn uniform_lookup_lands_within_a_thousandth_of_the_length_and_naive_does_not() {
    let path = curvy();
    let table = ArcLengthTable::new(&path, 256);
    let total = integrated(path.points(), 1.0);
    let mut worst = 0.0_f64;
    for k in 1..40 {
        let s = table.length() * k as f32 / 40.0;
        let u = table.parameter(s);
        worst = worst.max((integrated(path.points(), f64::from(u)) - f64::from(s)).abs());
    }
    println!("uniform lookup with 256 entries: worst {worst:.2e} of length {total:.4}");
    assert!(worst < 1e-3 * total);
    let ride = |timing| PathAnimation {
        name: String::new(),
        path: path.clone(),
        bone: None,
        duration: 1.0,
        timing,
        speed: None,
    };
    let naive = ride(Timing::Naive);
    let mut worst_naive = 0.0_f64;
    for k in 1..40 {
        let f = k as f32 / 40.0;
        let u = naive.parameter_at(&table, f);
        let travelled = integrated(path.points(), f64::from(u));
        worst_naive = worst_naive.max((travelled - f64::from(f) * total).abs());
    }
    println!("naive timing: worst {worst_naive:.3} away from constant speed");
    assert!(worst_naive > 0.05 * total);
    // The crate's own error report agrees with this integration.
    let (length_error, lookup_error) = table.error(&path, 64);
    assert!((f64::from(table.length() - length_error) - total).abs() < 1e-4 * total);
    assert!(f64::from(lookup_error) < 1e-3 * total);
}
