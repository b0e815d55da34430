//! Morph weights on the lab: the base it skins is `B + Σ m_k D_k`.

use super::{EditError, Lab};
use crate::scene::{Scene, SceneError};
use crate::skin::mesh::Mesh;
use crate::skin::morph::{any_active, morph};

impl Lab {
    /// The morph targets' names, in order.
    pub fn morph_names(&self) -> Vec<String> {
        self.scene.morphs.iter().map(|m| m.name.clone()).collect()
    }

    /// One weight per morph target.
    pub fn morph_weights(&self) -> &[f32] {
        &self.scene.morph_weights
    }

    /// Sets every morph weight (one per target, finite; any value: the sum
    /// may pass 1, which extrapolates past the targets).
    pub fn set_morph_weights(&mut self, weights: &[f32]) -> Result<(), EditError> {
        if weights.len() != self.scene.morphs.len() {
            return Err(EditError::WrongArity {
                what: "morph weights",
                expected: self.scene.morphs.len(),
                found: weights.len(),
            });
        }
        if let Some(k) = weights.iter().position(|w| !w.is_finite()) {
            return Err(SceneError::NonFinite {
                field: format!("morphWeights[{k}]"),
                value: weights[k],
            }
            .into());
        }
        self.scene.morph_weights.copy_from_slice(weights);
        self.changed();
        Ok(())
    }

    /// Recomputes the morphed base when the weights changed.
    pub(super) fn update_morphed(&mut self) {
        if self.morphed_current {
            return;
        }
        if any_active(&self.scene.morph_weights) {
            morph(
                &self.scene.mesh,
                &self.scene.morphs,
                &self.scene.morph_weights,
                &mut self.morphed,
            );
        }
        self.morphed_current = true;
    }
}

/// The mesh skinning starts from: the morphed base, or the rest mesh when
/// no weight is set (a free function so the caller can borrow its output
/// buffers at the same time). Call `Lab::update_morphed` first.
pub(super) fn skinning_base<'a>(scene: &'a Scene, morphed: &'a Mesh) -> &'a Mesh {
    if any_active(&scene.morph_weights) {
        morphed
    } else {
        &scene.mesh
    }
}
