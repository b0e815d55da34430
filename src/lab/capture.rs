//! Motion capture in the lab: a BVH file as a scene, where every joint is,
//! and key reduction from a key every frame toward a few keyframes.

use glam::Vec3;

use super::{EditError, Lab};
use crate::formats::bvh::{scene_from_bvh, BvhError};
use crate::rig::key_reduction::{reduce_keys, KeyReduction, MAX_REDUCED_FRAMES};

impl Lab {
    /// Reads a BVH motion capture: one bone per joint and end site (in the
    /// file's order), a body of capsules skinned to them, and the frames
    /// as the clip "capture".
    pub fn from_bvh(text: &str) -> Result<Self, BvhError> {
        scene_from_bvh(text).map(Self::new)
    }

    /// Every bone's origin (its joint), model space, as posed now.
    pub fn joint_positions(&self) -> Vec<Vec3> {
        self.model_from_bone_posed()
            .iter()
            .map(|frame| frame.w_axis.truncate())
            .collect()
    }

    /// Reduces clip `clip`'s keys while every joint stays within
    /// `tolerance` model units of the clip at each of its key times (see
    /// [`crate::rig::key_reduction`]). With `apply` the clip is replaced by
    /// the reduced one; without, only the figures are returned.
    pub fn reduce_keys(
        &mut self,
        clip: usize,
        tolerance: f32,
        apply: bool,
    ) -> Result<KeyReduction, EditError> {
        if !tolerance.is_finite() || tolerance < 0.0 {
            return Err(EditError::BadTolerance { value: tolerance });
        }
        let clips = &self.scene.animation.clips;
        let original = clips.get(clip).ok_or(EditError::NoSuchClip {
            clip,
            clip_count: clips.len(),
        })?;
        let reduction = reduce_keys(&self.scene.skeleton, original, tolerance).ok_or(
            EditError::TooManyKeyTimes {
                clip,
                max: MAX_REDUCED_FRAMES,
            },
        )?;
        if apply {
            self.scene.animation.clips[clip] = reduction.clip.clone();
            self.changed();
        }
        Ok(reduction)
    }
}
