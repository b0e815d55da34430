//! Reading BVH text into a [`Motion`]: words split on white space, each
//! with its line for the error messages; the hierarchy read with an
//! explicit stack (a hostile file nested 100,000 deep costs no call stack);
//! the frame values counted against the header before they are stored.

use glam::Vec3;

use super::{
    BvhError, Channel, Joint, Motion, MAX_BVH_BYTES, MAX_BVH_VALUES, MAX_CHANNELS_PER_JOINT,
};
use crate::rig::skeleton::MAX_BONES;

/// The words of a text and their lines.
struct Words<'a> {
    words: std::iter::Peekable<Box<dyn Iterator<Item = (usize, &'a str)> + 'a>>,
    line: usize,
}

impl<'a> Words<'a> {
    fn new(text: &'a str) -> Self {
        let words: Box<dyn Iterator<Item = (usize, &'a str)> + 'a> = Box::new(
            text.lines()
                .enumerate()
                .flat_map(|(line, words)| words.split_whitespace().map(move |w| (line + 1, w))),
        );
        Self {
            words: words.peekable(),
            line: 1,
        }
    }

    fn next(&mut self, expected: &'static str) -> Result<&'a str, BvhError> {
        match self.words.next() {
            Some((line, word)) => {
                self.line = line;
                Ok(word)
            }
            None => Err(BvhError::Expected {
                line: self.line,
                expected,
                found: "the end of the file".to_owned(),
            }),
        }
    }

    fn peek(&mut self) -> Option<&'a str> {
        self.words.peek().map(|(_, word)| *word)
    }

    /// The next word, which must be `keyword` (any case).
    fn keyword(&mut self, keyword: &'static str) -> Result<(), BvhError> {
        let word = self.next(keyword)?;
        if word.eq_ignore_ascii_case(keyword) {
            Ok(())
        } else {
            Err(self.expected(keyword, word))
        }
    }

    fn number(&mut self, field: &'static str) -> Result<f32, BvhError> {
        let word = self.next(field)?;
        word.parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| BvhError::BadNumber {
                line: self.line,
                field,
                found: word.to_owned(),
            })
    }

    fn count(&mut self, field: &'static str) -> Result<usize, BvhError> {
        let word = self.next(field)?;
        // A count too large for this machine's `usize` is still a count:
        // the limits below refuse it by name.
        word.parse::<u64>()
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
            .map_err(|_| BvhError::BadNumber {
                line: self.line,
                field,
                found: word.to_owned(),
            })
    }

    fn expected(&self, expected: &'static str, found: &str) -> BvhError {
        BvhError::Expected {
            line: self.line,
            expected,
            found: found.chars().take(40).collect(),
        }
    }
}

/// Reads a BVH file. Refuses text over [`MAX_BVH_BYTES`], more joints than
/// a skeleton may have, more than [`MAX_BVH_VALUES`] frame values (before
/// storing them), unknown channels, numbers that are not finite, a frame
/// time that is not positive, and fewer values than the header declares.
pub fn parse_bvh(text: &str) -> Result<Motion, BvhError> {
    if text.len() > MAX_BVH_BYTES {
        return Err(BvhError::TooLarge {
            bytes: text.len(),
            max: MAX_BVH_BYTES,
        });
    }
    let mut words = Words::new(text);
    words.keyword("HIERARCHY")?;
    let joints = hierarchy(&mut words)?;
    let channels: usize = joints.iter().map(|j| j.channels.len()).sum();

    words.keyword("MOTION")?;
    words.keyword("Frames:")?;
    let frames = words.count("the frame count")?;
    words.keyword("Frame")?;
    words.keyword("Time:")?;
    let frame_time = words.number("the frame time")?;
    if frame_time <= 0.0 {
        return Err(BvhError::BadFrameTime {
            seconds: frame_time,
        });
    }
    let expected = frames
        .checked_mul(channels)
        .filter(|&n| n <= MAX_BVH_VALUES)
        .ok_or(BvhError::TooManyValues {
            frames,
            channels,
            max: MAX_BVH_VALUES,
        })?;
    // Each value takes at least two bytes of text (a digit and a space):
    // a header promising more is refused before anything is reserved.
    let mut values = Vec::with_capacity(expected.min(text.len() / 2));
    for found in 0..expected {
        if words.peek().is_none() {
            return Err(BvhError::MissingValues {
                frames,
                channels,
                expected,
                found,
            });
        }
        values.push(words.number("a frame value")?);
    }
    Ok(Motion {
        joints,
        frame_time,
        frames,
        channels,
        values,
    })
}

/// `ROOT name { OFFSET x y z CHANNELS n … (JOINT … | End Site { OFFSET … })* }`,
/// once or more.
///
/// Longer than a screen: one loop over the tokens of the HIERARCHY section with
/// an explicit stack (so deep nesting costs no call stack), each keyword a
/// branch of one match.
fn hierarchy(words: &mut Words) -> Result<Vec<Joint>, BvhError> {
    let mut joints: Vec<Joint> = Vec::new();
    let mut open: Vec<usize> = Vec::new(); // joints whose `}` is still to come
    let mut value_column = 0;
    loop {
        // At the top: a ROOT, or MOTION. Inside a joint: JOINT, End, or `}`.
        let parent = open.last().copied();
        match words.peek() {
            Some(word) if parent.is_none() && word.eq_ignore_ascii_case("MOTION") => {
                if joints.is_empty() {
                    return Err(words.expected("ROOT", word));
                }
                return Ok(joints);
            }
            Some("}") if parent.is_some() => {
                words.next("}")?;
                open.pop();
                continue;
            }
            _ => {}
        }
        let kind = words.next("ROOT, JOINT, End Site or }")?;
        let end_site = if kind.eq_ignore_ascii_case("End") {
            words.keyword("Site")?;
            true
        } else if (parent.is_none() && kind.eq_ignore_ascii_case("ROOT"))
            || (parent.is_some() && kind.eq_ignore_ascii_case("JOINT"))
        {
            false
        } else {
            let expected = if parent.is_none() {
                "ROOT or MOTION"
            } else {
                "JOINT, End Site or }"
            };
            return Err(words.expected(expected, kind));
        };
        if end_site && parent.is_none() {
            return Err(words.expected("ROOT", kind));
        }
        let name = if end_site {
            let parent_name = parent.map_or("", |p| joints[p].name.as_str());
            format!("{parent_name} end")
        } else {
            words.next("a joint name")?.to_owned()
        };
        words.keyword("{")?;
        words.keyword("OFFSET")?;
        let offset = Vec3::new(
            words.number("OFFSET x")?,
            words.number("OFFSET y")?,
            words.number("OFFSET z")?,
        );
        let mut channels = Vec::new();
        if !end_site {
            words.keyword("CHANNELS")?;
            let count = words.count("the channel count")?;
            if count > MAX_CHANNELS_PER_JOINT {
                return Err(BvhError::TooManyChannels {
                    line: words.line,
                    count,
                    max: MAX_CHANNELS_PER_JOINT,
                });
            }
            for _ in 0..count {
                let word = words.next("a channel")?;
                channels.push(Channel::from_name(word).ok_or_else(|| {
                    BvhError::UnknownChannel {
                        line: words.line,
                        found: word.chars().take(40).collect(),
                    }
                })?);
            }
        }
        if joints.len() >= MAX_BONES - 1 {
            // One bone is kept for a common root above several ROOTs.
            return Err(BvhError::TooManyJoints { max: MAX_BONES - 1 });
        }
        let first_value = value_column;
        value_column += channels.len();
        joints.push(Joint {
            name,
            parent,
            offset,
            channels,
            end_site,
            first_value,
        });
        if end_site {
            words.keyword("}")?;
        } else {
            open.push(joints.len() - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::Quat;

    use super::*;
    use crate::formats::bvh::Axis;

    const ARM: &str = "HIERARCHY
ROOT hips
{
  OFFSET 0 10 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT arm
  {
    OFFSET 2 0 0
    CHANNELS 3 Yrotation Xrotation Zrotation
    End Site
    {
      OFFSET 3 0 0
    }
  }
}
MOTION
Frames: 2
Frame Time: 0.5
0 0 0 0 0 0 0 0 0
1 2 3 90 0 0 0 0 45
";

    #[test]
    fn a_small_file_reads_with_its_channel_orders() {
        let motion = parse_bvh(ARM).unwrap();
        assert_eq!(motion.joints.len(), 3);
        assert_eq!(motion.joints[2].name, "arm end");
        assert_eq!(motion.joints[2].parent, Some(1));
        assert!(motion.joints[2].end_site);
        assert_eq!(motion.joints[1].channels[0], Channel::Rotation(Axis::Y));
        assert_eq!(motion.joints[1].first_value, 6);
        assert_eq!((motion.frames, motion.channels), (2, 9));
        let (translation, rotation) = motion.local(0, 1);
        assert_eq!(translation, Vec3::new(1.0, 12.0, 3.0));
        assert!(rotation.abs_diff_eq(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2), 1e-6));
        let (_, arm) = motion.local(1, 1);
        assert!(arm.abs_diff_eq(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4), 1e-6));
    }

    #[test]
    fn rotation_channels_multiply_in_the_listed_order() {
        let text = ARM.replace("0 0 45", "30 40 50");
        let motion = parse_bvh(&text).unwrap();
        let (_, arm) = motion.local(1, 1);
        let expected = Quat::from_rotation_y(30f32.to_radians())
            * Quat::from_rotation_x(40f32.to_radians())
            * Quat::from_rotation_z(50f32.to_radians());
        assert!(arm.abs_diff_eq(expected, 1e-6));
    }

    #[test]
    fn broken_files_name_their_problem() {
        let err = |text: &str| parse_bvh(text).unwrap_err();
        assert!(matches!(
            err("HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 1 Wrotation"),
            BvhError::UnknownChannel { line: 5, .. }
        ));
        assert!(matches!(
            err(&ARM.replace("OFFSET 2 0 0", "OFFSET 2 x 0")),
            BvhError::BadNumber { line: 8, .. }
        ));
        assert!(matches!(
            err(&ARM.replace("Frames: 2", "Frames: 3")),
            BvhError::MissingValues {
                expected: 27,
                found: 18,
                ..
            }
        ));
        assert!(matches!(
            err(&ARM.replace("Frames: 2", "Frames: 99999999999")),
            BvhError::TooManyValues { .. }
        ));
        assert!(matches!(
            err(&ARM.replace("0.5", "0")),
            BvhError::BadFrameTime { .. }
        ));
        assert!(matches!(
            err(&ARM.replace("0 0 45", "0 0 inf")),
            BvhError::BadNumber { .. }
        ));
        assert!(matches!(
            err("HIERARCHY\nMOTION"),
            BvhError::Expected { .. }
        ));
        assert!(matches!(err(&ARM[..60]), BvhError::Expected { .. }));
        assert!(matches!(
            err("HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 13"),
            BvhError::TooManyChannels { count: 13, .. }
        ));
    }

    #[test]
    fn deep_nesting_costs_no_call_stack() {
        let depth = 50_000;
        let mut text = String::from("HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 0\n");
        for k in 0..depth {
            text.push_str(&format!("JOINT j{k}\n{{\nOFFSET 0 1 0\nCHANNELS 0\n"));
        }
        text.push_str(&"}\n".repeat(depth + 1));
        text.push_str("MOTION\nFrames: 0\nFrame Time: 0.1\n");
        assert_eq!(parse_bvh(&text).unwrap().joints.len(), depth + 1);
    }
}
