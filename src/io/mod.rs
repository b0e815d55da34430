//! Input and output: the scene JSON, glTF 2.0 (`.gltf` and `.glb`), and the built-in example
//! scenes, each validated into a [`scene::Scene`] the same way. Builds on
//! [`crate::rig`] and [`crate::skin`].

pub mod bvh;
pub mod clips;
pub mod examples;
pub mod export;
mod face;
mod flip;
pub mod glb;
pub mod gltf;
mod gltf_write;
pub mod handover;
mod json_path;
mod limbs;
mod motion;
mod pretty_json;
mod robot;
pub mod scene;
mod tubes;
pub mod weight_edits;
