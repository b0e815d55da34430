//! The JS API of making a rig: `lab.addBone`, `lab.setBoneRest`,
//! `lab.boneRest`, `lab.boneTwin`, `lab.removeBone`, `lab.renameBone`,
//! `lab.setBoneParent` and `lab.meshReport`.

use glam::Vec3;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::{js_error, refuse_unknown_keys, JsLab};
use crate::lab::index_from_f64;

/// `{parent, head: [x, y, z], tail: [x, y, z], name?}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewBone {
    parent: f64,
    head: [f32; 3],
    tail: [f32; 3],
    name: Option<String>,
}

/// `{head?, tail?, roll?}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RestChange {
    head: Option<[f32; 3]>,
    tail: Option<[f32; 3]>,
    roll: Option<f32>,
}

/// `{head, tail, roll}`.
#[derive(Serialize)]
struct RestView {
    head: [f32; 3],
    tail: [f32; 3],
    roll: f32,
}

/// `lab.meshReport()`'s figures.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportView {
    loose_parts: usize,
    duplicate_vertices: usize,
    non_manifold_edges: usize,
    open_edges: usize,
    degenerate_triangles: usize,
    flipped_triangles: usize,
    seams_apart: usize,
    size: f32,
}

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// What the mesh brings to binding: `{looseParts, duplicateVertices,
    /// nonManifoldEdges, openEdges, degenerateTriangles, flippedTriangles,
    /// seamsApart, size}` (counts of the mesh with coincident vertices
    /// welded; seamsApart: places whose copies hold different weights, as
    /// `seamsApart()` counts; size is the bounding box's diagonal).
    #[wasm_bindgen(js_name = meshReport)]
    pub fn mesh_report(&self) -> Result<JsValue, JsError> {
        let r = self.inner.mesh_report();
        let view = ReportView {
            loose_parts: r.loose_parts,
            duplicate_vertices: r.duplicate_vertices,
            non_manifold_edges: r.non_manifold_edges,
            open_edges: r.open_edges,
            degenerate_triangles: r.degenerate_triangles,
            flipped_triangles: r.flipped_triangles,
            seams_apart: self.inner.seams_apart(),
            size: r.size,
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error("meshReport", e))
    }

    /// Adds a bone `{parent, head, tail, name?}` (model space, at rest);
    /// returns its index, the last. One undo step after `checkpoint()`.
    #[wasm_bindgen(js_name = addBone)]
    pub fn add_bone(&mut self, bone: JsValue) -> Result<u32, JsError> {
        const METHOD: &str = "addBone";
        refuse_unknown_keys(METHOD, &bone, &["parent", "head", "tail", "name"])?;
        let bone: NewBone =
            serde_wasm_bindgen::from_value(bone).map_err(|e| js_error(METHOD, e))?;
        let parent = index_from_f64("parent", bone.parent).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .add_bone(
                parent,
                Vec3::from_array(bone.head),
                Vec3::from_array(bone.tail),
                bone.name.as_deref(),
            )
            .map(|index| index as u32)
            .map_err(|e| js_error(METHOD, e))
    }

    /// The bone on the other side of `bone` by name (`LeftArm`/`RightArm`,
    /// `arm.L`/`arm.R`, `L_arm`/`R_arm`, `J_Bip_L_Arm`/`J_Bip_R_Arm`), or
    /// `undefined` when its name marks no side or no bone has the twin's.
    #[wasm_bindgen(js_name = boneTwin)]
    pub fn bone_twin(&self, bone: f64) -> Result<Option<u32>, JsError> {
        const METHOD: &str = "boneTwin";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let twin = self
            .inner
            .bone_twin(bone)
            .map_err(|e| js_error(METHOD, e))?;
        Ok(twin.map(|t| t as u32))
    }

    /// Bone `bone`'s rest in model space: `{head, tail, roll}` (roll in
    /// radians about the bone's axis).
    #[wasm_bindgen(js_name = boneRest)]
    pub fn bone_rest(&self, bone: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "boneRest";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let rest = self
            .inner
            .bone_rest(bone)
            .map_err(|e| js_error(METHOD, e))?;
        let view = RestView {
            head: rest.head.to_array(),
            tail: rest.tail.to_array(),
            roll: rest.roll,
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error(METHOD, e))
    }

    /// Moves bone `bone`'s rest: `{head?, tail?, roll?}`; its children stay
    /// where they rest. One undo step after `checkpoint()`.
    #[wasm_bindgen(js_name = setBoneRest)]
    pub fn set_bone_rest(&mut self, bone: f64, rest: JsValue) -> Result<(), JsError> {
        const METHOD: &str = "setBoneRest";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        refuse_unknown_keys(METHOD, &rest, &["head", "tail", "roll"])?;
        let rest: RestChange =
            serde_wasm_bindgen::from_value(rest).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .set_bone_rest(
                bone,
                rest.head.map(Vec3::from_array),
                rest.tail.map(Vec3::from_array),
                rest.roll,
            )
            .map_err(|e| js_error(METHOD, e))
    }

    /// Removes bone `bone`: its children hang from its parent, its weights
    /// go to its parent; the bones after it move down by one. Refused while
    /// a clip keys it or a path carries it.
    #[wasm_bindgen(js_name = removeBone)]
    pub fn remove_bone(&mut self, bone: f64) -> Result<(), JsError> {
        const METHOD: &str = "removeBone";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .remove_bone(bone)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Fits a template to markers (model-space points, the character's
    /// left for `left…`) in a scene that has its root alone: `"humanoid"`
    /// with `{chin, groin, leftWrist, rightWrist, leftElbow, rightElbow,
    /// leftKnee, rightKnee, fingers?}` (Mixamo's joint names; 0, 3 or 5
    /// fingers a hand), `"quadruped"` with
    /// `{nose, tailBase, tailTip, frontLeftPaw, frontRightPaw, backLeftPaw,
    /// backRightPaw, withers, hips}`, `"chain"` with `{start, end, bones}`.
    /// Returns how many bones were added; one undo step after
    /// `checkpoint()`.
    #[wasm_bindgen(js_name = fitSkeleton)]
    pub fn fit_skeleton(&mut self, template: &str, markers: JsValue) -> Result<u32, JsError> {
        const METHOD: &str = "fitSkeleton";
        let given: std::collections::HashMap<String, serde_json::Value> =
            serde_wasm_bindgen::from_value(markers).map_err(|e| js_error(METHOD, e))?;
        let mut points: std::collections::HashMap<String, Vec<f32>> =
            std::collections::HashMap::new();
        for (name, value) in given {
            let numbers = match &value {
                serde_json::Value::Number(n) => vec![n.as_f64().unwrap_or(f64::NAN) as f32],
                serde_json::Value::Array(list) => list
                    .iter()
                    .map(|v| v.as_f64().map_or(f32::NAN, |n| n as f32))
                    .collect(),
                _ => {
                    return Err(js_error(
                        METHOD,
                        format!("marker '{name}' must be [x, y, z]"),
                    ))
                }
            };
            points.insert(name, numbers);
        }
        self.inner
            .fit_skeleton(template, &points)
            .map(|added| added as u32)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Renames bone `bone` (1 to 200 characters).
    #[wasm_bindgen(js_name = renameBone)]
    pub fn rename_bone(&mut self, bone: f64, name: &str) -> Result<(), JsError> {
        const METHOD: &str = "renameBone";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .rename_bone(bone, name)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Hangs bone `bone` from `parent` where it rests (a cycle is refused);
    /// returns `bone`'s new index (parents are listed first).
    #[wasm_bindgen(js_name = setBoneParent)]
    pub fn set_bone_parent(&mut self, bone: f64, parent: f64) -> Result<u32, JsError> {
        const METHOD: &str = "setBoneParent";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let parent = index_from_f64("parent", parent).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .set_bone_parent(bone, parent)
            .map(|index| index as u32)
            .map_err(|e| js_error(METHOD, e))
    }
}
