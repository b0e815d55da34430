//! The rig: bones and their rest frames, poses and the skinning palette,
//! joint limits, inverse kinematics, keyframe and path animation. The lowest layer: it imports
//! nothing else of the crate.

pub mod animation;
mod chain;
mod chain_dls;
pub mod chain_ik;
pub mod dynamics;
pub mod gait;
pub mod ik;
pub mod key_reduction;
pub mod keys;
pub mod limits;
pub mod loudness;
pub mod mirror;
pub mod path;
pub mod pose;
pub mod pursuit;
pub mod retarget;
pub mod rotations;
pub mod skeleton;
pub mod sorting;
pub mod speed_curve;
pub mod templates;
pub mod transform;
pub mod visemes;
