//! Weights: brush strokes on the influences, automatic weights (nearest
//! bone, distance falloff, bone heat) and what bone heat needs: a sparse factorization, a
//! bounding-volume hierarchy for its visibility test and the mesh with its
//! coincident vertices welded.
//! Builds on [`crate::rig`] and [`crate::skin`].

pub mod auto_weights;
pub mod bounds_tree;
pub mod ldlt;
pub mod mesh_report;
pub mod paint;
pub mod sparse;
pub mod voxel_bind;
pub mod weld;
