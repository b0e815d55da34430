//! Weights: brush strokes on the influences, automatic weights (nearest
//! bone, distance falloff, bone heat) and the sparse solver bone heat needs.
//! Builds on [`crate::rig`] and [`crate::skin`].

pub mod auto_weights;
pub mod paint;
pub mod sparse;
