//! An FBX file's takes as glTF animations: each animated model's
//! translation, rotation and scale sampled at its keys (and between them
//! where glTF's interpolation would leave FBX's path), each mesh's animated
//! blend shapes as a weights channel.

use glam::{DQuat, DVec3};
use serde_json::{json, Value};

use super::animation::{sample, Curves3, Take};
use super::basis::Basis;
use super::geometry::ReadMesh;
use super::models::Models;
use super::transform::TransformParts;
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
) -> Value {
    let mut channels = Channels::default();
    for node in animated_nodes(take, models) {
        model_channels(
            take,
            models,
            node,
            basis,
            &mut |path, times, values, kind| {
                channels.add(builder, (node, path), times, values, kind);
            },
        );
    }
    for mesh in meshes {
        if let Some((times, weights)) = shape_weights(take, mesh) {
            channels.add(builder, (mesh.node, "weights"), &times, weights, "SCALAR");
        }
    }
    json!({"name": take.name, "samplers": channels.samplers, "channels": channels.channels})
}

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

/// Model `node`'s translation, rotation and scale through `take`, sampled
/// at its keys (and between them where glTF's interpolation would leave
/// FBX's path, see [`refined`]); hands `add` each channel it moves as
/// `(path, times, values, kind)`.
fn model_channels(
    take: &Take,
    models: &Models,
    node: usize,
    basis: &Basis,
    add: &mut AddChannel<'_>,
) {
    const STILL: &[Curves3; 3] = &[[None, None, None], [None, None, None], [None, None, None]];
    let curves = take.models.get(&models.list[node].id).unwrap_or(STILL);
    let parts = TransformParts::of(models.list[node]);
    let parent_scale = ParentScale::of(take, models, node, parts.inherit);
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
            || parent_scale.changes(t0, t1)
    };
    let own = curves.iter().flatten().flatten();
    let keys = refined(&Take::times(own.chain(parent_scale.curves())), leaves_path);
    let (times, keys) = key_times_of(keys);
    if times.is_empty() {
        return;
    }
    let mut trs = [Vec::new(), Vec::new(), Vec::new()];
    let mut previous: Option<DQuat> = None;
    for &time in &keys {
        let (translation, euler, scale) = (
            sample(&curves[0], time, parts.translation),
            sample(&curves[1], time, parts.rotation),
            parent_scale.compensate(sample(&curves[2], time, parts.scale), time),
        );
        let local = parts.local_with(translation, euler, scale);
        let (t, mut r, s) = basis.local_trs(local, parts.rotation_with(euler), scale);
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
    let moves = |k: usize| {
        pivoted
            || curves[k].iter().any(Option::is_some)
            || (k == 2 && parent_scale.curves().next().is_some())
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

/// The models a take moves: those its curves animate, and those whose
/// parent's scale it animates and that do not inherit it (`Rrs`), in the
/// models' order.
fn animated_nodes(take: &Take, models: &Models) -> Vec<usize> {
    let scaled = |node: usize| {
        take.models
            .get(&models.list[node].id)
            .is_some_and(|curves| curves[2].iter().any(Option::is_some))
    };
    (0..models.list.len())
        .filter(|&node| {
            take.models.contains_key(&models.list[node].id)
                || (TransformParts::of(models.list[node]).inherit == 2
                    && models.parent[node].is_some_and(scaled))
        })
        .collect()
}

/// The parent's scale a model keeps out of its own (`InheritType` 2,
/// `Rrs`: Maya's segment scale compensation, where a joint's world is its
/// parent's world without the parent's scale, times its own transform).
/// In a scene graph, which inherits all of its parent's scale, the model's
/// scale is divided by the parent's at each moment (exact for a uniform
/// parent scale; a non-uniform one would need a shear).
enum ParentScale<'t> {
    /// The model inherits its parent's scale (`RrSs`, `RSrs`) or has none.
    Inherited,
    /// The parent's scale, as its curves give it or at rest.
    Kept(&'t Curves3, DVec3),
}

impl<'t> ParentScale<'t> {
    /// Model `node`'s, whose own `InheritType` is `inherit`.
    fn of(take: &'t Take, models: &Models, node: usize, inherit: u8) -> Self {
        const STILL: &Curves3 = &[None, None, None];
        match models.parent[node] {
            Some(parent) if inherit == 2 => {
                let curves = take
                    .models
                    .get(&models.list[parent].id)
                    .map_or(STILL, |c| &c[2]);
                ParentScale::Kept(curves, TransformParts::of(models.list[parent]).scale)
            }
            _ => ParentScale::Inherited,
        }
    }

    /// The parent's scale curves that move the model.
    fn curves(&self) -> impl Iterator<Item = &'t super::animation::Curve> {
        match self {
            ParentScale::Inherited => None,
            ParentScale::Kept(curves, _) => Some(curves.iter().flatten()),
        }
        .into_iter()
        .flatten()
    }

    /// Whether the parent's scale differs at `t0` and `t1`: the quotient
    /// then leaves a straight line between them.
    fn changes(&self, t0: f64, t1: f64) -> bool {
        match self {
            ParentScale::Inherited => false,
            ParentScale::Kept(curves, rest) => {
                sample(curves, t0, *rest) != sample(curves, t1, *rest)
            }
        }
    }

    /// `scale` with the parent's at `time` taken out.
    fn compensate(&self, scale: DVec3, time: f64) -> DVec3 {
        match self {
            ParentScale::Inherited => scale,
            ParentScale::Kept(curves, rest) => {
                let parent = sample(curves, time, *rest);
                let safe =
                    DVec3::select(parent.abs().cmpgt(DVec3::splat(1e-12)), parent, DVec3::ONE);
                scale / safe
            }
        }
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
