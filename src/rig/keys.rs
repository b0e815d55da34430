//! Authoring keyframes (the animation talk): set, delete and move a bone's keys in a
//! clip, and choose how its channels interpolate.
//!
//! A bone's keys are the times of its channels together: setting a key at
//! `t` writes the bone's translation, rotation and scale at `t` (each into
//! its own channel), so that the three stay keyed at the same times. The
//! page's "smooth" is glTF's `CUBICSPLINE` with Catmull-Rom tangents,
//! recomputed after every edit of the channel:
//! `m_k = (v_{k+1} − v_{k−1}) / (t_{k+1} − t_{k−1})` inside,
//! one-sided differences at the ends, `0` for a single key. glTF scales a
//! tangent by the key interval when it samples, so `m_k` is a rate per
//! second.

use glam::Quat;

use crate::rig::animation::{Channel, Clip, Interpolation, Target, WeightsChannel};
use crate::rig::pose::BoneTransform;

/// Two key times closer than this (seconds) are the same key.
pub const SAME_KEY_SECONDS: f32 = 1e-4;

/// The three targets in the order a key writes them.
const TARGETS: [Target; 3] = [Target::Translation, Target::Rotation, Target::Scale];

impl Clip {
    /// An empty clip called `name`.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            duration: 0.0,
            channels: Vec::new(),
            weights: None,
        }
    }

    /// The time of the last key of any channel, `0` for an empty clip.
    pub fn last_key_time(&self) -> f32 {
        self.channels
            .iter()
            .filter_map(|channel| channel.times.last().copied())
            .chain(self.weights.iter().filter_map(|w| w.times.last().copied()))
            .fold(0.0, f32::max)
    }

    /// Keys the morph weights at `time` (replacing a key within
    /// [`SAME_KEY_SECONDS`]); all weight keys then interpolate as
    /// `interpolation`. A key with a different number of weights than the
    /// keys before starts the channel afresh.
    pub fn set_weights_key(&mut self, time: f32, weights: &[f32], interpolation: Interpolation) {
        let n = weights.len();
        let channel = match &mut self.weights {
            Some(channel) if channel.targets() == n => channel,
            slot => slot.insert(WeightsChannel {
                times: Vec::new(),
                values: Vec::new(),
                tangents: Vec::new(),
                interpolation,
            }),
        };
        let k = channel
            .times
            .partition_point(|&t| t < time - SAME_KEY_SECONDS);
        if channel
            .times
            .get(k)
            .is_some_and(|&t| (t - time).abs() < SAME_KEY_SECONDS)
        {
            channel.times[k] = time;
            channel.values[k * n..(k + 1) * n].copy_from_slice(weights);
        } else {
            channel.times.insert(k, time);
            channel.values.splice(k * n..k * n, weights.iter().copied());
        }
        channel.interpolation = interpolation;
        self.refresh_weights();
    }

    /// The morph weight keys' times.
    pub fn weights_key_times(&self) -> Vec<f32> {
        self.weights
            .as_ref()
            .map_or_else(Vec::new, |w| w.times.clone())
    }

    /// Deletes the weights key at `time`; false when there is none.
    pub fn remove_weights_key(&mut self, time: f32) -> bool {
        let Some(channel) = &mut self.weights else {
            return false;
        };
        let n = channel.targets();
        let Some(k) = key_index(&channel.times, time) else {
            return false;
        };
        channel.times.remove(k);
        channel.values.drain(k * n..(k + 1) * n);
        if channel.times.is_empty() {
            self.weights = None;
        }
        self.refresh_weights();
        true
    }

    /// Moves the weights key at `from` to `to` (not below 0).
    pub fn move_weights_key(&mut self, from: f32, to: f32) -> bool {
        let Some(channel) = &self.weights else {
            return false;
        };
        let n = channel.targets();
        let Some(k) = key_index(&channel.times, from) else {
            return false;
        };
        let weights = channel.values[k * n..(k + 1) * n].to_vec();
        let interpolation = channel.interpolation;
        self.remove_weights_key(from);
        self.set_weights_key(to.max(0.0), &weights, interpolation);
        true
    }

    /// Makes the weight keys interpolate as `interpolation`.
    pub fn set_weights_interpolation(&mut self, interpolation: Interpolation) {
        if let Some(channel) = &mut self.weights {
            channel.interpolation = interpolation;
        }
        self.refresh_weights();
    }

    /// Recomputes the weights' tangents and the clip's duration.
    fn refresh_weights(&mut self) {
        if let Some(channel) = &mut self.weights {
            channel.tangents = match channel.interpolation {
                Interpolation::CubicSpline => {
                    let n = channel.targets();
                    let keys = channel.times.len();
                    let mut tangents = Vec::with_capacity(2 * n * keys);
                    for k in 0..keys {
                        let m: Vec<f32> = (0..n)
                            .map(|t| rate(&channel.times, k, |j| channel.values[j * n + t]))
                            .collect();
                        tangents.extend_from_slice(&m);
                        tangents.extend_from_slice(&m);
                    }
                    tangents
                }
                _ => Vec::new(),
            };
        }
        self.duration = self.last_key_time();
    }

    /// Every key time of `bone`'s channels, increasing, keys within
    /// [`SAME_KEY_SECONDS`] counted once.
    pub fn key_times(&self, bone: usize) -> Vec<f32> {
        let mut times: Vec<f32> = self
            .channels
            .iter()
            .filter(|channel| channel.bone == bone)
            .flat_map(|channel| channel.times.iter().copied())
            .collect();
        crate::rig::sorting::sort_floats(&mut times);
        times.dedup_by(|later, earlier| (*later - *earlier).abs() < SAME_KEY_SECONDS);
        times
    }

    /// How `bone`'s channels interpolate (the rotation's, if they differ),
    /// `None` when the bone has no keys.
    pub fn interpolation(&self, bone: usize) -> Option<Interpolation> {
        let mine = || self.channels.iter().filter(move |c| c.bone == bone);
        mine()
            .find(|channel| channel.target == Target::Rotation)
            .or_else(|| mine().next())
            .map(|channel| channel.interpolation)
    }

    /// Keys `bone` at `time` with `local`, its joint's local transform there,
    /// replacing a key within [`SAME_KEY_SECONDS`]; every channel of the
    /// bone then interpolates as `interpolation`.
    pub fn set_key(
        &mut self,
        bone: usize,
        time: f32,
        local: &BoneTransform,
        interpolation: Interpolation,
    ) {
        for target in TARGETS {
            let value = match target {
                Target::Translation => local.translation.extend(0.0).to_array(),
                Target::Rotation => local.rotation.to_array(),
                Target::Scale => local.scale.extend(0.0).to_array(),
            };
            let index = match self
                .channels
                .iter()
                .position(|c| c.bone == bone && c.target == target)
            {
                Some(index) => index,
                None => {
                    self.channels.push(Channel {
                        bone,
                        target,
                        times: Vec::new(),
                        values: Vec::new(),
                        tangents: Vec::new(),
                        interpolation,
                    });
                    self.channels.len() - 1
                }
            };
            insert_key(&mut self.channels[index], time, value);
        }
        self.set_interpolation(bone, interpolation);
    }

    /// Deletes `bone`'s key at `time` from each of its channels; a channel
    /// left without keys goes. False when there was no such key.
    pub fn remove_key(&mut self, bone: usize, time: f32) -> bool {
        let mut removed = false;
        for channel in self.channels.iter_mut().filter(|c| c.bone == bone) {
            if let Some(k) = key_index(&channel.times, time) {
                channel.times.remove(k);
                channel.values.remove(k);
                if !channel.tangents.is_empty() {
                    channel.tangents.remove(k);
                }
                removed = true;
            }
        }
        self.channels.retain(|channel| !channel.times.is_empty());
        self.refresh(bone);
        removed
    }

    /// Moves `bone`'s key at `from` to `to` (not below 0), replacing a key
    /// already there. False when there was no key at `from`.
    pub fn move_key(&mut self, bone: usize, from: f32, to: f32) -> bool {
        let to = to.max(0.0);
        let mut moved = false;
        for channel in self.channels.iter_mut().filter(|c| c.bone == bone) {
            if let Some(k) = key_index(&channel.times, from) {
                channel.times.remove(k);
                let value = channel.values.remove(k);
                if !channel.tangents.is_empty() {
                    channel.tangents.remove(k);
                }
                insert_key(channel, to, value);
                moved = true;
            }
        }
        self.refresh(bone);
        moved
    }

    /// Makes every channel of `bone` interpolate as `interpolation`;
    /// `CUBICSPLINE` gets Catmull-Rom tangents.
    pub fn set_interpolation(&mut self, bone: usize, interpolation: Interpolation) {
        for channel in self.channels.iter_mut().filter(|c| c.bone == bone) {
            channel.interpolation = interpolation;
        }
        self.refresh(bone);
    }

    /// Recomputes `bone`'s tangents and the clip's duration after an edit.
    fn refresh(&mut self, bone: usize) {
        for channel in self.channels.iter_mut().filter(|c| c.bone == bone) {
            channel.tangents = match channel.interpolation {
                Interpolation::CubicSpline => catmull_rom(&channel.times, &channel.values),
                _ => Vec::new(),
            };
        }
        self.duration = self.last_key_time();
    }
}

/// The index of the key within [`SAME_KEY_SECONDS`] of `time`.
fn key_index(times: &[f32], time: f32) -> Option<usize> {
    times
        .iter()
        .position(|&t| (t - time).abs() < SAME_KEY_SECONDS)
}

/// Puts `value` at `time` in order, replacing a key at the same time. A
/// rotation goes to the hemisphere of the key before it, so that slerp and
/// the spline take the short way (`q` and `−q` are the same turn).
fn insert_key(channel: &mut Channel, time: f32, mut value: [f32; 4]) {
    let k = channel
        .times
        .partition_point(|&t| t < time - SAME_KEY_SECONDS);
    if channel.target == Target::Rotation && k > 0 {
        let before = Quat::from_array(channel.values[k - 1]);
        if before.dot(Quat::from_array(value)) < 0.0 {
            value = (-Quat::from_array(value)).to_array();
        }
    }
    if key_index(&channel.times, time) == Some(k) {
        channel.values[k] = value;
        channel.times[k] = time;
    } else {
        channel.times.insert(k, time);
        channel.values.insert(k, value);
    }
    // Tangents are recomputed by the caller.
    channel.tangents.clear();
}

/// Catmull-Rom tangents (rates per second), as in- and out-tangent of each
/// key: `m_k = (v_{k+1} − v_{k−1}) / (t_{k+1} − t_{k−1})`, one-sided at the
/// ends.
pub fn catmull_rom(times: &[f32], values: &[[f32; 4]]) -> Vec<[[f32; 4]; 2]> {
    (0..times.len())
        .map(|k| {
            let m: [f32; 4] = std::array::from_fn(|c| rate(times, k, |j| values[j][c]));
            [m, m]
        })
        .collect()
}

/// One component's Catmull-Rom rate at key `k` (see [`catmull_rom`]), with
/// `value(j)` that component at key `j`; 0 where the keys share a time.
fn rate(times: &[f32], k: usize, value: impl Fn(usize) -> f32) -> f32 {
    let (a, b) = (k.saturating_sub(1), (k + 1).min(times.len() - 1));
    let span = times[b] - times[a];
    if span > 0.0 {
        (value(b) - value(a)) / span
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;

    fn turned(angle: f32) -> BoneTransform {
        BoneTransform {
            rotation: Quat::from_rotation_z(angle),
            ..BoneTransform::IDENTITY
        }
    }

    fn clip() -> Clip {
        Clip::new("test")
    }

    #[test]
    fn a_key_writes_three_channels_and_the_duration() {
        let mut clip = clip();
        clip.set_key(1, 0.5, &turned(0.3), Interpolation::Linear);
        clip.set_key(1, 2.0, &turned(0.9), Interpolation::Linear);
        assert_eq!(clip.channels.len(), 3);
        assert_eq!(clip.key_times(1), vec![0.5, 2.0]);
        assert_eq!(clip.key_times(0), Vec::<f32>::new());
        assert_eq!(clip.duration, 2.0);
        let rotation = clip
            .channels
            .iter()
            .find(|c| c.target == Target::Rotation)
            .unwrap();
        let halfway = Quat::from_array(rotation.sample(1.25));
        assert!(halfway.abs_diff_eq(Quat::from_rotation_z(0.6), 1e-6));
    }

    #[test]
    fn a_key_at_the_same_time_replaces_and_keys_stay_in_order() {
        let mut clip = clip();
        for (time, angle) in [(2.0, 0.2), (0.0, 0.1), (1.0, 0.5), (1.00001, 0.7)] {
            clip.set_key(0, time, &turned(angle), Interpolation::Step);
        }
        assert_eq!(clip.key_times(0), vec![0.0, 1.00001, 2.0]);
        let rotation = clip
            .channels
            .iter()
            .find(|c| c.target == Target::Rotation)
            .unwrap();
        assert!(
            Quat::from_array(rotation.sample(1.5)).abs_diff_eq(Quat::from_rotation_z(0.7), 1e-6)
        );
    }

    #[test]
    fn remove_and_move_keys() {
        let mut clip = clip();
        clip.set_key(0, 0.0, &turned(0.0), Interpolation::Linear);
        clip.set_key(0, 1.0, &turned(1.0), Interpolation::Linear);
        assert!(clip.move_key(0, 1.0, 3.0));
        assert_eq!(clip.key_times(0), vec![0.0, 3.0]);
        assert_eq!(clip.duration, 3.0);
        assert!(!clip.remove_key(0, 1.0), "no key there any more");
        assert!(clip.remove_key(0, 3.0));
        assert!(clip.remove_key(0, 0.0));
        assert!(clip.channels.is_empty());
        assert_eq!(clip.duration, 0.0);
    }

    #[test]
    fn smooth_keys_get_catmull_rom_tangents() {
        let mut clip = clip();
        for (time, x) in [(0.0, 0.0), (1.0, 1.0), (3.0, 5.0)] {
            let local = BoneTransform {
                translation: Vec3::new(x, 0.0, 0.0),
                ..BoneTransform::IDENTITY
            };
            clip.set_key(0, time, &local, Interpolation::CubicSpline);
        }
        let channel = clip
            .channels
            .iter()
            .find(|c| c.target == Target::Translation)
            .unwrap();
        // Middle key: (5 − 0) / (3 − 0); ends one-sided: 1/1 and 4/2.
        assert_eq!(channel.tangents[1][0][0], 5.0 / 3.0);
        assert_eq!(channel.tangents[0][1][0], 1.0);
        assert_eq!(channel.tangents[2][0][0], 2.0);
        // The curve passes through the keys and, at s = ½ of the first
        // interval, equals the Hermite form by hand:
        // ½·0 + ⅛·1·1 + ½·1 − ⅛·1·(5/3).
        let expected = 0.125 + 0.5 - 0.125 * 5.0 / 3.0;
        assert!((channel.sample(0.5)[0] - expected).abs() < 1e-6);
        assert_eq!(channel.sample(1.0)[0], 1.0);
        clip.set_interpolation(0, Interpolation::Linear);
        assert!(clip.channels.iter().all(|c| c.tangents.is_empty()));
        assert_eq!(clip.interpolation(0), Some(Interpolation::Linear));
    }

    #[test]
    fn rotation_keys_take_the_short_way() {
        let mut clip = clip();
        clip.set_key(0, 0.0, &turned(0.1), Interpolation::Linear);
        let flipped = BoneTransform {
            rotation: -Quat::from_rotation_z(0.5),
            ..BoneTransform::IDENTITY
        };
        clip.set_key(0, 1.0, &flipped, Interpolation::Linear);
        let rotation = clip
            .channels
            .iter()
            .find(|c| c.target == Target::Rotation)
            .unwrap();
        assert!(
            Quat::from_array(rotation.values[0]).dot(Quat::from_array(rotation.values[1])) > 0.0
        );
    }

    #[test]
    fn morph_weight_keys() {
        let mut clip = clip();
        clip.set_weights_key(1.0, &[1.0, 0.0], Interpolation::Linear);
        clip.set_weights_key(0.0, &[0.0, 0.5], Interpolation::Linear);
        assert_eq!(clip.weights_key_times(), vec![0.0, 1.0]);
        assert_eq!(clip.duration, 1.0);
        let mut out = [9.0; 3];
        clip.weights.as_ref().unwrap().sample(0.25, &mut out);
        assert_eq!(out, [0.25, 0.375, 9.0]);
        clip.set_weights_interpolation(Interpolation::CubicSpline);
        // Two keys: one-sided tangents equal the slope, so the spline is
        // the straight line again.
        clip.weights.as_ref().unwrap().sample(0.25, &mut out);
        assert!((out[0] - 0.25).abs() < 1e-6 && (out[1] - 0.375).abs() < 1e-6);
        assert!(clip.move_weights_key(1.0, 2.0));
        assert_eq!(clip.duration, 2.0);
        assert!(clip.remove_weights_key(0.0));
        assert!(clip.remove_weights_key(2.0));
        assert!(clip.weights.is_none());
    }
}
