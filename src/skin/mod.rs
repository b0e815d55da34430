//! The skin: the mesh, morph targets, each vertex's influences, the
//! deformation by LBS and DQS, and the layout the GPU receives. Builds on [`crate::rig`].

pub mod batches;
pub mod cor;
pub mod dual_quat;
mod four_lanes;
pub mod gpu_layout;
pub mod influences;
pub mod matrix_rows;
pub mod mesh;
pub mod morph;
pub mod palette_formats;
pub mod reference;
pub mod skinning;
pub mod volume;

/// How the mesh is deformed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SkinningMethod {
    /// Linear blend skinning: the weighted mean of `M_i · P`.
    Lbs,
    /// Dual quaternion skinning: the normalised weighted sum of rigid parts.
    Dqs,
    /// Optimized centres of rotation ([`cor`]): each vertex turned rigidly
    /// by the blend of its bones' rotations about a precomputed centre.
    Cor,
}
