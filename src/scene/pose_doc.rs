//! One bone's animation `A_i` as the scene document writes it: the pose
//! and every clip's keys use this form.

use serde::{Deserialize, Serialize};

use super::validate;
use super::SceneError;
use crate::rig::pose::BoneTransform;

/// One bone's animation as written; missing fields are the identity.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoseDoc {
    /// `[x, y, z, w]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<[f32; 4]>,
    /// `[x, y, z]`, in the bone's own frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub translation: Option<[f32; 3]>,
    /// `[x, y, z]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<[f32; 3]>,
}

/// Checks one bone's animation as written and fills missing fields with
/// the identity (see [`crate::scene::validate::bone_transform`]).
pub fn validate_bone_transform(field: &str, doc: &PoseDoc) -> Result<BoneTransform, SceneError> {
    validate::bone_transform(field, doc.rotation, doc.translation, doc.scale)
}

/// A bone's animation as the document writes it, every field present.
pub fn pose_doc(transform: &BoneTransform) -> PoseDoc {
    PoseDoc {
        rotation: Some(transform.rotation.to_array()),
        translation: Some(transform.translation.to_array()),
        scale: Some(transform.scale.to_array()),
    }
}
