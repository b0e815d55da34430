//! Validation of a scene's values, whatever they came from (a file, a
//! link, an edit in the page): each refusal names the field at fault.

use glam::{Quat, Vec3};

use super::SceneError;
use crate::rig::pose::BoneTransform;
use crate::rig::skeleton::first_non_finite;
use crate::skin::influences::{Fitting, VertexInfluences};

/// Refuses NaN and infinity, naming the first bad component as `field[k]`.
pub fn check_finite(field: &str, values: &[f32]) -> Result<(), SceneError> {
    match first_non_finite(field, values) {
        None => Ok(()),
        Some((field, value)) => Err(SceneError::NonFinite { field, value }),
    }
}

/// Checks one vertex's `[bone, weight]` list and fits it to four influences.
pub fn vertex_influences(
    vertex: usize,
    pairs: &[(u32, f32)],
    bone_count: usize,
) -> Result<(VertexInfluences, Fitting), SceneError> {
    let mut fitted = Vec::with_capacity(pairs.len());
    for (slot, &(bone, weight)) in pairs.iter().enumerate() {
        let bone = bone as usize;
        if bone >= bone_count {
            return Err(SceneError::BoneOutOfRange {
                field: format!("influences[{vertex}][{slot}]"),
                bone,
                bone_count,
            });
        }
        check_finite(&format!("influences[{vertex}][{slot}] weight"), &[weight])?;
        if weight < 0.0 {
            return Err(SceneError::NegativeWeight {
                vertex,
                slot,
                weight,
            });
        }
        if pairs[..slot]
            .iter()
            .any(|&(earlier, _)| earlier as usize == bone)
        {
            return Err(SceneError::DuplicateBone { vertex, slot, bone });
        }
        fitted.push((bone as u16, weight));
    }
    Ok(VertexInfluences::from_pairs(&fitted))
}

/// Checks one bone's animation `A_i` and fills missing parts with the
/// identity; `field` names it in the error (e.g. `pose[2]`).
/// A rotation is normalised; the zero quaternion is refused.
pub fn bone_transform(
    field: &str,
    rotation: Option<[f32; 4]>,
    translation: Option<[f32; 3]>,
    scale: Option<[f32; 3]>,
) -> Result<BoneTransform, SceneError> {
    let mut transform = BoneTransform::IDENTITY;
    if let Some(rotation) = rotation {
        check_finite(&format!("{field}.rotation"), &rotation)?;
        let rotation = Quat::from_array(rotation);
        let norm = rotation.length();
        if norm < 1e-6 {
            return Err(SceneError::ZeroQuaternion {
                field: format!("{field}.rotation"),
            });
        }
        // A rotation that is unit to float rounding is kept bit for bit, so
        // poses survive a save and a reload exactly.
        transform.rotation = if (norm - 1.0).abs() <= 1e-6 {
            rotation
        } else {
            rotation / norm
        };
    }
    if let Some(translation) = translation {
        check_finite(&format!("{field}.translation"), &translation)?;
        transform.translation = Vec3::from_array(translation);
    }
    if let Some(scale) = scale {
        check_finite(&format!("{field}.scale"), &scale)?;
        transform.scale = Vec3::from_array(scale);
    }
    Ok(transform)
}
