//! The JS API of making a rig: `lab.addBone`, `lab.addBones`,
//! `lab.setBoneRest`, `lab.boneRest`, `lab.boneTwin`, `lab.removeBone`,
//! `lab.renameBone` and `lab.setBoneParent`. The mesh report and the
//! templates' fitting are the file readers' module's (`converters/`), which
//! `www/converters.js` puts on `Lab` as `lab.meshReport()` and
//! `lab.fitSkeleton(template, markers)`.

use glam::Vec3;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::{js_error, refuse_unknown_keys, JsLab};
use crate::lab::index_from_f64;
use crate::scene::rig_edit::NewBone;

/// `{parent, head: [x, y, z], tail: [x, y, z], name?}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewBoneView {
    parent: f64,
    head: [f32; 3],
    tail: [f32; 3],
    name: Option<String>,
}

impl NewBoneView {
    fn new_bone(self) -> Result<NewBone, crate::lab::EditError> {
        Ok(NewBone {
            parent: index_from_f64("parent", self.parent)?,
            head: Vec3::from_array(self.head),
            tail: Vec3::from_array(self.tail),
            name: self.name,
        })
    }
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

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// Adds a bone `{parent, head, tail, name?}` (model space, at rest);
    /// returns its index, the last. One undo step after `checkpoint()`.
    #[wasm_bindgen(js_name = addBone)]
    pub fn add_bone(&mut self, bone: JsValue) -> Result<u32, JsError> {
        const METHOD: &str = "addBone";
        refuse_unknown_keys(METHOD, &bone, &["parent", "head", "tail", "name"])?;
        let bone: NewBoneView =
            serde_wasm_bindgen::from_value(bone).map_err(|e| js_error(METHOD, e))?;
        let bone = bone.new_bone().map_err(|e| js_error(METHOD, e))?;
        self.inner
            .add_bones(std::slice::from_ref(&bone))
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

    /// Adds `bones`, an array of `{parent, head, tail, name?}` (model
    /// space, at rest; a parent may be a bone added before it in the
    /// array), as one edit; returns the first one's index. Nothing changes
    /// when one is refused. One undo step after `checkpoint()`.
    #[wasm_bindgen(js_name = addBones)]
    pub fn add_bones(&mut self, bones: JsValue) -> Result<u32, JsError> {
        const METHOD: &str = "addBones";
        let bones: Vec<NewBoneView> =
            serde_wasm_bindgen::from_value(bones).map_err(|e| js_error(METHOD, e))?;
        let bones = bones
            .into_iter()
            .map(|bone| bone.new_bone())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| js_error(METHOD, e))?;
        self.inner
            .add_bones(&bones)
            .map(|index| index as u32)
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
