//! An FBX file's takes as glTF animations: each animated model's
//! translation, rotation and scale sampled at its keys (and between them
//! where glTF's interpolation would leave FBX's path), each mesh's animated
//! blend shapes as a weights channel.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use glam::{DMat4, DQuat, DVec3};
use serde_json::{json, Value};

use super::animation::{sample, Curves3, Take};
use super::basis::Basis;
use super::geometry::ReadMesh;
use super::models::{inheritance_of, Frame, Models};
use super::transform::{column_lengths, reciprocal, Inheritance, Values};
use super::FbxError;
use crate::formats::gltf_write::{floats, Builder, FLOAT};

/// One take as a glTF animation: per animated model a translation,
/// rotation and scale channel for what its curves move (all three where
/// pivots or offsets tie them), per mesh with animated shapes a weights
/// channel.
pub(super) fn clip(
    take: &Take,
    models: &Models,
    meshes: &[ReadMesh],
    basis: &Basis,
    builder: &mut Builder,
) -> Result<Value, FbxError> {
    let mut channels = Channels::default();
    let scene = TakeScene::of(take, models);
    for node in (0..models.list.len()).filter(|&n| scene.animated[n]) {
        model_channels(&scene, node, basis, &mut |path, times, values, kind| {
            channels.add(builder, (node, path), times, values, kind);
        });
    }
    for (k, &frame) in models.frames.iter().enumerate() {
        if let Some((times, scales)) = frame_scales(&scene, frame, basis) {
            let node = models.list.len() + k;
            channels.add(builder, (node, "scale"), &times, scales, "VEC3");
        }
    }
    for mesh in meshes {
        if let Some((times, weights)) = shape_weights(take, mesh) {
            channels.add(builder, (mesh.node, "weights"), &times, weights, "SCALAR");
        }
    }
    if scene.steps.get() > MAX_INHERIT_STEPS {
        return Err(FbxError::InheritanceTooDeep {
            take: take.name.clone(),
            max: MAX_INHERIT_STEPS,
        });
    }
    Ok(json!({"name": take.name, "samplers": channels.samplers, "channels": channels.channels}))
}

/// The most steps (a model's world composed at a time, a parent's scale
/// compared between two times) a take may take to follow its models'
/// parents' uneven scales: a bound on a hostile file's long chain of such
/// models, each following all of its ancestors' scales (1,000 of them over
/// 60 keys would take 30 million), far above a character's (100 models
/// over 10,000 keys, each following a few scaled ancestors, about 3
/// million).
pub const MAX_INHERIT_STEPS: usize = 10_000_000;

/// A glTF animation's samplers and channels as they are written.
#[derive(Default)]
struct Channels {
    samplers: Vec<Value>,
    channels: Vec<Value>,
}

impl Channels {
    /// A linear sampler of `values` (of glTF type `kind`) at `times`, and
    /// the channel that drives `path` of node `node` by it.
    fn add(
        &mut self,
        builder: &mut Builder,
        (node, path): (usize, &str),
        times: &[f32],
        values: Vec<f32>,
        kind: &str,
    ) {
        let input = builder.accessor(
            &floats(times.iter().copied()),
            None,
            json!({"componentType": FLOAT, "count": times.len(), "type": "SCALAR",
                   "min": [times[0]], "max": [times[times.len() - 1]]}),
        );
        let width = match kind {
            "VEC3" => 3,
            "VEC4" => 4,
            _ => 1,
        };
        let output = builder.accessor(
            &floats(values.iter().copied()),
            None,
            json!({"componentType": FLOAT, "count": values.len() / width, "type": kind}),
        );
        self.samplers
            .push(json!({"input": input, "output": output, "interpolation": "LINEAR"}));
        self.channels.push(
            json!({"sampler": self.samplers.len() - 1, "target": {"node": node, "path": path}}),
        );
    }
}

/// Takes a channel as `(path, times, values, glTF type)`.
type AddChannel<'a> = dyn FnMut(&str, &[f32], Vec<f32>, &str) + 'a;

/// Model `node`'s translation, rotation and scale through the take,
/// sampled at its keys (and between them where glTF's interpolation would
/// leave FBX's path, see [`refined`]); hands `add` each channel it moves
/// as `(path, times, values, kind)`.
fn model_channels(scene: &TakeScene, node: usize, basis: &Basis, add: &mut AddChannel<'_>) {
    let curves = scene.curves(node);
    let parts = &scene.models.parts[node];
    let sources = scene.scale_sources(node);
    let pivoted = [
        parts.rotation_offset,
        parts.rotation_pivot,
        parts.scaling_offset,
        parts.scaling_pivot,
    ]
    .iter()
    .any(|v| *v != DVec3::ZERO);
    let turns_or_scales = curves[1].iter().chain(&curves[2]).any(Option::is_some);
    let leaves_path = |t0: f64, t1: f64| {
        let (s0, s1) = (
            sample(&curves[2], t0, parts.scale),
            sample(&curves[2], t1, parts.scale),
        );
        (pivoted && turns_or_scales)
            || (0..3).any(|k| s0[k] * s1[k] <= 0.0 && s0[k] != s1[k])
            || (scene.step(sources.list.len()) && sources.changes(t0, t1))
    };
    let own = curves.iter().flatten().flatten();
    let keys = refined(&Take::times(own.chain(sources.curves())), leaves_path);
    let (times, keys) = key_times_of(keys);
    if times.is_empty() {
        return;
    }
    let mut trs = [Vec::new(), Vec::new(), Vec::new()];
    let mut previous: Option<DQuat> = None;
    for &time in &keys {
        let values = scene.values(node, time);
        let how = scene.inheritance(node, time);
        let local = parts.graph_local(values, how);
        let rotation = parts.rotation_with(values.1);
        let (t, mut r, s) = basis.local_trs(local, rotation, how.scale_of(values.2));
        // Each rotation on the side of the one before, so that glTF's
        // slerp takes the short way between them.
        if previous.is_some_and(|p| p.dot(r) < 0.0) {
            r = -r;
        }
        previous = Some(r);
        trs[0].extend(t.as_vec3().to_array());
        trs[1].extend(r.as_quat().to_array());
        trs[2].extend(s.as_vec3().to_array());
    }
    let [translations, rotations, scales] = trs;
    let inherits = sources.curves().next().is_some();
    let framed = scene.models.frame[node] != Frame::None;
    let moves = |k: usize| {
        pivoted || curves[k].iter().any(Option::is_some) || (inherits && (k == 2 || framed))
    };
    if moves(0) {
        add("translation", &times, translations, "VEC3");
    }
    if moves(1) {
        add("rotation", &times, rotations, "VEC4");
    }
    if moves(2) {
        add("scale", &times, scales, "VEC3");
    }
}

/// The scale of the frame node `(parent, frame)` through the take (see
/// [`Models::frames`]), where the take changes it: its times and scales.
fn frame_scales(
    scene: &TakeScene,
    (parent, frame): (usize, Frame),
    basis: &Basis,
) -> Option<(Vec<f32>, Vec<f32>)> {
    let sources = scene.frame_sources(parent, frame);
    sources.curves().next()?;
    let keys = refined(&Take::times(sources.curves()), |t0, t1| {
        scene.step(sources.list.len()) && sources.changes(t0, t1)
    });
    let (times, keys) = key_times_of(keys);
    let mut scales = Vec::with_capacity(3 * keys.len());
    for &time in &keys {
        let undone = reciprocal(scene.frame_scale(parent, frame, time));
        let (_, _, s) = basis.local_trs(DMat4::from_scale(undone), DQuat::IDENTITY, undone);
        scales.extend(s.as_vec3().to_array());
    }
    Some((times, scales))
}

/// `mesh`'s blend shape weights through `take` at their keys (times and
/// the weights of every shape at each), where the take animates any.
fn shape_weights(take: &Take, mesh: &ReadMesh) -> Option<(Vec<f32>, Vec<f32>)> {
    let animated: Vec<_> = mesh
        .shapes
        .iter()
        .filter_map(|s| take.channels.get(&s.channel))
        .collect();
    if animated.is_empty() {
        return None;
    }
    let (times, keys) = key_times(animated.iter().copied());
    let mut values = Vec::with_capacity(keys.len() * mesh.shapes.len());
    for &time in &keys {
        for shape in &mesh.shapes {
            let w = take
                .channels
                .get(&shape.channel)
                .map_or(shape.weight, |c| c.at(time) / 100.0);
            values.push(w as f32);
        }
    }
    Some((times, values))
}

/// A take over the models: each model's curves, and whether the take
/// moves it (its curves, or a parent's scale it takes part of, see
/// [`Inheritance`]).
struct TakeScene<'t, 'm, 'o, 'a> {
    take: &'t Take,
    models: &'m Models<'o, 'a>,
    animated: Vec<bool>,
    /// Per model, itself or its nearest ancestor whose scale the take
    /// animates.
    scaled_up: Vec<Option<usize>>,
    /// Worlds composed so far, by model and time's bits.
    worlds: RefCell<HashMap<(usize, u64), DMat4>>,
    /// Steps taken (see [`MAX_INHERIT_STEPS`]); past it, parents' scales
    /// are no longer followed and [`clip`] refuses the take.
    steps: Cell<usize>,
}

/// Curves of models whose scale another model's transform depends on.
struct ScaleSources<'t> {
    list: Vec<(&'t Curves3, DVec3)>,
}

impl ScaleSources<'_> {
    /// The curves that move the dependent model.
    fn curves(&self) -> impl Iterator<Item = &super::animation::Curve> {
        self.list.iter().flat_map(|(c, _)| c.iter().flatten())
    }

    /// Whether any of the scales differs at `t0` and `t1`: the dependent
    /// transform then leaves a straight line between them.
    fn changes(&self, t0: f64, t1: f64) -> bool {
        self.list
            .iter()
            .any(|(c, rest)| sample(c, t0, *rest) != sample(c, t1, *rest))
    }
}

impl<'t, 'm, 'o, 'a> TakeScene<'t, 'm, 'o, 'a> {
    fn of(take: &'t Take, models: &'m Models<'o, 'a>) -> Self {
        let mut scaled_up: Vec<Option<usize>> = Vec::with_capacity(models.list.len());
        for n in 0..models.list.len() {
            let scaled = take
                .models
                .get(&models.list[n].id)
                .is_some_and(|c| c[2].iter().any(Option::is_some));
            let above = models.parent[n].and_then(|p| scaled_up[p]);
            scaled_up.push(if scaled { Some(n) } else { above });
        }
        let mut scene = TakeScene {
            take,
            models,
            animated: Vec::new(),
            scaled_up,
            worlds: RefCell::new(HashMap::new()),
            steps: Cell::new(0),
        };
        // Moved by its curves, or by a parent's scale it follows: the
        // parent's own (`Rrs`), or the parent's or an ancestor's (`RrSs`).
        scene.animated = (0..models.list.len())
            .map(|n| {
                let parent = models.parent[n];
                take.models.contains_key(&models.list[n].id)
                    || match parent {
                        Some(p) if models.parts[n].inherit == 2 => scene.scaled_up[p] == Some(p),
                        Some(p) if models.frame[n] == Frame::World => scene.scaled_up[p].is_some(),
                        _ => false,
                    }
            })
            .collect();
        scene
    }

    /// Model `n`'s translation, rotation and scale curves.
    fn curves(&self, n: usize) -> &'t [Curves3; 3] {
        const STILL: &[Curves3; 3] = &[[None, None, None], [None, None, None], [None, None, None]];
        self.take
            .models
            .get(&self.models.list[n].id)
            .unwrap_or(STILL)
    }

    /// Model `n`'s `Lcl` values at `time`.
    fn values(&self, n: usize, time: f64) -> Values {
        let parts = &self.models.parts[n];
        let curves = self.curves(n);
        (
            sample(&curves[0], time, parts.translation),
            sample(&curves[1], time, parts.rotation),
            sample(&curves[2], time, parts.scale),
        )
    }

    /// The models whose scale curves move model `n` through its parent's
    /// scale: the parent for `Rrs`, the parent and its ancestors for a
    /// model under an `RrSs` frame.
    fn scale_sources(&self, n: usize) -> ScaleSources<'t> {
        match self.models.parent[n] {
            Some(p) if self.models.parts[n].inherit == 2 => self.frame_sources(p, Frame::Own),
            Some(p) if self.models.frame[n] == Frame::World => self.frame_sources(p, Frame::World),
            _ => ScaleSources { list: Vec::new() },
        }
    }

    /// The models whose scale curves move the frame `(parent, frame)`.
    fn frame_sources(&self, parent: usize, frame: Frame) -> ScaleSources<'t> {
        let of = |m: usize| {
            let rest = self.models.parts[m].scale;
            (&self.curves(m)[2], rest)
        };
        let list = match frame {
            Frame::None => Vec::new(),
            Frame::Own => vec![of(parent)],
            Frame::World => {
                // The scaled ancestors, one step each.
                let mut list = Vec::new();
                let mut next = self.scaled_up[parent];
                while let Some(m) = next.filter(|_| self.step(1)) {
                    list.push(of(m));
                    next = self.models.parent[m].and_then(|p| self.scaled_up[p]);
                }
                list
            }
        };
        let list = list
            .into_iter()
            .filter(|(c, _)| c.iter().any(Option::is_some))
            .collect();
        ScaleSources { list }
    }

    /// How model `n` takes its parent's scale at `time`.
    fn inheritance(&self, n: usize, time: f64) -> Inheritance {
        match self.models.parent[n] {
            Some(p) if self.models.frame[n] == Frame::World => {
                self.inheritance_under(n, time, self.world_at(p, time))
            }
            _ => self.inheritance_under(n, time, DMat4::IDENTITY),
        }
    }

    /// How model `n` takes its parent's scale at `time`, its parent's
    /// world then being `parent_world` (used only under an `RrSs` frame).
    fn inheritance_under(&self, n: usize, time: f64, parent_world: DMat4) -> Inheritance {
        let Some(p) = self.models.parent[n] else {
            return Inheritance::Whole;
        };
        let inherit = self.models.parts[n].inherit;
        let own = self.values(p, time).2.abs();
        inheritance_of(inherit, self.models.frame[n], own, parent_world)
    }

    /// The scale the frame `(parent, frame)` undoes at `time`.
    fn frame_scale(&self, parent: usize, frame: Frame, time: f64) -> DVec3 {
        match frame {
            Frame::World => column_lengths(self.world_at(parent, time)),
            _ => self.values(parent, time).2.abs(),
        }
    }

    /// Takes `count` steps; whether the take is still within
    /// [`MAX_INHERIT_STEPS`].
    fn step(&self, count: usize) -> bool {
        self.steps.set(self.steps.get().saturating_add(count));
        self.steps.get() <= MAX_INHERIT_STEPS
    }

    /// Model `m`'s world at `time`, as the scene graph composes it: from
    /// its nearest ancestor whose world at `time` is known down, each
    /// world kept (at most a million, then all forgotten). Past
    /// [`MAX_INHERIT_STEPS`], the rest world.
    fn world_at(&self, m: usize, time: f64) -> DMat4 {
        let key = |a: usize| (a, time.to_bits());
        let mut path = Vec::new();
        let mut world = DMat4::IDENTITY;
        let mut next = Some(m);
        while let Some(a) = next {
            if let Some(known) = self.worlds.borrow().get(&key(a)) {
                world = *known;
                break;
            }
            path.push(a);
            next = self.models.parent[a];
        }
        if !self.step(path.len()) {
            return self.models.world[m];
        }
        let mut worlds = self.worlds.borrow_mut();
        if worlds.len() + path.len() > 1 << 20 {
            worlds.clear();
        }
        for &a in path.iter().rev() {
            let how = self.inheritance_under(a, time, world);
            if let Inheritance::Frame { scale, .. } = how {
                world *= DMat4::from_scale(reciprocal(scale));
            }
            world *= if self.animated[a] {
                let parts = &self.models.parts[a];
                parts.graph_local(self.values(a, time), how)
            } else {
                self.models.local[a]
            };
            worlds.insert(key(a), world);
        }
        world
    }
}

/// Samples a second where a model's keys alone would not follow FBX's
/// path: glTF interpolates each key's translation, rotation (slerp) and
/// scale, FBX each Euler angle and scale curve and composes them. The two
/// are close between keys unless pivots or offsets tie translation to the
/// turn, a scale changes sign (a mirror cannot be slerped), or a parent's
/// changing scale is taken out of the model's. Between two
/// keys an angle apart by 180° or more, the turn takes the short way, as
/// three.js's `FBXLoader` turns it, not the Euler curve's long way.
const DENSE_SAMPLES_PER_SECOND: f64 = 60.0;

/// The most samples [`refined`] adds for one model.
const MAX_ADDED_SAMPLES: usize = 1 << 20;

/// `keys` with samples between two keys where `leaves_path` says glTF's
/// interpolation would leave FBX's path (at most 240 a span, and at most
/// [`MAX_ADDED_SAMPLES`] in all: past that the keys alone are kept).
fn refined(keys: &[f64], leaves_path: impl Fn(f64, f64) -> bool) -> Vec<f64> {
    let mut out = Vec::with_capacity(keys.len());
    for pair in keys.windows(2) {
        let (t0, t1) = (pair[0], pair[1]);
        out.push(t0);
        if out.len() < keys.len() + MAX_ADDED_SAMPLES && leaves_path(t0, t1) {
            let steps = ((t1 - t0) * DENSE_SAMPLES_PER_SECOND)
                .ceil()
                .clamp(2.0, 240.0) as usize;
            out.extend((1..steps).map(|k| t0 + (t1 - t0) * k as f64 / steps as f64));
        }
    }
    out.extend(keys.last());
    out
}

/// The key times of `curves` as glTF wants them (seconds as `f32`,
/// strictly increasing), and the same times in `f64` to sample at.
fn key_times<'c>(
    curves: impl IntoIterator<Item = &'c super::animation::Curve>,
) -> (Vec<f32>, Vec<f64>) {
    key_times_of(Take::times(curves))
}

/// `all` (sorted seconds) as glTF's strictly increasing `f32` times, and
/// the `f64` times kept.
fn key_times_of(all: Vec<f64>) -> (Vec<f32>, Vec<f64>) {
    let mut times: Vec<f32> = Vec::with_capacity(all.len());
    let mut keys = Vec::with_capacity(all.len());
    for t in all {
        let t32 = t as f32;
        if times.last().is_some_and(|&last| t32 <= last) {
            continue;
        }
        times.push(t32);
        keys.push(t);
    }
    (times, keys)
}
