//! Lip-sync from a recording (the animation talk: "bei Originalaufnahme"):
//! the mouth opens with the voice's loudness. The samples are cut into
//! windows, each window's loudness its root mean square
//! `rms = √(Σ s² / n)`, and the openness `o = (rms − quiet) / (loud −
//! quiet)` clamped to 0–1, with `quiet` and `loud` the recording's 20th and
//! 95th percentile window: its own silence and its own voice, so a quiet
//! recording opens the mouth as wide as a loud one.

/// The most samples read (ten minutes at 48 kHz).
pub const MAX_RECORDING_SAMPLES: usize = 48_000 * 600;

/// `rms` of each window of `window` samples (the last may be shorter).
pub fn loudness(samples: &[f32], window: usize) -> Vec<f32> {
    let window = window.max(1);
    samples
        .chunks(window)
        .map(|chunk| {
            let energy: f64 = chunk
                .iter()
                .filter(|s| s.is_finite())
                .map(|&s| f64::from(s) * f64::from(s))
                .sum();
            (energy / chunk.len() as f64).sqrt() as f32
        })
        .collect()
}

/// Each window's openness in 0–1 (see the module documentation); all 0
/// for a recording whose loud and quiet parts are the same.
pub fn openness(loudness: &[f32]) -> Vec<f32> {
    if loudness.is_empty() {
        return Vec::new();
    }
    let mut sorted = loudness.to_vec();
    crate::rig::sorting::sort_floats(&mut sorted);
    let at = |fraction: f32| sorted[((sorted.len() - 1) as f32 * fraction).round() as usize];
    let (quiet, loud) = (at(0.2), at(0.95));
    if loud - quiet <= f32::EPSILON {
        return vec![0.0; loudness.len()];
    }
    loudness
        .iter()
        .map(|&l| ((l - quiet) / (loud - quiet)).clamp(0.0, 1.0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tone_burst_opens_the_mouth_and_silence_closes_it() {
        // 0.2 s of a 220 Hz tone, 0.2 s of silence, twice, at 8 kHz.
        let rate = 8000.0;
        let samples: Vec<f32> = (0..3200)
            .map(|k| {
                let t = k as f32 / rate;
                if (t / 0.2) as usize % 2 == 0 {
                    0.5 * (std::f32::consts::TAU * 220.0 * t).sin()
                } else {
                    0.0
                }
            })
            .collect();
        let levels = loudness(&samples, 400); // 50 ms windows
        assert_eq!(levels.len(), 8);
        // A full sine's rms is its amplitude / √2.
        assert!((levels[0] - 0.5 / 2f32.sqrt()).abs() < 0.01, "{levels:?}");
        let open = openness(&levels);
        assert!(open[0] > 0.99, "{open:?}");
        assert_eq!(open[5], 0.0);
        assert!(openness(&[0.3; 5]).iter().all(|&o| o == 0.0));
        assert!(openness(&[]).is_empty());
    }
}
