//! Keyframe clips and paths in the lab (the animation talk): play a clip at a time,
//! author keys from the current pose, and let bones ride Bézier paths.
//!
//! Every edit here is a plain change of the scene; the page takes a
//! checkpoint first, so undo covers it like a drag.

use glam::{Quat, Vec3};

use super::{EditError, Lab};
use crate::rig::animation::{Clip, Interpolation};
use crate::rig::path::{ArcLengthTable, BezierPath, PathAnimation, Timing};
use crate::rig::pose::BoneTransform;
use crate::rig::pursuit::{pursue, Pursuit, PursuitSetup};
use crate::rig::speed_curve::SpeedCurve;
use crate::scene::SceneError;

/// Arc lengths sampled when a table's lookup error is measured.
const ERROR_SAMPLES: usize = 64;

fn finite(field: &str, value: f32) -> Result<f32, EditError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(SceneError::NonFinite {
            field: field.to_owned(),
            value,
        }
        .into())
    }
}

impl Lab {
    /// The names of the clips.
    pub fn animation_names(&self) -> Vec<String> {
        self.scene
            .animation
            .clips
            .iter()
            .map(|clip| clip.name.clone())
            .collect()
    }

    fn clip_index(&self, clip: usize) -> Result<usize, EditError> {
        let clip_count = self.scene.animation.clips.len();
        if clip < clip_count {
            Ok(clip)
        } else {
            Err(EditError::NoSuchClip { clip, clip_count })
        }
    }

    fn keyable(&self, clip: usize, bone: usize) -> Result<usize, EditError> {
        self.check_bone(bone)?;
        self.clip_index(clip)
    }

    /// Clip `clip`'s length in seconds: its last key's time.
    pub fn animation_duration(&self, clip: usize) -> Result<f32, EditError> {
        Ok(self.scene.animation.clips[self.clip_index(clip)?].duration)
    }

    /// Poses every bone as clip `clip` does at `time` seconds (held at the
    /// first and last keys): the animation talk's keyframe interpolation, exactly as
    /// glTF samples it. Bones the clip does not drive go to their rest.
    pub fn set_animation_time(&mut self, clip: usize, time: f32) -> Result<(), EditError> {
        let time = finite("time", time)?;
        let clip = self.clip_index(clip)?;
        let mut pose = std::mem::take(&mut self.scene.pose);
        pose.resize(self.bone_count(), BoneTransform::IDENTITY);
        self.scene.animation.pose_at(clip, time, &mut pose);
        self.scene.pose = pose;
        if let Some(weights) = &self.scene.animation.clips[clip].weights {
            weights.sample(time, &mut self.scene.morph_weights);
        }
        self.changed();
        self.clip_time = Some((clip, time));
        Ok(())
    }

    /// The clip and time [`Lab::set_animation_time`] last posed, or `None`
    /// once anything else has changed.
    pub fn animation_time(&self) -> Option<(usize, f32)> {
        self.clip_time
    }

    /// Keys the current morph weights in `clip` at `time`.
    pub fn set_morph_key(
        &mut self,
        clip: usize,
        time: f32,
        interpolation: Interpolation,
    ) -> Result<(), EditError> {
        let clip = self.clip_index(clip)?;
        let time = finite("time", time)?.max(0.0);
        if self.scene.morphs.is_empty() {
            return Err(SceneError::WrongLength {
                field: "morph weights".to_owned(),
                expected: "morph targets to key".to_owned(),
                found: 0,
            }
            .into());
        }
        let weights = self.scene.morph_weights.clone();
        self.scene.animation.clips[clip].set_weights_key(time, &weights, interpolation);
        self.changed();
        Ok(())
    }

    /// The morph weight keys' times in `clip`.
    pub fn morph_key_times(&self, clip: usize) -> Result<Vec<f32>, EditError> {
        Ok(self.scene.animation.clips[self.clip_index(clip)?].weights_key_times())
    }

    /// Deletes the morph weights' key at `time`; false when there is none.
    pub fn remove_morph_key(&mut self, clip: usize, time: f32) -> Result<bool, EditError> {
        let clip = self.clip_index(clip)?;
        let removed = self.scene.animation.clips[clip].remove_weights_key(finite("time", time)?);
        self.changed();
        Ok(removed)
    }

    /// Moves the morph weights' key from `from` to `to` seconds.
    pub fn move_morph_key(&mut self, clip: usize, from: f32, to: f32) -> Result<bool, EditError> {
        let clip = self.clip_index(clip)?;
        let moved = self.scene.animation.clips[clip]
            .move_weights_key(finite("from", from)?, finite("to", to)?);
        self.changed();
        Ok(moved)
    }

    /// Adds clip `clip` of `source` (a motion file's scene) played on this
    /// scene's bones by joint names ([`crate::rig::retarget`]); returns the
    /// new clip's index and what was matched. A clip that moves none of
    /// this scene's bones is refused and nothing is added.
    pub fn retarget_clip(
        &mut self,
        source: &Lab,
        clip: usize,
    ) -> Result<(usize, crate::rig::retarget::Retargeted), EditError> {
        let clip = source.clip_index(clip)?;
        let retargeted = crate::rig::retarget::retarget(
            &source.scene.animation.clips[clip],
            &source.scene.skeleton,
            &self.scene.skeleton,
        );
        if retargeted.matched == 0 {
            return Err(EditError::NoSharedJoints {
                unmatched: retargeted.unmatched.len(),
            });
        }
        self.scene.animation.clips.push(retargeted.clip.clone());
        self.changed();
        Ok((self.scene.animation.clips.len() - 1, retargeted))
    }

    /// Clip `clip` as scene JSON writes a clip (one entry of its
    /// `"animations"`).
    pub fn clip_json(&self, clip: usize) -> Result<String, EditError> {
        let clip = self.clip_index(clip)?;
        let doc = crate::scene::clip_doc::clip_doc(&self.scene.animation.clips[clip]);
        Ok(serde_json::to_string(&doc).unwrap_or_default())
    }

    /// A clip from `text`, one entry of scene JSON's `"animations"`,
    /// validated against this scene's bones and morph targets.
    fn clip_of_json(&self, text: &str) -> Result<Clip, EditError> {
        let doc: crate::scene::clip_doc::ClipDoc = serde_json::from_str(text).map_err(|error| {
            EditError::Invalid(crate::scene::SceneError::Json {
                path: "clip".to_owned(),
                message: error.to_string(),
            })
        })?;
        let mut animation = crate::scene::clip_doc::validate_animation(
            std::slice::from_ref(&doc),
            None,
            &self.scene.skeleton,
            self.scene.morphs.len(),
        )?;
        Ok(animation.clips.remove(0))
    }

    /// Adds the clip of `text` (as [`Lab::clip_json`] writes one); returns
    /// its index.
    pub fn add_clip_json(&mut self, text: &str) -> Result<usize, EditError> {
        let clip = self.clip_of_json(text)?;
        self.scene.animation.clips.push(clip);
        self.changed();
        Ok(self.scene.animation.clips.len() - 1)
    }

    /// Replaces clip `clip` by the clip of `text` (as [`Lab::clip_json`]
    /// writes one).
    pub fn set_clip_json(&mut self, clip: usize, text: &str) -> Result<(), EditError> {
        let clip = self.clip_index(clip)?;
        self.scene.animation.clips[clip] = self.clip_of_json(text)?;
        self.changed();
        Ok(())
    }

    /// Adds an empty clip called `name`; returns its index.
    pub fn add_animation(&mut self, name: &str) -> usize {
        self.scene.animation.clips.push(Clip::new(name));
        self.changed();
        self.scene.animation.clips.len() - 1
    }

    /// Keys `bone` in `clip` at `time` with its current animation `A_i`;
    /// the bone's channels then interpolate as `interpolation`.
    pub fn set_key(
        &mut self,
        clip: usize,
        bone: usize,
        time: f32,
        interpolation: Interpolation,
    ) -> Result<(), EditError> {
        let clip = self.keyable(clip, bone)?;
        let time = finite("time", time)?.max(0.0);
        let local = self.scene.pose[bone];
        self.scene.animation.clips[clip].set_key(bone, time, &local, interpolation);
        self.changed();
        Ok(())
    }

    /// Deletes `bone`'s key at `time`; false when there is none.
    pub fn remove_key(&mut self, clip: usize, bone: usize, time: f32) -> Result<bool, EditError> {
        let clip = self.keyable(clip, bone)?;
        let removed = self.scene.animation.clips[clip].remove_key(bone, finite("time", time)?);
        self.changed();
        Ok(removed)
    }

    /// Moves `bone`'s key from `from` to `to` seconds; false when there is
    /// no key at `from`.
    pub fn move_key(
        &mut self,
        clip: usize,
        bone: usize,
        from: f32,
        to: f32,
    ) -> Result<bool, EditError> {
        let clip = self.keyable(clip, bone)?;
        let (from, to) = (finite("from", from)?, finite("to", to)?);
        let moved = self.scene.animation.clips[clip].move_key(bone, from, to);
        self.changed();
        Ok(moved)
    }

    /// `bone`'s key times in `clip`.
    pub fn key_times(&self, clip: usize, bone: usize) -> Result<Vec<f32>, EditError> {
        self.check_bone(bone)?;
        Ok(self.scene.animation.clips[self.clip_index(clip)?].key_times(bone))
    }

    /// How `bone`'s channels in `clip` interpolate (`None`: no keys).
    pub fn key_interpolation(
        &self,
        clip: usize,
        bone: usize,
    ) -> Result<Option<Interpolation>, EditError> {
        self.check_bone(bone)?;
        Ok(self.scene.animation.clips[self.clip_index(clip)?].interpolation(bone))
    }

    /// Makes `bone`'s channels in `clip` interpolate as `interpolation`.
    pub fn set_key_interpolation(
        &mut self,
        clip: usize,
        bone: usize,
        interpolation: Interpolation,
    ) -> Result<(), EditError> {
        let clip = self.keyable(clip, bone)?;
        self.scene.animation.clips[clip].set_interpolation(bone, interpolation);
        self.changed();
        Ok(())
    }

    /// `bone`'s signed rotation angle (radians) in `clip` at `samples`
    /// times evenly over the clip: the twist of `A_i`'s rotation about
    /// `axis`, `2·atan2(q_xyz · axis, q_w)`, with `axis` the turning axis
    /// of the bone's largest keyed rotation (Z when it has none). Leaves the
    /// pose as it was.
    pub fn rotation_curve(
        &mut self,
        clip: usize,
        bone: usize,
        samples: usize,
    ) -> Result<Vec<f32>, EditError> {
        self.check_bone(bone)?;
        let clip = self.clip_index(clip)?;
        let samples = samples.clamp(2, 4096);
        let duration = self.scene.animation.clips[clip].duration;
        let bones = self.bone_count();
        let mut pose = vec![BoneTransform::IDENTITY; bones];
        let mut rotations = Vec::with_capacity(samples);
        for k in 0..samples {
            let time = duration * k as f32 / (samples - 1) as f32;
            self.scene.animation.pose_at(clip, time, &mut pose);
            rotations.push(pose[bone].rotation);
        }
        let axis = rotations
            .iter()
            .map(|q| q.to_axis_angle())
            .filter(|(_, angle)| angle.is_finite())
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .filter(|(_, angle)| *angle > 1e-4)
            .map_or(Vec3::Z, |(axis, _)| axis);
        Ok(rotations.iter().map(|q| twist_angle(*q, axis)).collect())
    }

    // ----- paths -----

    /// The scene's paths.
    pub fn paths(&self) -> &[PathAnimation] {
        &self.scene.paths
    }

    fn path_index(&self, path: usize) -> Result<usize, EditError> {
        let path_count = self.scene.paths.len();
        if path < path_count {
            Ok(path)
        } else {
            Err(EditError::NoSuchPath { path, path_count })
        }
    }

    /// Adds a path for `bone` (or none) through `points` (`3n + 1`
    /// control points, model space); returns its index.
    pub fn add_path(
        &mut self,
        points: Vec<Vec3>,
        bone: Option<usize>,
        duration: f32,
        timing: Timing,
    ) -> Result<usize, EditError> {
        if let Some(bone) = bone {
            self.check_bone(bone)?;
        }
        let duration = finite("duration", duration)?;
        if duration <= 0.0 {
            return Err(SceneError::NotPositive {
                field: "duration".to_owned(),
                value: duration,
            }
            .into());
        }
        let path = BezierPath::new(points).map_err(|error| SceneError::Path {
            field: "points".to_owned(),
            error,
        })?;
        self.scene.paths.push(PathAnimation {
            name: format!("path {}", self.scene.paths.len() + 1),
            path,
            bone,
            duration,
            timing,
            speed: (timing == Timing::Curve).then(|| SpeedCurve::uniform(duration, 4)),
        });
        self.changed();
        Ok(self.scene.paths.len() - 1)
    }

    /// The animation talk's pursuit on path `path` (see
    /// [`crate::rig::pursuit`]), the point placed by a table of `entries`.
    pub fn pursuit(
        &self,
        path: usize,
        setup: PursuitSetup,
        entries: usize,
    ) -> Result<Pursuit, EditError> {
        for (field, value) in [
            ("targetSpeed", setup.target_speed),
            ("followerSpeed", setup.follower_speed),
            ("lead", setup.lead),
            ("seconds", setup.seconds),
        ] {
            finite(field, value)?;
        }
        let table = self.path_table(path, entries)?;
        Ok(pursue(&self.scene.paths[path].path, &table, setup))
    }

    /// Removes the newest path (an `addPath` whose curve was refused).
    pub fn remove_last_path(&mut self) {
        if self.scene.paths.pop().is_some() {
            self.changed();
        }
    }

    /// Moves control point `point` of path `path` to `at`.
    pub fn set_path_point(&mut self, path: usize, point: usize, at: Vec3) -> Result<(), EditError> {
        let path = self.path_index(path)?;
        if !at.is_finite() {
            return Err(SceneError::NonFinite {
                field: "point".to_owned(),
                value: f32::NAN,
            }
            .into());
        }
        let mut points = self.scene.paths[path].path.points().to_vec();
        let count = points.len();
        let slot = points.get_mut(point).ok_or(EditError::WrongArity {
            what: "point",
            expected: count,
            found: point + 1,
        })?;
        *slot = at;
        // Moving points keeps 3n + 1 finite points: always a path.
        if let Ok(moved) = BezierPath::new(points) {
            self.scene.paths[path].path = moved;
        }
        self.changed();
        Ok(())
    }

    /// Sets path `path`'s timing.
    pub fn set_path_timing(&mut self, path: usize, timing: Timing) -> Result<(), EditError> {
        let path = self.path_index(path)?;
        let ride = &mut self.scene.paths[path];
        ride.timing = timing;
        if timing == Timing::Curve && ride.speed.is_none() {
            ride.speed = Some(SpeedCurve::uniform(ride.duration, 4));
        }
        self.changed();
        Ok(())
    }

    /// Path `path`'s characteristic curve, if it has one.
    pub fn path_speed(&self, path: usize) -> Result<Option<&SpeedCurve>, EditError> {
        Ok(self.scene.paths[self.path_index(path)?].speed.as_ref())
    }

    /// Gives path `path` the characteristic curve through `(times[k],
    /// distances[k])` and times it by it.
    pub fn set_path_speed(
        &mut self,
        path: usize,
        times: Vec<f32>,
        distances: Vec<f32>,
    ) -> Result<(), EditError> {
        let path = self.path_index(path)?;
        let curve = SpeedCurve::new(times, distances).map_err(|error| SceneError::Speed {
            field: "speed".to_owned(),
            error,
        })?;
        let ride = &mut self.scene.paths[path];
        ride.speed = Some(curve);
        ride.timing = Timing::Curve;
        self.changed();
        Ok(())
    }

    /// Drags point `point` of path `path`'s characteristic curve toward
    /// `(time, distance)`; it stops where the curve would stop being
    /// monotone. Returns where it went.
    pub fn set_path_speed_point(
        &mut self,
        path: usize,
        point: usize,
        time: f32,
        distance: f32,
    ) -> Result<(f32, f32), EditError> {
        let path = self.path_index(path)?;
        let (time, distance) = (finite("time", time)?, finite("distance", distance)?);
        let ride = &mut self.scene.paths[path];
        let curve = ride
            .speed
            .get_or_insert_with(|| SpeedCurve::uniform(ride.duration, 4));
        let count = curve.times().len();
        let moved = curve
            .set_point(point, time, distance)
            .ok_or(EditError::WrongArity {
                what: "point",
                expected: count,
                found: point + 1,
            })?;
        self.changed();
        Ok(moved)
    }

    /// How far along path `path` (model units, by a table of `entries`)
    /// its timing puts the rider at `time`: `s = L · V(t)` for a curve.
    pub fn path_distance(&self, path: usize, time: f32, entries: usize) -> Result<f32, EditError> {
        let table = self.path_table(path, entries)?;
        let ride = &self.scene.paths[path];
        let fraction = ride.fraction_at(finite("time", time)?);
        Ok(if ride.timing == Timing::Naive {
            table.length_at(fraction)
        } else {
            table.length() * fraction
        })
    }

    /// The animation talk's table of `entries` cumulative chord lengths for `path`.
    pub fn path_table(&self, path: usize, entries: usize) -> Result<ArcLengthTable, EditError> {
        Ok(ArcLengthTable::new(
            &self.scene.paths[self.path_index(path)?].path,
            entries,
        ))
    }

    /// The point at arc length `s` along `path` by a table of `entries`.
    pub fn path_point(&self, path: usize, s: f32, entries: usize) -> Result<Vec3, EditError> {
        let table = self.path_table(path, entries)?;
        let u = table.parameter(finite("s", s)?);
        Ok(self.scene.paths[path].path.point(u))
    }

    /// The table's `(length error, lookup error)` against numerical
    /// integration (see [`ArcLengthTable::error`]).
    pub fn path_error(&self, path: usize, entries: usize) -> Result<(f32, f32), EditError> {
        let table = self.path_table(path, entries)?;
        Ok(table.error(&self.scene.paths[path].path, ERROR_SAMPLES))
    }

    /// Where path `path` puts its rider at `time`, by a table of `entries`.
    pub fn path_position(&self, path: usize, time: f32, entries: usize) -> Result<Vec3, EditError> {
        let table = self.path_table(path, entries)?;
        let ride = &self.scene.paths[path];
        Ok(ride
            .path
            .point(ride.parameter_at(&table, finite("time", time)?)))
    }

    /// Moves each path's bone so that its origin is where the path puts it
    /// at `time`: the translation `t = F_i⁻¹ · p` in the bone's rest frame,
    /// `F_i` its posed frame without its own animation. Parents first, so a
    /// child on a path rides its parent's path too.
    pub fn apply_paths(&mut self, time: f32, entries: usize) -> Result<(), EditError> {
        let time = finite("time", time)?;
        let mut riders: Vec<(usize, Vec3)> = Vec::new();
        for (k, ride) in self.scene.paths.iter().enumerate() {
            if let Some(bone) = ride.bone {
                riders.push((bone, self.path_position(k, time, entries)?));
            }
        }
        crate::rig::sorting::sort_stable_by_key(&mut riders, |&(bone, _)| bone);
        for (bone, point) in riders {
            let unanimated = self.model_from_bone_unanimated(bone)?;
            self.scene.pose[bone].translation = unanimated.inverse().transform_point3(point);
            self.changed();
        }
        Ok(())
    }
}

/// `2·atan2(q_xyz · axis, q_w)`, wrapped to `(−π, π]`: the part of `q`'s
/// turn about `axis` (its twist).
fn twist_angle(q: Quat, axis: Vec3) -> f32 {
    let angle = 2.0 * Vec3::new(q.x, q.y, q.z).dot(axis).atan2(q.w);
    if angle > std::f32::consts::PI {
        angle - std::f32::consts::TAU
    } else if angle <= -std::f32::consts::PI {
        angle + std::f32::consts::TAU
    } else {
        angle
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::SkinningMethod;

    fn two_bone() -> Lab {
        Lab::example("two-bone").unwrap()
    }

    #[test]
    fn keys_from_poses_play_back() {
        let mut lab = two_bone();
        let clip = lab.add_animation("bend");
        lab.set_key(clip, 1, 0.0, Interpolation::Linear).unwrap();
        lab.set_bone_transform(1, BoneTransform::from_rotation(Quat::from_rotation_z(1.0)))
            .unwrap();
        lab.set_key(clip, 1, 2.0, Interpolation::Linear).unwrap();
        assert_eq!(lab.key_times(clip, 1).unwrap(), vec![0.0, 2.0]);
        assert_eq!(lab.animation_duration(clip).unwrap(), 2.0);
        lab.set_animation_time(clip, 0.5).unwrap();
        assert!(lab.scene().pose[1]
            .rotation
            .abs_diff_eq(Quat::from_rotation_z(0.25), 1e-5));
        let curve = lab.rotation_curve(clip, 1, 5).unwrap();
        for (k, angle) in curve.iter().enumerate() {
            assert!((angle - 0.25 * k as f32).abs() < 1e-5, "{curve:?}");
        }
        assert!(lab.move_key(clip, 1, 2.0, 1.0).unwrap());
        assert_eq!(lab.animation_duration(clip).unwrap(), 1.0);
        assert!(lab.remove_key(clip, 1, 0.0).unwrap());
        assert_eq!(
            lab.set_key(7, 1, 0.0, Interpolation::Step),
            Err(EditError::NoSuchClip {
                clip: 7,
                clip_count: 1
            })
        );
        assert!(matches!(
            lab.set_key(clip, 1, f32::NAN, Interpolation::Step),
            Err(EditError::Invalid(SceneError::NonFinite { .. }))
        ));
    }

    #[test]
    fn clips_and_paths_survive_the_scene_json() {
        let mut lab = two_bone();
        let clip = lab.add_animation("smooth");
        for (time, angle) in [(0.0, 0.0), (0.5, 0.8), (1.5, -0.4)] {
            lab.set_bone_transform(
                1,
                BoneTransform::from_rotation(Quat::from_rotation_z(angle)),
            )
            .unwrap();
            lab.set_key(clip, 1, time, Interpolation::CubicSpline)
                .unwrap();
        }
        let points = vec![
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(2.0, 1.0, 0.0),
            Vec3::new(3.0, 1.0, 0.0),
        ];
        lab.add_path(points, Some(0), 2.0, Timing::Ease).unwrap();
        let mut copy = Lab::from_json(&lab.scene_json()).unwrap();
        for time in [0.1, 0.7, 1.2] {
            lab.set_animation_time(clip, time).unwrap();
            lab.apply_paths(time, 256).unwrap();
            copy.set_animation_time(clip, time).unwrap();
            copy.apply_paths(time, 256).unwrap();
            let (a, b) = (
                lab.skinned_positions(SkinningMethod::Lbs).to_vec(),
                copy.skinned_positions(SkinningMethod::Lbs).to_vec(),
            );
            assert!(
                a.iter().zip(&b).all(|(p, q)| p.abs_diff_eq(*q, 1e-6)),
                "t = {time}"
            );
        }
        assert_eq!(copy.paths()[0].timing, Timing::Ease);
    }

    #[test]
    fn a_path_moves_its_bone_origin_onto_the_curve() {
        let mut lab = Lab::example("chain").unwrap();
        lab.set_bone_transform(0, BoneTransform::from_rotation(Quat::from_rotation_z(0.7)))
            .unwrap();
        let points = vec![
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(2.0, 1.0, 0.0),
            Vec3::new(3.0, 1.0, 0.0),
        ];
        let path = lab.add_path(points, Some(1), 1.0, Timing::Uniform).unwrap();
        lab.apply_paths(0.4, 512).unwrap();
        let expected = lab.path_position(path, 0.4, 512).unwrap();
        let origin = lab.model_from_bone_posed()[1].transform_point3(Vec3::ZERO);
        assert!(origin.abs_diff_eq(expected, 1e-5), "{origin} vs {expected}");
    }

    #[test]
    fn undo_covers_key_and_path_edits() {
        let mut lab = two_bone();
        lab.checkpoint();
        let clip = lab.add_animation("a");
        lab.checkpoint();
        lab.set_key(clip, 1, 0.5, Interpolation::Step).unwrap();
        lab.checkpoint();
        lab.move_key(clip, 1, 0.5, 1.5).unwrap();
        lab.checkpoint();
        let points = vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::ONE];
        lab.add_path(points, None, 1.0, Timing::Naive).unwrap();
        assert!(lab.undo());
        assert!(lab.paths().is_empty());
        assert!(lab.undo());
        assert_eq!(lab.key_times(clip, 1).unwrap(), vec![0.5]);
        assert!(lab.undo());
        assert_eq!(lab.key_times(clip, 1).unwrap(), Vec::<f32>::new());
        assert!(lab.undo());
        assert!(lab.animation_names().is_empty());
        assert!(lab.redo());
        assert_eq!(lab.animation_names(), vec!["a".to_owned()]);
    }
}
