//! Clips: each `AnimationStack` (a take) is a clip by its own name. Its
//! first `AnimationLayer` holds curve nodes, each tied to a model's
//! `Lcl Translation`, `Lcl Rotation` or `Lcl Scaling`, or to a blend shape
//! channel's `DeformPercent`, with a curve (`KeyTime` in FBX ticks of
//! 1/46,186,158,000 s, `KeyValueFloat`) per axis. A model's keys are the
//! times of all its curves (and, within cubic segments, 60 samples a
//! second); each axis is sampled there as its keys say (`KeyAttrFlags`):
//! linearly, held where a key says its value is constant until the next,
//! or, where a cubic key gives its tangents (user tangents:
//! `KeyAttrDataFloat`'s slopes and weights), along the Bézier they make, as
//! Maya and ufbx evaluate it; held past its ends. The model's transform is
//! composed at each sample as at rest. Cubic keys whose tangents a reader
//! must solve from the neighbouring keys (auto tangents, TCB) are read as
//! linear, as three.js's `FBXLoader` reads every key.

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
    /// Straight to the next key's value (linear, and auto and TCB tangents
    /// read as linear).
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

/// Samples a second within cubic segments, for glTF's linear keys.
pub const CUBIC_SAMPLES_PER_SECOND: f64 = 60.0;

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

    /// Times within each cubic segment, [`CUBIC_SAMPLES_PER_SECOND`] a
    /// second (at least 4 and at most 240 a segment), where glTF's linear
    /// keys follow the curve.
    pub fn cubic_times(&self) -> impl Iterator<Item = f64> + '_ {
        self.times
            .windows(2)
            .zip(&self.holds)
            .filter(|(pair, hold)| matches!(hold, Hold::Cubic(_)) && pair[1] > pair[0])
            .flat_map(|(pair, _)| {
                let (t0, t1) = (pair[0], pair[1]);
                let steps = ((t1 - t0) * CUBIC_SAMPLES_PER_SECOND)
                    .ceil()
                    .clamp(4.0, 240.0) as usize;
                (1..steps).map(move |k| t0 + (t1 - t0) * k as f64 / steps as f64)
            })
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
    Ok(Curve {
        times: ticks.iter().map(|&t| t as f64 / TICKS_PER_SECOND).collect(),
        holds: holds_of(curve, values.len()),
        values,
    })
}

/// Each key's [`Hold`] from `KeyAttrFlags`, one flag word per attribute,
/// `KeyAttrDataFloat` ([`attribute_data`]) and `KeyAttrRefCount`, how many
/// consecutive keys use each attribute. Keys past what the counts cover,
/// and curves without flags or counts, are linear.
fn holds_of(curve: &Object, keys: usize) -> Vec<Hold> {
    let mut holds = Vec::with_capacity(keys);
    let flags = curve.node.child("KeyAttrFlags").and_then(|n| n.ints());
    let counts = curve.node.child("KeyAttrRefCount").and_then(|n| n.ints());
    let data = attribute_data(curve);
    if let (Some(flags), Some(counts)) = (flags, counts) {
        for (attribute, (&flag, &count)) in flags.iter().zip(counts.iter()).enumerate() {
            let hold = hold_of(flag, data.get(attribute).copied());
            // Never more than one a key, whatever the counts claim.
            let take = usize::try_from(count).unwrap_or(0).min(keys - holds.len());
            holds.extend(std::iter::repeat_n(hold, take));
        }
    }
    holds.resize(keys, Hold::Linear);
    holds
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

/// One attribute's [`Hold`]: its flags and its data. A cubic key is
/// followed along its tangents where the file gives their slopes (user
/// tangents, broken or not); auto and TCB tangents, which a reader solves
/// from the neighbouring keys, and a cubic key without usable data
/// (missing, or slopes not finite) are read as linear.
fn hold_of(flag: i64, data: Option<AttributeData>) -> Hold {
    if flag & CONSTANT != 0 {
        return if flag & CONSTANT_NEXT != 0 {
            Hold::Next
        } else {
            Hold::Previous
        };
    }
    if flag & CUBIC == 0 || flag & TANGENT_TCB != 0 || flag & TANGENT_USER == 0 {
        return Hold::Linear;
    }
    let Some(data) = data.filter(|d| d.right_slope.is_finite() && d.left_slope.is_finite()) else {
        return Hold::Linear;
    };
    let weight = |weighted: bool, count: u32| {
        if weighted {
            (f64::from(count & 0xffff) / 9999.0).clamp(0.0, 1.0)
        } else {
            DEFAULT_WEIGHT
        }
    };
    Hold::Cubic(Tangents {
        right_slope: data.right_slope,
        left_slope: data.left_slope,
        right_weight: weight(flag & WEIGHTED_RIGHT != 0, data.weights),
        left_weight: weight(flag & WEIGHTED_NEXT_LEFT != 0, data.weights >> 16),
    })
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
        assert_eq!(c.cubic_times().count(), 59);
    }

    #[test]
    fn a_weighted_tangent_takes_its_weight_from_the_packed_bits() {
        let data = AttributeData {
            right_slope: 2.0,
            left_slope: -1.0,
            weights: 5000 | (2000 << 16),
        };
        let hold = hold_of(CUBIC | TANGENT_USER | WEIGHTED_RIGHT, Some(data));
        let Hold::Cubic(tangents) = hold else {
            panic!("{hold:?}")
        };
        assert_eq!(tangents.right_weight, 5000.0 / 9999.0);
        assert_eq!(
            tangents.left_weight, DEFAULT_WEIGHT,
            "the left tangent is not weighted"
        );
        assert_eq!(hold_of(CUBIC | TANGENT_TCB, Some(data)), Hold::Linear);
        assert_eq!(hold_of(CUBIC | TANGENT_USER, None), Hold::Linear);
        // Auto tangents (Maya's usual 0x6108) are solved from the neighbours: linear here.
        assert_eq!(hold_of(0x6108, Some(data)), Hold::Linear);
        assert_eq!(hold_of(CONSTANT | CONSTANT_NEXT, Some(data)), Hold::Next);
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
