//! The JS API of keyframe clips and paths: play a clip, author keys, ride
//! Bézier paths.

use glam::Vec3;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use super::{js_error, nullable, options, JsLab};
use crate::lab::index_from_f64;
use crate::rig::animation::Interpolation;
use crate::rig::path::Timing;
use crate::rig::pursuit::PursuitSetup;
use crate::scene::clip_doc::{interpolation_from_name, interpolation_name};

/// Table entries when a call does not say: the largest table, which keeps
/// length and lookup within 0.1 % of the integrated arc length even on
/// curly chains (`tests/node/arc-length.test.mjs`: ≤ 0.004 %). Chords
/// converge slowly where a chain nearly cusps: 256 entries were 0.57 % off,
/// 2048 still 0.18 %. Building it costs 65,536 curve points (well under a
/// millisecond); the page's own table size is the Animate panel's slider.
const DEFAULT_ENTRIES: usize = crate::rig::path::MAX_TABLE_ENTRIES;

/// `"step"`, `"linear"`, `"smooth"` (the page's words) or the glTF names.
fn interpolation(method: &str, name: Option<String>) -> Result<Interpolation, JsError> {
    let name = name.unwrap_or_else(|| "linear".to_owned());
    match name.as_str() {
        "step" => Ok(Interpolation::Step),
        "linear" => Ok(Interpolation::Linear),
        "smooth" => Ok(Interpolation::CubicSpline),
        other => interpolation_from_name(other).ok_or_else(|| {
            js_error(
                method,
                format!("interpolation '{other}' is not step, linear or smooth"),
            )
        }),
    }
}

fn timing(method: &str, name: &str) -> Result<Timing, JsError> {
    Timing::from_name(name).ok_or_else(|| {
        js_error(
            method,
            format!("timing '{name}' is not uniform, ease, naive or curve"),
        )
    })
}

fn entries(entries: Option<f64>) -> usize {
    entries
        .filter(|e| e.is_finite() && *e >= 0.0)
        .map_or(DEFAULT_ENTRIES, |e| e as usize)
}

fn index(method: &str, what: &'static str, value: f64) -> Result<usize, JsError> {
    index_from_f64(what, value).map_err(|e| js_error(method, e))
}

/// A path as the page reads and writes it.
#[derive(Serialize, Deserialize)]
struct PathView {
    #[serde(default)]
    name: String,
    points: Vec<f32>,
    #[serde(default)]
    bone: Option<u32>,
    duration: f32,
    timing: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    speed: Option<SpeedView>,
}

/// `{times, distances}`: a characteristic curve's points (seconds,
/// fractions of the length).
#[derive(Serialize, Deserialize)]
struct SpeedView {
    times: Vec<f32>,
    distances: Vec<f32>,
}

/// `{lengths, points}`: the table's `l_k` and `B(u_k)` (flat `x, y, z`).
#[derive(Serialize)]
struct TableView {
    lengths: Vec<f32>,
    points: Vec<f32>,
}

/// `{length, exactLength, lengthError, lookupError}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ErrorView {
    length: f32,
    exact_length: f32,
    length_error: f32,
    lookup_error: f32,
}

/// The arc-length table a pursuit places its point with: fine enough that
/// the point's speed is the one asked to 0.01 %.
const DEFAULT_PURSUIT_ENTRIES: usize = 8192;

/// `{targetSpeed, followerSpeed, lead, seconds, steps?}`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PursuitView {
    target_speed: f32,
    follower_speed: f32,
    #[serde(default)]
    lead: f32,
    seconds: f32,
    #[serde(default)]
    steps: Option<u32>,
}

/// `{times, targets, followers, distances}`.
#[derive(Serialize)]
struct PursuitRunView {
    times: Vec<f32>,
    targets: Vec<f32>,
    followers: Vec<f32>,
    distances: Vec<f32>,
}

/// `{vertexBytes, boneBytes}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct KeyframeBytesView {
    vertex_bytes: usize,
    bone_bytes: usize,
}

/// `lab.moveKey`'s times: `{from, to}`, seconds.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveOptions {
    from: f32,
    to: f32,
}

/// `lab.setKey`'s key: `{time, interpolation?}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyOptions {
    time: f32,
    #[serde(default)]
    interpolation: Option<String>,
}

/// `lab.setPathSpeedPoint`'s point: `{time, distance}` (seconds, the
/// fraction of the length).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpeedPointOptions {
    time: f32,
    distance: f32,
}

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// The names of the scene's clips.
    #[wasm_bindgen(js_name = animationNames)]
    pub fn animation_names(&self) -> Vec<String> {
        self.inner.animation_names()
    }

    /// Clip `clip`'s length in seconds.
    #[wasm_bindgen(js_name = animationDuration)]
    pub fn animation_duration(&self, clip: f64) -> Result<f32, JsError> {
        const METHOD: &str = "animationDuration";
        let clip = index(METHOD, "clip", clip)?;
        self.inner
            .animation_duration(clip)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Poses the skeleton as clip `clip` does at `time` seconds.
    #[wasm_bindgen(js_name = setAnimationTime)]
    pub fn set_animation_time(&mut self, clip: f64, time: f32) -> Result<(), JsError> {
        const METHOD: &str = "setAnimationTime";
        let clip = index(METHOD, "clip", clip)?;
        self.inner
            .set_animation_time(clip, time)
            .map_err(|e| js_error(METHOD, e))
    }

    /// `{clip, time}` as `setAnimationTime` last posed them, or `null` once
    /// anything else has changed.
    #[wasm_bindgen(js_name = animationTime)]
    pub fn animation_time(&self) -> JsValue {
        nullable(self.inner.animation_time().map(|(clip, time)| {
            let view = js_sys::Object::new();
            // Setting a key on a fresh plain object cannot fail.
            let _ = js_sys::Reflect::set(&view, &"clip".into(), &(clip as u32).into());
            let _ = js_sys::Reflect::set(&view, &"time".into(), &time.into());
            JsValue::from(view)
        }))
    }

    /// Clip `clip` as JSON, one entry of scene JSON's `"animations"`: what
    /// `addClipJson` and `setClipJson` take.
    #[wasm_bindgen(js_name = clipJson)]
    pub fn clip_json(&self, clip: f64) -> Result<String, JsError> {
        const METHOD: &str = "clipJson";
        let clip = index(METHOD, "clip", clip)?;
        self.inner.clip_json(clip).map_err(|e| js_error(METHOD, e))
    }

    /// Adds a clip given as JSON, one entry of scene JSON's `"animations"`
    /// (as the file readers' module hands a retargeted clip over),
    /// validated against this scene's bones; returns its index.
    #[wasm_bindgen(js_name = addClipJson)]
    pub fn add_clip_json(&mut self, json: &str) -> Result<usize, JsError> {
        self.inner
            .add_clip_json(json)
            .map_err(|e| js_error("addClipJson", e))
    }

    /// Replaces clip `clip` by a clip given as JSON, as `addClipJson`
    /// takes one.
    #[wasm_bindgen(js_name = setClipJson)]
    pub fn set_clip_json(&mut self, clip: f64, json: &str) -> Result<(), JsError> {
        const METHOD: &str = "setClipJson";
        let clip = index(METHOD, "clip", clip)?;
        self.inner
            .set_clip_json(clip, json)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Adds an empty clip; returns its index.
    #[wasm_bindgen(js_name = addAnimation)]
    pub fn add_animation(&mut self, name: &str) -> usize {
        self.inner.add_animation(name)
    }

    /// Keys bone `bone`'s current animation `A_i` in `clip` at `{time,
    /// interpolation?}`; `interpolation` is `"step"`, `"linear"` (the default) or `"smooth"`
    /// (CUBICSPLINE with Catmull-Rom tangents), for all the bone's keys.
    #[wasm_bindgen(js_name = setKey)]
    pub fn set_key(&mut self, clip: f64, bone: f64, key: JsValue) -> Result<(), JsError> {
        const METHOD: &str = "setKey";
        let clip = index(METHOD, "clip", clip)?;
        let bone = index(METHOD, "bone", bone)?;
        let KeyOptions {
            time,
            interpolation: interpolation_name,
        } = options(METHOD, key)?;
        let how = interpolation(METHOD, interpolation_name)?;
        self.inner
            .set_key(clip, bone, time, how)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Deletes bone `bone`'s key at `time`; false when there is none.
    #[wasm_bindgen(js_name = removeKey)]
    pub fn remove_key(&mut self, clip: f64, bone: f64, time: f32) -> Result<bool, JsError> {
        const METHOD: &str = "removeKey";
        let (clip, bone) = (index(METHOD, "clip", clip)?, index(METHOD, "bone", bone)?);
        self.inner
            .remove_key(clip, bone, time)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Moves bone `bone`'s key by `{from, to}`, seconds.
    #[wasm_bindgen(js_name = moveKey)]
    pub fn move_key(&mut self, clip: f64, bone: f64, times: JsValue) -> Result<bool, JsError> {
        const METHOD: &str = "moveKey";
        let (clip, bone) = (index(METHOD, "clip", clip)?, index(METHOD, "bone", bone)?);
        let MoveOptions { from, to } = options(METHOD, times)?;
        self.inner
            .move_key(clip, bone, from, to)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Bone `bone`'s key times in `clip`.
    #[wasm_bindgen(js_name = keyTimes)]
    pub fn key_times(&self, clip: f64, bone: f64) -> Result<Vec<f32>, JsError> {
        const METHOD: &str = "keyTimes";
        let (clip, bone) = (index(METHOD, "clip", clip)?, index(METHOD, "bone", bone)?);
        self.inner
            .key_times(clip, bone)
            .map_err(|e| js_error(METHOD, e))
    }

    /// How bone `bone`'s keys interpolate: `"STEP"`, `"LINEAR"`,
    /// `"CUBICSPLINE"`, or `null` without keys.
    #[wasm_bindgen(js_name = keyInterpolation)]
    pub fn key_interpolation(&self, clip: f64, bone: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "keyInterpolation";
        let (clip, bone) = (index(METHOD, "clip", clip)?, index(METHOD, "bone", bone)?);
        self.inner
            .key_interpolation(clip, bone)
            .map(|how| nullable(how.map(interpolation_name)))
            .map_err(|e| js_error(METHOD, e))
    }

    /// Makes all of bone `bone`'s keys in `clip` interpolate as named.
    #[wasm_bindgen(js_name = setKeyInterpolation)]
    pub fn set_key_interpolation(
        &mut self,
        clip: f64,
        bone: f64,
        name: String,
    ) -> Result<(), JsError> {
        const METHOD: &str = "setKeyInterpolation";
        let (clip, bone) = (index(METHOD, "clip", clip)?, index(METHOD, "bone", bone)?);
        let how = interpolation(METHOD, Some(name))?;
        self.inner
            .set_key_interpolation(clip, bone, how)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Bone `bone`'s signed rotation angle in radians at `samples` evenly
    /// spaced times over `clip`, for the page's angle graph.
    #[wasm_bindgen(js_name = rotationCurve)]
    pub fn rotation_curve(
        &mut self,
        clip: f64,
        bone: f64,
        samples: f64,
    ) -> Result<Vec<f32>, JsError> {
        const METHOD: &str = "rotationCurve";
        let (clip, bone) = (index(METHOD, "clip", clip)?, index(METHOD, "bone", bone)?);
        let samples = index(METHOD, "samples", samples)?;
        self.inner
            .rotation_curve(clip, bone, samples)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Keys the current morph weights in `clip` at `time`
    /// (`interpolation` as for [`JsLab::set_key`]).
    #[wasm_bindgen(js_name = setMorphKey)]
    pub fn set_morph_key(
        &mut self,
        clip: f64,
        time: f32,
        interpolation_name: Option<String>,
    ) -> Result<(), JsError> {
        const METHOD: &str = "setMorphKey";
        let clip = index(METHOD, "clip", clip)?;
        let how = interpolation(METHOD, interpolation_name)?;
        self.inner
            .set_morph_key(clip, time, how)
            .map_err(|e| js_error(METHOD, e))
    }

    /// The morph weight keys' times in `clip`.
    #[wasm_bindgen(js_name = morphKeyTimes)]
    pub fn morph_key_times(&self, clip: f64) -> Result<Vec<f32>, JsError> {
        const METHOD: &str = "morphKeyTimes";
        let clip = index(METHOD, "clip", clip)?;
        self.inner
            .morph_key_times(clip)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Deletes the morph weights' key at `time`; false when there is none.
    #[wasm_bindgen(js_name = removeMorphKey)]
    pub fn remove_morph_key(&mut self, clip: f64, time: f32) -> Result<bool, JsError> {
        const METHOD: &str = "removeMorphKey";
        let clip = index(METHOD, "clip", clip)?;
        self.inner
            .remove_morph_key(clip, time)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Moves the morph weights' key from `from` to `to` seconds.
    #[wasm_bindgen(js_name = moveMorphKey)]
    pub fn move_morph_key(&mut self, clip: f64, from: f32, to: f32) -> Result<bool, JsError> {
        const METHOD: &str = "moveMorphKey";
        let clip = index(METHOD, "clip", clip)?;
        self.inner
            .move_morph_key(clip, from, to)
            .map_err(|e| js_error(METHOD, e))
    }

    /// What one keyframe costs stored two ways: `{vertexBytes, boneBytes}`,
    /// every vertex's position (12 B each) against every bone's transform
    /// (40 B each).
    #[wasm_bindgen(js_name = keyframeBytes)]
    pub fn keyframe_bytes(&self) -> Result<JsValue, JsError> {
        let (vertex_bytes, bone_bytes) = self.inner.keyframe_bytes();
        serde_wasm_bindgen::to_value(&KeyframeBytesView {
            vertex_bytes,
            bone_bytes,
        })
        .map_err(|e| js_error("keyframeBytes", e))
    }

    // ----- paths -----

    /// Paths in the scene.
    #[wasm_bindgen(js_name = pathCount)]
    pub fn path_count(&self) -> usize {
        self.inner.paths().len()
    }

    /// Path `path` as `{name, points, bone, duration, timing}`.
    pub fn path(&self, path: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "path";
        let k = index(METHOD, "path", path)?;
        let ride = self.inner.paths().get(k).ok_or_else(|| {
            js_error(
                METHOD,
                format!(
                    "path {k} does not exist (the scene has {})",
                    self.inner.paths().len()
                ),
            )
        })?;
        let view = PathView {
            name: ride.name.clone(),
            points: ride
                .path
                .points()
                .iter()
                .flat_map(|p| p.to_array())
                .collect(),
            bone: ride.bone.map(|b| b as u32),
            duration: ride.duration,
            timing: ride.timing.name().to_owned(),
            speed: ride.speed.as_ref().map(|curve| SpeedView {
                times: curve.times().to_vec(),
                distances: curve.distances().to_vec(),
            }),
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error(METHOD, e))
    }

    /// Adds `{points: [x,y,z, …] (3n + 1 points), bone?, duration,
    /// timing}`; returns its index.
    #[wasm_bindgen(js_name = addPath)]
    pub fn add_path(&mut self, path: JsValue) -> Result<usize, JsError> {
        const METHOD: &str = "addPath";
        let view: PathView =
            serde_wasm_bindgen::from_value(path).map_err(|e| js_error(METHOD, e))?;
        if view.points.len() % 3 != 0 {
            return Err(js_error(METHOD, "points must be x, y, z per control point"));
        }
        let points = view.points.chunks_exact(3).map(Vec3::from_slice).collect();
        let timing = timing(METHOD, &view.timing)?;
        let index = self
            .inner
            .add_path(points, view.bone.map(|b| b as usize), view.duration, timing)
            .map_err(|e| js_error(METHOD, e))?;
        if let Some(speed) = view.speed {
            let set = self
                .inner
                .set_path_speed(index, speed.times, speed.distances)
                .and_then(|()| self.inner.set_path_timing(index, timing));
            if let Err(error) = set {
                self.inner.remove_last_path();
                return Err(js_error(METHOD, error));
            }
        }
        Ok(index)
    }

    /// Path `path`'s characteristic curve `{times, distances}` (seconds,
    /// fractions of the length), or `undefined`.
    #[wasm_bindgen(js_name = pathSpeed)]
    pub fn path_speed(&self, path: f64) -> Result<JsValue, JsError> {
        const METHOD: &str = "pathSpeed";
        let path = index(METHOD, "path", path)?;
        let curve = self
            .inner
            .path_speed(path)
            .map_err(|e| js_error(METHOD, e))?;
        match curve {
            None => Ok(JsValue::UNDEFINED),
            Some(curve) => serde_wasm_bindgen::to_value(&SpeedView {
                times: curve.times().to_vec(),
                distances: curve.distances().to_vec(),
            })
            .map_err(|e| js_error(METHOD, e)),
        }
    }

    /// Times path `path` by the characteristic curve `{times, distances}`:
    /// times in seconds, increasing; distances as fractions of the length,
    /// not decreasing, within 0–1 (Fritsch–Carlson monotone cubic between).
    #[wasm_bindgen(js_name = setPathSpeed)]
    pub fn set_path_speed(&mut self, path: f64, speed: JsValue) -> Result<(), JsError> {
        const METHOD: &str = "setPathSpeed";
        let path = index(METHOD, "path", path)?;
        let view: SpeedView =
            serde_wasm_bindgen::from_value(speed).map_err(|e| js_error(METHOD, e))?;
        self.inner
            .set_path_speed(path, view.times, view.distances)
            .map_err(|e| js_error(METHOD, e))
    }

    /// Drags point `point` of path `path`'s characteristic curve toward
    /// `{time, distance}`; it stops between its neighbours, so the curve
    /// stays monotone. Returns `[time, distance]` where it went.
    #[wasm_bindgen(js_name = setPathSpeedPoint)]
    pub fn set_path_speed_point(
        &mut self,
        path: f64,
        point: f64,
        at: JsValue,
    ) -> Result<Vec<f32>, JsError> {
        const METHOD: &str = "setPathSpeedPoint";
        let (path, point) = (index(METHOD, "path", path)?, index(METHOD, "point", point)?);
        let SpeedPointOptions { time, distance } = options(METHOD, at)?;
        self.inner
            .set_path_speed_point(path, point, time, distance)
            .map(|(t, d)| vec![t, d])
            .map_err(|e| js_error(METHOD, e))
    }

    /// The animation talk's pursuit on path `path`: `setup` is
    /// `{targetSpeed, followerSpeed, lead, seconds, steps}` (speeds and lead
    /// in model units; the point starts `lead` along the path, the car at
    /// its start); returns `{times, targets, followers, distances}` (points
    /// flat `x, y, z`).
    pub fn pursuit(&self, path: f64, setup: JsValue) -> Result<JsValue, JsError> {
        const METHOD: &str = "pursuit";
        let path = index(METHOD, "path", path)?;
        let asked: PursuitView =
            serde_wasm_bindgen::from_value(setup).map_err(|e| js_error(METHOD, e))?;
        let setup = PursuitSetup {
            target_speed: asked.target_speed,
            follower_speed: asked.follower_speed,
            lead: asked.lead,
            seconds: asked.seconds,
            steps: asked.steps.unwrap_or(600) as usize,
        };
        let run = self
            .inner
            .pursuit(path, setup, DEFAULT_PURSUIT_ENTRIES)
            .map_err(|e| js_error(METHOD, e))?;
        let flat = |points: &[Vec3]| points.iter().flat_map(|p| p.to_array()).collect();
        serde_wasm_bindgen::to_value(&PursuitRunView {
            targets: flat(&run.targets),
            followers: flat(&run.followers),
            times: run.times,
            distances: run.distances,
        })
        .map_err(|e| js_error(METHOD, e))
    }

    /// How far along the path (model units) its timing puts the rider at
    /// `time`: `s = L · V(t)` for the curve timing.
    #[wasm_bindgen(js_name = pathDistance)]
    pub fn path_distance(
        &self,
        path: f64,
        time: f32,
        table_entries: Option<f64>,
    ) -> Result<f32, JsError> {
        const METHOD: &str = "pathDistance";
        let path = index(METHOD, "path", path)?;
        self.inner
            .path_distance(path, time, entries(table_entries))
            .map_err(|e| js_error(METHOD, e))
    }

    /// Moves control point `point` of path `path` to `[x, y, z]`.
    #[wasm_bindgen(js_name = setPathPoint)]
    pub fn set_path_point(&mut self, path: f64, point: f64, at: Vec<f32>) -> Result<(), JsError> {
        const METHOD: &str = "setPathPoint";
        let (path, point) = (index(METHOD, "path", path)?, index(METHOD, "point", point)?);
        if at.len() != 3 {
            return Err(js_error(
                METHOD,
                format!("expected [x, y, z], got {} numbers", at.len()),
            ));
        }
        self.inner
            .set_path_point(path, point, Vec3::from_slice(&at))
            .map_err(|e| js_error(METHOD, e))
    }

    /// Sets path `path`'s timing: `"uniform"`, `"ease"`, `"naive"` or
    /// `"curve"` (its characteristic curve, a straight one if it has none).
    #[wasm_bindgen(js_name = setPathTiming)]
    pub fn set_path_timing(&mut self, path: f64, name: &str) -> Result<(), JsError> {
        const METHOD: &str = "setPathTiming";
        let path = index(METHOD, "path", path)?;
        let timing = timing(METHOD, name)?;
        self.inner
            .set_path_timing(path, timing)
            .map_err(|e| js_error(METHOD, e))
    }

    /// The path's length as a table of `entries` (default 65,536) sums it.
    #[wasm_bindgen(js_name = pathLength)]
    pub fn path_length(&self, path: f64, table_entries: Option<f64>) -> Result<f32, JsError> {
        const METHOD: &str = "pathLength";
        let path = index(METHOD, "path", path)?;
        self.inner
            .path_table(path, entries(table_entries))
            .map(|table| table.length())
            .map_err(|e| js_error(METHOD, e))
    }

    /// `[x, y, z]` at arc length `s` along the path.
    #[wasm_bindgen(js_name = pathPoint)]
    pub fn path_point(
        &self,
        path: f64,
        s: f32,
        table_entries: Option<f64>,
    ) -> Result<Vec<f32>, JsError> {
        const METHOD: &str = "pathPoint";
        let path = index(METHOD, "path", path)?;
        self.inner
            .path_point(path, s, entries(table_entries))
            .map(|p| p.to_array().to_vec())
            .map_err(|e| js_error(METHOD, e))
    }

    /// The curve parameter `u` at arc length `s`.
    #[wasm_bindgen(js_name = pathParameter)]
    pub fn path_parameter(
        &self,
        path: f64,
        s: f32,
        table_entries: Option<f64>,
    ) -> Result<f32, JsError> {
        const METHOD: &str = "pathParameter";
        let path = index(METHOD, "path", path)?;
        self.inner
            .path_table(path, entries(table_entries))
            .map(|table| table.parameter(s))
            .map_err(|e| js_error(METHOD, e))
    }

    /// `[x, y, z]` where the path's timing puts its rider at `time`.
    #[wasm_bindgen(js_name = pathPosition)]
    pub fn path_position(
        &self,
        path: f64,
        time: f32,
        table_entries: Option<f64>,
    ) -> Result<Vec<f32>, JsError> {
        const METHOD: &str = "pathPosition";
        let path = index(METHOD, "path", path)?;
        self.inner
            .path_position(path, time, entries(table_entries))
            .map(|p| p.to_array().to_vec())
            .map_err(|e| js_error(METHOD, e))
    }

    /// The animation talk's table: `{lengths, points}` of its `entries` samples.
    #[wasm_bindgen(js_name = pathTable)]
    pub fn path_table(&self, path: f64, table_entries: Option<f64>) -> Result<JsValue, JsError> {
        const METHOD: &str = "pathTable";
        let k = index(METHOD, "path", path)?;
        let table = self
            .inner
            .path_table(k, entries(table_entries))
            .map_err(|e| js_error(METHOD, e))?;
        let curve = &self.inner.paths()[k].path;
        let view = TableView {
            lengths: table.lengths().to_vec(),
            points: (0..table.lengths().len())
                .flat_map(|e| curve.point(table.parameter_of_entry(e)).to_array())
                .collect(),
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error(METHOD, e))
    }

    /// How far a table of `entries` is off: `{length, exactLength,
    /// lengthError, lookupError}` against Gauss–Legendre integration.
    #[wasm_bindgen(js_name = pathError)]
    pub fn path_error(&self, path: f64, table_entries: Option<f64>) -> Result<JsValue, JsError> {
        const METHOD: &str = "pathError";
        let k = index(METHOD, "path", path)?;
        let size = entries(table_entries);
        let (length_error, lookup_error) = self
            .inner
            .path_error(k, size)
            .map_err(|e| js_error(METHOD, e))?;
        let length = self
            .inner
            .path_table(k, size)
            .map_err(|e| js_error(METHOD, e))?
            .length();
        let view = ErrorView {
            length,
            exact_length: length - length_error,
            length_error,
            lookup_error,
        };
        serde_wasm_bindgen::to_value(&view).map_err(|e| js_error(METHOD, e))
    }

    /// Moves every path's bone onto its path at `time`.
    #[wasm_bindgen(js_name = applyPaths)]
    pub fn apply_paths(&mut self, time: f32, table_entries: Option<f64>) -> Result<(), JsError> {
        self.inner
            .apply_paths(time, entries(table_entries))
            .map_err(|e| js_error("applyPaths", e))
    }
}
