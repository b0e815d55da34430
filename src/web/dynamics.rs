//! The JS API of swinging limbs: `lab.setDynamics`,
//! `lab.stepDynamics`, `lab.clearDynamics`, `lab.dynamicsSpeeds`.

use glam::Vec3;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::{js_error, JsLab};
use crate::rig::dynamics::DynamicsSettings;

/// `{bones, gravity?, damping?, stiffness?}`.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct DynamicsView {
    bones: Vec<u32>,
    #[serde(default = "earth")]
    gravity: [f32; 3],
    #[serde(default)]
    damping: f32,
    #[serde(default)]
    stiffness: f32,
}

fn earth() -> [f32; 3] {
    [0.0, -9.81, 0.0]
}

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// The swinging bones' settings as `setDynamics` took them, or `null`
    /// when none swing.
    pub fn dynamics(&self) -> Result<JsValue, JsError> {
        let Some(settings) = self.inner.dynamics() else {
            return Ok(JsValue::NULL);
        };
        let view = DynamicsView {
            bones: settings.bones.iter().map(|&b| b as u32).collect(),
            gravity: settings.gravity.to_array(),
            damping: settings.damping,
            stiffness: settings.stiffness,
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error("dynamics", e))
    }

    /// Lets `bones` swing: `{bones: [...], gravity: [x, y, z] (default
    /// [0, −9.81, 0]), damping (per second), stiffness (per second², the
    /// pull toward the pose a clip or the hand gives)}`.
    #[wasm_bindgen(js_name = setDynamics)]
    pub fn set_dynamics(&mut self, settings: JsValue) -> Result<(), JsError> {
        const METHOD: &str = "setDynamics";
        let view: DynamicsView =
            serde_wasm_bindgen::from_value(settings).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .set_dynamics(DynamicsSettings {
                bones: view.bones.iter().map(|&b| b as usize).collect(),
                gravity: Vec3::from_array(view.gravity),
                damping: view.damping,
                stiffness: view.stiffness,
            })
            .map_err(|e| js_error(METHOD, e))
    }

    /// Advances the swinging bones by `dt` seconds in fixed steps of
    /// 1/480 s (the remainder carried to the next call); returns the steps.
    #[wasm_bindgen(js_name = stepDynamics)]
    pub fn step_dynamics(&mut self, dt: f32) -> usize {
        self.inner.step_dynamics(dt)
    }

    /// Stops every bone swinging.
    #[wasm_bindgen(js_name = clearDynamics)]
    pub fn clear_dynamics(&mut self) {
        self.inner.clear_dynamics();
    }

    /// The swinging bones, in order (empty when none swing).
    #[wasm_bindgen(js_name = dynamicBones)]
    pub fn dynamic_bones(&self) -> Vec<u32> {
        self.inner
            .dynamics()
            .map(|s| s.bones.iter().map(|&b| b as u32).collect())
            .unwrap_or_default()
    }

    /// Each swinging bone's tip speed, model units a second.
    #[wasm_bindgen(js_name = dynamicsSpeeds)]
    pub fn dynamics_speeds(&self) -> Vec<f32> {
        self.inner
            .dynamics_velocities()
            .iter()
            .map(|v| v.length())
            .collect()
    }
}
