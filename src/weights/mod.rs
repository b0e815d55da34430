//! Weights: brush strokes on the influences, automatic weights (nearest
//! bone, distance falloff, bone heat) and what bone heat needs: a sparse factorization and a
//! bounding-volume hierarchy for its visibility test.
//! Builds on [`crate::rig`] and [`crate::skin`].

pub mod auto_weights;
pub mod bounds_tree;
pub mod ldlt;
pub mod paint;
pub mod sparse;
