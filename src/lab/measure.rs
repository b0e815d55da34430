//! Figures of the skinned mesh for the teaching views.

use super::Lab;
use crate::skin::volume::enclosed_volume;
use crate::skin::SkinningMethod;

impl Lab {
    /// The volume the skin encloses in the current pose, skinned by
    /// `method` (open ends closed by fans), model units³.
    pub fn volume(&self, method: SkinningMethod) -> f32 {
        enclosed_volume(&self.skinned_positions(method), &self.scene.mesh.indices)
    }

    /// What one keyframe costs, bytes, stored two ways (the engine note's
    /// contrast): every vertex's position (md2-style vertex animation,
    /// `3 × 4` bytes a vertex) against every bone's transform (skeletal,
    /// rotation, translation and scale: `10 × 4` bytes a bone).
    pub fn keyframe_bytes(&self) -> (usize, usize) {
        (12 * self.vertex_count(), 40 * self.bone_count())
    }

    /// The volume the rest mesh encloses.
    pub fn rest_volume(&self) -> f32 {
        enclosed_volume(&self.scene.mesh.positions_model, &self.scene.mesh.indices)
    }
}
