//! Helpers shared by the integration tests.
#![allow(dead_code, clippy::unwrap_used)]

use glam::Vec3;

/// `|a − b| ≤ tolerance · (1 + |b|)`: an absolute tolerance near zero, a
/// relative one for large values.
pub fn close(a: Vec3, b: Vec3, tolerance: f32) -> bool {
    (a - b).length() <= tolerance * (1.0 + b.length())
}

/// Panics with both values when they are not [`close`].
#[track_caller]
pub fn assert_close(a: Vec3, b: Vec3, tolerance: f32) {
    assert!(
        close(a, b, tolerance),
        "{a} is not within {tolerance} of {b}"
    );
}
