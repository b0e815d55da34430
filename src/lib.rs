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
//! # Layout
//!
//! The folders are layers, each importing only from those before it:
//! [`rig`] (skeleton, pose, IK, animation) → [`skin`] (mesh, influences,
//! LBS, DQS, GPU layout) → [`weights`] (brushes, automatic weights) →
//! [`scene`] (the validated scene and its raw document: skeleton, meshes,
//! clips, paths, limits) → [`formats`] (scene JSON text, glTF, BVH, the
//! handover and share-link bytes) → [`examples`] (the built-in scenes) →
//! [`lab`] (the editable scene with undo) → [`view`] (camera, interaction controller, overlays) → `render`
//! (WebGL2) → `web` (wasm-bindgen).
//!
//! Names carry their coordinate space: `model_from_bone_rest` is `R_i`, the
//! map from bone `i`'s own frame to model space in the rest pose.

pub mod examples;
pub mod formats;
pub mod lab;
pub mod rig;
pub mod scene;
pub mod skin;
pub mod view;
pub mod weights;

#[cfg(all(target_arch = "wasm32", feature = "page"))]
pub mod render;
#[cfg(all(target_arch = "wasm32", feature = "page"))]
pub mod web;

pub use lab::{EditError, Lab};
pub use rig::pose::BoneTransform;
pub use rig::skeleton::{Bone, Skeleton, SkeletonError};
pub use scene::{Scene, SceneError};
pub use skin::influences::VertexInfluences;
pub use skin::mesh::Mesh;
pub use skin::SkinningMethod;
