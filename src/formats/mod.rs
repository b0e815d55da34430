//! The file formats: scene JSON text (including the autosave's chunks),
//! glTF 2.0 (`.gltf` and `.glb` in, `.glb` out), BVH motion capture, the
//! handover bytes between the page's and the readers' wasm modules, and the
//! share link's weight edits. Each reader fills the scene's raw document
//! ([`crate::scene::doc::SceneDoc`]) and validates it into a
//! [`crate::scene::Scene`] once. This layer is exactly what the readers'
//! wasm module (`converters/`) links. Builds on [`crate::rig`],
//! [`crate::skin`] and [`crate::scene`].

pub mod bvh;
mod capsules;
pub mod export;
pub mod fbx;
pub mod gltf;
mod gltf_write;
pub mod handover;
mod json_path;
pub mod look_json;
pub mod obj;
mod polygons;
mod pretty_json;
pub mod scene_json;
pub mod weight_edits;
