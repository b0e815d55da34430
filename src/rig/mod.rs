//! The rig: bones and their rest frames, poses and the skinning palette,
//! inverse kinematics and keyframe animation. The lowest layer: it imports
//! nothing else of the crate.

pub mod animation;
pub mod ik;
pub mod pose;
pub mod skeleton;
