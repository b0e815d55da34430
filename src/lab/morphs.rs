//! Morph weights on the lab: the base it skins is `B + Σ m_k D_k`.

use super::{EditError, Lab};
use crate::scene::SceneError;

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
}
