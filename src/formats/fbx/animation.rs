//! Clips: each `AnimationStack` (a take) is a clip by its own name. Its
//! first `AnimationLayer` holds curve nodes, each tied to a model's
//! `Lcl Translation`, `Lcl Rotation` or `Lcl Scaling`, or to a blend shape
//! channel's `DeformPercent`, with a curve (`KeyTime` in FBX ticks of
//! 1/46,186,158,000 s, `KeyValueFloat`) per axis. A model's keys are the
//! times of all its curves (and, within cubic segments, samples as dense
//! as keep straight lines between them near the curve); each axis is
//! sampled there as its keys say (`KeyAttrFlags`): linearly, held where a
//! key says its value is constant until the next, or along the Bézier a
//! cubic key's tangents make, as Maya, MotionBuilder and ufbx evaluate it
//! (user tangents from `KeyAttrDataFloat`'s slopes and weights, auto
//! and TCB tangents solved from the neighbouring keys); held past its ends. The
//! model's transform is composed at each sample as at rest.

use std::collections::{BTreeMap, HashMap};

use glam::DVec3;

use super::objects::{Object, Objects};
use super::tree::Value;
use super::FbxError;

/// FBX time ticks per second.
pub const TICKS_PER_SECOND: f64 = 46_186_158_000.0;

/// How a curve goes from one key to the next (`KeyAttrFlags`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Hold {
    /// Straight to the next key's value.
    Linear,
    /// This key's value until the next key (`Constant`).
    Previous,
    /// The next key's value from just after this key (`Constant|ConstantNext`).
    Next,
    /// Along a cubic Bézier in (time, value) from this key to the next.
    Cubic(Tangents),
}

/// A cubic segment's tangents: the slope (value per second) leaving this
/// key and arriving at the next, and how far along the segment's time each
/// tangent's control point reaches (a third when the key is not weighted).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tangents {
    /// The slope leaving this key, value per second.
    pub right_slope: f64,
    /// The slope arriving at the next key, value per second.
    pub left_slope: f64,
    /// How far along the segment's time the leaving tangent reaches, 0 to 1.
    pub right_weight: f64,
    /// How far back from the next key its arriving tangent reaches, 0 to 1.
    pub left_weight: f64,
}

impl Tangents {
    /// The value at `time` of the segment from `(t0, v0)` to `(t1, v1)`:
    /// the Bézier through `(t0, v0)`, `(t0 + a, v0 + a·s_r)`,
    /// `(t1 − b, v1 − b·s_l)`, `(t1, v1)` with `a = w_r (t1 − t0)` and
    /// `b = w_l (t1 − t0)`, its parameter found where its time is `time`
    /// (bisection: the time is monotonic for weights in [0, 1]).
    fn at(&self, (t0, v0): (f64, f64), (t1, v1): (f64, f64), time: f64) -> f64 {
        let span = t1 - t0;
        let (a, b) = (self.right_weight * span, self.left_weight * span);
        let xs = [t0, t0 + a, t1 - b, t1];
        let ys = [v0, v0 + a * self.right_slope, v1 - b * self.left_slope, v1];
        let bezier = |p: [f64; 4], u: f64| {
            let v = 1.0 - u;
            v * v * v * p[0] + 3.0 * v * v * u * p[1] + 3.0 * v * u * u * p[2] + u * u * u * p[3]
        };
        let (mut low, mut high) = (0.0, 1.0);
        for _ in 0..60 {
            let middle = 0.5 * (low + high);
            if bezier(xs, middle) < time {
                low = middle;
            } else {
                high = middle;
            }
        }
        bezier(ys, 0.5 * (low + high))
    }
}

/// `KeyAttrFlags`' constant interpolation bit.
const CONSTANT: i64 = 0x2;
/// `KeyAttrFlags`' cubic interpolation bit.
const CUBIC: i64 = 0x8;
/// `KeyAttrFlags`' bit for taking a constant segment's value from the next key.
const CONSTANT_NEXT: i64 = 0x100;
/// `KeyAttrFlags`' TCB tangent bit: the data are tension, continuity and bias.
const TANGENT_TCB: i64 = 0x200;
/// `KeyAttrFlags`' user tangent bit: the data are the slopes.
const TANGENT_USER: i64 = 0x400;
/// `KeyAttrFlags`' bits for a weighted right tangent and a weighted left
/// tangent of the next key.
const WEIGHTED_RIGHT: i64 = 0x0100_0000;
const WEIGHTED_NEXT_LEFT: i64 = 0x0200_0000;
/// A tangent's weight when the key is not weighted.
const DEFAULT_WEIGHT: f64 = 1.0 / 3.0;

/// How far glTF's linear keys may stray from a cubic segment, relative to
/// the curve's largest value.
pub const CUBIC_TOLERANCE: f64 = 1e-5;

/// The most halvings of one cubic segment (at most 1,023 samples in it).
pub const MAX_CUBIC_HALVINGS: u32 = 10;

/// The most samples within the cubic segments of one curve; past them the
/// keys alone are kept.
pub const MAX_CUBIC_SAMPLES: usize = 1 << 20;

/// How far before (or after) a key a held segment's step is sampled, seconds.
pub const STEP_SECONDS: f64 = 1e-4;

/// One animation curve: times in seconds and values.
#[derive(Clone, Debug)]
pub struct Curve {
    /// Key times, seconds, non-decreasing.
    pub times: Vec<f64>,
    /// Key values.
    pub values: Vec<f64>,
    /// How each key goes on to the next, one per key.
    pub holds: Vec<Hold>,
}

impl Curve {
    /// The times besides the keys where a held segment steps (just before
    /// the next key, or just after this one), so that linear interpolation
    /// between samples keeps the step within [`STEP_SECONDS`].
    pub fn step_times(&self) -> impl Iterator<Item = f64> + '_ {
        self.times
            .windows(2)
            .zip(&self.holds)
            .filter_map(|(pair, hold)| {
                let (t0, t1) = (pair[0], pair[1]);
                let step = STEP_SECONDS.min((t1 - t0) / 4.0);
                match hold {
                    Hold::Linear | Hold::Cubic(_) => None,
                    _ if step <= 0.0 => None,
                    Hold::Previous => Some(t1 - step),
                    Hold::Next => Some(t0 + step),
                }
            })
    }

    /// Times within each cubic segment where glTF's linear keys follow the
    /// curve: each segment is halved until the curve at a quarter, half
    /// and three quarters of every piece lies within [`CUBIC_TOLERANCE`]
    /// of the piece's straight line (relative to the curve's largest
    /// value, at most [`MAX_CUBIC_HALVINGS`] halvings deep and
    /// [`MAX_CUBIC_SAMPLES`] samples in all).
    pub fn cubic_times(&self) -> impl Iterator<Item = f64> + '_ {
        let scale = self.values.iter().fold(1e-6_f64, |m, v| m.max(v.abs()));
        let tolerance = CUBIC_TOLERANCE * scale;
        self.times
            .windows(2)
            .zip(&self.holds)
            .filter(|(pair, hold)| matches!(hold, Hold::Cubic(_)) && pair[1] > pair[0])
            .flat_map(move |(pair, _)| {
                let mut out = Vec::new();
                self.halve((pair[0], pair[1]), tolerance, MAX_CUBIC_HALVINGS, &mut out);
                out
            })
            .take(MAX_CUBIC_SAMPLES)
    }

    /// Pushes onto `out` the times within `(a, b)` where the curve must be
    /// sampled for straight lines between samples to stay within
    /// `tolerance` of it, in order.
    fn halve(&self, (a, b): (f64, f64), tolerance: f64, depth: u32, out: &mut Vec<f64>) {
        let (va, vb) = (self.at(a), self.at(b));
        let off = |f: f64| (self.at(a + (b - a) * f) - (va + (vb - va) * f)).abs();
        if depth == 0 || [0.25, 0.5, 0.75].iter().all(|&f| off(f) <= tolerance) {
            return;
        }
        let middle = 0.5 * (a + b);
        self.halve((a, middle), tolerance, depth - 1, out);
        out.push(middle);
        self.halve((middle, b), tolerance, depth - 1, out);
    }

    /// The value at `time`: linear between keys, held where the earlier
    /// key says so, along its Bézier where it is cubic, and held past the
    /// ends.
    pub fn at(&self, time: f64) -> f64 {
        let n = self.times.len();
        if time <= self.times[0] {
            return self.values[0];
        }
        if time >= self.times[n - 1] {
            return self.values[n - 1];
        }
        let k = self.times.partition_point(|&t| t <= time);
        let (t0, t1) = (self.times[k - 1], self.times[k]);
        match self.holds[k - 1] {
            Hold::Previous => return self.values[k - 1],
            Hold::Next if time > t0 => return self.values[k],
            Hold::Cubic(tangents) if t1 > t0 => {
                return tangents.at((t0, self.values[k - 1]), (t1, self.values[k]), time)
            }
            _ => {}
        }
        let f = if t1 > t0 {
            (time - t0) / (t1 - t0)
        } else {
            0.0
        };
        self.values[k - 1] + f * (self.values[k] - self.values[k - 1])
    }
}

/// A property's curves by axis (x, y, z).
pub type Curves3 = [Option<Curve>; 3];

/// What one take animates.
#[derive(Default)]
pub struct Take {
    /// The stack's name.
    pub name: String,
    /// Per model id: translation, rotation and scaling curves.
    pub models: BTreeMap<i64, [Curves3; 3]>,
    /// Per blend shape channel id: its `DeformPercent` curve.
    pub channels: HashMap<i64, Curve>,
}

impl Take {
    /// Every key time of the curves given, where their held segments step
    /// ([`Curve::step_times`]) and the samples within their cubic segments
    /// ([`Curve::cubic_times`]), sorted, without repeats.
    pub fn times<'a>(curves: impl IntoIterator<Item = &'a Curve>) -> Vec<f64> {
        let mut times: Vec<f64> = curves
            .into_iter()
            .flat_map(|c| {
                c.times
                    .iter()
                    .copied()
                    .chain(c.step_times())
                    .chain(c.cubic_times())
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times.dedup();
        times
    }
}

/// Samples a property's three axes at `time`, `rest` where an axis has no curve.
pub fn sample(curves: &Curves3, time: f64, rest: DVec3) -> DVec3 {
    let axis = |k: usize| curves[k].as_ref().map_or(rest[k], |c| c.at(time));
    DVec3::new(axis(0), axis(1), axis(2))
}

/// Reads every take of the file.
pub fn takes(objects: &Objects) -> Result<Vec<Take>, FbxError> {
    let mut takes = Vec::new();
    for stack in objects.list.iter().filter(|o| o.class == "AnimationStack") {
        let mut take = Take {
            name: stack.name.clone(),
            ..Take::default()
        };
        let Some((layer, _)) = objects.children_of_class(stack.id, "AnimationLayer").next() else {
            continue;
        };
        for (curve_node, _) in objects.children_of_class(layer.id, "AnimationCurveNode") {
            for target in objects.parents(curve_node.id) {
                let (Some(object), Some(property)) =
                    (objects.get(target.id), target.property.as_deref())
                else {
                    continue;
                };
                match (object.class, property) {
                    ("Model", "Lcl Translation" | "Lcl Rotation" | "Lcl Scaling") => {
                        let which = match property {
                            "Lcl Translation" => 0,
                            "Lcl Rotation" => 1,
                            _ => 2,
                        };
                        let slot = &mut take.models.entry(object.id).or_default()[which];
                        for (curve, link) in
                            objects.children_of_class(curve_node.id, "AnimationCurve")
                        {
                            let axis = match link.property.as_deref() {
                                Some(p) if p.ends_with('X') => 0,
                                Some(p) if p.ends_with('Y') => 1,
                                Some(p) if p.ends_with('Z') => 2,
                                _ => continue,
                            };
                            slot[axis] = Some(read_curve(curve)?);
                        }
                    }
                    ("Deformer", "DeformPercent") => {
                        if let Some((curve, _)) = objects
                            .children_of_class(curve_node.id, "AnimationCurve")
                            .next()
                        {
                            take.channels.insert(object.id, read_curve(curve)?);
                        }
                    }
                    _ => {}
                }
            }
        }
        take.models
            .retain(|_, curves| curves.iter().flatten().any(Option::is_some));
        if !take.models.is_empty() || !take.channels.is_empty() {
            takes.push(take);
        }
    }
    Ok(takes)
}

fn read_curve(curve: &Object) -> Result<Curve, FbxError> {
    let ticks = curve
        .required("KeyTime")?
        .ints()
        .ok_or_else(|| FbxError::Malformed {
            path: curve.at("KeyTime"),
            problem: "not an array of integers".to_owned(),
        })?;
    let values = curve
        .required("KeyValueFloat")?
        .reals()
        .ok_or_else(|| FbxError::Malformed {
            path: curve.at("KeyValueFloat"),
            problem: "not an array of numbers".to_owned(),
        })?;
    if ticks.len() != values.len() || ticks.is_empty() {
        return Err(FbxError::Malformed {
            path: curve.at("KeyValueFloat"),
            problem: format!("{} values for {} key times", values.len(), ticks.len()),
        });
    }
    if ticks.windows(2).any(|w| w[1] < w[0]) {
        return Err(FbxError::Malformed {
            path: curve.at("KeyTime"),
            problem: "the key times go backwards".to_owned(),
        });
    }
    if values.iter().any(|v| !v.is_finite()) {
        return Err(FbxError::Malformed {
            path: curve.at("KeyValueFloat"),
            problem: "a value is not finite".to_owned(),
        });
    }
    let times: Vec<f64> = ticks.iter().map(|&t| t as f64 / TICKS_PER_SECOND).collect();
    Ok(Curve {
        holds: solve_holds(&times, &values, &key_attributes(curve, values.len())),
        times,
        values,
    })
}

/// Each key's flags (`KeyAttrFlags`) and data (`KeyAttrDataFloat`, see
/// [`attribute_data`]) as `KeyAttrRefCount` hands them out: each attribute
/// to that many consecutive keys. Keys past what the counts cover, and
/// curves without flags or counts, are linear.
fn key_attributes(curve: &Object, keys: usize) -> Vec<(i64, Option<AttributeData>)> {
    let mut out = Vec::with_capacity(keys);
    let flags = curve.node.child("KeyAttrFlags").and_then(|n| n.ints());
    let counts = curve.node.child("KeyAttrRefCount").and_then(|n| n.ints());
    let data = attribute_data(curve);
    if let (Some(flags), Some(counts)) = (flags, counts) {
        for (attribute, (&flag, &count)) in flags.iter().zip(counts.iter()).enumerate() {
            // Never more than one a key, whatever the counts claim.
            let take = usize::try_from(count).unwrap_or(0).min(keys - out.len());
            out.extend(std::iter::repeat_n(
                (flag, data.get(attribute).copied()),
                take,
            ));
        }
    }
    out.resize(keys, (0, None));
    out
}

/// One attribute's data: the right slope, the next key's left slope, and
/// the two weights packed as 16-bit ten-thousandths, low then high.
#[derive(Clone, Copy, Debug, PartialEq)]
struct AttributeData {
    right_slope: f64,
    left_slope: f64,
    weights: u32,
}

/// `KeyAttrDataFloat`: four 32-bit floats per attribute (the slopes, the
/// packed weights, the packed velocities). A binary file stores them as
/// floats, the weights as a float's bits; an ASCII file writes each
/// float's bits as a signed integer.
fn attribute_data(curve: &Object) -> Vec<AttributeData> {
    let Some(node) = curve.node.child("KeyAttrDataFloat") else {
        return Vec::new();
    };
    let bits: Vec<u32> = match node.props.first() {
        Some(Value::Ints(ints)) => ints.iter().map(|&i| i as i32 as u32).collect(),
        _ => node
            .reals()
            .unwrap_or_default()
            .iter()
            .map(|&r| (r as f32).to_bits())
            .collect(),
    };
    bits.chunks_exact(4)
        .map(|four| AttributeData {
            right_slope: f64::from(f32::from_bits(four[0])),
            left_slope: f64::from(f32::from_bits(four[1])),
            weights: four[2],
        })
        .collect()
}

/// `KeyAttrFlags`' bits for solving auto tangents: flat next to a key of
/// the same value (`Clamp`), the slope from the neighbours alone
/// (`GenericTimeIndependent`), and no overshoot past either neighbour
/// (`GenericClampProgressive`).
const CLAMP: i64 = 0x1000;
const TIME_INDEPENDENT: i64 = 0x2000;
const CLAMP_PROGRESSIVE: i64 = 0x4000;

/// The steepest slope a tangent keeps, value per second.
const MAX_SLOPE: f64 = 1e12;

/// A key's tangent on one side: its slope (value per second) and how far
/// along the segment's time its control point reaches.
type Side = (f64, f64);

/// Each key's [`Hold`], from its flags and data, as Maya and ufbx read
/// them. A key carries the tangent arriving at it and the one leaving it;
/// a cubic segment runs from one key's leaving tangent to the next key's
/// arriving one. The data give a key's leaving slope and weight and the
/// next key's arriving ones; a linear key's tangents follow its straight
/// line, a constant key's are flat; a user-tangent key (`0x400`) keeps its
/// data's; an auto-tangent key (cubic without `0x400` or TCB) solves its
/// slopes from its neighbours (see [`Around`]), its data's slopes then
/// being its auto bias; a TCB key (`0x200`) mixes its two segments'
/// slopes by its tension, continuity and bias (see [`tcb_slopes`]).
fn solve_holds(times: &[f64], values: &[f64], keys: &[(i64, Option<AttributeData>)]) -> Vec<Hold> {
    let n = values.len();
    let mut arriving: Vec<Side> = Vec::with_capacity(n);
    let mut leaving: Vec<Side> = Vec::with_capacity(n);
    let mut kinds = Vec::with_capacity(n);
    let mut left: Side = (0.0, DEFAULT_WEIGHT);
    for (i, &(flag, data)) in keys.iter().enumerate().take(n) {
        let usable = data.filter(|d| d.right_slope.is_finite() && d.left_slope.is_finite());
        let d = usable.unwrap_or(AttributeData {
            right_slope: 0.0,
            left_slope: 0.0,
            weights: 0,
        });
        let weight = |weighted: bool, packed: u32| {
            if weighted {
                (f64::from(packed & 0xffff) * 1e-4).clamp(0.0, 1.0)
            } else {
                DEFAULT_WEIGHT
            }
        };
        let mut right: Side = (d.right_slope, weight(flag & WEIGHTED_RIGHT != 0, d.weights));
        let mut next_left: Side = (
            d.left_slope,
            weight(flag & WEIGHTED_NEXT_LEFT != 0, d.weights >> 16),
        );
        let user = flag & TANGENT_USER != 0;
        let tcb = flag & TANGENT_TCB != 0;
        let cubic = flag & CUBIC != 0 && (usable.is_some() || !user || tcb);
        let kind = if flag & CONSTANT != 0 {
            (right, next_left) = ((0.0, DEFAULT_WEIGHT), (0.0, DEFAULT_WEIGHT));
            if flag & CONSTANT_NEXT != 0 {
                Hold::Next
            } else {
                Hold::Previous
            }
        } else if cubic && tcb {
            let bias = f64::from(f32::from_bits(d.weights));
            (left.0, right.0) = tcb_slopes(times, values, i, (d.right_slope, d.left_slope, bias));
            // The segment arrives at the next key flat, as ufbx reads
            // MotionBuilder's TCB keys, unless that key solves its own.
            next_left = (0.0, DEFAULT_WEIGHT);
            Hold::Linear
        } else if cubic {
            if !user {
                let around = Around {
                    times,
                    values,
                    key: i,
                    flag,
                };
                (left.0, right.0) = around.slopes((left, right));
            }
            Hold::Linear
        } else {
            let slope = match (times.get(i + 1), values.get(i + 1)) {
                (Some(&t1), Some(&v1)) if t1 > times[i] => (v1 - values[i]) / (t1 - times[i]),
                _ => 0.0,
            };
            (right, next_left) = ((slope, DEFAULT_WEIGHT), (slope, DEFAULT_WEIGHT));
            Hold::Linear
        };
        kinds.push((kind, cubic && flag & CONSTANT == 0));
        arriving.push(left);
        leaving.push(right);
        left = next_left;
    }
    holds_of(&kinds, &arriving, &leaving)
}

/// Each key's hold from its kind (and whether its segment is cubic) and
/// the tangents arriving at and leaving each key: a cubic segment runs from
/// a key's leaving tangent to the next key's arriving one. A file's slopes,
/// or a bias it gives, may be absurd: they are kept within a bound that
/// keeps every value along the curve finite.
fn holds_of(kinds: &[(Hold, bool)], arriving: &[Side], leaving: &[Side]) -> Vec<Hold> {
    let bounded = |slope: f64| {
        if slope.is_finite() {
            slope.clamp(-MAX_SLOPE, MAX_SLOPE)
        } else {
            0.0
        }
    };
    let n = kinds.len();
    (0..n)
        .map(|i| match kinds[i] {
            (_, true) if i + 1 < n => Hold::Cubic(Tangents {
                right_slope: bounded(leaving[i].0),
                right_weight: leaving[i].1,
                left_slope: bounded(arriving[i + 1].0),
                left_weight: arriving[i + 1].1,
            }),
            (kind, _) => kind,
        })
        .collect()
}

/// A TCB key's arriving and leaving slopes (Kochanek–Bartels): the two
/// segments' slopes beside key `i`, mixed by its tension, continuity and
/// bias; halved between two keys, whole at an end, where the missing
/// segment's slope is 0 (as ufbx evaluates MotionBuilder's TCB keys).
fn tcb_slopes(
    times: &[f64],
    values: &[f64],
    i: usize,
    (tension, continuity, bias): (f64, f64, f64),
) -> (f64, f64) {
    let segment = |a: usize, b: usize| (values[b] - values[a]) / (times[b] - times[a]);
    let before = (i > 0 && times[i] > times[i - 1]).then(|| segment(i - 1, i));
    let after = (i + 1 < times.len() && times[i + 1] > times[i]).then(|| segment(i, i + 1));
    let factor = if before.is_some() && after.is_some() {
        0.5
    } else {
        1.0
    };
    let (s0, s1) = (before.unwrap_or(0.0), after.unwrap_or(0.0));
    let k = factor * (1.0 - tension);
    let arriving =
        k * ((1.0 + bias) * (1.0 - continuity) * s0 + (1.0 - bias) * (1.0 + continuity) * s1);
    let leaving =
        k * ((1.0 + bias) * (1.0 + continuity) * s0 + (1.0 - bias) * (1.0 - continuity) * s1);
    (arriving, leaving)
}

/// An auto-tangent key among its curve's keys.
struct Around<'c> {
    times: &'c [f64],
    values: &'c [f64],
    key: usize,
    flag: i64,
}

impl Around<'_> {
    /// The key's arriving and leaving slopes, given its tangents as the
    /// data set them (`left`, `right`: their slopes are the auto bias).
    /// Between two keys each side is solved with its own bias, or both
    /// alike where the biases cancel; at an end, the slope towards the one
    /// neighbour; a key alone is flat.
    fn slopes(&self, (left, right): (Side, Side)) -> (f64, f64) {
        let (t, i) = (self.times, self.key);
        let before = i > 0 && t[i] > t[i - 1];
        let after = i + 1 < t.len() && t[i + 1] > t[i];
        match (before, after) {
            (true, true) if (left.0 + right.0).abs() <= 1e-4 => {
                let slope = self.between((left.1, right.1), right.0);
                (slope, slope)
            }
            (true, true) => (
                self.between((left.1, right.1), -left.0),
                self.between((left.1, right.1), right.0),
            ),
            (true, false) => {
                let slope = self.one_side(i - 1, -left.0);
                (slope, slope)
            }
            (false, true) => {
                let slope = self.one_side(i + 1, right.0);
                (slope, slope)
            }
            (false, false) => (0.0, 0.0),
        }
    }

    /// The slope of a key between two others: the line through its
    /// neighbours, blended (unless time-independent) with the two
    /// segments' slopes and leaned by `bias` (percent) towards one of
    /// them; clamped flat next to an equal neighbour (`Clamp`), and cut so
    /// that neither tangent, `weights` long, passes its neighbour's value
    /// (`GenericClampProgressive`).
    fn between(&self, (weight_left, weight_right): (f64, f64), bias: f64) -> f64 {
        let (t, v, i) = (self.times, self.values, self.key);
        let (t0, t1, t2, v0, v1, v2) = (t[i - 1], t[i], t[i + 1], v[i - 1], v[i], v[i + 1]);
        if self.flag & CLAMP != 0 && (v0 - v1).abs().min((v2 - v1).abs()) <= 0.0 {
            return 0.0;
        }
        let mut slope = (v2 - v0) / (t2 - t0);
        if self.flag & TIME_INDEPENDENT == 0 {
            let (slope_left, slope_right) = ((v1 - v0) / (t1 - t0), (v2 - v1) / (t2 - t1));
            let along = (t1 - t0) / (t2 - t0);
            slope = 0.5 * slope + 0.5 * (slope_left * (1.0 - along) + slope_right * along);
            let lean = bias.abs() / 100.0;
            if lean > 1e-4 {
                let toward = if bias > 0.0 { slope_right } else { slope_left };
                let change = toward - slope;
                slope = slope * (1.0 - lean) + toward * lean;
                // A bias past 500 adds ((bias − 500) / 100)² · 40 outright.
                let beyond = lean - 5.0;
                if beyond > 0.0 {
                    let sign = if change.abs() > 1e-5 { change } else { bias };
                    slope += beyond * beyond * 40.0 * sign.signum();
                }
            }
        }
        if self.flag & CLAMP_PROGRESSIVE != 0 {
            let sign = if slope >= 0.0 { 1.0 } else { -1.0 };
            let limit = |rise: f64, run: f64| {
                let max = if run > 0.0 { sign * rise / run } else { 0.0 };
                if max > 0.0 {
                    max
                } else {
                    0.0
                }
            };
            let most = limit(v1 - v0, weight_left * (t1 - t0))
                .min(limit(v2 - v1, weight_right * (t2 - t1)));
            slope = sign * (sign * slope).min(most);
        }
        slope
    }

    /// The slope of an end key towards its one neighbour `other`: flat
    /// where `GenericClampProgressive` or (`Clamp`) an equal neighbour
    /// says so, else the segment's slope, plus what a bias past 500 adds.
    fn one_side(&self, other: usize, bias: f64) -> f64 {
        let (t, v, i) = (self.times, self.values, self.key);
        if self.flag & CLAMP_PROGRESSIVE != 0 || (self.flag & CLAMP != 0 && v[other] == v[i]) {
            return 0.0;
        }
        let mut slope = (v[other] - v[i]) / (t[other] - t[i]);
        if self.flag & TIME_INDEPENDENT == 0 {
            let beyond = bias.abs() / 100.0 - 5.0;
            if beyond > 0.0 {
                slope += beyond * beyond * 40.0 * bias.signum();
            }
        }
        slope
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_curve_is_linear_between_keys_and_held_past_its_ends() {
        let c = Curve {
            times: vec![0.0, 1.0, 3.0],
            values: vec![0.0, 10.0, 30.0],
            holds: vec![Hold::Linear; 3],
        };
        assert_eq!(c.at(-1.0), 0.0);
        assert_eq!(c.at(0.5), 5.0);
        assert_eq!(c.at(2.0), 20.0);
        assert_eq!(c.at(1.0), 10.0);
        assert_eq!(c.at(9.0), 30.0);
    }

    #[test]
    fn a_cubic_segment_with_flat_tangents_eases_in_and_out() {
        let flat = Tangents {
            right_slope: 0.0,
            left_slope: 0.0,
            right_weight: DEFAULT_WEIGHT,
            left_weight: DEFAULT_WEIGHT,
        };
        let c = Curve {
            times: vec![0.0, 1.0],
            values: vec![0.0, 1.0],
            holds: vec![Hold::Cubic(flat), Hold::Linear],
        };
        // Weights of a third make the Bézier a Hermite cubic: 3t² − 2t³.
        for t in [0.1, 0.25, 0.5, 0.8] {
            let hermite = 3.0 * t * t - 2.0 * t * t * t;
            assert!((c.at(t) - hermite).abs() < 1e-12, "{t}: {}", c.at(t));
        }
        // Sampled densely enough that straight lines between the samples
        // stay within the tolerance of the curve.
        let mut times = vec![0.0];
        times.extend(c.cubic_times());
        times.push(1.0);
        assert!(times.len() > 8, "{} samples", times.len());
        for pair in times.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let middle = c.at(0.5 * (a + b));
            assert!((middle - 0.5 * (c.at(a) + c.at(b))).abs() <= 2.0 * CUBIC_TOLERANCE);
        }
    }

    #[test]
    fn a_weighted_tangent_takes_its_weight_from_the_packed_bits() {
        let data = AttributeData {
            right_slope: 2.0,
            left_slope: -1.0,
            weights: 5000 | (2000 << 16),
        };
        // The first of two keys `flag` with `data`, the second linear.
        let first = |flag: i64, data: Option<AttributeData>| {
            solve_holds(&[0.0, 1.0], &[0.0, 1.0], &[(flag, data), (0, None)])[0]
        };
        let hold = first(CUBIC | TANGENT_USER | WEIGHTED_RIGHT, Some(data));
        let Hold::Cubic(tangents) = hold else {
            panic!("{hold:?}")
        };
        assert_eq!(tangents.right_weight, 0.5);
        assert_eq!((tangents.right_slope, tangents.left_slope), (2.0, -1.0));
        assert_eq!(
            tangents.left_weight, DEFAULT_WEIGHT,
            "the left tangent is not weighted"
        );
        assert_eq!(first(CUBIC | TANGENT_USER, None), Hold::Linear);
        assert_eq!(first(CONSTANT | CONSTANT_NEXT, Some(data)), Hold::Next);
    }

    #[test]
    fn a_tcb_key_of_no_tension_continuity_or_bias_is_catmull_rom() {
        let plain = AttributeData {
            right_slope: 0.0,
            left_slope: 0.0,
            weights: 0.0_f32.to_bits(),
        };
        let key = (CUBIC | TANGENT_TCB, Some(plain));
        let keys = [key; 3];
        let holds = solve_holds(&[0.0, 1.0, 3.0], &[0.0, 2.0, 0.0], &keys);
        let tangents = |hold: Hold| match hold {
            Hold::Cubic(t) => t,
            other => panic!("{other:?}"),
        };
        // The middle key's slope is the mean of its segments' (2 and −1);
        // an end key's is its one segment's.
        let (first, second) = (tangents(holds[0]), tangents(holds[1]));
        assert_eq!((first.right_slope, first.left_slope), (2.0, 0.5));
        assert_eq!((second.right_slope, second.left_slope), (0.5, -1.0));
        // A TCB key's segment arrives flat at a key with user tangents.
        let user = (
            CUBIC | TANGENT_USER,
            Some(AttributeData {
                right_slope: 3.0,
                ..plain
            }),
        );
        let holds = solve_holds(&[0.0, 1.0], &[0.0, 2.0], &[keys[0], user]);
        assert_eq!(tangents(holds[0]).left_slope, 0.0);
        // Tension 1 flattens the key whatever its neighbours.
        let tense = AttributeData {
            right_slope: 1.0,
            ..plain
        };
        let holds = solve_holds(
            &[0.0, 1.0, 3.0],
            &[0.0, 2.0, 0.0],
            &[keys[0], (CUBIC | TANGENT_TCB, Some(tense)), keys[2]],
        );
        assert_eq!(tangents(holds[1]).right_slope, 0.0);
    }

    #[test]
    fn an_absurd_bias_or_slope_keeps_the_curve_finite() {
        let data = AttributeData {
            right_slope: 3e38,
            left_slope: -3e38,
            weights: 0,
        };
        let keys = [
            (CUBIC, Some(data)),
            (CUBIC, Some(data)),
            (CUBIC | TANGENT_USER, Some(data)),
        ];
        let c = Curve {
            times: vec![0.0, 1.0, 2.0],
            values: vec![0.0, 1.0, 0.0],
            holds: solve_holds(&[0.0, 1.0, 2.0], &[0.0, 1.0, 0.0], &keys),
        };
        for k in 0..=40 {
            // Finite as the f32 a clip keeps.
            let value = c.at(f64::from(k) / 20.0) as f32;
            assert!(value.is_finite(), "{value} with {:?}", c.holds);
        }
    }

    #[test]
    fn auto_tangents_follow_the_line_through_the_neighbours_and_stop_at_them() {
        // Three keys 0, 1, 4 at 0, 1, 2 s, auto tangents, time-independent:
        // the middle key's slope is the line from the first to the last (2).
        let auto = (CUBIC | TIME_INDEPENDENT, None);
        let holds = solve_holds(&[0.0, 1.0, 2.0], &[0.0, 1.0, 4.0], &[auto, auto, auto]);
        let (Hold::Cubic(a), Hold::Cubic(b)) = (holds[0], holds[1]) else {
            panic!("{holds:?}")
        };
        assert_eq!(
            (a.right_slope, a.left_slope),
            (1.0, 2.0),
            "the end towards its neighbour"
        );
        assert_eq!((b.right_slope, b.left_slope), (2.0, 3.0));
        // Clamped progressively, the end keys are flat, and a middle key at
        // 0.5 stops where its tangent, a third of a second long, would pass
        // the first key's value: 0.5 / (1/3) = 1.5, not the line's 2.
        let clamped = (CUBIC | TIME_INDEPENDENT | CLAMP_PROGRESSIVE, None);
        let holds = solve_holds(&[0.0, 1.0, 2.0], &[0.0, 0.5, 4.0], &[clamped; 3]);
        let (Hold::Cubic(a), Hold::Cubic(b)) = (holds[0], holds[1]) else {
            panic!("{holds:?}")
        };
        assert_eq!(a.right_slope, 0.0);
        assert!((a.left_slope - 1.5).abs() < 1e-12, "{a:?}");
        assert!((b.right_slope - 1.5).abs() < 1e-12, "{b:?}");
        assert_eq!(b.left_slope, 0.0);
    }

    #[test]
    fn a_constant_key_holds_its_value_or_the_next_ones() {
        let c = Curve {
            times: vec![0.0, 1.0, 2.0, 3.0],
            values: vec![0.0, 10.0, 20.0, 30.0],
            holds: vec![Hold::Previous, Hold::Next, Hold::Linear, Hold::Linear],
        };
        assert_eq!(c.at(0.0), 0.0);
        assert_eq!(c.at(0.999), 0.0);
        assert_eq!(c.at(1.0), 10.0);
        assert_eq!(c.at(1.001), 20.0);
        assert_eq!(c.at(2.5), 25.0);
        let steps: Vec<f64> = c.step_times().collect();
        assert_eq!(steps, vec![1.0 - STEP_SECONDS, 1.0 + STEP_SECONDS]);
    }
}
