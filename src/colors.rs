//! Colours the views give bones and vertices.

use crate::influences::VertexInfluences;

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

/// Bone `bone`'s colour; the palette repeats for long chains.
pub fn bone_color(bone: u16) -> [f32; 3] {
    BONE_COLORS[usize::from(bone) % BONE_COLORS.len()]
}

/// Each vertex coloured by its bones' colours mixed by weight:
/// `c = Σ w_i · colour(i)`; a free vertex is mid grey.
pub fn blended_vertex_colors(influences: &[VertexInfluences]) -> Vec<f32> {
    let mut out = Vec::with_capacity(influences.len() * 3);
    for vertex in influences {
        let mut color = if vertex.total_weight() > 0.0 {
            [0.0; 3]
        } else {
            [0.5; 3]
        };
        for (bone, weight) in vertex.pairs() {
            for (channel, value) in color.iter_mut().zip(bone_color(bone)) {
                *channel += weight * value;
            }
        }
        out.extend(color);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_half_and_half_vertex_mixes_two_colours() {
        let (half, _) = VertexInfluences::from_pairs(&[(0, 1.0), (1, 1.0)]);
        let colors = blended_vertex_colors(&[half, VertexInfluences::NONE]);
        for k in 0..3 {
            assert!((colors[k] - 0.5 * (BONE_COLORS[0][k] + BONE_COLORS[1][k])).abs() < 1e-6);
        }
        assert_eq!(&colors[3..], &[0.5; 3]);
    }
}
