//! Swinging limbs in the lab: the chosen bones swing under gravity,
//! damping and a pull toward the pose the clip or the hand gives them
//! (see [`crate::rig::dynamics`]).

use glam::Vec3;

use super::{EditError, Lab};
use crate::rig::dynamics::{Dynamics, DynamicsSettings};
use crate::scene::SceneError;

impl Lab {
    /// Lets `settings.bones` swing; replaces any earlier setting. Any
    /// stretch from IK is released (the bones swing at their own length).
    pub fn set_dynamics(&mut self, settings: DynamicsSettings) -> Result<(), EditError> {
        for &bone in &settings.bones {
            self.check_bone(bone)?;
        }
        for (field, value) in [
            ("gravity", settings.gravity.x),
            ("gravity", settings.gravity.y),
            ("gravity", settings.gravity.z),
            ("damping", settings.damping),
            ("stiffness", settings.stiffness),
        ] {
            if !value.is_finite() {
                return Err(SceneError::NonFinite {
                    field: field.to_owned(),
                    value,
                }
                .into());
            }
        }
        // Swinging works on rigid bones: a chain stretched by IK springs
        // back to its length first.
        self.stretch.fill(1.0);
        self.dynamics = Some(Dynamics::new(settings));
        self.changed();
        Ok(())
    }

    /// The swinging bones' settings, if any swing.
    pub fn dynamics(&self) -> Option<&DynamicsSettings> {
        self.dynamics.as_ref().map(Dynamics::settings)
    }

    /// Each swinging bone's tip velocity, model units a second.
    pub fn dynamics_velocities(&self) -> Vec<Vec3> {
        self.dynamics
            .as_ref()
            .map(Dynamics::velocities)
            .unwrap_or_default()
    }

    /// Advances the swinging bones by `dt` seconds (in fixed steps; the
    /// remainder is carried). Returns the steps taken; 0 when none swing.
    pub fn step_dynamics(&mut self, dt: f32) -> usize {
        let Some(dynamics) = self.dynamics.as_mut() else {
            return 0;
        };
        let steps = dynamics.advance(
            &self.scene.skeleton,
            &self.scene.limits,
            &mut self.scene.pose,
            dt,
        );
        self.changed();
        steps
    }

    /// Stops every bone swinging; the pose stays as it swung.
    pub fn clear_dynamics(&mut self) {
        self.dynamics = None;
    }
}
