//! What the native benchmarks share.

use std::time::Instant;

/// The fastest of `runs` calls of `job`, in seconds.
pub fn fastest(runs: usize, mut job: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let started = Instant::now();
            job();
            started.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}
