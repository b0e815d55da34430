//! Validation of a scene's values, whatever they came from (a file, a
//! link, an edit in the page): each refusal names the field at fault.

use glam::{Quat, Vec3};

use super::SceneError;
use crate::rig::pose::{unit_rotation, BoneTransform};
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
    let mut seen =
        (pairs.len() > 16).then(|| std::collections::HashSet::with_capacity(pairs.len()));
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
        // A few pairs are compared directly; a long list (a vertex naming
        // every one of 65,535 bones) through a set, so the check stays linear.
        let repeated = match &mut seen {
            Some(seen) => !seen.insert(bone),
            None => pairs[..slot]
                .iter()
                .any(|&(earlier, _)| earlier as usize == bone),
        };
        if repeated {
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
        // Unit to float rounding is kept bit for bit, so poses survive a
        // save and a reload exactly; an overflowing length still normalises.
        transform.rotation = unit_rotation(Quat::from_array(rotation)).ok_or_else(|| {
            SceneError::ZeroQuaternion {
                field: format!("{field}.rotation"),
            }
        })?;
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
