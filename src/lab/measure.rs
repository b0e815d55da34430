//! Figures of the skinned mesh for the teaching views.

use super::Lab;
use crate::skin::volume::enclosed_volume;
use crate::skin::SkinningMethod;

impl Lab {
    /// The volume the skin encloses in the current pose, skinned by
    /// `method` (open ends closed by fans), model units³.
    pub fn volume(&mut self, method: SkinningMethod) -> f32 {
        let indices = std::mem::take(&mut self.scene.mesh.indices);
        let volume = enclosed_volume(self.skinned_positions(method), &indices);
        self.scene.mesh.indices = indices;
        volume
    }

    /// The volume the rest mesh encloses.
    pub fn rest_volume(&self) -> f32 {
        enclosed_volume(&self.scene.mesh.positions_model, &self.scene.mesh.indices)
    }
}
