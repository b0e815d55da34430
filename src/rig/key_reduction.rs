//! Key reduction: from motion capture (a key every frame) toward keyframes
//! (few keys), with a bound on how far any joint strays.
//!
//! The captured frames are the union of the clip's key times. Keys are kept
//! at a shared set of frames, chosen as Douglas–Peucker chooses points:
//! start with the first and last frame; between two kept frames `a` and
//! `b`, every channel interpolated linearly (slerp for rotations) from its
//! captured values at `a` and `b`; where some joint at some frame in
//! between is further than `tolerance` from where the capture puts it, keep
//! the frame of the largest distance and split there. The reduced clip is
//! exactly those two-key interpolations, so every joint stays within
//! `tolerance` of the capture at every captured frame; the error is then
//! measured again on the reduced clip itself.

use glam::{Mat4, Vec3};

use super::animation::{Animation, Channel, Clip, Interpolation};
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

/// Every joint's origin, model space, for each frame time.
fn joint_origins(skeleton: &Skeleton, clip: &Clip, times: &[f32]) -> Vec<Vec<Vec3>> {
    let animation = Animation {
        clips: vec![clip.clone()],
    };
    let mut pose = vec![BoneTransform::IDENTITY; skeleton.len()];
    let mut frames = vec![Mat4::IDENTITY; skeleton.len()];
    times
        .iter()
        .map(|&time| {
            animation.pose_at(0, time, &mut pose);
            pose_to_model(skeleton, &pose, &mut frames);
            frames.iter().map(|m| m.w_axis.truncate()).collect()
        })
        .collect()
}

/// `clip` with each bone channel replaced by LINEAR keys at `times`, its
/// values sampled from the original.
fn resampled(clip: &Clip, times: &[f32]) -> Clip {
    Clip {
        name: clip.name.clone(),
        duration: clip.duration,
        channels: clip
            .channels
            .iter()
            .map(|channel| Channel {
                bone: channel.bone,
                target: channel.target,
                times: times.to_vec(),
                values: times.iter().map(|&t| channel.sample(t)).collect(),
                tangents: Vec::new(),
                interpolation: Interpolation::Linear,
            })
            .collect(),
        weights: clip.weights.clone(),
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
pub fn reduce_keys(skeleton: &Skeleton, clip: &Clip, tolerance: f32) -> Option<KeyReduction> {
    let mut times: Vec<f32> = clip
        .channels
        .iter()
        .flat_map(|c| c.times.iter().copied())
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup();
    if times.len() > MAX_REDUCED_FRAMES {
        return None;
    }
    let before = clip.channels.iter().map(|c| c.times.len()).sum();
    let captured = joint_origins(skeleton, clip, &times);
    let mut kept = vec![false; times.len()];
    if let Some(last) = times.len().checked_sub(1) {
        kept[0] = true;
        kept[last] = true;
        let tolerance = tolerance.max(0.0);
        let mut spans = vec![(0, last)];
        while let Some((a, b)) = spans.pop() {
            if b <= a + 1 {
                continue;
            }
            let between = resampled(clip, &[times[a], times[b]]);
            let found = joint_origins(skeleton, &between, &times[a + 1..b]);
            let (worst, error) = found
                .iter()
                .zip(&captured[a + 1..b])
                .map(|(f, c)| distance(f, c))
                .enumerate()
                .fold(
                    (0, 0.0_f32),
                    |best, (k, e)| if e > best.1 { (k, e) } else { best },
                );
            if error > tolerance {
                let split = a + 1 + worst;
                kept[split] = true;
                spans.push((a, split));
                spans.push((split, b));
            }
        }
    }
    let kept_times: Vec<f32> = times
        .iter()
        .zip(&kept)
        .filter_map(|(t, k)| k.then_some(*t))
        .collect();
    let reduced = resampled(clip, &kept_times);
    let max_error = joint_origins(skeleton, &reduced, &times)
        .iter()
        .zip(&captured)
        .map(|(f, c)| distance(f, c))
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
