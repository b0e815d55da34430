//! `Lab`'s scene: reading one (a handover, scene JSON, an example),
//! writing it (scene JSON, the handover, the look, bulk chunks) and what it
//! holds (counts, meshes, bones, revisions).

use wasm_bindgen::prelude::*;

use super::*;

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
    /// Those that `exampleBuiltHere` says no to (the capture, a BVH file,
    /// and the larger figures) come with the file readers' module
    /// (`www/converters.js`, which answers for them once it is loaded).
    pub fn example(name: &str) -> Result<JsLab, JsError> {
        Lab::built_example(name)
            .map(|inner| JsLab { inner })
            .map_err(|error| js_error("example", error))
    }

    /// Whether this module builds example `name` itself, without the file
    /// readers' module (false for an unknown name).
    #[wasm_bindgen(js_name = exampleBuiltHere)]
    pub fn example_built_here(name: &str) -> bool {
        crate::examples::built_here(name)
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
}
