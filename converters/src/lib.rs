//! Skinlab's file readers and writer as a wasm module of their own: glTF
//! (`.gltf`, `.glb`), FBX, OBJ and BVH in, `.glb` out; and the examples
//! that the page's module leaves out (the motion capture, a BVH file, and
//! the larger figures).
//!
//! They are a third of the core's code and a page's first frame never
//! needs them, so the page's module (`skinlab`) leaves them out and
//! `www/converters.js` loads this one when a file is opened or exported,
//! or such an example is opened.
//! The two modules hand scenes to each other as handover bytes
//! (`skinlab::formats::handover`: the scene JSON and what it does not carry):
//! what a reader makes is what the page's `Lab.fromHandover` reads
//! (`tests/handover.rs` checks that nothing is lost), and what the writer
//! reads is the page's `lab.handover()`.

use std::collections::HashMap;

use skinlab::formats::{bvh, export, fbx, gltf, handover, obj};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

mod lessons;
mod tools;

/// An `Error` whose message starts with the page-facing method's name, as
/// the page's module words its own.
fn js_error(method: &str, error: impl std::fmt::Display) -> JsError {
    JsError::new(&format!("{method}: {error}"))
}

/// A reader's scene as handover bytes, or its error as `method`'s.
fn handed_over<E: std::fmt::Display>(
    method: &str,
    read: Result<skinlab::Scene, E>,
) -> Result<Vec<u8>, JsError> {
    read.map(|scene| handover::handover_bytes(&scene))
        .map_err(|error| js_error(method, error))
}

/// Reads the first skinned mesh of an embedded glTF 2.0 file (buffers as
/// data URIs) and its animations, as handover bytes; throws an `Error`
/// (`fromGltf: ...`) saying what is missing or unsupported.
#[wasm_bindgen(js_name = sceneFromGltf)]
pub fn scene_from_gltf(text: &str) -> Result<Vec<u8>, JsError> {
    handed_over("fromGltf", gltf::read_gltf(text))
}

/// Reads a `.gltf` whose buffers and images are separate files: `files`
/// maps each file's name to its bytes (`Uint8Array`); throws an `Error`
/// naming a file that is missing.
#[wasm_bindgen(js_name = sceneFromGltfFiles)]
pub fn scene_from_gltf_files(text: &str, files: &js_sys::Object) -> Result<Vec<u8>, JsError> {
    const METHOD: &str = "fromGltfFiles";
    handed_over(
        METHOD,
        gltf::read_gltf_files(text, &named_files(METHOD, files)?),
    )
}

/// A JS object of file names to `Uint8Array`s as a map.
fn named_files(method: &str, files: &js_sys::Object) -> Result<HashMap<String, Vec<u8>>, JsError> {
    let mut named = HashMap::new();
    for entry in js_sys::Object::entries(files).iter() {
        let pair = js_sys::Array::from(&entry);
        let name = pair.get(0).as_string().unwrap_or_default();
        let bytes = pair
            .get(1)
            .dyn_into::<js_sys::Uint8Array>()
            .map_err(|_| js_error(method, format!("files['{name}'] is not a Uint8Array")))?;
        named.insert(name, bytes.to_vec());
    }
    Ok(named)
}

/// Reads the first skinned mesh of a binary glTF 2.0 file (`.glb`);
/// throws an `Error` naming what does not add up.
#[wasm_bindgen(js_name = sceneFromGlb)]
pub fn scene_from_glb(bytes: &[u8]) -> Result<Vec<u8>, JsError> {
    handed_over("fromGlb", gltf::read_glb(bytes))
}

/// Reads a BVH motion capture: a bone per joint and end site, capsules
/// skinned to them, the frames as the clip "capture"; throws an `Error`
/// naming the line of a problem.
#[wasm_bindgen(js_name = sceneFromBvh)]
pub fn scene_from_bvh(text: &str) -> Result<Vec<u8>, JsError> {
    handed_over("fromBvh", bvh::scene_from_bvh(text))
}

/// Reads an FBX 7.x file (binary or ASCII): its meshes, skins, blend
/// shapes and takes, in metres and Y up; a file without meshes as its
/// skeleton with capsules. Throws an `Error` (`fromFbx: ...`) naming the
/// node of a problem.
#[wasm_bindgen(js_name = sceneFromFbx)]
pub fn scene_from_fbx(bytes: &[u8]) -> Result<Vec<u8>, JsError> {
    handed_over("fromFbx", fbx::scene_from_fbx(bytes))
}

/// Reads an FBX file with the files chosen together with it (`files`: name
/// → `Uint8Array`), where a texture it names but does not embed is found.
#[wasm_bindgen(js_name = sceneFromFbxFiles)]
pub fn scene_from_fbx_files(bytes: &[u8], files: &js_sys::Object) -> Result<Vec<u8>, JsError> {
    const METHOD: &str = "fromFbx";
    handed_over(
        METHOD,
        fbx::scene_from_fbx_files(bytes, &named_files(METHOD, files)?),
    )
}

/// Reads a Wavefront OBJ file as static meshes on one root bone, ready
/// to be rigged, with the files chosen together with it (`files`: name →
/// `Uint8Array`): the MTL files it names and their textures. Throws an
/// `Error` (`fromObj: ...`) naming the problem.
#[wasm_bindgen(js_name = sceneFromObjFiles)]
pub fn scene_from_obj_files(text: &str, files: &js_sys::Object) -> Result<Vec<u8>, JsError> {
    const METHOD: &str = "fromObj";
    handed_over(
        METHOD,
        obj::scene_from_obj_files(text, &named_files(METHOD, files)?),
    )
}

/// Example `name` as handover bytes: the ones the page's module leaves to
/// this one (the `capture`, the shipped walk read as a dropped BVH file
/// is, and the larger figures), or any other; throws for an unknown name.
#[wasm_bindgen(js_name = exampleHandover)]
pub fn example_handover(name: &str) -> Result<Vec<u8>, JsError> {
    skinlab::examples::example(name)
        .map(|scene| handover::handover_bytes(&scene))
        .ok_or_else(|| {
            let known = skinlab::examples::listed_names().join(", ");
            js_error(
                "example",
                format!("unknown example '{name}'; known examples: {known}"),
            )
        })
}

/// The scene in `bytes` (handover bytes, as the page's `lab.handover()`
/// gives them) as a `.glb`: mesh, skin, weights, texture, clips, and the
/// pose as the default pose.
#[wasm_bindgen(js_name = glbFromHandover)]
pub fn glb_from_handover(bytes: &[u8]) -> Result<Vec<u8>, JsError> {
    const METHOD: &str = "toGlb";
    let scene = handover::scene_from_handover(bytes).map_err(|error| js_error(METHOD, error))?;
    export::glb_from_scene(&scene).map_err(|error| js_error(METHOD, error))
}
