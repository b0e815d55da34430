//! The JavaScript face of the lab: `Lab` for `www/pkg/skinlab.js`.
//!
//! A thin shell: it converts JavaScript values into plain Rust values, calls
//! [`crate::lab::Lab`], and turns every error into a JS `Error` whose message
//! starts with the method's name.

mod animate;
mod batches;
mod capture;
mod colour;
mod cor;
mod dynamics;
mod ik;
mod morphs;
mod rigging;
mod rotations;
mod speech;
mod viewer;

pub use viewer::Viewer;

use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::examples::listed_names;
use crate::lab::{fixed_from_f64, index_from_f64, EditError, Lab, SkinningMethod};

pub(crate) fn js_error(method: &str, error: impl std::fmt::Display) -> JsError {
    JsError::new(&format!("{method}: {error}"))
}

/// `x, y, z` per point as a new `Float32Array`: one copy out of the wasm
/// memory, no intermediate buffer.
/// Reads an options object into `T` (unknown keys refused, so a misspelt
/// option is an error rather than ignored), naming `method` in the error.
pub(crate) fn options<T: serde::de::DeserializeOwned>(
    method: &str,
    value: JsValue,
) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value).map_err(|e| js_error(method, format!("options: {e}")))
}

/// A point as the API hands it out: a plain array, `[x, y]` (CSS pixels)
/// or `[x, y, z]` (model space). Bulk data (every vertex) goes as typed
/// arrays instead.
pub(crate) fn point_array(values: &[f32]) -> js_sys::Array {
    values.iter().map(|&v| JsValue::from(v)).collect()
}

/// A brush as options give it: `{radius, strength, falloff?, mode?,
/// value?}` (`viewer.setBrush`, and within `lab.paintDab`'s options).
#[derive(serde::Deserialize)]
pub(crate) struct BrushOptions {
    radius: f32,
    strength: f32,
    #[serde(default = "smooth")]
    falloff: String,
    #[serde(default = "add")]
    mode: String,
    #[serde(default)]
    value: f32,
}

impl BrushOptions {
    /// The keys a brush takes.
    pub(crate) const KEYS: &'static [&'static str] =
        &["radius", "strength", "falloff", "mode", "value"];

    /// The brush, checked; an error names `method`.
    pub(crate) fn brush(&self, method: &str) -> Result<crate::weights::paint::Brush, JsError> {
        crate::weights::paint::Brush::parse(
            self.radius,
            self.strength,
            &self.falloff,
            &self.mode,
            self.value,
        )
        .map_err(|e| js_error(method, e))
    }
}

fn smooth() -> String {
    "smooth".to_owned()
}

fn add() -> String {
    "add".to_owned()
}

/// Refuses an options object with a key not in `known`, naming it: a
/// misspelt option is an error rather than ignored.
pub(crate) fn refuse_unknown_keys(
    method: &str,
    value: &JsValue,
    known: &[&str],
) -> Result<(), JsError> {
    // `typeof` rather than `instanceof Object`: options made in another
    // realm (a page holding a lab in a frame) are objects too.
    if !value.is_object() {
        return Err(js_error(method, "the options are an object"));
    }
    match js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>())
        .iter()
        .filter_map(|key| key.as_string())
        .find(|key| !known.contains(&key.as_str()))
    {
        Some(key) => Err(js_error(
            method,
            format!("unknown option '{key}'; known: {}", known.join(", ")),
        )),
        None => Ok(()),
    }
}

/// `lab.paintDab`'s options (the points are read apart, as a typed array).
#[derive(serde::Deserialize)]
struct DabView {
    bone: f64,
    at: [f32; 2],
    #[serde(default)]
    mirror: bool,
    #[serde(flatten)]
    brush: BrushOptions,
}

/// `Some(value)` as the value and `None` as `null`: the API's one "none"
/// (wasm-bindgen's own `Option` return would give `undefined`).
pub(crate) fn nullable<T: Into<JsValue>>(value: Option<T>) -> JsValue {
    value.map_or(JsValue::NULL, Into::into)
}

fn float_array(points: &[glam::Vec3]) -> js_sys::Float32Array {
    js_sys::Float32Array::from(bytemuck::cast_slice::<glam::Vec3, f32>(points))
}

fn numbers(method: &str, what: &str, value: JsValue) -> Result<Vec<f64>, JsError> {
    if !value.is_object() {
        let found = value
            .as_string()
            .map_or_else(|| format!("{value:?}"), |s| format!("'{s}'"));
        return Err(js_error(
            method,
            format!("{what} must be an array of numbers, got {found}"),
        ));
    }
    serde_wasm_bindgen::from_value(value).map_err(|error| {
        js_error(
            method,
            format!("{what} must be an array of numbers ({error})"),
        )
    })
}

/// `{origin, orientation, length, product}`: `L_i` and its factors.
#[derive(Serialize)]
struct RelativeView {
    origin: [f32; 16],
    orientation: [f32; 16],
    length: [f32; 16],
    product: [f32; 16],
}

/// `{rotation: [x,y,z,w], translation: [x,y,z], scale: [x,y,z]}`.
#[derive(Serialize)]
struct PoseView {
    rotation: [f32; 4],
    translation: [f32; 3],
    scale: [f32; 3],
}

/// `{maxWeightError, meanWeightError, maxPositionError}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct QuantisationView {
    max_weight_error: f32,
    mean_weight_error: f32,
    max_position_error: f32,
}

/// `{prunedVertices, visibilityChecked, iterations}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AutoWeightsView {
    pruned_vertices: u32,
    visibility_checked: bool,
    iterations: u32,
    /// Vertices no bone reached, each given wholly to its nearest
    /// deforming bone.
    unreached_vertices: u32,
    /// Vertices nearer to a bone that deforms nothing than to any that does.
    nearest_non_deforming: u32,
    /// Those vertices and the unreached ones, increasing: where the page
    /// marks them.
    handed_over: Vec<u32>,
}

/// The skinning note's three steps for one vertex and one bone.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ThreeStepsView {
    rest: [f32; 3],
    in_bone_rest: [f32; 3],
    in_bone_animated: [f32; 3],
    in_model_posed: [f32; 3],
}

/// A skinning lab: one scene, its pose and its CPU reference skinning.
#[wasm_bindgen(js_name = Lab)]
pub struct JsLab {
    pub(crate) inner: Lab,
}

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// Reads a scene handed over by the file readers' module (what it
    /// made of a glTF or BVH file: `formats::handover`); throws an `Error` if
    /// the bytes are not a valid handover.
    #[wasm_bindgen(js_name = fromHandover)]
    pub fn from_handover(bytes: &[u8]) -> Result<JsLab, JsError> {
        crate::formats::handover::scene_from_handover(bytes)
            .map(|scene| JsLab {
                inner: Lab::new(scene),
            })
            .map_err(|error| js_error("fromHandover", error))
    }

    /// Reads scene JSON; throws an `Error` naming the field and index of the
    /// first problem.
    #[wasm_bindgen(js_name = fromSceneJson)]
    pub fn from_scene_json(text: &str) -> Result<JsLab, JsError> {
        Lab::from_json(text)
            .map(|inner| JsLab { inner })
            .map_err(|error| js_error("fromSceneJson", error))
    }

    /// A built-in example: `two-bone`, `two-bone-smooth`, `y-junction`,
    /// `y-junction-unweighted`, `tube`, `chain`, ... (`exampleNames()`).
    /// `capture`, read from a BVH file, needs the file readers
    /// (`www/converters.js`, which answers for it once they are loaded).
    pub fn example(name: &str) -> Result<JsLab, JsError> {
        Lab::built_example(name)
            .map(|inner| JsLab { inner })
            .map_err(|error| js_error("example", error))
    }

    /// The names [`JsLab::example`] accepts.
    #[wasm_bindgen(js_name = exampleNames)]
    pub fn example_names() -> Vec<String> {
        listed_names().into_iter().map(str::to_owned).collect()
    }

    /// The scene, with the current pose and influences, as JSON.
    #[wasm_bindgen(js_name = sceneJson)]
    pub fn scene_json(&self) -> String {
        self.inner.scene_json()
    }

    /// The scene as handover bytes for the file writer's module (`toGlb`
    /// in `www/converters.js`): its JSON, texture and what was not drawn.
    pub fn handover(&self) -> Vec<u8> {
        crate::formats::handover::handover_bytes(self.inner.scene())
    }

    /// The scene's look (materials, their runs of triangles, texture
    /// coordinates and images as base64) as the compact JSON value of scene
    /// JSON's `"look"`, as UTF-8 bytes; empty for a scene drawn in the
    /// page's colours. The autosave writes it once per scene, beside the
    /// pieces of `sceneJsonAroundBulk`, which leave it out.
    #[wasm_bindgen(js_name = lookJson)]
    pub fn look_json(&self) -> Vec<u8> {
        self.inner.scene().look_json().into_bytes()
    }

    /// `[head, between, tail]`: the scene's JSON without white space, as
    /// UTF-8 bytes, around its two bulky values: `head + mesh + between +
    /// influences + tail` is the whole. The mesh never changes in a lab and
    /// the influences only when `influencesRevision()` moves: the autosave
    /// writes these pieces after every change and the bulk, in chunks
    /// ([`JsLab::bulk_json_chunk`]), only when it changed. Bytes are copied
    /// out as they are (a string would be decoded into JavaScript's UTF-16
    /// first: 9 MB on `dense`).
    #[wasm_bindgen(js_name = sceneJsonAroundBulk)]
    pub fn scene_json_around_bulk(&self) -> js_sys::Array {
        let (head, between, tail) = self.inner.scene().to_json_around_bulk();
        [head, between, tail]
            .iter()
            .map(|part| JsValue::from(js_sys::Uint8Array::from(part.as_bytes())))
            .collect()
    }

    /// Elements `first .. first + count` of `list` (`positions` and
    /// `influences` counted in vertices, `indices` one by one) as the
    /// compact scene JSON writes them, comma-separated, without brackets,
    /// as UTF-8 bytes: the autosave writes a large scene's bulk in such
    /// chunks, each a short task (see `Scene::bulk_json_chunk`).
    #[wasm_bindgen(js_name = bulkJsonChunk)]
    pub fn bulk_json_chunk(&self, list: &str, first: u32, count: u32) -> Result<Vec<u8>, JsError> {
        use crate::formats::scene_json::BulkList;
        let list = match list {
            "positions" => BulkList::Positions,
            "indices" => BulkList::Indices,
            "influences" => BulkList::Influences,
            _ => {
                return Err(js_error(
                    "bulkJsonChunk",
                    format!("unknown list '{list}'; use positions, indices or influences"),
                ))
            }
        };
        Ok(self
            .inner
            .scene()
            .bulk_json_chunk(list, first as usize, count as usize)
            .into_bytes())
    }

    /// The mesh's triangle corners (three a triangle).
    #[wasm_bindgen(js_name = indexCount)]
    pub fn index_count(&self) -> u32 {
        self.inner.scene().mesh.indices.len() as u32
    }

    /// Number of bones.
    #[wasm_bindgen(js_name = boneCount)]
    pub fn bone_count(&self) -> u32 {
        self.inner.bone_count() as u32
    }

    /// Number of vertices.
    #[wasm_bindgen(js_name = vertexCount)]
    pub fn vertex_count(&self) -> u32 {
        self.inner.vertex_count() as u32
    }

    /// How many meshes the lab holds (skinned, rigid on a joint, static).
    #[wasm_bindgen(js_name = meshCount)]
    pub fn mesh_count(&self) -> u32 {
        self.inner.scene().meshes.len() as u32
    }

    /// `[first, count]`: the vertices of mesh `mesh` in the lab's vertex
    /// order (and in `skinnedPositions`).
    #[wasm_bindgen(js_name = meshVertexRange)]
    pub fn mesh_vertex_range(&self, mesh: f64) -> Result<Vec<u32>, JsError> {
        const METHOD: &str = "meshVertexRange";
        let meshes = &self.inner.scene().meshes;
        let index = index_from_f64("mesh", mesh).map_err(|e| js_error(METHOD, e))?;
        let part = meshes.get(index).ok_or_else(|| {
            JsError::new(&format!(
                "{METHOD}: mesh {index} does not exist; the lab holds {} meshes",
                meshes.len()
            ))
        })?;
        Ok(vec![part.first_vertex as u32, part.vertex_count as u32])
    }

    /// What the loaded file holds that is not drawn (texture formats,
    /// material extensions), to be said once.
    #[wasm_bindgen(js_name = notDrawn)]
    pub fn not_drawn(&self) -> Vec<String> {
        self.inner.scene().not_drawn.clone()
    }

    /// The bones' names, in index order.
    #[wasm_bindgen(js_name = boneNames)]
    pub fn bone_names(&self) -> Vec<String> {
        self.inner
            .scene()
            .skeleton
            .bones()
            .iter()
            .map(|b| b.name.clone())
            .collect()
    }

    /// Each bone's parent index, or -1 for the root.
    #[wasm_bindgen(js_name = boneParents)]
    pub fn bone_parents(&self) -> js_sys::Array {
        let bones = self.inner.scene().skeleton.bones();
        bones
            .iter()
            .map(|b| nullable(b.parent.map(u32::from)))
            .collect()
    }

    /// Each bone's length, origin to tip along its own +Y.
    #[wasm_bindgen(js_name = boneLengths)]
    pub fn bone_lengths(&self) -> Vec<f32> {
        let bones = self.inner.scene().skeleton.bones();
        bones.iter().map(|b| b.length).collect()
    }

    /// Grows by one on every change to the pose or the weights.
    pub fn revision(&self) -> f64 {
        self.inner.revision() as f64
    }

    /// Grows on every change to the weights only (not the pose): what the
    /// share link's weight edits depend on.
    #[wasm_bindgen(js_name = influencesRevision)]
    pub fn influences_revision(&self) -> f64 {
        self.inner.influences_revision() as f64
    }

    /// Sets bone `bone`'s animation `A_i = T(translation) · Rot(rotation) ·
    /// S(scale)` from `{rotation: [x, y, z, w], translation: [x, y, z],
    /// scale: [x, y, z]}`, the form `bonePose` gives; a missing field is
    /// the identity.
    #[wasm_bindgen(js_name = setBonePose)]
    pub fn set_bone_pose(&mut self, bone: f64, pose: JsValue) -> Result<(), JsError> {
        const METHOD: &str = "setBonePose";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        refuse_unknown_keys(METHOD, &pose, &["rotation", "translation", "scale"])?;
        let field = |key: &str, identity: &[f64]| -> Result<Vec<f64>, JsError> {
            let value = js_sys::Reflect::get(&pose, &key.into()).unwrap_or(JsValue::UNDEFINED);
            if value.is_undefined() || value.is_null() {
                Ok(identity.to_vec())
            } else {
                numbers(METHOD, key, value)
            }
        };
        let rotation = fixed_from_f64::<4>("rotation", &field("rotation", &[0.0, 0.0, 0.0, 1.0])?)
            .map_err(|e| js_error(METHOD, e))?;
        let translation = fixed_from_f64::<3>("translation", &field("translation", &[0.0; 3])?)
            .map_err(|e| js_error(METHOD, e))?;
        let scale = fixed_from_f64::<3>("scale", &field("scale", &[1.0; 3])?)
            .map_err(|e| js_error(METHOD, e))?;
        self.inner
            .set_bone_pose(bone, rotation, translation, scale)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Turns bone `bone` and its parent so that `bone`'s tip reaches
    /// `target` (`[x, y, z]`, model space) by analytic two-bone IK, bending
    /// in the current bend's plane (or the XY plane when straight).
    pub fn reach(&mut self, bone: f64, target: JsValue) -> Result<(), JsError> {
        const METHOD: &str = "reach";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let target = fixed_from_f64::<3>("target", &numbers(METHOD, "target", target)?)
            .map_err(|e| js_error(METHOD, e))?;
        self.inner
            .reach(bone, glam::Vec3::from_array(target), glam::Vec3::Z)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Bone `bone`'s animation as `{rotation, translation, scale}`.
    #[wasm_bindgen(js_name = bonePose)]
    pub fn bone_pose(&self, bone: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "bonePose";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let pose = self
            .inner
            .bone_pose(bone)
            .map_err(|e| js_error(METHOD, e))?;
        let view = PoseView {
            rotation: pose.rotation.to_array(),
            translation: pose.translation.to_array(),
            scale: pose.scale.to_array(),
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error(METHOD, e))
    }

    /// Puts every bone back in its rest pose.
    #[wasm_bindgen(js_name = resetPose)]
    pub fn reset_pose(&mut self) {
        self.inner.reset_pose();
    }

    /// Vertex `vertex`'s `[[bone, weight], ...]`, normalised, largest first.
    pub fn influences(&self, vertex: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "influences";
        let vertex = index_from_f64("vertex", vertex).map_err(|e| js_error(METHOD, e))?;
        let pairs = self
            .inner
            .influences(vertex)
            .map_err(|e| js_error(METHOD, e))?;
        serde_wasm_bindgen::to_value(&pairs).map_err(|e| js_error(METHOD, e))
    }

    /// Replaces vertex `vertex`'s influences with `[[bone, weight], ...]`;
    /// normalised and pruned to four. Returns how many pairs were pruned.
    #[wasm_bindgen(js_name = setInfluences)]
    pub fn set_influences(&mut self, vertex: f64, pairs: JsValue) -> Result<u32, JsError> {
        const METHOD: &str = "setInfluences";
        let vertex = index_from_f64("vertex", vertex).map_err(|e| js_error(METHOD, e))?;
        let raw: Vec<(f64, f64)> = serde_wasm_bindgen::from_value(pairs).map_err(|e| {
            js_error(
                METHOD,
                format!("influences must be [[bone, weight], ...] ({e})"),
            )
        })?;
        let pairs = raw
            .iter()
            .map(|&(bone, weight)| Ok((index_from_f64("bone", bone)? as u32, weight as f32)))
            .collect::<Result<Vec<_>, EditError>>()
            .map_err(|e| js_error(METHOD, e))?;
        let fitting = self
            .inner
            .set_influences(vertex, &pairs)
            .map_err(|e| js_error(METHOD, e))?;
        Ok(fitting.pruned as u32)
    }

    /// The CPU reference: `x, y, z` per vertex, skinned by `"lbs"` or
    /// `"dqs"`.
    #[wasm_bindgen(js_name = skinnedPositions)]
    pub fn skinned_positions(&self, method: &str) -> Result<js_sys::Float32Array, JsError> {
        let method: SkinningMethod = method
            .parse()
            .map_err(|e| js_error("skinnedPositions", e))?;
        Ok(float_array(&self.inner.skinned_positions(method)))
    }

    /// One vertex skinned by `"lbs"` or `"dqs"`, `[x, y, z]`, without
    /// skinning the rest of the mesh.
    #[wasm_bindgen(js_name = skinnedVertex)]
    pub fn skinned_vertex(&self, method: &str, vertex: f64) -> Result<js_sys::Array, JsError> {
        const METHOD: &str = "skinnedVertex";
        let method: SkinningMethod = method.parse().map_err(|e| js_error(METHOD, e))?;
        let vertex = index_from_f64("vertex", vertex).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .skinned_vertex(method, vertex)
            .map(|p| point_array(&p.to_array()))
            .map_err(|e| js_error(METHOD, e))
    }

    /// The skinned normals matching [`JsLab::skinned_positions`].
    #[wasm_bindgen(js_name = skinnedNormals)]
    pub fn skinned_normals(&self, method: &str) -> Result<js_sys::Float32Array, JsError> {
        let method: SkinningMethod = method.parse().map_err(|e| js_error("skinnedNormals", e))?;
        Ok(float_array(&self.inner.skinned_normals(method)))
    }

    /// `M_i = R'_i · R_i⁻¹` of bone `bone`: 16 numbers, column-major.
    #[wasm_bindgen(js_name = skinningMatrix)]
    pub fn skinning_matrix(&self, bone: f64) -> Result<Vec<f32>, JsError> {
        const METHOD: &str = "skinningMatrix";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let matrix = self
            .inner
            .skinning_matrix(bone)
            .map_err(|e| js_error(METHOD, e))?;
        Ok(matrix.to_cols_array().to_vec())
    }

    /// Records the pose and the weights as one undo step, before an edit.
    pub fn checkpoint(&mut self) {
        self.inner.checkpoint();
    }

    /// Goes back one step; false if there is none.
    pub fn undo(&mut self) -> bool {
        self.inner.undo()
    }

    /// Whether there is a step to undo.
    #[wasm_bindgen(js_name = canUndo)]
    pub fn can_undo(&self) -> bool {
        self.inner.can_undo()
    }

    /// Bytes the undo and redo steps hold now.
    #[wasm_bindgen(js_name = undoBytes)]
    pub fn undo_bytes(&self) -> f64 {
        self.inner.undo_bytes() as f64
    }

    /// Undo steps forgotten so far to stay within the byte budget.
    #[wasm_bindgen(js_name = undoStepsDropped)]
    pub fn undo_steps_dropped(&self) -> u32 {
        self.inner.undo_steps_dropped() as u32
    }

    /// Whether there is a step to redo.
    #[wasm_bindgen(js_name = canRedo)]
    pub fn can_redo(&self) -> bool {
        self.inner.can_redo()
    }

    /// Re-applies the step undo took back; false if there is none.
    pub fn redo(&mut self) -> bool {
        self.inner.redo()
    }

    /// `R_i`: bone `bone`'s own frame in model space, rest pose; 16 numbers,
    /// column-major.
    #[wasm_bindgen(js_name = restFrame)]
    pub fn rest_frame(&self, bone: f64) -> Result<Vec<f32>, JsError> {
        const METHOD: &str = "restFrame";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .bone_pose(bone)
            .map_err(|e| js_error(METHOD, e))?;
        Ok(self.inner.scene().skeleton.model_from_bone_bind()[bone]
            .to_cols_array()
            .to_vec())
    }

    /// `R'_i`: bone `bone`'s own frame in model space, posed.
    #[wasm_bindgen(js_name = posedFrame)]
    pub fn posed_frame(&self, bone: f64) -> Result<Vec<f32>, JsError> {
        const METHOD: &str = "posedFrame";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .bone_pose(bone)
            .map_err(|e| js_error(METHOD, e))?;
        Ok(self.inner.model_from_bone_posed()[bone]
            .to_cols_array()
            .to_vec())
    }

    /// The bones note's `L_i = T(origin) · O · T(length)` of bone `bone` (its
    /// children's frame relative to its parent's, at rest):
    /// `{origin, orientation, length, product}`, each 16 numbers,
    /// column-major.
    #[wasm_bindgen(js_name = relativeMatrix)]
    pub fn relative_matrix(&self, bone: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "relativeMatrix";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .bone_pose(bone)
            .map_err(|e| js_error(METHOD, e))?;
        let [origin, orientation, length, product] =
            self.inner.scene().skeleton.bones()[bone].relative_factors();
        let view = RelativeView {
            origin: origin.to_cols_array(),
            orientation: orientation.to_cols_array(),
            length: length.to_cols_array(),
            product: product.to_cols_array(),
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error(METHOD, e))
    }

    /// `A_i = T(t) · Rot(q) · S(s)`: bone `bone`'s animation as a matrix.
    #[wasm_bindgen(js_name = animationMatrix)]
    pub fn animation_matrix(&self, bone: f64) -> Result<Vec<f32>, JsError> {
        const METHOD: &str = "animationMatrix";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let pose = self
            .inner
            .bone_pose(bone)
            .map_err(|e| js_error(METHOD, e))?;
        let bone = &self.inner.scene().skeleton.bones()[bone];
        Ok(bone.animated(&pose).to_cols_array().to_vec())
    }

    /// Locks (`true`) or unlocks bone `bone`'s weights against painting and
    /// auto-normalisation.
    #[wasm_bindgen(js_name = setLocked)]
    pub fn set_locked(&mut self, bone: f64, locked: bool) -> Result<(), JsError> {
        const METHOD: &str = "setLocked";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .set_locked(bone, locked)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Whether bone `bone` is locked.
    #[wasm_bindgen(js_name = isLocked)]
    pub fn is_locked(&self, bone: f64) -> Result<bool, JsError> {
        const METHOD: &str = "isLocked";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .bone_pose(bone)
            .map_err(|e| js_error(METHOD, e))?;
        Ok(self.inner.locked()[bone])
    }

    /// Whether bone `bone` deforms: takes skin from the automatic methods,
    /// the brush and typed weights.
    #[wasm_bindgen(js_name = boneDeforms)]
    pub fn bone_deforms(&self, bone: f64) -> Result<bool, JsError> {
        const METHOD: &str = "boneDeforms";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .bone_deforms(bone)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Marks bone `bone` as deforming or not (one undo step after
    /// `checkpoint()`); a bone turned off hands its weight to its nearest
    /// deforming ancestor (or the deforming bone nearest each vertex).
    /// Returns how many vertices' weights moved.
    #[wasm_bindgen(js_name = setBoneDeforms)]
    pub fn set_bone_deforms(&mut self, bone: f64, on: bool) -> Result<u32, JsError> {
        const METHOD: &str = "setBoneDeforms";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .set_bone_deforms(bone, on)
            .map(|moved| moved as u32)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Replaces all weights by automatic ones: `nearest` (nearest bone,
    /// rigid), `distance` (distance falloff) or `heat` (bone heat), on the
    /// bones that deform. Returns `{prunedVertices, visibilityChecked,
    /// iterations, unreachedVertices, nearestNonDeforming, handedOver}`, the
    /// last the vertices of the two counts before it.
    #[wasm_bindgen(js_name = autoWeights)]
    pub fn auto_weights(&mut self, method: &str) -> Result<JsValue, JsError> {
        self.auto_weights_reporting(method, None)
    }

    /// [`JsLab::auto_weights`], calling `progress(done, total)` as the work
    /// goes (bone heat after each bone, distance after each block of
    /// vertices): what a worker posts to the page's progress bar.
    #[wasm_bindgen(js_name = autoWeightsProgress)]
    pub fn auto_weights_progress(
        &mut self,
        method: &str,
        progress: &js_sys::Function,
    ) -> Result<JsValue, JsError> {
        self.auto_weights_reporting(method, Some(progress))
    }

    fn auto_weights_reporting(
        &mut self,
        method: &str,
        progress: Option<&js_sys::Function>,
    ) -> Result<JsValue, JsError> {
        use crate::weights::auto_weights::AutoWeights;
        let method = match method {
            "nearest" => AutoWeights::NearestBone,
            "distance" => AutoWeights::DistanceFalloff,
            "heat" => AutoWeights::BoneHeat,
            "voxel" => AutoWeights::Voxel,
            _ => {
                return Err(js_error(
                    "autoWeights",
                    format!("unknown method '{method}'; use nearest, distance, heat or voxel"),
                ))
            }
        };
        let mut report_progress = |done: usize, total: usize| {
            if let Some(callback) = progress {
                // A callback that throws only loses its progress report.
                let _ = callback.call2(
                    &JsValue::NULL,
                    &(done as f64).into(),
                    &(total as f64).into(),
                );
            }
        };
        let report = self
            .inner
            .apply_auto_weights_with_progress(method, &mut report_progress);
        let view = AutoWeightsView {
            pruned_vertices: report.pruned_vertices as u32,
            visibility_checked: report.visibility_checked,
            iterations: report.iterations as u32,
            unreached_vertices: report.unreached.len() as u32,
            nearest_non_deforming: report.nearest_non_deforming.len() as u32,
            handed_over: {
                let mut all = [&report.nearest_non_deforming[..], &report.unreached[..]].concat();
                all.sort_unstable();
                all.dedup();
                all
            },
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error("autoWeights", e))
    }

    /// Keeps the weights as they are now as what `weightEditsBytes()`
    /// compares with (the scene as it opened, for the share link).
    #[wasm_bindgen(js_name = keepWeightsAsBaseline)]
    pub fn keep_weights_as_baseline(&mut self) {
        self.inner.keep_weights_as_baseline();
    }

    /// The vertices whose weights differ from the kept baseline, with their
    /// pairs, in the share link's bytes (`formats::weight_edits`); empty when
    /// none differ or no baseline was kept.
    #[wasm_bindgen(js_name = weightEditsBytes)]
    pub fn weight_edits_bytes(&self) -> Vec<u8> {
        let edits = self.inner.weight_edits();
        if edits.is_empty() {
            return Vec::new();
        }
        crate::formats::weight_edits::encode(&edits)
    }

    /// How many places of the mesh hold copies (a seam, meshes that meet)
    /// with different weights: places that part when posed. Automatic
    /// weights and the brush give copies the same weights; typed weights
    /// or the file may not.
    #[wasm_bindgen(js_name = seamsApart)]
    pub fn seams_apart(&self) -> u32 {
        self.inner.seams_apart() as u32
    }

    /// The bones whose deform flag differs from the kept baseline, as
    /// `[[bone, on], …]` (empty when none differ or no baseline was kept):
    /// what a share link carries beside the weight edits.
    #[wasm_bindgen(js_name = deformEdits)]
    pub fn deform_edits(&self) -> Result<JsValue, JsError> {
        let edits: Vec<(u32, bool)> = self
            .inner
            .deform_edits()
            .into_iter()
            .map(|(bone, on)| (bone as u32, on))
            .collect();
        serde_wasm_bindgen::to_value(&edits).map_err(|e| js_error("deformEdits", e))
    }

    /// Sets the weights a share link's bytes give; throws an `Error` naming
    /// a bad edit, changing nothing.
    #[wasm_bindgen(js_name = applyWeightEditsBytes)]
    pub fn apply_weight_edits_bytes(&mut self, bytes: &[u8]) -> Result<(), JsError> {
        const METHOD: &str = "applyWeightEditsBytes";
        let edits = crate::formats::weight_edits::decode(bytes, self.inner.vertex_count())
            .map_err(|error| js_error(METHOD, error))?;
        self.inner
            .apply_weight_edits(&edits)
            .map_err(|error| js_error(METHOD, error))
    }

    /// Every vertex's influences as four slots a vertex: `{bones:
    /// Uint16Array, weights: Float32Array}` (an empty slot has weight 0), for
    /// moving a worker's result to the page in one piece.
    #[wasm_bindgen(js_name = influenceArrays)]
    pub fn influence_arrays(&self) -> Result<JsValue, JsError> {
        let all = self.inner.all_influences();
        let bones: Vec<u16> = all.iter().flat_map(|v| v.bones).collect();
        let weights: Vec<f32> = all.iter().flat_map(|v| v.weights).collect();
        let view = js_sys::Object::new();
        let set = |key: &str, value: JsValue| js_sys::Reflect::set(&view, &key.into(), &value);
        set("bones", js_sys::Uint16Array::from(bones.as_slice()).into())
            .and_then(|_| {
                set(
                    "weights",
                    js_sys::Float32Array::from(weights.as_slice()).into(),
                )
            })
            .map_err(|_| js_error("influenceArrays", "could not build the result"))?;
        Ok(view.into())
    }

    /// Sets every vertex's influences from [`JsLab::influence_arrays`]'s two
    /// arrays, each vertex validated; throws and changes nothing on a bad one.
    #[wasm_bindgen(js_name = setInfluenceArrays)]
    pub fn set_influence_arrays(&mut self, bones: &[u16], weights: &[f32]) -> Result<(), JsError> {
        self.inner
            .set_all_influences(bones, weights)
            .map_err(|e| js_error("setInfluenceArrays", e))
    }

    /// Paints one dab on a bone's weights, as the page's brush does:
    /// `{points, bone, at: [x, y], radius, strength, falloff?, mode?,
    /// value?, mirror?}`. `points` (a `Float32Array` or array) holds `x, y`
    /// per vertex in the brush's space (screen pixels), the brush sits at
    /// `at`; `falloff` is `smooth` (default), `linear` or `constant`, `mode`
    /// `add` (default), `subtract`, `set` (to `value`) or `smooth`. Returns
    /// how many vertices changed.
    #[wasm_bindgen(js_name = paintDab)]
    pub fn paint_dab(&mut self, options: JsValue) -> Result<u32, JsError> {
        const METHOD: &str = "paintDab";
        let points = js_sys::Reflect::get(&options, &"points".into())
            .ok()
            .filter(|p| js_sys::Array::is_array(p) || p.is_instance_of::<js_sys::Float32Array>())
            .map(|p| js_sys::Float32Array::new(&p).to_vec())
            .ok_or_else(|| {
                js_error(
                    METHOD,
                    "points: a Float32Array or an array of x, y per vertex",
                )
            })?;
        let known = [&["points", "bone", "at", "mirror"][..], BrushOptions::KEYS].concat();
        refuse_unknown_keys(METHOD, &options, &known)?;
        // The rest without the points, which serde does not read from a
        // typed array (a shallow copy: the caller's object is left alone).
        let rest = js_sys::Object::assign(&js_sys::Object::new(), options.unchecked_ref());
        // Deleting a key of a fresh plain object cannot fail.
        let _ = js_sys::Reflect::delete_property(&rest, &"points".into());
        let dab: DabView =
            serde_wasm_bindgen::from_value(rest.into()).map_err(|e| js_error(METHOD, e))?;
        let bone = index_from_f64("bone", dab.bone).map_err(|e| js_error(METHOD, e))?;
        let brush = dab.brush.brush(METHOD)?;
        if points.len() != 2 * self.inner.vertex_count() {
            return Err(js_error(
                METHOD,
                format!(
                    "points: expected {} numbers (x, y per vertex), got {}",
                    2 * self.inner.vertex_count(),
                    points.len()
                ),
            ));
        }
        let points: Vec<glam::Vec2> = points.chunks_exact(2).map(glam::Vec2::from_slice).collect();
        let paintable = vec![true; points.len()];
        let report = self
            .inner
            .paint_dab(
                &points,
                &paintable,
                bone,
                glam::Vec2::from_array(dab.at),
                &brush,
                dab.mirror,
            )
            .map_err(|e| js_error(METHOD, e))?;
        Ok(report.touched as u32)
    }

    /// The skinning note's three steps for vertex `vertex` under bone `bone`:
    /// `{inBoneRest: Q = R_i⁻¹ P, inBoneAnimated: T = A_i Q, inModelPosed:
    /// Z = C'_p · T(origin) · O · T}`, each `[x, y, z]`.
    #[wasm_bindgen(js_name = threeSteps)]
    pub fn three_steps(&self, bone: f64, vertex: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "threeSteps";
        let bone = index_from_f64("bone", bone).map_err(|e| js_error(METHOD, e))?;
        let vertex = index_from_f64("vertex", vertex).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .bone_pose(bone)
            .map_err(|e| js_error(METHOD, e))?;
        self.inner
            .influences(vertex)
            .map_err(|e| js_error(METHOD, e))?;
        let point = self.inner.scene().mesh.positions_model[vertex];
        let posed = self.inner.model_from_bone_posed().to_vec();
        let scene = self.inner.scene();
        let steps =
            crate::rig::pose::three_steps(&scene.skeleton, &scene.pose, &posed, bone, point);
        let view = ThreeStepsView {
            rest: point.to_array(),
            in_bone_rest: steps.in_bone_rest.to_array(),
            in_bone_animated: steps.in_bone_animated.to_array(),
            in_model_posed: steps.in_model_posed.to_array(),
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error(METHOD, e))
    }

    /// Vertices that listed more than four bones in the loaded scene and were
    /// pruned to the four largest.
    #[wasm_bindgen(js_name = prunedVertexCount)]
    pub fn pruned_vertex_count(&self) -> u32 {
        self.inner.scene().pruned_vertices as u32
    }

    /// What 8-bit (`unorm8`) weights cost in the current pose under
    /// `method` (default `lbs`): `{maxWeightError, meanWeightError,
    /// maxPositionError}`, the last in model units.
    #[wasm_bindgen(js_name = quantisationReport)]
    pub fn quantisation_report(&self, method: Option<String>) -> Result<JsValue, JsError> {
        const METHOD: &str = "quantisationReport";
        let method: SkinningMethod = method
            .as_deref()
            .unwrap_or("lbs")
            .parse()
            .map_err(|e| js_error(METHOD, e))?;
        let (report, max_position_error) = self.inner.quantisation_error(method);
        let view = QuantisationView {
            max_weight_error: report.max_weight_error,
            mean_weight_error: report.mean_weight_error,
            max_position_error,
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error(METHOD, e))
    }

    /// Switches the engine note's 8-bit weights on or off: when on, the CPU
    /// reference and the GPU both skin with the `unorm8` weights.
    #[wasm_bindgen(js_name = setQuantised)]
    pub fn set_quantised(&mut self, on: bool) {
        self.inner.set_quantised(on);
    }

    /// Whether 8-bit weights are on.
    #[wasm_bindgen(js_name = isQuantised)]
    pub fn is_quantised(&self) -> bool {
        self.inner.is_quantised()
    }
}
