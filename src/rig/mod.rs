//! The rig: bones and their rest frames, poses and the skinning palette,
//! joint limits, inverse kinematics and keyframe animation. The lowest layer: it imports
//! nothing else of the crate.

pub mod animation;
pub mod chain_ik;
pub mod ik;
pub mod limits;
pub mod pose;
pub mod skeleton;
