//! Motion capture: the BVH text format (Biovision hierarchy), the contrast
//! the animation talk draws to keyframes ("keine aufgezeichnete Bewegung").
//!
//! A file is a `HIERARCHY` of joints, each with an `OFFSET` from its parent
//! and a list of `CHANNELS` (positions and Euler rotations in any order),
//! ending in `End Site`s, then `MOTION`: a frame count, a frame time and one
//! value per channel per frame. A joint's local transform at a frame is
//!
//! `T(offset + p) · R_{c₁}(θ₁) · R_{c₂}(θ₂) · …`
//!
//! with the rotation channels multiplied in the order they are listed
//! (degrees) and `p` the position channels (0 where a joint has none), as
//! three.js's `BVHLoader` reads it. [`figure`] turns a motion into a scene:
//! one bone per joint and end site, capsules skinned to them, one clip.

mod figure;
mod parse;

use glam::{Quat, Vec3};

pub use figure::{scene_from_bvh, scene_from_motion};
pub use parse::parse_bvh;

/// The largest BVH text read: hours of capture at 120 frames a second.
pub const MAX_BVH_BYTES: usize = 64 << 20;

/// The most frame values (frames × channels) read.
pub const MAX_BVH_VALUES: usize = 16 << 20;

/// The most channels one joint may list.
pub const MAX_CHANNELS_PER_JOINT: usize = 12;

/// An axis of a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// X.
    X,
    /// Y.
    Y,
    /// Z.
    Z,
}

impl Axis {
    fn unit(self) -> Vec3 {
        match self {
            Self::X => Vec3::X,
            Self::Y => Vec3::Y,
            Self::Z => Vec3::Z,
        }
    }
}

/// One channel of a joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// `Xposition` etc.: added to the offset, model units.
    Position(Axis),
    /// `Xrotation` etc.: degrees about the joint's own axis.
    Rotation(Axis),
}

impl Channel {
    /// The channel called `name` (case as BVH writes it, any case read).
    pub fn from_name(name: &str) -> Option<Self> {
        let axis = match name.as_bytes().first()?.to_ascii_uppercase() {
            b'X' => Axis::X,
            b'Y' => Axis::Y,
            b'Z' => Axis::Z,
            _ => return None,
        };
        match name.get(1..)?.to_ascii_lowercase().as_str() {
            "position" => Some(Self::Position(axis)),
            "rotation" => Some(Self::Rotation(axis)),
            _ => None,
        }
    }
}

/// One joint or end site of the hierarchy.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// Its name (an end site is named after its parent).
    pub name: String,
    /// The joint it hangs from, earlier in the list; `None` for a root.
    pub parent: Option<usize>,
    /// Its origin in the parent's frame (model space for a root).
    pub offset: Vec3,
    /// Its channels in the order the frames list their values (none for
    /// an end site).
    pub channels: Vec<Channel>,
    /// Whether it is an `End Site`.
    pub end_site: bool,
    /// Its first value's column in a frame.
    pub first_value: usize,
}

/// A parsed BVH file.
#[derive(Clone, Debug, PartialEq)]
pub struct Motion {
    /// The joints and end sites in the file's order (parents first).
    pub joints: Vec<Joint>,
    /// Seconds between frames.
    pub frame_time: f32,
    /// Frames.
    pub frames: usize,
    /// Values per frame: every joint's channels.
    pub channels: usize,
    /// `frames × channels` values, frame by frame.
    pub values: Vec<f32>,
}

impl Motion {
    /// Joint `joint`'s local translation and rotation at `frame`:
    /// `offset + p` and `R_{c₁}(θ₁) · R_{c₂}(θ₂) · …`.
    pub fn local(&self, joint: usize, frame: usize) -> (Vec3, Quat) {
        let this = &self.joints[joint];
        let row = &self.values[frame * self.channels..];
        let mut translation = this.offset;
        let mut rotation = Quat::IDENTITY;
        for (k, channel) in this.channels.iter().enumerate() {
            let value = row[this.first_value + k];
            match channel {
                Channel::Position(axis) => translation += axis.unit() * value,
                Channel::Rotation(axis) => {
                    rotation *= Quat::from_axis_angle(axis.unit(), value.to_radians());
                }
            }
        }
        (translation, rotation.normalize())
    }
}

/// Why a BVH text cannot be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BvhError {
    /// Larger than [`MAX_BVH_BYTES`].
    #[error("the file is {bytes} bytes; at most {max} are read")]
    TooLarge {
        /// Its size.
        bytes: usize,
        /// [`MAX_BVH_BYTES`].
        max: usize,
    },
    /// A word other than the one the format needs there.
    #[error("line {line}: expected {expected}, found '{found}'")]
    Expected {
        /// 1-based line.
        line: usize,
        /// What the format needs.
        expected: &'static str,
        /// What is there (or "the end of the file").
        found: String,
    },
    /// A channel name that is not `X/Y/Z` + `position/rotation`.
    #[error("line {line}: '{found}' is not a channel (Xposition … Zrotation)")]
    UnknownChannel {
        /// 1-based line.
        line: usize,
        /// The word.
        found: String,
    },
    /// More channels on one joint than [`MAX_CHANNELS_PER_JOINT`].
    #[error("line {line}: {count} channels on one joint; at most {max}")]
    TooManyChannels {
        /// 1-based line.
        line: usize,
        /// Declared.
        count: usize,
        /// [`MAX_CHANNELS_PER_JOINT`].
        max: usize,
    },
    /// More joints than a skeleton may have.
    #[error("more than {max} joints")]
    TooManyJoints {
        /// The limit.
        max: usize,
    },
    /// More frame values than [`MAX_BVH_VALUES`].
    #[error("{frames} frames of {channels} channels are more than {max} values")]
    TooManyValues {
        /// Declared frames.
        frames: usize,
        /// Channels per frame.
        channels: usize,
        /// [`MAX_BVH_VALUES`].
        max: usize,
    },
    /// Fewer frame values than the header declares.
    #[error("{frames} frames of {channels} channels need {expected} values, the file has {found}")]
    MissingValues {
        /// Declared frames.
        frames: usize,
        /// Channels per frame.
        channels: usize,
        /// `frames × channels`.
        expected: usize,
        /// Values there.
        found: usize,
    },
    /// A number that does not parse or is not finite.
    #[error("line {line}: '{found}' is not a finite number ({field})")]
    BadNumber {
        /// 1-based line.
        line: usize,
        /// What it should be.
        field: &'static str,
        /// The word.
        found: String,
    },
    /// A frame time that is not positive.
    #[error("the frame time {seconds} s is not positive")]
    BadFrameTime {
        /// Seconds.
        seconds: f32,
    },
    /// The figure built from the motion is not a valid scene.
    #[error("{0}")]
    Scene(String),
}
