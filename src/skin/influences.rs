//! Per-vertex influences: which bones move a vertex, and how much.
//!
//! The reference keeps weights as `f32`, normalised to sum 1 on use. The engine note
//! sends them to the GPU as four `uint8` bone indices and four `unorm8`
//! weights; [`quantise_unorm8`] produces that layout with an exact sum of 255
//! and [`quantisation_report`] measures what it costs.

/// The most influences a vertex keeps (the bones note: "z.B. vier").
pub const MAX_INFLUENCES: usize = 4;

/// Up to four (bone, weight) pairs of one vertex, largest weight first,
/// weights summing to 1; unused slots have weight 0 and bone 0. All weights 0
/// means the vertex has no influence and stays where it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VertexInfluences {
    /// Bone indices, one per slot.
    pub bones: [u16; MAX_INFLUENCES],
    /// Normalised weights, one per slot, in descending order.
    pub weights: [f32; MAX_INFLUENCES],
}

/// What [`VertexInfluences::from_pairs`] had to do to fit the pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Fitting {
    /// How many (nonzero) pairs beyond the four largest were dropped.
    pub pruned: usize,
}

impl VertexInfluences {
    /// No influence at all: the vertex keeps its rest position.
    pub const NONE: Self = Self {
        bones: [0; MAX_INFLUENCES],
        weights: [0.0; MAX_INFLUENCES],
    };

    /// One bone with the whole weight.
    pub fn single(bone: u16) -> Self {
        Self {
            bones: [bone, 0, 0, 0],
            weights: [1.0, 0.0, 0.0, 0.0],
        }
    }

    /// Keeps the four largest of `pairs` (weights must be finite and
    /// non-negative; the caller validates) and normalises them:
    /// `w_i ← w_i / Σ_k w_k`. Zero weights are dropped; if none is left the
    /// vertex has no influence.
    pub fn from_pairs(pairs: &[(u16, f32)]) -> (Self, Fitting) {
        // Largest first; equal weights keep the author's order.
        let mut order: Vec<(f32, u32)> = pairs
            .iter()
            .enumerate()
            .filter(|&(_, &(_, w))| w > 0.0)
            .map(|(k, &(_, w))| (-w, k as u32))
            .collect();
        crate::rig::sorting::sort_keyed(&mut order);
        let mut sorted: Vec<(u16, f32)> = order.iter().map(|&(_, k)| pairs[k as usize]).collect();
        let pruned = sorted.len().saturating_sub(MAX_INFLUENCES);
        sorted.truncate(MAX_INFLUENCES);
        // Weights near f32's largest would overflow their sum: they are
        // divided by the largest first, so 3e38 and 1e38 still mean three
        // quarters and one quarter.
        if sorted.iter().map(|&(_, w)| w).sum::<f32>() == f32::INFINITY {
            let largest = sorted.first().map_or(1.0, |&(_, w)| w);
            for pair in &mut sorted {
                pair.1 /= largest;
            }
        }
        let total: f32 = sorted.iter().map(|&(_, w)| w).sum();
        // Weights already summing to 1 (to float rounding) are kept as they
        // are, so a save and a reload give back exactly the same numbers.
        let divisor = if (total - 1.0).abs() <= 1e-6 {
            1.0
        } else {
            total
        };
        let mut influences = Self::NONE;
        if total > 0.0 && total.is_finite() {
            for (slot, &(bone, weight)) in sorted.iter().enumerate() {
                influences.bones[slot] = bone;
                influences.weights[slot] = weight / divisor;
            }
        }
        (influences, Fitting { pruned })
    }

    /// The used (bone, weight) pairs, largest weight first.
    pub fn pairs(&self) -> impl Iterator<Item = (u16, f32)> + '_ {
        self.bones
            .iter()
            .zip(self.weights)
            .filter(|&(_, w)| w > 0.0)
            .map(|(&b, w)| (b, w))
    }

    /// `Σ w_i`: 1 for a bound vertex, 0 for a free one.
    pub fn total_weight(&self) -> f32 {
        self.weights.iter().sum()
    }

    /// The weight this vertex gives `bone` (0 if none).
    pub fn weight_of(&self, bone: u16) -> f32 {
        self.pairs()
            .filter(|&(b, _)| b == bone)
            .map(|(_, w)| w)
            .sum()
    }
}

/// `vertex` cut to its `cap` largest influences (they come largest first),
/// renormalised to sum 1: what a shader that reads only `cap` joints
/// computes.
pub fn cap_influences(vertex: &VertexInfluences, cap: usize) -> VertexInfluences {
    let pairs: Vec<(u16, f32)> = vertex.pairs().take(cap.max(1)).collect();
    VertexInfluences::from_pairs(&pairs).0
}

/// Quantises normalised weights to `unorm8` so that they sum to exactly 255
/// (or 0 for a free vertex), by the largest-remainder method: each weight is
/// floored to `⌊255 w⌋`, then the units still missing go to the slots with
/// the largest remainders. No weight is off by more than one unit.
pub fn quantise_unorm8(weights: &[f32; MAX_INFLUENCES]) -> [u8; MAX_INFLUENCES] {
    let total: f32 = weights.iter().sum();
    if total <= 0.0 {
        return [0; MAX_INFLUENCES];
    }
    let scaled = weights.map(|w| (w / total * 255.0).clamp(0.0, 255.0));
    let mut quantised = scaled.map(|s| s.floor() as u8);
    let sum: u32 = quantised.iter().map(|&q| u32::from(q)).sum();
    // Largest remainder first, equal ones in slot order.
    let mut order: [(f32, u32); MAX_INFLUENCES] =
        std::array::from_fn(|slot| (scaled[slot].floor() - scaled[slot], slot as u32));
    crate::rig::sorting::sort_keyed(&mut order);
    for slot in order
        .iter()
        .map(|&(_, slot)| slot as usize)
        .cycle()
        .take(255_u32.saturating_sub(sum) as usize)
    {
        quantised[slot] += 1;
    }
    quantised
}

/// `w = q / 255`: the weights the GPU sees for quantised data.
pub fn dequantise_unorm8(quantised: &[u8; MAX_INFLUENCES]) -> [f32; MAX_INFLUENCES] {
    quantised.map(|q| f32::from(q) / 255.0)
}

/// Replaces each vertex's weights by their `unorm8` round trip, so the CPU
/// reference skins with exactly what the GPU gets.
pub fn quantised_influences(influences: &[VertexInfluences]) -> Vec<VertexInfluences> {
    influences
        .iter()
        .map(|vertex| VertexInfluences {
            bones: vertex.bones,
            weights: dequantise_unorm8(&quantise_unorm8(&vertex.weights)),
        })
        .collect()
}

/// How far `unorm8` weights are from the `f32` reference.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct QuantisationReport {
    /// `max |w_q − w|` over every slot of every vertex.
    pub max_weight_error: f32,
    /// Mean of `|w_q − w|` over the used slots.
    pub mean_weight_error: f32,
}

/// Measures the weight error of [`quantise_unorm8`] over a mesh.
pub fn quantisation_report(influences: &[VertexInfluences]) -> QuantisationReport {
    let mut max_weight_error = 0.0_f32;
    let mut sum = 0.0_f64;
    let mut count = 0_usize;
    for vertex in influences {
        let round_trip = dequantise_unorm8(&quantise_unorm8(&vertex.weights));
        for (slot, &weight) in vertex.weights.iter().enumerate() {
            let error = (round_trip[slot] - weight).abs();
            max_weight_error = max_weight_error.max(error);
            if weight > 0.0 {
                sum += f64::from(error);
                count += 1;
            }
        }
    }
    QuantisationReport {
        max_weight_error,
        mean_weight_error: if count == 0 {
            0.0
        } else {
            (sum / count as f64) as f32
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_and_sorts() {
        let (inf, fitting) = VertexInfluences::from_pairs(&[(3, 1.0), (5, 3.0)]);
        assert_eq!(inf.bones[..2], [5, 3]);
        assert_eq!(inf.weights, [0.75, 0.25, 0.0, 0.0]);
        assert_eq!(fitting.pruned, 0);
    }

    #[test]
    fn prunes_to_the_four_largest_and_renormalises() {
        let pairs = [(0, 0.1), (1, 0.4), (2, 0.2), (3, 0.05), (4, 0.25)];
        let (inf, fitting) = VertexInfluences::from_pairs(&pairs);
        assert_eq!(fitting.pruned, 1);
        assert_eq!(inf.bones, [1, 4, 2, 0]);
        assert!((inf.total_weight() - 1.0).abs() < 1e-6);
        assert!((inf.weights[0] - 0.4 / 0.95).abs() < 1e-6);
        assert_eq!(inf.weight_of(3), 0.0);
    }

    #[test]
    fn all_zero_means_no_influence() {
        let (inf, _) = VertexInfluences::from_pairs(&[(1, 0.0)]);
        assert_eq!(inf, VertexInfluences::NONE);
        assert_eq!(inf.pairs().count(), 0);
    }

    #[test]
    fn quantised_weights_sum_to_exactly_255() {
        for weights in [
            [1.0 / 3.0; 3]
                .iter()
                .chain(&[0.0])
                .copied()
                .collect::<Vec<_>>(),
            vec![0.5, 0.5, 0.0, 0.0],
            vec![0.97, 0.01, 0.01, 0.01],
        ] {
            let weights: [f32; 4] = weights.try_into().unwrap();
            let q = quantise_unorm8(&weights);
            assert_eq!(
                q.iter().map(|&v| u32::from(v)).sum::<u32>(),
                255,
                "{weights:?} → {q:?}"
            );
            for (w, q) in weights.iter().zip(q) {
                assert!((w * 255.0 - f32::from(q)).abs() <= 1.0);
            }
        }
        assert_eq!(quantise_unorm8(&[0.0; 4]), [0; 4]);
    }

    #[test]
    fn report_measures_the_rounding() {
        let (third, _) = VertexInfluences::from_pairs(&[(0, 0.7), (1, 0.2), (2, 0.1)]);
        let report = quantisation_report(&[third, VertexInfluences::single(0)]);
        assert!(report.max_weight_error > 0.0);
        assert!(report.max_weight_error <= 1.0 / 255.0);
    }

    #[test]
    fn weights_near_the_largest_float_keep_their_ratio() {
        let (fitted, _) = VertexInfluences::from_pairs(&[(0, 3e38), (1, 1e38)]);
        let pairs: Vec<(u16, f32)> = fitted.pairs().collect();
        assert_eq!(pairs.len(), 2);
        assert!(
            (pairs[0].1 - 0.75).abs() < 1e-6 && (pairs[1].1 - 0.25).abs() < 1e-6,
            "{pairs:?}"
        );
    }
}
