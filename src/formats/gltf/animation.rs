//! A glTF animation as a clip: each joint channel converted once into the
//! bone's animation `A_i` ([`BindSpace`]), and the morph weights' channel.

use std::collections::HashMap;

use glam::Quat;

use super::accessors::Buffers;
use super::document::{AnimationJson, Document};
use super::GltfError;
use crate::rig::animation::{BindSpace, Channel, Clip, Interpolation, Target, WeightsChannel};
use crate::rig::pose::unit_rotation;

/// The mesh whose morph targets the scene holds, and how many.
#[derive(Clone, Copy)]
pub(super) struct MorphedMesh {
    pub(super) mesh: Option<usize>,
    pub(super) targets: usize,
}

/// One glTF animation as a clip of the channels that drive joints, and of
/// the `weights` channel of the node that shows the morphed mesh.
pub(super) fn read_clip(
    document: &Document,
    buffers: &Buffers,
    animation: &AnimationJson,
    index: usize,
    bone_of_node: &HashMap<usize, usize>,
    spaces: &[BindSpace],
    morphed: MorphedMesh,
) -> Result<Clip, GltfError> {
    let mut channels = Vec::new();
    let mut weights = None;
    let mut duration = 0.0_f32;
    for channel in &animation.channels {
        let shows_morphs = channel
            .target
            .node
            .and_then(|node| document.nodes.get(node))
            .is_some_and(|node| node.mesh.is_some() && node.mesh == morphed.mesh);
        if channel.target.path == "weights" && shows_morphs && morphed.targets > 0 {
            let sampler = animation.samplers.get(channel.sampler).ok_or_else(|| {
                GltfError::Missing(format!("animations[{index}].samplers[{}]", channel.sampler))
            })?;
            let times = buffers.floats(document, sampler.input, 1)?;
            let raw = buffers.floats(document, sampler.output, 1)?;
            let n = morphed.targets;
            let cubic = sampler.interpolation == "CUBICSPLINE";
            let per_key = if cubic { 3 * n } else { n };
            if times.iter().any(|t| !t.is_finite() || *t < 0.0)
                || raw.iter().any(|v| !v.is_finite())
            {
                return Err(GltfError::Accessor {
                    index: sampler.input,
                    problem: "holds a key that is not a finite number (or a negative time)"
                        .to_owned(),
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
            duration = duration.max(times[times.len() - 1]);
            weights = Some(WeightsChannel {
                times,
                values,
                tangents,
                interpolation: match sampler.interpolation.as_str() {
                    "STEP" => Interpolation::Step,
                    "CUBICSPLINE" => Interpolation::CubicSpline,
                    _ => Interpolation::Linear,
                },
            });
            continue;
        }
        let Some(&bone) = channel.target.node.and_then(|node| bone_of_node.get(&node)) else {
            continue;
        };
        let (target, width) = match channel.target.path.as_str() {
            "translation" => (Target::Translation, 3),
            "rotation" => (Target::Rotation, 4),
            "scale" => (Target::Scale, 3),
            _ => continue,
        };
        let sampler = animation.samplers.get(channel.sampler).ok_or_else(|| {
            GltfError::Missing(format!("animations[{index}].samplers[{}]", channel.sampler))
        })?;
        let times = buffers.floats(document, sampler.input, 1)?;
        let raw = buffers.floats(document, sampler.output, width)?;
        let mut values: Vec<[f32; 4]> = raw
            .chunks_exact(width)
            .map(|v| std::array::from_fn(|k| v.get(k).copied().unwrap_or(0.0)))
            .collect();
        let mut tangents = Vec::new();
        let interpolation = match sampler.interpolation.as_str() {
            "STEP" => Interpolation::Step,
            // Cubic splines store in-tangent, value, out-tangent per key.
            "CUBICSPLINE" => {
                tangents = values.chunks_exact(3).map(|key| [key[0], key[2]]).collect();
                values = values.chunks_exact(3).map(|key| key[1]).collect();
                Interpolation::CubicSpline
            }
            _ => Interpolation::Linear,
        };
        // Keys Skinlab could not save again are refused: times must be
        // finite, from 0 on, in order; values finite; rotations not zero.
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
        if times.is_empty() || values.len() != times.len() || times.windows(2).any(|w| w[1] < w[0])
        {
            return Err(GltfError::Accessor {
                index: sampler.input,
                problem: "key times and values do not match".to_owned(),
            });
        }
        duration = duration.max(times[times.len() - 1]);
        let mut channel = Channel {
            bone,
            target,
            times,
            values,
            tangents,
            interpolation,
        };
        spaces[bone].convert_channel(&mut channel);
        channels.push(channel);
    }
    Ok(Clip {
        name: animation
            .name
            .clone()
            .unwrap_or_else(|| format!("animation {}", index + 1)),
        duration,
        channels,
        weights,
    })
}
