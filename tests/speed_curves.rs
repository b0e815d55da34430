//! The characteristic curve of a path stays monotone under any drag of its
//! points, and the rider's arc length follows it.
#![allow(clippy::unwrap_used)]

use glam::Vec3;
use proptest::prelude::*;
use skinlab::lab::Lab;
use skinlab::rig::path::Timing;
use skinlab::rig::speed_curve::SpeedCurve;

/// The curve sampled finely over its span and a little beyond.
fn samples(curve: &SpeedCurve) -> Vec<f32> {
    let (first, last) = (curve.times()[0], *curve.times().last().unwrap());
    (0..=2000)
        .map(|k| curve.fraction_at(first - 0.1 + (last - first + 0.2) * k as f32 / 2000.0))
        .collect()
}

proptest! {
    #[test]
    fn any_drag_leaves_a_monotone_curve(
        points in 2_usize..9,
        drags in prop::collection::vec((0_usize..10, -5.0_f32..15.0, -1.0_f32..2.0), 1..40),
    ) {
        let mut curve = SpeedCurve::uniform(4.0, points);
        for (point, time, distance) in drags {
            curve.set_point(point, time, distance);
            let values = samples(&curve);
            for pair in values.windows(2) {
                prop_assert!(pair[1] >= pair[0], "{pair:?} on {curve:?}");
            }
            prop_assert!(values.iter().all(|v| (0.0..=1.0).contains(v)));
            // The curve still passes through its points.
            for (t, d) in curve.times().iter().zip(curve.distances()) {
                prop_assert!((curve.fraction_at(*t) - d).abs() < 1e-6);
            }
        }
    }
}

#[test]
fn the_rider_covers_the_curve_s_distance() {
    let mut lab = Lab::example("path").unwrap();
    lab.set_path_timing(0, Timing::Curve).unwrap();
    let curve = lab.path_speed(0).unwrap().unwrap().clone();
    let entries = 65_536;
    let length = lab.path_table(0, entries).unwrap().length();
    let path = lab.scene().paths[0].path.clone();
    for k in 0..=40 {
        let time = 4.0 * k as f32 / 40.0;
        let rider = lab.path_position(0, time, entries).unwrap();
        // The arc length up to the rider, by Gauss–Legendre on the curve's
        // parameter found by bisection on the distance to the rider.
        let u = nearest_parameter(&path, rider);
        let travelled = path.integrated_length_to(u);
        let expected = length * curve.fraction_at(time);
        assert!(
            (travelled - expected).abs() < 1e-3 * length,
            "t = {time}: {travelled} vs {expected}"
        );
        let reported = lab.path_distance(0, time, entries).unwrap();
        assert!((reported - expected).abs() < 1e-5 * length);
    }
}

/// The parameter whose point is nearest `point`, by a fine scan.
fn nearest_parameter(path: &skinlab::rig::path::BezierPath, point: Vec3) -> f32 {
    (0..=100_000)
        .map(|k| k as f32 / 100_000.0)
        .min_by(|a, b| {
            path.point(*a)
                .distance(point)
                .total_cmp(&path.point(*b).distance(point))
        })
        .unwrap()
}
