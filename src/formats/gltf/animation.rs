//! A glTF animation as a clip: each joint channel converted once into the
//! bone's animation `A_i` ([`BindSpace`]), and the morph weights' channel.

use std::collections::HashMap;

use glam::Quat;

use super::accessors::Buffers;
use super::document::{AnimationJson, Document, SamplerJson};
use super::GltfError;
use crate::rig::animation::{BindSpace, Channel, Clip, Interpolation, Target, WeightsChannel};
use crate::rig::pose::unit_rotation;

/// The meshes whose morph targets the scene holds: for each, the scene's
/// target of each of its own; and the weights the scene rests at.
pub(super) struct MorphedMeshes<'a> {
    pub(super) slots: &'a HashMap<usize, Vec<usize>>,
    pub(super) rest: &'a [f32],
}

/// One glTF animation as a clip of the channels that drive joints, and of
/// the `weights` channels of the nodes that show morphed meshes, merged
/// onto the scene's targets ([`merge_weights`]); with it, a note for each
/// `KHR_animation_pointer` channel that drives anything else.
pub(super) fn read_clip(
    document: &Document,
    buffers: &Buffers,
    animation: &AnimationJson,
    index: usize,
    bone_of_node: &HashMap<usize, usize>,
    spaces: &[BindSpace],
    morphed: &MorphedMeshes,
) -> Result<(Clip, Vec<String>), GltfError> {
    // Pointer channels that drive what Skinlab does not play, named.
    let mut unplayed = Vec::new();
    let mut channels = Vec::new();
    // Each morphed node's weights channel, with its mesh's targets' slots.
    let mut weights: Vec<(WeightsChannel, &[usize])> = Vec::new();
    let mut duration = 0.0_f32;
    for (channel_index, channel) in animation.channels.iter().enumerate() {
        let (node, path) = match channel.target.node_and_path() {
            Ok(target) => target,
            Err(pointer) => {
                unplayed.push(format!(
                    "animations[{index}].channels[{channel_index}] (KHR_animation_pointer {pointer:?}: only a node's translation, rotation, scale and weights are played)"
                ));
                continue;
            }
        };
        let sampler = || {
            animation.samplers.get(channel.sampler).ok_or_else(|| {
                GltfError::Missing(format!("animations[{index}].samplers[{}]", channel.sampler))
            })
        };
        let slots = node
            .and_then(|node| document.nodes.get(node))
            .and_then(|node| morphed.slots.get(&node.mesh?));
        if let (Some(slots), "weights") = (slots, path) {
            let read = weights_channel(document, buffers, sampler()?, slots.len())?;
            duration = duration.max(read.times[read.times.len() - 1]);
            weights.push((read, slots.as_slice()));
            continue;
        }
        let Some(&bone) = node.and_then(|node| bone_of_node.get(&node)) else {
            continue;
        };
        let target = match path {
            "translation" => Target::Translation,
            "rotation" => Target::Rotation,
            "scale" => Target::Scale,
            _ => continue,
        };
        let mut read = joint_channel(document, buffers, sampler()?, bone, target)?;
        duration = duration.max(read.times[read.times.len() - 1]);
        spaces[bone].convert_channel(&mut read);
        channels.push(read);
    }
    let clip = Clip {
        name: animation
            .name
            .clone()
            .unwrap_or_else(|| format!("animation {}", index + 1)),
        duration,
        channels,
        weights: merge_weights(&weights, morphed.rest),
    };
    Ok((clip, unplayed))
}

/// How a sampler interpolates.
fn interpolation_of(sampler: &SamplerJson) -> Interpolation {
    match sampler.interpolation.as_str() {
        "STEP" => Interpolation::Step,
        "CUBICSPLINE" => Interpolation::CubicSpline,
        _ => Interpolation::Linear,
    }
}

/// A morphed node's weights channel over its mesh's `n` targets: finite
/// keys at non-negative times in order, `n` weights a key (three times as
/// many for a cubic spline: in-tangents, values, out-tangents).
fn weights_channel(
    document: &Document,
    buffers: &Buffers,
    sampler: &SamplerJson,
    n: usize,
) -> Result<WeightsChannel, GltfError> {
    let times = buffers.floats(document, sampler.input, 1)?;
    let raw = buffers.floats(document, sampler.output, 1)?;
    let interpolation = interpolation_of(sampler);
    let cubic = interpolation == Interpolation::CubicSpline;
    let per_key = if cubic { 3 * n } else { n };
    if times.iter().any(|t| !t.is_finite() || *t < 0.0) || raw.iter().any(|v| !v.is_finite()) {
        return Err(GltfError::Accessor {
            index: sampler.input,
            problem: "holds a key that is not a finite number (or a negative time)".to_owned(),
        });
    }
    if times.is_empty()
        || raw.len() != per_key * times.len()
        || times.windows(2).any(|w| w[1] < w[0])
    {
        return Err(GltfError::Accessor {
            index: sampler.output,
            problem: format!("expected {per_key} weights per key"),
        });
    }
    let (values, tangents) = if cubic {
        let mut values = Vec::with_capacity(n * times.len());
        let mut tangents = Vec::with_capacity(2 * n * times.len());
        for key in raw.chunks_exact(3 * n) {
            tangents.extend_from_slice(&key[..n]);
            values.extend_from_slice(&key[n..2 * n]);
            tangents.extend_from_slice(&key[2 * n..]);
        }
        (values, tangents)
    } else {
        (raw, Vec::new())
    };
    Ok(WeightsChannel {
        times,
        values,
        tangents,
        interpolation,
    })
}

/// A joint's translation, rotation or scale channel as the file keys it
/// (in the joint's node frame; the caller turns it into the bone's). Keys
/// Skinlab could not save again are refused: times must be finite, from 0
/// on, in order; values finite; rotations not zero (they are normalised).
fn joint_channel(
    document: &Document,
    buffers: &Buffers,
    sampler: &SamplerJson,
    bone: usize,
    target: Target,
) -> Result<Channel, GltfError> {
    let width = if target == Target::Rotation { 4 } else { 3 };
    let times = buffers.floats(document, sampler.input, 1)?;
    let raw = buffers.floats(document, sampler.output, width)?;
    let mut values: Vec<[f32; 4]> = raw
        .chunks_exact(width)
        .map(|v| std::array::from_fn(|k| v.get(k).copied().unwrap_or(0.0)))
        .collect();
    let interpolation = interpolation_of(sampler);
    let mut tangents = Vec::new();
    if interpolation == Interpolation::CubicSpline {
        // Cubic splines store in-tangent, value, out-tangent per key.
        tangents = values.chunks_exact(3).map(|key| [key[0], key[2]]).collect();
        values = values.chunks_exact(3).map(|key| key[1]).collect();
    }
    let times_bad = times.iter().any(|t| !t.is_finite() || *t < 0.0);
    let values_bad = values
        .iter()
        .chain(tangents.iter().flatten())
        .any(|v| v.iter().any(|c| !c.is_finite()));
    if target == Target::Rotation {
        for value in &mut values {
            match unit_rotation(Quat::from_array(*value)) {
                Some(q) => *value = q.to_array(),
                None => {
                    return Err(GltfError::Accessor {
                        index: sampler.output,
                        problem: "holds a rotation key that is not a rotation".to_owned(),
                    })
                }
            }
        }
    }
    if times_bad || values_bad {
        return Err(GltfError::Accessor {
            index: if times_bad {
                sampler.input
            } else {
                sampler.output
            },
            problem: "holds a key that is not a finite number (or a negative time)".to_owned(),
        });
    }
    if times.is_empty() || values.len() != times.len() || times.windows(2).any(|w| w[1] < w[0]) {
        return Err(GltfError::Accessor {
            index: sampler.input,
            problem: "key times and values do not match".to_owned(),
        });
    }
    Ok(Channel {
        bone,
        target,
        times,
        values,
        tangents,
        interpolation,
    })
}

/// The morphed nodes' weights channels as one channel over the scene's
/// targets (`rest.len()` of them): a target no channel drives stays at its
/// rest weight, and one several drive follows the first. One channel, or
/// several on the same keys and interpolation, are kept exactly (cubic
/// tangents too); channels on different keys are sampled at every key of
/// any of them (each by its own interpolation) and joined linearly between,
/// or held where every one steps.
pub(super) fn merge_weights(
    channels: &[(WeightsChannel, &[usize])],
    rest: &[f32],
) -> Option<WeightsChannel> {
    let (first, _) = channels.first()?;
    let n = rest.len();
    let same_keys = channels
        .iter()
        .all(|(c, _)| c.times == first.times && c.interpolation == first.interpolation);
    let times: Vec<f32> = if same_keys {
        first.times.clone()
    } else {
        let mut all: Vec<f32> = channels
            .iter()
            .flat_map(|(c, _)| c.times.iter().copied())
            .collect();
        all.sort_by(f32::total_cmp);
        all.dedup();
        all
    };
    let mut driven = vec![false; n];
    let mut values: Vec<f32> = times.iter().flat_map(|_| rest.iter().copied()).collect();
    let cubic = same_keys && first.interpolation == Interpolation::CubicSpline;
    let mut tangents = if cubic {
        vec![0.0; 2 * values.len()]
    } else {
        Vec::new()
    };
    let mut sampled = Vec::new();
    for (channel, slots) in channels {
        let own = channel.targets();
        for (key, &time) in times.iter().enumerate() {
            sampled.clear();
            sampled.resize(own, 0.0);
            channel.sample(time, &mut sampled);
            for (k, &slot) in slots.iter().enumerate().take(own) {
                if slot < n && !driven[slot] {
                    values[key * n + slot] = sampled[k];
                    if cubic && channel.tangents.len() == 2 * channel.values.len() {
                        tangents[key * 2 * n + slot] = channel.tangents[key * 2 * own + k];
                        tangents[key * 2 * n + n + slot] =
                            channel.tangents[key * 2 * own + own + k];
                    }
                }
            }
        }
        for &slot in slots.iter().take(own) {
            if slot < n {
                driven[slot] = true;
            }
        }
    }
    let interpolation = if same_keys {
        first.interpolation
    } else if channels
        .iter()
        .all(|(c, _)| c.interpolation == Interpolation::Step)
    {
        Interpolation::Step
    } else {
        Interpolation::Linear
    };
    Some(WeightsChannel {
        times,
        values,
        tangents,
        interpolation,
    })
}
