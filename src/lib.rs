//! Skinlab: an interactive lab for skeletal skinning.
//!
//! The core of this crate (every module except `render` and `web`) is plain
//! Rust over [`glam`] and [`serde`]: it builds a skeleton from bones, poses
//! it (by hand, by two-bone IK or from keyframes), derives the skinning
//! palette and deforms a mesh by linear blend skinning (LBS) or dual
//! quaternion skinning (DQS); it edits and computes weights, and reads scene
//! JSON and glTF. The interaction math (picking, drag-to-rotate, brushes) is
//! core too, in plain numbers. `render` (WebGL2 through glow) and `web` (the
//! wasm-bindgen API and the canvas), compiled for `wasm32` only, put it in
//! the browser.
//!
//! # Conventions
//!
//! Stated once, here, and assumed everywhere else:
//!
//! - right-handed coordinates, **Y up**;
//! - column vectors: a matrix acts as `M * v`, and `A * B` applies `B` first;
//! - matrices are stored column-major (glam's layout, also WebGL's);
//! - angles are in **radians**;
//! - a bone points along its own **+Y** axis, from its origin to its tip;
//! - a vertex has **at most 4 influences** (bone, weight); weights are stored
//!   as `f32` and normalised to sum 1 on use.
//!
//! # The formulas
//!
//! With `p(i)` the parent of bone `i`, `T` a translation, `O_i` the bone's rest
//! orientation and `A_i = T(t_i) · Rot(q_i) · S(s_i)` its animation:
//!
//! ```text
//! R_i  = C_p(i)  · T(origin_i) · O_i          C_p  = R_p  · T(0, length_p, 0)
//! R'_i = C'_p(i) · T(origin_i) · O_i · A_i    C'_p = R'_p · T(0, length_p, 0)
//! M_i  = R'_i · R_i⁻¹                          Z = Σ w_i · M_i · P
//! ```
//!
//! Names carry their coordinate space: `model_from_bone_rest` is `R_i`, the
//! map from bone `i`'s own frame to model space in the rest pose.

pub mod animation;
pub mod auto_weights;
pub mod camera;
pub mod colors;
pub mod dual_quat;
pub mod examples;
pub mod gltf;
pub mod gpu_layout;
pub mod ik;
pub mod influences;
pub mod interaction;
pub mod lab;
pub mod mesh;
pub mod overlay;
pub mod paint;
pub mod pose;
pub mod scene;
pub mod skeleton;
pub mod skinning;
pub mod sparse;

#[cfg(target_arch = "wasm32")]
pub mod render;
#[cfg(target_arch = "wasm32")]
pub mod web;

pub use influences::VertexInfluences;
pub use lab::{EditError, Lab, SkinningMethod};
pub use mesh::Mesh;
pub use pose::BoneTransform;
pub use scene::{Scene, SceneError};
pub use skeleton::{Bone, Skeleton};
