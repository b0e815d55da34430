//! Clips, the rig they drive and paths in the scene JSON.
//!
//! A channel is written as glTF writes a sampler: `times`, flat `values`
//! (three per key for translation and scale, four for rotation; for
//! `CUBICSPLINE` in-tangent, value and out-tangent per key) and the
//! interpolation's glTF name. Every channel drives a bone's animation
//! `A_i`; the `rig` an earlier Skinlab wrote beside clips read from glTF is
//! still read, and its clips converted.

use glam::{Mat4, Quat, Vec3};
use serde::{Deserialize, Serialize};

use super::pose_doc::{validate_bone_transform, PoseDoc};
use super::validate::bone_transform;
use super::SceneError;
use crate::rig::animation::{
    Animation, BindSpace, Channel, Clip, Interpolation, Target, WeightsChannel,
};
use crate::rig::path::{BezierPath, PathAnimation, Timing};
use crate::rig::pose::{unit_rotation, BoneTransform};
use crate::rig::skeleton::{first_non_finite, Skeleton};
use crate::rig::speed_curve::SpeedCurve;

/// One clip as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClipDoc {
    /// Its name.
    #[serde(default)]
    pub name: String,
    /// Its channels.
    pub channels: Vec<ChannelDoc>,
}

/// One channel as written, in glTF's terms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelDoc {
    /// The bone it drives; absent for `"weights"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bone: Option<u32>,
    /// `"translation"`, `"rotation"`, `"scale"`, or `"weights"` (the morph
    /// target weights, one value per target per key).
    pub path: String,
    /// `"STEP"`, `"LINEAR"` or `"CUBICSPLINE"`.
    pub interpolation: String,
    /// Key times in seconds, not decreasing.
    pub times: Vec<f32>,
    /// Values, flat; see the module documentation.
    pub values: Vec<f32>,
}

/// The rig of a scene read from glTF, one entry per bone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RigDoc {
    /// `B_j`, column-major.
    pub between: Vec<[f32; 16]>,
    /// The joints' local transforms where no channel drives them.
    pub rest: Vec<PoseDoc>,
    /// `U_j`, `[x, y, z, w]`.
    pub turns: Vec<[f32; 4]>,
    /// Bones with no joint (an added common root).
    pub fixed: Vec<bool>,
}

/// A path as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathDoc {
    /// A label.
    #[serde(default)]
    pub name: String,
    /// `x, y, z` of `P0 C0 D0 P1 …`, model space.
    pub points: Vec<f32>,
    /// The bone that rides it, or `null`.
    #[serde(default)]
    pub bone: Option<u32>,
    /// Seconds from start to end.
    pub duration: f32,
    /// `"uniform"`, `"ease"`, `"naive"` or `"curve"`.
    pub timing: String,
    /// The characteristic curve `"curve"` follows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<SpeedDoc>,
}

/// A path's characteristic curve as written: the distance covered at each
/// time, as a fraction of the path's length.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeedDoc {
    /// Seconds, increasing.
    pub times: Vec<f32>,
    /// Fractions of the length, `0 ≤ d_k ≤ 1`, not decreasing.
    pub distances: Vec<f32>,
}

fn target_name(target: Target) -> &'static str {
    match target {
        Target::Translation => "translation",
        Target::Rotation => "rotation",
        Target::Scale => "scale",
    }
}

/// The glTF name of an interpolation.
pub fn interpolation_name(interpolation: Interpolation) -> &'static str {
    match interpolation {
        Interpolation::Step => "STEP",
        Interpolation::Linear => "LINEAR",
        Interpolation::CubicSpline => "CUBICSPLINE",
    }
}

/// The interpolation with glTF name `name`.
pub fn interpolation_from_name(name: &str) -> Option<Interpolation> {
    match name {
        "STEP" => Some(Interpolation::Step),
        "LINEAR" => Some(Interpolation::Linear),
        "CUBICSPLINE" => Some(Interpolation::CubicSpline),
        _ => None,
    }
}

fn check_finite(field: &str, values: &[f32]) -> Result<(), SceneError> {
    match first_non_finite(field, values) {
        None => Ok(()),
        Some((field, value)) => Err(SceneError::NonFinite { field, value }),
    }
}

fn unknown(field: String, found: &str, expected: &str) -> SceneError {
    SceneError::UnknownName {
        field,
        found: found.to_owned(),
        expected: expected.to_owned(),
    }
}

/// The clips as written.
pub fn clip_docs(animation: &Animation) -> Vec<ClipDoc> {
    animation.clips.iter().map(clip_doc).collect()
}

/// One clip as written.
pub fn clip_doc(clip: &Clip) -> ClipDoc {
    ClipDoc {
        name: clip.name.clone(),
        channels: clip
            .channels
            .iter()
            .map(|channel| {
                let width = if channel.target == Target::Rotation {
                    4
                } else {
                    3
                };
                let cubic = channel.interpolation == Interpolation::CubicSpline
                    && channel.tangents.len() == channel.values.len();
                let values = channel
                    .values
                    .iter()
                    .enumerate()
                    .flat_map(|(k, value)| {
                        let keys = if cubic {
                            vec![channel.tangents[k][0], *value, channel.tangents[k][1]]
                        } else {
                            vec![*value]
                        };
                        keys.into_iter()
                            .flat_map(move |v| v.into_iter().take(width))
                    })
                    .collect();
                ChannelDoc {
                    bone: Some(channel.bone as u32),
                    path: target_name(channel.target).to_owned(),
                    interpolation: interpolation_name(if cubic {
                        Interpolation::CubicSpline
                    } else if channel.interpolation == Interpolation::CubicSpline {
                        Interpolation::Linear
                    } else {
                        channel.interpolation
                    })
                    .to_owned(),
                    times: channel.times.clone(),
                    values,
                }
            })
            .chain(clip.weights.as_ref().map(weights_doc))
            .collect(),
    }
}

/// The morph weights' channel as written.
fn weights_doc(channel: &WeightsChannel) -> ChannelDoc {
    let n = channel.targets();
    let cubic = channel.interpolation == Interpolation::CubicSpline
        && channel.tangents.len() == 2 * channel.values.len();
    let values = if cubic {
        (0..channel.times.len())
            .flat_map(|k| {
                let tangents = &channel.tangents[2 * n * k..2 * n * (k + 1)];
                tangents[..n]
                    .iter()
                    .chain(&channel.values[n * k..n * (k + 1)])
                    .chain(&tangents[n..])
                    .copied()
                    .collect::<Vec<_>>()
            })
            .collect()
    } else {
        channel.values.clone()
    };
    let interpolation = match channel.interpolation {
        Interpolation::CubicSpline if !cubic => Interpolation::Linear,
        other => other,
    };
    ChannelDoc {
        bone: None,
        path: "weights".to_owned(),
        interpolation: interpolation_name(interpolation).to_owned(),
        times: channel.times.clone(),
        values,
    }
}

/// The paths as written.
pub fn path_docs(paths: &[PathAnimation]) -> Vec<PathDoc> {
    paths
        .iter()
        .map(|path| PathDoc {
            name: path.name.clone(),
            points: path
                .path
                .points()
                .iter()
                .flat_map(|p| p.to_array())
                .collect(),
            bone: path.bone.map(|b| b as u32),
            duration: path.duration,
            timing: path.timing.name().to_owned(),
            speed: path.speed.as_ref().map(|curve| SpeedDoc {
                times: curve.times().to_vec(),
                distances: curve.distances().to_vec(),
            }),
        })
        .collect()
}

/// A `rig` written by an earlier Skinlab for a scene read from glTF: its
/// clips drove each joint's local transform `L_j`, with the bone frame
/// `R'_j = R'_p · U_p⁻¹ · B_j · L_j · U_j` on a skeleton of plain bones. Per
/// bone that is the constant map of [`BindSpace`] with
/// `P = (T(ℓ_p·Y) · T(o) · O)⁻¹ · U_p⁻¹ · B_j`, so the clips are converted
/// into animations `A_j` once, and an undriven joint's rest `L_j` becomes a
/// one-key channel. Returns one map per bone and the rest each clip holds.
fn validate_rig(
    doc: Option<&RigDoc>,
    skeleton: &Skeleton,
) -> Result<Option<Vec<(BindSpace, BoneTransform)>>, SceneError> {
    let Some(doc) = doc else {
        return Ok(None);
    };
    let bones = skeleton.len();
    for (field, found) in [
        ("rig.between", doc.between.len()),
        ("rig.rest", doc.rest.len()),
        ("rig.turns", doc.turns.len()),
        ("rig.fixed", doc.fixed.len()),
    ] {
        if found != bones {
            return Err(SceneError::WrongLength {
                field: field.to_owned(),
                expected: format!("one entry per bone ({bones})"),
                found,
            });
        }
    }
    let mut turns = Vec::with_capacity(bones);
    for bone in 0..bones {
        let turn = bone_transform(
            &format!("rig.turns[{bone}]"),
            Some(doc.turns[bone]),
            None,
            None,
        )?;
        turns.push(turn.rotation);
    }
    let mut maps = Vec::with_capacity(bones);
    for (index, bone) in skeleton.bones().iter().enumerate() {
        check_finite(&format!("rig.between[{index}]"), &doc.between[index])?;
        let rest = validate_bone_transform(&format!("rig.rest[{index}]"), &doc.rest[index])?;
        let (parent_length, parent_turn) = bone.parent.map_or((0.0, Quat::IDENTITY), |p| {
            let p = usize::from(p);
            (skeleton.bones()[p].length, turns[p])
        });
        let left = BindSpace::left_of(bone, parent_length, parent_turn)
            * Mat4::from_cols_array(&doc.between[index]);
        let map = BindSpace::from_left(left, turns[index], Vec3::ONE);
        let rest = if doc.fixed[index] {
            BoneTransform::IDENTITY
        } else {
            map.animation(&rest)
        };
        maps.push((map, rest));
    }
    Ok(Some(maps))
}

/// Checks what every channel shares: the interpolation's name, finite key
/// times that do not decrease and start at 0 or later, and `width` values
/// per key (three times that for `CUBICSPLINE`).
fn validate_keys(field: &str, doc: &ChannelDoc, width: usize) -> Result<Interpolation, SceneError> {
    let interpolation = interpolation_from_name(&doc.interpolation).ok_or_else(|| {
        unknown(
            format!("{field}.interpolation"),
            &doc.interpolation,
            "STEP, LINEAR or CUBICSPLINE",
        )
    })?;
    check_finite(&format!("{field}.times"), &doc.times)?;
    check_finite(&format!("{field}.values"), &doc.values)?;
    if doc.times.is_empty() {
        return Err(SceneError::WrongLength {
            field: format!("{field}.times"),
            expected: "at least one key".to_owned(),
            found: 0,
        });
    }
    if let Some(k) = doc.times.windows(2).position(|w| w[1] < w[0]) {
        return Err(SceneError::KeysOutOfOrder {
            field: format!("{field}.times[{}]", k + 1),
        });
    }
    if doc.times[0] < 0.0 {
        return Err(SceneError::KeysOutOfOrder {
            field: format!("{field}.times[0]"),
        });
    }
    let per_key = if interpolation == Interpolation::CubicSpline {
        3
    } else {
        1
    } * width;
    if doc.values.len() != per_key * doc.times.len() {
        return Err(SceneError::WrongLength {
            field: format!("{field}.values"),
            expected: format!("{} ({per_key} per key)", per_key * doc.times.len()),
            found: doc.values.len(),
        });
    }
    Ok(interpolation)
}

fn validate_channel(
    field: &str,
    doc: &ChannelDoc,
    bone_count: usize,
) -> Result<Channel, SceneError> {
    let bone = doc.bone.map_or(usize::MAX, |b| b as usize);
    if bone >= bone_count {
        return Err(SceneError::BoneOutOfRange {
            field: format!("{field}.bone"),
            bone,
            bone_count,
        });
    }
    let (target, width) = match doc.path.as_str() {
        "translation" => (Target::Translation, 3),
        "rotation" => (Target::Rotation, 4),
        "scale" => (Target::Scale, 3),
        other => {
            return Err(unknown(
                format!("{field}.path"),
                other,
                "translation, rotation, scale or weights",
            ))
        }
    };
    let interpolation = validate_keys(field, doc, width)?;
    let vectors: Vec<[f32; 4]> = doc
        .values
        .chunks_exact(width)
        .map(|v| std::array::from_fn(|k| v.get(k).copied().unwrap_or(0.0)))
        .collect();
    let (values, tangents): (Vec<[f32; 4]>, Vec<[[f32; 4]; 2]>) =
        if interpolation == Interpolation::CubicSpline {
            vectors
                .chunks_exact(3)
                .map(|key| (key[1], [key[0], key[2]]))
                .unzip()
        } else {
            (vectors, Vec::new())
        };
    let mut values = values;
    if target == Target::Rotation {
        for (k, q) in values.iter_mut().enumerate() {
            *q = unit_rotation(Quat::from_array(*q))
                .ok_or_else(|| SceneError::ZeroQuaternion {
                    field: format!("{field}.values (key {k})"),
                })?
                .to_array();
        }
    }
    Ok(Channel {
        bone,
        target,
        times: doc.times.clone(),
        values,
        tangents,
        interpolation,
    })
}

/// A `weights` channel: one value per morph target per key.
fn validate_weights(
    field: &str,
    doc: &ChannelDoc,
    targets: usize,
) -> Result<WeightsChannel, SceneError> {
    if targets == 0 {
        return Err(SceneError::WrongLength {
            field: format!("{field} (weights)"),
            expected: "morph targets to weight".to_owned(),
            found: 0,
        });
    }
    let interpolation = validate_keys(field, doc, targets)?;
    let (values, tangents) = if interpolation == Interpolation::CubicSpline {
        let mut values = Vec::with_capacity(doc.values.len() / 3);
        let mut tangents = Vec::with_capacity(2 * doc.values.len() / 3);
        for key in doc.values.chunks_exact(3 * targets) {
            tangents.extend_from_slice(&key[..targets]);
            values.extend_from_slice(&key[targets..2 * targets]);
            tangents.extend_from_slice(&key[2 * targets..]);
        }
        (values, tangents)
    } else {
        (doc.values.clone(), Vec::new())
    };
    Ok(WeightsChannel {
        times: doc.times.clone(),
        values,
        tangents,
        interpolation,
    })
}

/// Validates the clips; a `rig` of an earlier Skinlab is converted (see
/// `validate_rig`).
pub fn validate_animation(
    clips: &[ClipDoc],
    doc_rig: Option<&RigDoc>,
    skeleton: &Skeleton,
    morph_targets: usize,
) -> Result<Animation, SceneError> {
    let rig = validate_rig(doc_rig, skeleton)?;
    let bone_count = skeleton.len();
    let clips = clips
        .iter()
        .enumerate()
        .map(|(c, doc)| {
            let mut clip = Clip::new(&doc.name);
            for (k, channel) in doc.channels.iter().enumerate() {
                let field = format!("animations[{c}].channels[{k}]");
                if channel.path == "weights" {
                    if clip.weights.is_some() {
                        return Err(SceneError::WrongLength {
                            field: format!("animations[{c}].channels"),
                            expected: "at most one weights channel".to_owned(),
                            found: 2,
                        });
                    }
                    clip.weights = Some(validate_weights(&field, channel, morph_targets)?);
                } else {
                    let mut channel = validate_channel(&field, channel, bone_count)?;
                    if let Some(maps) = &rig {
                        maps[channel.bone].0.convert_channel(&mut channel);
                    }
                    clip.channels.push(channel);
                }
            }
            if let Some(maps) = &rig {
                hold_undriven_rest(&mut clip, maps);
            }
            clip.duration = clip.last_key_time();
            Ok(clip)
        })
        .collect::<Result<Vec<_>, SceneError>>()?;
    Ok(Animation { clips })
}

/// Gives every part of a bone the clip does not drive a one-key channel
/// holding `rest`, where that is not the identity.
fn hold_undriven_rest(clip: &mut Clip, maps: &[(BindSpace, BoneTransform)]) {
    for (bone, (_, rest)) in maps.iter().enumerate() {
        let parts = [
            (
                Target::Translation,
                rest.translation.extend(0.0).to_array(),
                rest.translation != Vec3::ZERO,
            ),
            (
                Target::Rotation,
                rest.rotation.to_array(),
                !rest.rotation.abs_diff_eq(Quat::IDENTITY, 1e-7),
            ),
            (
                Target::Scale,
                rest.scale.extend(0.0).to_array(),
                rest.scale != Vec3::ONE,
            ),
        ];
        for (target, value, needed) in parts {
            let driven = clip
                .channels
                .iter()
                .any(|c| c.bone == bone && c.target == target);
            if needed && !driven {
                clip.channels.push(Channel {
                    bone,
                    target,
                    times: vec![0.0],
                    values: vec![value],
                    tangents: Vec::new(),
                    interpolation: Interpolation::Step,
                });
            }
        }
    }
}

/// Validates the paths.
pub fn validate_paths(
    docs: &[PathDoc],
    bone_count: usize,
) -> Result<Vec<PathAnimation>, SceneError> {
    docs.iter()
        .enumerate()
        .map(|(k, doc)| {
            let field = format!("paths[{k}]");
            if doc.points.len() % 3 != 0 {
                return Err(SceneError::WrongLength {
                    field: format!("{field}.points"),
                    expected: "x, y, z per control point".to_owned(),
                    found: doc.points.len(),
                });
            }
            check_finite(&format!("{field}.points"), &doc.points)?;
            let points = doc.points.chunks_exact(3).map(Vec3::from_slice).collect();
            let path = BezierPath::new(points).map_err(|error| SceneError::Path {
                field: format!("{field}.points"),
                error,
            })?;
            if let Some(bone) = doc.bone {
                if bone as usize >= bone_count {
                    return Err(SceneError::BoneOutOfRange {
                        field: format!("{field}.bone"),
                        bone: bone as usize,
                        bone_count,
                    });
                }
            }
            check_finite(&format!("{field}.duration"), &[doc.duration])?;
            if doc.duration <= 0.0 {
                return Err(SceneError::NotPositive {
                    field: format!("{field}.duration"),
                    value: doc.duration,
                });
            }
            let timing = Timing::from_name(&doc.timing).ok_or_else(|| {
                unknown(
                    format!("{field}.timing"),
                    &doc.timing,
                    "uniform, ease, naive or curve",
                )
            })?;
            let speed = match &doc.speed {
                Some(speed) => Some(
                    SpeedCurve::new(speed.times.clone(), speed.distances.clone()).map_err(
                        |error| SceneError::Speed {
                            field: format!("{field}.speed"),
                            error,
                        },
                    )?,
                ),
                // A curve timing written without its curve starts as a
                // straight line, ready to be bent.
                None if timing == Timing::Curve => Some(SpeedCurve::uniform(doc.duration, 4)),
                None => None,
            };
            Ok(PathAnimation {
                name: doc.name.clone(),
                path,
                bone: doc.bone.map(|b| b as usize),
                duration: doc.duration,
                timing,
                speed,
            })
        })
        .collect()
}
