//! Key reduction: from motion capture (a key every frame) toward keyframes
//! (few keys), with a bound on how far any joint strays.
//!
//! The captured frames are the clip's key times. Each channel keeps its own
//! keys, chosen as Douglas–Peucker chooses points: between two kept keys
//! `a` and `b` the channel is interpolated linearly (slerp for rotations)
//! from its captured values at `a` and `b`; where some joint at some frame
//! in between is further than the tolerance from where the capture puts it
//! (every other channel as reduced so far), the frame of the largest
//! distance is kept and the span split there. A span's ends keep their
//! values, so every frame stays within the tolerance after every channel's
//! pass: the bound holds for the whole reduced clip, and is measured again
//! on it. Two sweeps over the channels, at half the tolerance and then at
//! the whole, share the error among them rather than spending it all on the
//! first (the root) channel.

use glam::{Mat4, Vec3};

use super::animation::{Channel, Clip, Interpolation};
use super::pose::{pose_to_model, BoneTransform};
use super::skeleton::Skeleton;

/// The most captured frames a clip may have for [`reduce_keys`].
pub const MAX_REDUCED_FRAMES: usize = 200_000;

/// What [`reduce_keys`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyReduction {
    /// Keys in the clip's bone channels before.
    pub before: usize,
    /// Keys after.
    pub after: usize,
    /// The largest distance of any joint from the capture at any captured
    /// frame, model units, measured on the reduced clip.
    pub max_error: f32,
    /// The reduced clip.
    pub clip: Clip,
}

/// Joint origins, model space, of a pose built from `channels` at `time`.
struct Poser<'a> {
    skeleton: &'a Skeleton,
    pose: Vec<BoneTransform>,
    frames: Vec<Mat4>,
}

impl<'a> Poser<'a> {
    fn new(skeleton: &'a Skeleton) -> Self {
        Self {
            skeleton,
            pose: vec![BoneTransform::IDENTITY; skeleton.len()],
            frames: vec![Mat4::IDENTITY; skeleton.len()],
        }
    }

    /// The joints at `time`, channel `k` sampled from `channel(k)`.
    fn origins<'c>(
        &mut self,
        count: usize,
        channel: impl Fn(usize) -> &'c Channel,
        time: f32,
    ) -> Vec<Vec3> {
        self.pose.fill(BoneTransform::IDENTITY);
        for k in 0..count {
            let channel = channel(k);
            if let Some(transform) = self.pose.get_mut(channel.bone) {
                channel.apply(time, transform);
            }
        }
        pose_to_model(self.skeleton, &self.pose, &mut self.frames);
        self.frames.iter().map(|m| m.w_axis.truncate()).collect()
    }
}

/// `channel` as LINEAR keys at `times`, its values sampled from it.
fn resampled(channel: &Channel, times: &[f32]) -> Channel {
    Channel {
        bone: channel.bone,
        target: channel.target,
        times: times.to_vec(),
        values: times.iter().map(|&t| channel.sample(t)).collect(),
        tangents: Vec::new(),
        interpolation: Interpolation::Linear,
    }
}

/// The largest distance between two lists of joint origins.
fn distance(a: &[Vec3], b: &[Vec3]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(p, q)| p.distance(*q))
        .fold(0.0, f32::max)
}

/// Reduces `clip`'s bone keys so every joint stays within `tolerance`
/// (model units) of the capture at every captured frame (see the module
/// documentation). Morph weight keys are left as they are. `None` when the
/// clip has more than [`MAX_REDUCED_FRAMES`] distinct key times.
///
/// Longer than a screen: the Douglas–Peucker passes of the module documentation
/// over every channel, sharing the captured frames and the reduced clip as it
/// is built.
pub fn reduce_keys(skeleton: &Skeleton, clip: &Clip, tolerance: f32) -> Option<KeyReduction> {
    let mut times: Vec<f32> = clip
        .channels
        .iter()
        .flat_map(|c| c.times.iter().copied())
        .collect();
    crate::rig::sorting::sort_floats(&mut times);
    times.dedup();
    if times.len() > MAX_REDUCED_FRAMES {
        return None;
    }
    let tolerance = tolerance.max(0.0);
    let before = clip.channels.iter().map(|c| c.times.len()).sum();
    let originals = &clip.channels;
    let count = originals.len();
    let mut poser = Poser::new(skeleton);
    let captured: Vec<Vec<Vec3>> = times
        .iter()
        .map(|&t| poser.origins(count, |k| &originals[k], t))
        .collect();
    // Each channel's kept frames (indices into `times`) and its channel.
    let mut kept: Vec<Vec<usize>> = vec![(0..times.len()).collect(); count];
    let mut current: Vec<Channel> = originals.iter().map(|c| resampled(c, &times)).collect();
    for bound in [tolerance / 2.0, tolerance] {
        for c in 0..count {
            let candidates = kept[c].clone();
            if candidates.len() < 3 {
                continue;
            }
            let mut keep = vec![false; candidates.len()];
            keep[0] = true;
            keep[candidates.len() - 1] = true;
            let mut spans = vec![(0, candidates.len() - 1)];
            while let Some((a, b)) = spans.pop() {
                if b <= a + 1 {
                    continue;
                }
                let (fa, fb) = (candidates[a], candidates[b]);
                let between = resampled(&originals[c], &[times[fa], times[fb]]);
                let mut worst = (0, 0.0_f32);
                for f in fa + 1..fb {
                    let found = poser.origins(
                        count,
                        |k| if k == c { &between } else { &current[k] },
                        times[f],
                    );
                    let error = distance(&found, &captured[f]);
                    if error > worst.1 {
                        worst = (f, error);
                    }
                }
                if worst.1 > bound {
                    // Split at the candidate nearest the worst frame.
                    let split = candidates[a + 1..b]
                        .iter()
                        .position(|&f| f >= worst.0)
                        .map_or(b - 1, |p| a + 1 + p);
                    keep[split] = true;
                    spans.push((a, split));
                    spans.push((split, b));
                }
            }
            kept[c] = candidates
                .iter()
                .zip(&keep)
                .filter_map(|(f, k)| k.then_some(*f))
                .collect();
            let kept_times: Vec<f32> = kept[c].iter().map(|&f| times[f]).collect();
            current[c] = resampled(&originals[c], &kept_times);
        }
    }
    let reduced = Clip {
        name: clip.name.clone(),
        duration: clip.duration,
        channels: current,
        weights: clip.weights.clone(),
    };
    let max_error = times
        .iter()
        .zip(&captured)
        .map(|(&t, c)| distance(&poser.origins(count, |k| &reduced.channels[k], t), c))
        .fold(0.0, f32::max);
    Some(KeyReduction {
        before,
        after: reduced.channels.iter().map(|c| c.times.len()).sum(),
        max_error,
        clip: reduced,
    })
}

#[cfg(test)]
mod tests {
    use glam::Quat;

    use super::*;
    use crate::rig::animation::Target;
    use crate::rig::skeleton::Bone;

    /// Two bones up +Y; the first turns about Z along `angle(t)` keyed at
    /// 61 frames over one second.
    fn captured(angle: impl Fn(f32) -> f32) -> (Skeleton, Clip) {
        let skeleton = Skeleton::new(vec![
            Bone::new("a", None, Vec3::ZERO, Quat::IDENTITY, 1.0),
            Bone::new("b", Some(0), Vec3::ZERO, Quat::IDENTITY, 1.0),
        ])
        .unwrap();
        let times: Vec<f32> = (0..61).map(|k| k as f32 / 60.0).collect();
        let clip = Clip {
            name: "capture".to_owned(),
            duration: 1.0,
            channels: vec![Channel {
                bone: 0,
                target: Target::Rotation,
                values: times
                    .iter()
                    .map(|&t| Quat::from_rotation_z(angle(t)).to_array())
                    .collect(),
                times,
                tangents: Vec::new(),
                interpolation: Interpolation::Linear,
            }],
            weights: None,
        };
        (skeleton, clip)
    }

    #[test]
    fn a_steady_turn_needs_only_its_ends() {
        let (skeleton, clip) = captured(|t| t);
        let reduction = reduce_keys(&skeleton, &clip, 1e-4).unwrap();
        assert_eq!((reduction.before, reduction.after), (61, 2));
        assert!(reduction.max_error < 1e-4);
    }

    #[test]
    fn a_wobble_keeps_its_bound_and_a_tighter_bound_keeps_more_keys() {
        let (skeleton, clip) = captured(|t| (t * 9.0).sin() + 0.3 * (t * 23.0).cos());
        let mut previous = 0;
        for tolerance in [0.2_f32, 0.05, 0.01, 0.001] {
            let reduction = reduce_keys(&skeleton, &clip, tolerance).unwrap();
            assert!(
                reduction.max_error <= tolerance,
                "{tolerance}: {}",
                reduction.max_error
            );
            assert!(reduction.after >= previous);
            previous = reduction.after;
        }
        assert!(previous < 61);
        let all = reduce_keys(&skeleton, &clip, 0.0).unwrap();
        assert!(all.max_error < 1e-6);
    }
}
