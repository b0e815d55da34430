//! Clips: each `AnimationStack` (a take) is a clip by its own name. Its
//! first `AnimationLayer` holds curve nodes, each tied to a model's
//! `Lcl Translation`, `Lcl Rotation` or `Lcl Scaling`, or to a blend shape
//! channel's `DeformPercent`, with a curve (`KeyTime` in FBX ticks of
//! 1/46,186,158,000 s, `KeyValueFloat`) per axis. A model's keys are the
//! times of all its curves; each axis is sampled there, linearly between
//! its own keys (or held, where a key says its value is constant until the
//! next: `KeyAttrFlags`) and held past its ends, and the model's transform
//! is composed at each key as at rest. Cubic keys are read as linear, as
//! three.js's `FBXLoader` reads them.

use std::collections::{BTreeMap, HashMap};

use glam::DVec3;

use super::objects::{Object, Objects};
use super::FbxError;

/// FBX time ticks per second.
pub const TICKS_PER_SECOND: f64 = 46_186_158_000.0;

/// How a curve goes from one key to the next (`KeyAttrFlags`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// Straight to the next key's value (linear, and cubic read as linear).
    Linear,
    /// This key's value until the next key (`Constant`).
    Previous,
    /// The next key's value from just after this key (`Constant|ConstantNext`).
    Next,
}

/// `KeyAttrFlags`' constant interpolation bit.
const CONSTANT: i64 = 0x2;
/// `KeyAttrFlags`' bit for taking a constant segment's value from the next key.
const CONSTANT_NEXT: i64 = 0x100;

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
                    Hold::Linear => None,
                    _ if step <= 0.0 => None,
                    Hold::Previous => Some(t1 - step),
                    Hold::Next => Some(t0 + step),
                }
            })
    }

    /// The value at `time`: linear between keys, or held where the earlier
    /// key says so, and held past the ends.
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
    /// Every key time of the curves given, and where their held segments
    /// step ([`Curve::step_times`]), sorted, without repeats.
    pub fn times<'a>(curves: impl IntoIterator<Item = &'a Curve>) -> Vec<f64> {
        let mut times: Vec<f64> = curves
            .into_iter()
            .flat_map(|c| c.times.iter().copied().chain(c.step_times()))
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
/// and `KeyAttrRefCount`, how many consecutive keys use each attribute.
/// Keys past what the counts cover, and curves without either array, are
/// linear.
fn holds_of(curve: &Object, keys: usize) -> Vec<Hold> {
    let mut holds = Vec::with_capacity(keys);
    let flags = curve.node.child("KeyAttrFlags").and_then(|n| n.ints());
    let counts = curve.node.child("KeyAttrRefCount").and_then(|n| n.ints());
    if let (Some(flags), Some(counts)) = (flags, counts) {
        for (&flag, &count) in flags.iter().zip(counts.iter()) {
            let hold = if flag & CONSTANT == 0 {
                Hold::Linear
            } else if flag & CONSTANT_NEXT != 0 {
                Hold::Next
            } else {
                Hold::Previous
            };
            // Never more than one a key, whatever the counts claim.
            let take = usize::try_from(count).unwrap_or(0).min(keys - holds.len());
            holds.extend(std::iter::repeat_n(hold, take));
        }
    }
    holds.resize(keys, Hold::Linear);
    holds
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
