//! Colours the views give bones and vertices.

use crate::skin::influences::VertexInfluences;

/// A qualitative palette that stays distinct for colour-blind viewers
/// (Okabe and Ito 2008), as linear-ish RGB in 0..1.
pub const BONE_COLORS: [[f32; 3]; 8] = [
    [0.835, 0.369, 0.0],
    [0.0, 0.447, 0.698],
    [0.0, 0.620, 0.451],
    [0.800, 0.475, 0.655],
    [0.902, 0.624, 0.0],
    [0.337, 0.706, 0.914],
    [0.941, 0.894, 0.259],
    [0.3, 0.3, 0.3],
];

/// The skin's fill in a flat (2D) view, RGBA.
pub const FLAT_FILL: [f32; 4] = [0.67, 0.80, 0.92, 1.0];
/// The skin's fill in a lit (3D) view, RGBA.
pub const LIT_FILL: [f32; 4] = [0.86, 0.66, 0.50, 1.0];

/// Bone `bone`'s colour; the palette repeats for long chains.
pub fn bone_colour(bone: u16) -> [f32; 3] {
    BONE_COLORS[usize::from(bone) % BONE_COLORS.len()]
}

/// Each vertex coloured by its bones' colours mixed by weight:
/// `c = Σ w_i · colour(i)`; a free vertex is mid grey.
pub fn blended_vertex_colours(influences: &[VertexInfluences]) -> Vec<f32> {
    let mut out = Vec::with_capacity(influences.len() * 3);
    for vertex in influences {
        let mut colour = if vertex.total_weight() > 0.0 {
            [0.0; 3]
        } else {
            [0.5; 3]
        };
        for (bone, weight) in vertex.pairs() {
            for (channel, value) in colour.iter_mut().zip(bone_colour(bone)) {
                *channel += weight * value;
            }
        }
        out.extend(colour);
    }
    out
}

/// Viridis (van der Walt and Smith, matplotlib), sampled at t = 0, 0.1, …, 1:
/// perceptually uniform, readable in grey and by colour-blind viewers.
pub const VIRIDIS: [[f32; 3]; 11] = [
    [0.267, 0.004, 0.329],
    [0.282, 0.141, 0.459],
    [0.255, 0.267, 0.529],
    [0.208, 0.373, 0.553],
    [0.165, 0.471, 0.557],
    [0.129, 0.569, 0.549],
    [0.133, 0.659, 0.518],
    [0.267, 0.749, 0.439],
    [0.478, 0.820, 0.3176],
    [0.741, 0.875, 0.149],
    [0.992, 0.906, 0.145],
];

/// Exactly zero weight: a neutral light grey, unlike any colour of the map,
/// so "no influence" never looks like "a little".
pub const ZERO_WEIGHT: [f32; 3] = [0.80, 0.80, 0.80];

/// The colour map at `t` in 0..1, interpolated linearly between samples.
pub fn viridis(t: f32) -> [f32; 3] {
    let x = t.clamp(0.0, 1.0) * (VIRIDIS.len() - 1) as f32;
    let k = (x.floor() as usize).min(VIRIDIS.len() - 2);
    let f = x - k as f32;
    let (a, b) = (VIRIDIS[k], VIRIDIS[k + 1]);
    [0, 1, 2].map(|c| a[c] + (b[c] - a[c]) * f)
}

/// Each vertex coloured by `bone`'s weight on the map, grey where it is 0.
pub fn heat_colours(influences: &[VertexInfluences], bone: u16) -> Vec<f32> {
    influences
        .iter()
        .flat_map(|vertex| {
            let weight = vertex.weight_of(bone);
            if weight > 0.0 {
                viridis(weight)
            } else {
                ZERO_WEIGHT
            }
        })
        .collect()
}

/// Each vertex coloured by its error on the map, scaled so the largest is
/// the top of the map; grey where the error is zero.
pub fn error_colours(errors: &[f32]) -> Vec<f32> {
    let largest = errors.iter().copied().fold(0.0, f32::max);
    errors
        .iter()
        .flat_map(|&error| {
            if error > 0.0 && largest > 0.0 {
                viridis(error / largest)
            } else {
                ZERO_WEIGHT
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_is_grey_and_small_is_dark_purple() {
        let (small, _) = VertexInfluences::from_pairs(&[(0, 0.02), (1, 0.98)]);
        let colours = heat_colours(
            &[
                VertexInfluences::single(1),
                small,
                VertexInfluences::single(0),
            ],
            0,
        );
        assert_eq!(&colours[0..3], &ZERO_WEIGHT);
        let distance = (0..3)
            .map(|c| (colours[3 + c] - ZERO_WEIGHT[c]).abs())
            .sum::<f32>();
        assert!(distance > 0.9, "a small weight is far from zero's grey");
        assert_eq!(&colours[6..9], &VIRIDIS[10]);
        assert_eq!(viridis(0.5), VIRIDIS[5]);
    }

    #[test]
    fn a_half_and_half_vertex_mixes_two_colours() {
        let (half, _) = VertexInfluences::from_pairs(&[(0, 1.0), (1, 1.0)]);
        let colours = blended_vertex_colours(&[half, VertexInfluences::NONE]);
        for k in 0..3 {
            assert!((colours[k] - 0.5 * (BONE_COLORS[0][k] + BONE_COLORS[1][k])).abs() < 1e-6);
        }
        assert_eq!(&colours[3..], &[0.5; 3]);
    }
}
