//! The JS API of joint limits and chain IK: `lab.setLimits`,
//! `lab.limits`, `lab.solveIk`, `lab.setLimitsPosing`.

use glam::Vec3;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::{float_array, js_error, nullable, point_array, JsLab};
use crate::lab::{index_from_f64, IkGoal};
use crate::rig::gait::Gait;
use crate::rig::limits::LimitDoc;

/// `{tip, chain, target: [x, y, z], method, iterations?, tolerance?}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveOptions {
    tip: f64,
    chain: f64,
    target: [f32; 3],
    method: String,
    iterations: Option<f64>,
    tolerance: Option<f32>,
    normal: Option<[f32; 3]>,
    stretch: Option<f32>,
}

/// `{reached, error, iterations}`.
#[derive(Serialize)]
struct SolveView {
    reached: bool,
    error: f32,
    iterations: usize,
}

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// Bone `bone`'s stretch along its own +Y from stretchy IK (1: none).
    #[wasm_bindgen(js_name = boneStretch)]
    pub fn bone_stretch(&self, bone: f64) -> Result<f32, JsError> {
        const METHOD: &str = "boneStretch";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .bone_stretch(bone)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Sets bone `bone`'s joint limit: `{hinge: {axis: [x,y,z], min, max}}`
    /// or `{swing: angle, twist: [min, max]}` (radians, in the bone's own
    /// frame relative to its rest orientation), or `null` to free it.
    #[wasm_bindgen(js_name = setLimits)]
    pub fn set_limits(&mut self, bone: f64, limits: JsValue) -> Result<(), JsError> {
        const METHOD: &str = "setLimits";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let limit = if limits.is_null() || limits.is_undefined() {
            None
        } else {
            let doc: LimitDoc =
                serde_wasm_bindgen::from_value(limits).map_err(|e| js_error(METHOD, e))?;
            Some(doc.to_limit().map_err(|e| js_error(METHOD, e))?)
        };
        self.inner
            .set_limit(bone, limit)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Bone `bone`'s joint limit in the form `setLimits` takes, or `null`.
    pub fn limits(&self, bone: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "limits";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        match self.inner.limit(bone).map_err(|e| js_error(METHOD, e))? {
            None => Ok(JsValue::NULL),
            Some(limit) => serde_wasm_bindgen::to_value(&LimitDoc::from_limit(&limit))
                .map_err(|e| js_error(METHOD, e)),
        }
    }

    /// Where bone `bone`'s end is in the current pose, `R'_i · (0, length,
    /// 0)`, model space: `[x, y, z]`.
    #[wasm_bindgen(js_name = boneEnd)]
    pub fn bone_end(&self, bone: f64) -> Result<js_sys::Array, JsError> {
        self.bone_point("boneEnd", bone, 1.0)
    }

    /// Where bone `bone`'s origin is in the current pose, `R'_i · 0`, model
    /// space: `[x, y, z]`.
    #[wasm_bindgen(js_name = boneOrigin)]
    pub fn bone_origin(&self, bone: f64) -> Result<js_sys::Array, JsError> {
        self.bone_point("boneOrigin", bone, 0.0)
    }

    /// Bone `bone`'s limit drawn at `radius` from its origin, model space,
    /// as flat `[x, y, z, …]`: a hinge's arc from min to max, a cone's rim;
    /// empty for a free joint.
    #[wasm_bindgen(js_name = limitOutline)]
    pub fn limit_outline(&self, bone: f64, radius: f32) -> Result<js_sys::Float32Array, JsError> {
        const METHOD: &str = "limitOutline";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let points = self
            .inner
            .limit_outline(bone, radius)
            .map_err(|e| js_error(METHOD, e))?;
        Ok(float_array(&points))
    }

    /// The limit angle (radians) that points bone `bone` toward the model
    /// point `[x, y, z]`: a hinge's angle about its axis, a cone's angle off
    /// the rest direction; `null` for a free joint.
    #[wasm_bindgen(js_name = limitAngleToward)]
    pub fn limit_angle_toward(&self, bone: f64, point: &[f32]) -> Result<JsValue, JsError> {
        const METHOD: &str = "limitAngleToward";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let [x, y, z] = point else {
            return Err(js_error(METHOD, "the point is [x, y, z]"));
        };
        self.inner
            .limit_angle_toward(bone, Vec3::new(*x, *y, *z))
            .map(nullable)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Poses the two-bone leg ending at `tip` at `phase` (0–1) of the
    /// animation talk's walk cycle by `gait`: `"goose"` (hip angle over time, rigid
    /// knee), `"hip-knee"` (hip and knee angles over time) or `"ik"` (the
    /// ankle's path over time, hip and knee by the analytic solver).
    #[wasm_bindgen(js_name = poseGait)]
    pub fn pose_gait(&mut self, gait: &str, tip: f64, phase: f32) -> Result<(), JsError> {
        const METHOD: &str = "poseGait";
        let gait: Gait = gait.parse().map_err(|e: String| js_error(METHOD, e))?;
        let tip = index_from_f64("tip", tip).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .pose_gait(gait, tip, phase)
            .map_err(|e| js_error(METHOD, e))
    }

    /// One walk cycle of `gait` at `samples` phases: `{ankle, ground}` as
    /// flat model-space points and `{stanceOffGround, swingClearance}`, how
    /// far the ankle leaves the ground when it should be on it and its
    /// lowest height in the swing (below 0: through the ground). The pose is
    /// left as it was.
    #[wasm_bindgen(js_name = gaitTrace)]
    pub fn gait_trace(&self, gait: &str, tip: f64, samples: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "gaitTrace";
        let gait: Gait = gait.parse().map_err(|e: String| js_error(METHOD, e))?;
        let tip = index_from_f64("tip", tip).map_err(|e| js_error(METHOD, e))?;
        let samples = index_from_f64("samples", samples)
            .map_err(|e| js_error(METHOD, e))?
            .clamp(2, 1000);
        let trace = self
            .inner
            .gait_trace(gait, tip, samples)
            .map_err(|e| js_error(METHOD, e))?;
        let view = js_sys::Object::new();
        let set = |key: &str, value: &JsValue| js_sys::Reflect::set(&view, &key.into(), value);
        set("ankle", &float_array(&trace.ankle_model))
            .and_then(|_| set("ground", &float_array(&trace.ground_model)))
            .and_then(|_| set("stanceOffGround", &trace.stance_off_ground.into()))
            .and_then(|_| set("swingClearance", &trace.swing_clearance.into()))
            .map_err(|_| js_error(METHOD, "could not build the result"))?;
        Ok(view.into())
    }

    /// Whether bones posed by hand keep within their limits.
    #[wasm_bindgen(js_name = limitsPosing)]
    pub fn limits_posing(&self) -> bool {
        self.inner.limits_posing()
    }

    /// Keeps bones posed by hand within their limits (`true`) or not.
    #[wasm_bindgen(js_name = setLimitsPosing)]
    pub fn set_limits_posing(&mut self, on: bool) {
        self.inner.set_limits_posing(on);
    }

    /// Solves `{tip, chain, target: [x,y,z], method: "analytic" | "ccd" |
    /// "fabrik", iterations?, tolerance?, stretch?}` on the pose, within
    /// every limit; with `stretch > 1` a target out of reach is reached by
    /// stretching every bone of the chain by the same factor, at most
    /// `stretch` (`boneStretch(bone)` tells it); returns `{reached, error,
    /// iterations}`.
    #[wasm_bindgen(js_name = solveIk)]
    pub fn solve_ik(&mut self, options: JsValue) -> Result<JsValue, JsError> {
        const METHOD: &str = "solveIk";
        let options: SolveOptions =
            serde_wasm_bindgen::from_value(options).map_err(|e| js_error(METHOD, e))?;
        let goal = IkGoal {
            tip: index_from_f64("tip", options.tip).map_err(|e| js_error(METHOD, e))?,
            chain: index_from_f64("chain", options.chain).map_err(|e| js_error(METHOD, e))?,
            target_model: Vec3::from_array(options.target),
            method: options.method.parse().map_err(|e| js_error(METHOD, e))?,
            iterations: options
                .iterations
                .map(|n| index_from_f64("iterations", n))
                .transpose()
                .map_err(|e| js_error(METHOD, e))?,
            tolerance: options.tolerance,
            fallback_normal: options.normal.map_or(Vec3::Z, Vec3::from_array),
            stretch: options.stretch,
        };
        let report = self
            .inner
            .solve_ik(&goal)
            .map_err(|e| js_error(METHOD, e))?;
        serde_wasm_bindgen::to_value(&SolveView {
            reached: report.reached,
            error: report.error,
            iterations: report.iterations,
        })
        .map_err(|e| js_error(METHOD, e))
    }
}

impl JsLab {
    /// `R'_i · (0, along · length, 0)`: a point on bone `bone`, model space.
    fn bone_point(&self, method: &str, bone: f64, along: f32) -> Result<js_sys::Array, JsError> {
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(method, e))?;
        self.inner
            .bone_pose(bone)
            .map_err(|e| js_error(method, e))?;
        let length = self.inner.scene().skeleton.bones()[bone].length;
        let local = Vec3::new(0.0, along * length, 0.0);
        let point = self.inner.model_from_bone_posed()[bone].transform_point3(local);
        Ok(point_array(&point.to_array()))
    }
}
