//! Skeletons fitted from a few marked points, as Mixamo's auto-rigger asks
//! for them: a humanoid with Mixamo's joint names (so that captures and
//! Mixamo takes retarget by name), a quadruped, and a chain (a tail, a
//! tentacle, a rope). Each template turns its markers (model-space points,
//! the character's left being the marker's left) into bones given by head
//! and tail, parents first; the caller adds them to a scene.
//!
//! The humanoid's proportions between the markers are the usual ones of
//! an adult figure: the hips a tenth of the way from the groin to the chin,
//! the spine in three even bones to the base of the neck at four fifths,
//! the upper arm a fifth longer than the forearm (as a humerus is to a
//! radius) and in line with it (so T-pose and A-pose meshes alike fit), the
//! hip joints beside the hips, the shin as long as the thigh.

use glam::Vec3;

/// One bone of a fitted skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateBone {
    /// Its name.
    pub name: String,
    /// The index of its parent in the list, or `None` for the first bone
    /// (which hangs from the scene's root).
    pub parent: Option<usize>,
    /// Its origin, model space.
    pub head: Vec3,
    /// Its tip, model space.
    pub tail: Vec3,
}

/// Why markers do not fit a template.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TemplateError {
    /// A template not known.
    #[error("unknown template '{name}'; known: humanoid, quadruped, chain")]
    UnknownTemplate {
        /// The name given.
        name: String,
    },
    /// A marker the template needs is missing.
    #[error("the {template} template needs the marker '{marker}'")]
    MissingMarker {
        /// The template.
        template: &'static str,
        /// The marker.
        marker: &'static str,
    },
    /// A marker with a non-finite coordinate.
    #[error("marker '{marker}' is not three finite numbers")]
    NonFinite {
        /// The marker.
        marker: String,
    },
    /// A marker outside the mesh's bounding box (grown by a tenth).
    #[error("marker '{marker}' is outside the mesh")]
    Outside {
        /// The marker.
        marker: &'static str,
    },
    /// Markers in an order no body has.
    #[error("marker '{marker}' must be {relation} '{other}' along the body")]
    WrongOrder {
        /// The marker out of place.
        marker: &'static str,
        /// "below" or "above".
        relation: &'static str,
        /// The marker it is compared with.
        other: &'static str,
    },
    /// Two markers at one place where a bone must lie between them.
    #[error("markers '{first}' and '{second}' are at one place")]
    Coincident {
        /// The first marker.
        first: &'static str,
        /// The second.
        second: &'static str,
    },
    /// A chain of no bones or too many.
    #[error("a chain has 1 to 64 bones, not {bones}")]
    BadChainLength {
        /// The count given.
        bones: f32,
    },
    /// A humanoid's hands have 0, 3 or 5 fingers.
    #[error("a humanoid's hands have 0, 3 or 5 fingers, not {fingers}")]
    BadFingerCount {
        /// The count given.
        fingers: f32,
    },
}

/// Looks markers up by name.
pub trait Markers {
    /// The point named `name`, if given.
    fn point(&self, name: &str) -> Option<Vec3>;
    /// A number named `name`, if given (the chain's bone count).
    fn number(&self, name: &str) -> Option<f32>;
}

impl Markers for std::collections::HashMap<String, Vec<f32>> {
    fn point(&self, name: &str) -> Option<Vec3> {
        let v = self.get(name)?;
        (v.len() == 3).then(|| Vec3::new(v[0], v[1], v[2]))
    }
    fn number(&self, name: &str) -> Option<f32> {
        let v = self.get(name)?;
        (v.len() == 1).then(|| v[0])
    }
}

/// Fits template `name` to `markers` inside a mesh spanning `min`–`max`
/// whose vertices are `points` (which show where a humanoid's shins run).
pub fn fit(
    name: &str,
    markers: &dyn Markers,
    (min, max): (Vec3, Vec3),
    points: &[Vec3],
) -> Result<Vec<TemplateBone>, TemplateError> {
    match name {
        "humanoid" => humanoid(markers, (min, max), points),
        "quadruped" => quadruped(markers, min, max),
        "chain" => chain(markers, min, max),
        _ => Err(TemplateError::UnknownTemplate {
            name: name.to_owned(),
        }),
    }
}

/// Reads marker `marker` of `template`, checked to be finite and inside the box.
fn marker(
    template: &'static str,
    markers: &dyn Markers,
    marker: &'static str,
    (min, max): (Vec3, Vec3),
) -> Result<Vec3, TemplateError> {
    let point = markers
        .point(marker)
        .ok_or(TemplateError::MissingMarker { template, marker })?;
    if !point.is_finite() {
        return Err(TemplateError::NonFinite {
            marker: marker.to_owned(),
        });
    }
    let margin = 0.1 * (max - min).length();
    if point.cmplt(min - Vec3::splat(margin)).any() || point.cmpgt(max + Vec3::splat(margin)).any()
    {
        return Err(TemplateError::Outside { marker });
    }
    Ok(point)
}

/// A list of bones being built.
#[derive(Default)]
struct Builder {
    bones: Vec<TemplateBone>,
}

impl Builder {
    fn add(&mut self, name: &str, parent: Option<usize>, head: Vec3, tail: Vec3) -> usize {
        self.bones.push(TemplateBone {
            name: name.to_owned(),
            parent,
            head,
            tail,
        });
        self.bones.len() - 1
    }

    /// Bones named `names` through `points` (one more point than names),
    /// each the child of the one before; returns the last bone's index.
    fn chain(&mut self, names: &[&str], parent: Option<usize>, points: &[Vec3]) -> usize {
        let mut parent = parent;
        for (k, name) in names.iter().enumerate() {
            parent = Some(self.add(name, parent, points[k], points[k + 1]));
        }
        parent.unwrap_or(0)
    }
}

fn lerp(a: Vec3, b: Vec3, t: f32) -> Vec3 {
    a + (b - a) * t
}

/// The humanoid: `chin`, `groin`, `leftWrist`, `rightWrist`, `leftElbow`,
/// `rightElbow`, `leftKnee`, `rightKnee`, and the number `fingers` (0, the
/// default, 3 or 5 on each hand); the shins follow the mesh's `points`.
fn humanoid(
    markers: &dyn Markers,
    (min, max): (Vec3, Vec3),
    points: &[Vec3],
) -> Result<Vec<TemplateBone>, TemplateError> {
    let body = Humanoid::read(markers, min, max)?;
    let at = |t: f32| body.groin + body.up * (body.height * t);
    let mut b = Builder::default();
    let hips_point = at(0.1);
    let neck_point = at(0.8);
    let head_point = at(0.95);
    let hips = b.add("Hips", None, hips_point, at(0.25));
    let spine2 = b.chain(
        &["Spine", "Spine1", "Spine2"],
        Some(hips),
        &[at(0.25), at(0.43), at(0.61), neck_point],
    );
    let neck = b.add("Neck", Some(spine2), neck_point, head_point);
    b.add(
        "Head",
        Some(neck),
        head_point,
        head_point + body.up * (0.35 * body.height),
    );
    for &(side, wrist, elbow) in &body.arms {
        body.arm(&mut b, (side, spine2), (wrist, elbow), at(0.72));
    }
    let lowest = lowest_along(body.up, min, max);
    for (side, knee, sign) in [("Left", body.knees[0], 1.0), ("Right", body.knees[1], -1.0)] {
        body.leg(
            &mut b,
            (side, hips),
            (hips_point, knee, sign),
            (lowest, points),
        );
    }
    Ok(b.bones)
}

/// The humanoid's markers, checked: the chin above the groin, the knees
/// below it, the wrists below the chin, no two markers of a limb at one
/// place; and the finger count.
struct Humanoid {
    groin: Vec3,
    /// Up the body, from the groin to the chin.
    up: Vec3,
    /// From the groin to the chin.
    height: f32,
    /// The left knee, then the right.
    knees: [Vec3; 2],
    /// Each side's name, wrist and elbow, left first.
    arms: [(&'static str, Vec3, Vec3); 2],
    /// The character's left, across the body.
    across: Vec3,
    fingers: usize,
}

impl Humanoid {
    fn read(markers: &dyn Markers, min: Vec3, max: Vec3) -> Result<Self, TemplateError> {
        const T: &str = "humanoid";
        let get = |name| marker(T, markers, name, (min, max));
        let (chin, groin) = (get("chin")?, get("groin")?);
        let torso = chin - groin;
        let height = torso.length();
        if height <= 1e-6 * (max - min).length().max(1e-30) {
            return Err(TemplateError::Coincident {
                first: "chin",
                second: "groin",
            });
        }
        let up = torso / height;
        let along = |p: Vec3| (p - groin).dot(up);
        let knees = [get("leftKnee")?, get("rightKnee")?];
        for (name, knee) in [("leftKnee", knees[0]), ("rightKnee", knees[1])] {
            if along(knee) >= 0.0 {
                return Err(TemplateError::WrongOrder {
                    marker: name,
                    relation: "below",
                    other: "groin",
                });
            }
        }
        let fingers = match markers.number("fingers") {
            None => 0,
            Some(f) if f == 0.0 || f == 3.0 || f == 5.0 => f as usize,
            Some(f) => return Err(TemplateError::BadFingerCount { fingers: f }),
        };
        let mut arms = [
            ("Left", Vec3::ZERO, Vec3::ZERO),
            ("Right", Vec3::ZERO, Vec3::ZERO),
        ];
        for (arm, (wrist, elbow)) in arms
            .iter_mut()
            .zip([("leftWrist", "leftElbow"), ("rightWrist", "rightElbow")])
        {
            let (w, e) = (get(wrist)?, get(elbow)?);
            if along(w) > height {
                return Err(TemplateError::WrongOrder {
                    marker: wrist,
                    relation: "below",
                    other: "chin",
                });
            }
            if w.distance(e) <= 1e-6 * height {
                return Err(TemplateError::Coincident {
                    first: wrist,
                    second: elbow,
                });
            }
            (arm.1, arm.2) = (w, e);
        }
        let across = {
            let raw = knees[0] - knees[1] + (arms[0].1 - arms[1].1);
            (raw - up * raw.dot(up)).try_normalize().unwrap_or(Vec3::X)
        };
        Ok(Self {
            groin,
            up,
            height,
            knees,
            arms,
            across,
            fingers,
        })
    }

    /// The way the character faces.
    fn forward(&self) -> Vec3 {
        self.across.cross(self.up)
    }

    /// One side's arm below `spine2`: the clavicle from the upper chest
    /// (`chest`) to the shoulder joint, which sits a forearm and a fifth
    /// beyond the elbow, then the arm, the forearm, the hand and its fingers.
    fn arm(
        &self,
        b: &mut Builder,
        (side, spine2): (&str, usize),
        (wrist, elbow): (Vec3, Vec3),
        chest: Vec3,
    ) {
        let forearm = wrist - elbow;
        let shoulder_joint = elbow - forearm * 1.2;
        let clavicle_start = lerp(chest, shoulder_joint, 0.2);
        let clavicle = b.add(
            &format!("{side}Shoulder"),
            Some(spine2),
            clavicle_start,
            shoulder_joint,
        );
        let hand = b.chain(
            &[
                &format!("{side}Arm"),
                &format!("{side}ForeArm"),
                &format!("{side}Hand"),
            ],
            Some(clavicle),
            &[shoulder_joint, elbow, wrist, wrist + forearm * 0.35],
        );
        add_fingers(
            b,
            (side, hand),
            (wrist, forearm),
            self.forward(),
            self.fingers,
        );
    }

    /// One side's leg below the hips: the hip joint as far across as the
    /// knee; the shin from the knee towards the middle of the mesh's
    /// `points` of that side about half a thigh away, leaving the thigh out
    /// (so that a leg mid-stride or kicked back gets a shin along its own;
    /// without points, along the thigh's line); the ankle a thigh down the
    /// shin, but not below the mesh's `lowest` point along the body; and the
    /// foot and toe towards the middle of the points past the ankle (or
    /// forward), not below the lowest point either.
    fn leg(
        &self,
        b: &mut Builder,
        (side, hips): (&str, usize),
        (hips_point, knee, sign): (Vec3, Vec3, f32),
        (lowest, points): (f32, &[Vec3]),
    ) {
        let (up, height, forward) = (self.up, self.height, self.forward());
        let width = (self.knees[0] - self.knees[1]).dot(self.across).abs() * 0.5;
        let hip_joint = hips_point + self.across * (sign * width);
        let thigh = knee - hip_joint;
        let length = thigh.length();
        let this_side = |p: Vec3| (p - self.groin).dot(self.across) * sign > 0.0;
        let shin = towards_middle(points, knee, (0.4 * length, 0.6 * length), |p| {
            this_side(p) && (p - knee).dot(thigh) > -0.25 * length * length
        })
        .filter(|d| d.dot(thigh) > -0.5 * length)
        .unwrap_or_else(|| thigh.normalize_or(-up));
        let mut ankle = knee + shin * length;
        let floor = lowest + 0.04 * height;
        let (drop, down) = (knee.dot(up) - floor, -shin.dot(up));
        if ankle.dot(up) < floor {
            // Shortened along the shin to the floor, or lifted where the
            // knee itself is that low.
            ankle = if drop > 0.0 && down > 1e-3 {
                knee + shin * (drop / down)
            } else {
                ankle + up * (floor - ankle.dot(up))
            };
        }
        let usual = forward * 0.18 - up * 0.03;
        let foot = towards_middle(points, ankle, (0.15 * length, 0.5 * length), |p| {
            this_side(p) && (p - ankle).dot(shin) > -0.1 * length
        })
        .filter(|d| d.dot(shin) > -0.3)
        .unwrap_or_else(|| usual.normalize());
        let above_ground = |p: Vec3| p + up * (lowest + 0.01 * height - p.dot(up)).max(0.0);
        let toe = above_ground(ankle + foot * (usual.length() * height));
        let toe_end = above_ground(toe + foot * (0.08 * height));
        b.chain(
            &[
                &format!("{side}UpLeg"),
                &format!("{side}Leg"),
                &format!("{side}Foot"),
                &format!("{side}ToeBase"),
            ],
            Some(hips),
            &[hip_joint, knee, ankle, toe, toe_end],
        );
    }
}

/// The direction from `joint` to the middle of the `points` between `near`
/// and `far` from it that `keep` takes; None where it takes none there.
fn towards_middle(
    points: &[Vec3],
    joint: Vec3,
    (near, far): (f32, f32),
    keep: impl Fn(Vec3) -> bool,
) -> Option<Vec3> {
    let (mut sum, mut count) = (Vec3::ZERO, 0u32);
    for &p in points {
        let distance = p.distance(joint);
        if distance >= near && distance <= far && keep(p) {
            sum += p;
            count += 1;
        }
    }
    if count == 0 {
        return None;
    }
    (sum / count as f32 - joint).try_normalize()
}

/// The lowest of the box `min`–`max`'s corners along `up`.
fn lowest_along(up: Vec3, min: Vec3, max: Vec3) -> f32 {
    (0..8)
        .map(|k| {
            let pick = |bit: u32, lo: f32, hi: f32| if k & bit == 0 { lo } else { hi };
            Vec3::new(
                pick(1, min.x, max.x),
                pick(2, min.y, max.y),
                pick(4, min.z, max.z),
            )
            .dot(up)
        })
        .fold(f32::INFINITY, f32::min)
}

/// `count` fingers (0, 3 or 5) of three bones on hand `hand` of side
/// `side`, with Mixamo's names (`LeftHandThumb1`…`LeftHandPinky3`): from
/// the hand's tip along the forearm, spread across the palm towards
/// `forward` (the thumb's side), the thumb from the palm's root. No markers
/// place them; they are a start to drag into place.
fn add_fingers(
    b: &mut Builder,
    (side, hand): (&str, usize),
    (wrist, forearm): (Vec3, Vec3),
    forward: Vec3,
    count: usize,
) {
    const NAMES: [&str; 5] = ["Thumb", "Index", "Middle", "Ring", "Pinky"];
    if count == 0 {
        return;
    }
    let length = forearm.length();
    let along = forearm / length;
    let spread = (forward - along * forward.dot(along))
        .try_normalize()
        .unwrap_or_else(|| along.any_orthonormal_vector());
    let tip = wrist + forearm * 0.35;
    let palm = 0.12 * length;
    for (k, finger) in NAMES.iter().take(count).enumerate() {
        let (base, direction) = if k == 0 {
            (
                wrist + along * (0.08 * length) + spread * (0.6 * palm),
                (along + spread).normalize(),
            )
        } else {
            // Index on the thumb's side, the last finger on the other,
            // evenly across the palm (two fingers: half as far apart).
            let others = (count - 1) as f32;
            let side_of = 1.0 - 2.0 * (k as f32 - 1.0) / (others - 1.0);
            let width = if count == 3 { 0.5 * palm } else { palm };
            (tip + spread * (width * side_of), along)
        };
        let reach = 0.3 * length;
        let points = [0.0, 0.45, 0.75, 1.0].map(|f| base + direction * (reach * f));
        let names = [1, 2, 3].map(|n| format!("{side}Hand{finger}{n}"));
        b.chain(&[&names[0], &names[1], &names[2]], Some(hand), &points);
    }
}

/// The quadruped: `nose`, `tailBase`, `tailTip`, `frontLeftPaw`,
/// `frontRightPaw`, `backLeftPaw`, `backRightPaw`, `withers`, `hips`.
fn quadruped(
    markers: &dyn Markers,
    min: Vec3,
    max: Vec3,
) -> Result<Vec<TemplateBone>, TemplateError> {
    const T: &str = "quadruped";
    let get = |name| marker(T, markers, name, (min, max));
    let (nose, withers, hips_point) = (get("nose")?, get("withers")?, get("hips")?);
    let (tail_base, tail_tip) = (get("tailBase")?, get("tailTip")?);
    for (first, second, a, b) in [
        ("withers", "hips", withers, hips_point),
        ("tailBase", "tailTip", tail_base, tail_tip),
        ("nose", "withers", nose, withers),
    ] {
        if a.distance(b) <= 1e-6 * (max - min).length() {
            return Err(TemplateError::Coincident { first, second });
        }
    }
    let paws = [
        ("FrontLeft", get("frontLeftPaw")?, withers),
        ("FrontRight", get("frontRightPaw")?, withers),
        ("BackLeft", get("backLeftPaw")?, hips_point),
        ("BackRight", get("backRightPaw")?, hips_point),
    ];
    let mut b = Builder::default();
    let hips = b.add("Hips", None, hips_point, lerp(hips_point, withers, 0.33));
    let chest = b.chain(
        &["Spine", "Spine1"],
        Some(hips),
        &[
            lerp(hips_point, withers, 0.33),
            lerp(hips_point, withers, 0.66),
            withers,
        ],
    );
    let neck_end = lerp(withers, nose, 0.6);
    let neck = b.add("Neck", Some(chest), withers, neck_end);
    b.add("Head", Some(neck), neck_end, nose);
    b.chain(
        &["Tail", "Tail1", "Tail2"],
        Some(hips),
        &[
            tail_base,
            lerp(tail_base, tail_tip, 1.0 / 3.0),
            lerp(tail_base, tail_tip, 2.0 / 3.0),
            tail_tip,
        ],
    );
    for (side, paw, top) in paws {
        // The shoulder or hip joint: beside the spine, above the paw.
        let joint = Vec3::new(paw.x, top.y, paw.z).lerp(top, 0.5);
        let parent = if top == withers { chest } else { hips };
        let knee = lerp(joint, paw, 0.5);
        b.chain(
            &[
                &format!("{side}UpLeg"),
                &format!("{side}Leg"),
                &format!("{side}Foot"),
            ],
            Some(parent),
            &[joint, knee, lerp(knee, paw, 0.8), paw],
        );
    }
    Ok(b.bones)
}

/// The chain: `start`, `end` and `bones` (a count, as `[n]`).
fn chain(markers: &dyn Markers, min: Vec3, max: Vec3) -> Result<Vec<TemplateBone>, TemplateError> {
    const T: &str = "chain";
    let (start, end) = (
        marker(T, markers, "start", (min, max))?,
        marker(T, markers, "end", (min, max))?,
    );
    if start.distance(end) <= 1e-6 * (max - min).length() {
        return Err(TemplateError::Coincident {
            first: "start",
            second: "end",
        });
    }
    let count = markers
        .number("bones")
        .ok_or(TemplateError::MissingMarker {
            template: T,
            marker: "bones",
        })?;
    if !((1.0..=64.0).contains(&count) && count.fract() == 0.0) {
        return Err(TemplateError::BadChainLength { bones: count });
    }
    let n = count as usize;
    let points: Vec<Vec3> = (0..=n)
        .map(|k| lerp(start, end, k as f32 / n as f32))
        .collect();
    let names: Vec<String> = (1..=n).map(|k| format!("Chain{k}")).collect();
    let mut b = Builder::default();
    b.chain(
        &names.iter().map(String::as_str).collect::<Vec<_>>(),
        None,
        &points,
    );
    Ok(b.bones)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn markers(list: &[(&str, [f32; 3])]) -> HashMap<String, Vec<f32>> {
        list.iter()
            .map(|(k, v)| ((*k).to_owned(), v.to_vec()))
            .collect()
    }

    /// A T-pose figure 1.8 tall facing +Z: its left is +X.
    fn t_pose() -> HashMap<String, Vec<f32>> {
        markers(&[
            ("chin", [0.0, 1.55, 0.05]),
            ("groin", [0.0, 0.85, 0.0]),
            ("leftElbow", [0.5, 1.42, 0.0]),
            ("rightElbow", [-0.5, 1.42, 0.0]),
            ("leftWrist", [0.75, 1.42, 0.0]),
            ("rightWrist", [-0.75, 1.42, 0.0]),
            ("leftKnee", [0.1, 0.48, 0.02]),
            ("rightKnee", [-0.1, 0.48, 0.02]),
        ])
    }

    const BOX: (Vec3, Vec3) = (Vec3::new(-0.9, 0.0, -0.2), Vec3::new(0.9, 1.8, 0.2));

    #[test]
    fn a_t_pose_humanoid_has_mixamos_names_and_its_joints_where_marked() {
        let bones = fit("humanoid", &t_pose(), BOX, &[]).unwrap();
        let names: Vec<&str> = bones.iter().map(|b| b.name.as_str()).collect();
        for name in [
            "Hips",
            "Spine",
            "Spine1",
            "Spine2",
            "Neck",
            "Head",
            "LeftShoulder",
            "LeftArm",
            "LeftForeArm",
            "LeftHand",
            "RightUpLeg",
            "RightLeg",
            "RightFoot",
            "RightToeBase",
        ] {
            assert!(names.contains(&name), "{name} in {names:?}");
        }
        let bone = |name: &str| bones.iter().find(|b| b.name == name).unwrap();
        assert!(bone("LeftForeArm").head.distance(Vec3::new(0.5, 1.42, 0.0)) < 1e-6);
        assert!(bone("LeftHand").head.distance(Vec3::new(0.75, 1.42, 0.0)) < 1e-6);
        assert!(bone("RightLeg").head.distance(Vec3::new(-0.1, 0.48, 0.02)) < 1e-6);
        // The left arm is on the +X side, the feet above the mesh's floor and forward.
        assert!(bone("LeftArm").head.x > 0.1 && bone("RightArm").head.x < -0.1);
        assert!(
            bone("LeftFoot").head.y >= 0.0 && bone("LeftToeBase").head.z > bone("LeftFoot").head.z
        );
        // Parents come first, and each bone starts where its parent ends in the chains.
        for (k, b) in bones.iter().enumerate() {
            assert!(b.parent.is_none_or(|p| p < k));
        }
        assert!(bone("LeftForeArm").head.distance(bone("LeftArm").tail) < 1e-6);
    }

    /// Points of a tube of radius 0.05 along `a`–`b`, rings 1 cm apart.
    fn tube(a: Vec3, b: Vec3) -> Vec<Vec3> {
        let along = b - a;
        let (u, v) = along.normalize().any_orthonormal_pair();
        let rings = (along.length() / 0.01) as usize;
        (0..=rings)
            .flat_map(|r| {
                let centre = a + along * (r as f32 / rings as f32);
                (0..12).map(move |k| {
                    let angle = k as f32 * std::f32::consts::TAU / 12.0;
                    centre + (u * angle.cos() + v * angle.sin()) * 0.05
                })
            })
            .collect()
    }

    #[test]
    fn the_shins_and_feet_follow_the_mesh_standing_or_kicked_back() {
        // The right leg stands with its foot forward; the left is kicked
        // back, its shin level behind the knee and its foot hanging down.
        let (left_knee, right_knee) = (Vec3::new(0.1, 0.48, 0.02), Vec3::new(-0.1, 0.48, 0.02));
        let hips = Vec3::new(0.0, 0.85, 0.0);
        let mut points = Vec::new();
        for (a, b) in [
            (hips + Vec3::X * 0.1, left_knee),
            (hips - Vec3::X * 0.1, right_knee),
            (left_knee, left_knee - Vec3::Z * 0.4),
            (
                left_knee - Vec3::Z * 0.4,
                left_knee - Vec3::Z * 0.4 - Vec3::Y * 0.2,
            ),
            (right_knee, Vec3::new(-0.1, 0.05, 0.02)),
            (Vec3::new(-0.1, 0.05, 0.02), Vec3::new(-0.1, 0.03, 0.22)),
        ] {
            points.extend(tube(a, b));
        }
        let bones = fit("humanoid", &t_pose(), BOX, &points).unwrap();
        let bone = |name: &str| bones.iter().find(|b| b.name == name).unwrap();
        let way = |name: &str| (bone(name).tail - bone(name).head).normalize();
        assert!(way("LeftLeg").dot(-Vec3::Z) > 0.98, "{:?}", way("LeftLeg"));
        assert!(
            way("RightLeg").dot(-Vec3::Y) > 0.98,
            "{:?}",
            way("RightLeg")
        );
        assert!(way("LeftFoot").dot(-Vec3::Y) > 0.7, "{:?}", way("LeftFoot"));
        assert!(
            way("RightFoot").dot(Vec3::Z) > 0.7,
            "{:?}",
            way("RightFoot")
        );
        // Without the mesh's points a shin continues its thigh.
        let bones = fit("humanoid", &t_pose(), BOX, &[]).unwrap();
        let thigh = bones.iter().find(|b| b.name == "LeftUpLeg").unwrap();
        let shin = bones.iter().find(|b| b.name == "LeftLeg").unwrap();
        assert!(
            (thigh.tail - thigh.head)
                .normalize()
                .dot((shin.tail - shin.head).normalize())
                > 0.999
        );
    }

    #[test]
    fn fingers_three_or_five_a_hand_with_mixamos_names_past_the_wrist() {
        let plain = fit("humanoid", &t_pose(), BOX, &[]).unwrap().len();
        for (count, last) in [(5, "Pinky"), (3, "Middle")] {
            let mut given = t_pose();
            given.insert("fingers".to_owned(), vec![count as f32]);
            let bones = fit("humanoid", &given, BOX, &[]).unwrap();
            assert_eq!(bones.len(), plain + 2 * 3 * count);
            let index = |name: &str| bones.iter().position(|b| b.name == name).unwrap();
            let bone = |name: &str| &bones[index(name)];
            for side in ["Left", "Right"] {
                let hand = index(&format!("{side}Hand"));
                for finger in ["Thumb", "Index", last] {
                    let first = bone(&format!("{side}Hand{finger}1"));
                    assert_eq!(
                        first.parent,
                        Some(hand),
                        "{side}{finger} hangs from the hand"
                    );
                    let end = bone(&format!("{side}Hand{finger}3"));
                    assert!(
                        end.tail.x.abs() > 0.8,
                        "{side}{finger} reaches past the wrist"
                    );
                }
                // The thumb on the forward side (+z), the last finger behind the index.
                assert!(bone(&format!("{side}HandThumb3")).tail.z > 0.02);
                assert!(
                    bone(&format!("{side}Hand{last}1")).head.z
                        < bone(&format!("{side}HandIndex1")).head.z
                );
            }
            assert!(!bones.iter().any(|b| b.name.contains("Ring")) || count == 5);
        }
        let mut four = t_pose();
        four.insert("fingers".to_owned(), vec![4.0]);
        let error = fit("humanoid", &four, BOX, &[]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "a humanoid's hands have 0, 3 or 5 fingers, not 4"
        );
    }

    #[test]
    fn markers_out_of_place_are_refused_by_name() {
        let mut above = t_pose();
        above.insert("leftWrist".into(), vec![0.2, 1.75, 0.0]);
        assert!(matches!(
            fit("humanoid", &above, BOX, &[]),
            Err(TemplateError::WrongOrder {
                marker: "leftWrist",
                ..
            })
        ));
        let mut outside = t_pose();
        outside.insert("rightKnee".into(), vec![5.0, 0.4, 0.0]);
        assert!(matches!(
            fit("humanoid", &outside, BOX, &[]),
            Err(TemplateError::Outside {
                marker: "rightKnee"
            })
        ));
        let mut missing = t_pose();
        missing.remove("chin");
        assert!(matches!(
            fit("humanoid", &missing, BOX, &[]),
            Err(TemplateError::MissingMarker { marker: "chin", .. })
        ));
        assert!(matches!(
            fit("octopus", &t_pose(), BOX, &[]),
            Err(TemplateError::UnknownTemplate { .. })
        ));
    }

    #[test]
    fn a_chain_splits_evenly_and_a_quadruped_has_four_legs_and_a_tail() {
        let mut rope = markers(&[("start", [0.0, 0.0, 0.0]), ("end", [0.0, 1.0, 0.0])]);
        rope.insert("bones".into(), vec![4.0]);
        let bones = fit("chain", &rope, (Vec3::splat(-1.0), Vec3::splat(1.0)), &[]).unwrap();
        assert_eq!(bones.len(), 4);
        assert!((bones[1].head.y - 0.25).abs() < 1e-6);
        let dog = markers(&[
            ("nose", [0.0, 0.6, 0.9]),
            ("withers", [0.0, 0.7, 0.4]),
            ("hips", [0.0, 0.65, -0.4]),
            ("tailBase", [0.0, 0.65, -0.5]),
            ("tailTip", [0.0, 0.5, -0.9]),
            ("frontLeftPaw", [0.15, 0.0, 0.4]),
            ("frontRightPaw", [-0.15, 0.0, 0.4]),
            ("backLeftPaw", [0.15, 0.0, -0.4]),
            ("backRightPaw", [-0.15, 0.0, -0.4]),
        ]);
        let bones = fit(
            "quadruped",
            &dog,
            (Vec3::new(-0.3, 0.0, -1.0), Vec3::new(0.3, 0.8, 1.0)),
            &[],
        )
        .unwrap();
        assert_eq!(bones.iter().filter(|b| b.name.ends_with("Foot")).count(), 4);
        assert!(bones
            .iter()
            .any(|b| b.name == "Tail2" && b.tail.distance(Vec3::new(0.0, 0.5, -0.9)) < 1e-6));
    }
}
