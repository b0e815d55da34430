//! The morph example (the bones note): a head modelled in code, with a
//! nose, lips, eyes, brows, ears and hair painted in vertex colours, whose
//! mouth takes visemes and expressions as morph targets, and a jaw bone, so
//! morphing (before) and skinning (after) act together.
//!
//! The head is a grid over longitude and latitude, denser at the front of
//! the face than at the back, shaped as a skull narrowing to the chin with
//! the features raised or sunk along the view axis (+Z faces the viewer).
//! The mouth is a slit of removed quads between the lips, with a dark
//! cavity behind it that shows when the lips part.

use std::f32::consts::{FRAC_PI_2, PI, TAU};

use glam::{Quat, Vec2, Vec3};

use super::builder::{bone, MeshBuilder};
use crate::rig::animation::{Animation, Clip, Interpolation};
use crate::rig::pose::BoneTransform;
use crate::scene::clip_doc::clip_docs;
use crate::scene::doc::{MorphDoc, SceneDoc};

/// Columns around the head and rows from the chin's pole to the crown's,
/// spaced closer over the face and closest at the eyes and the mouth (see
/// [`spaced`]): about 7,700 vertices, an eye about 10 columns wide.
const AROUND: usize = 96;
const UP: usize = 80;
/// The skull's half-width, half-height and half-depth.
const RADII: Vec3 = Vec3::new(0.78, 1.05, 0.84);
/// Where the lips meet, roughly: the slit lies on the grid row nearest it.
const MOUTH_LINE: f32 = -0.53;
/// Half the width of the slit between the lips.
const MOUTH_HALF_WIDTH: f32 = 0.17;
/// The eyes' centres, left and right (front view, x and y).
const EYES: [Vec2; 2] = [Vec2::new(-0.28, 0.16), Vec2::new(0.28, 0.16)];
/// The brows' centres.
const BROWS: [Vec2; 2] = [Vec2::new(-0.29, 0.33), Vec2::new(0.29, 0.33)];

/// Linear RGB colours of the painted head.
const SKIN: Vec3 = Vec3::new(0.88, 0.68, 0.55);
const LIPS: Vec3 = Vec3::new(0.74, 0.36, 0.37);
const EYE_WHITE: Vec3 = Vec3::new(0.96, 0.95, 0.93);
const IRIS: Vec3 = Vec3::new(0.22, 0.42, 0.58);
const PUPIL: Vec3 = Vec3::new(0.04, 0.04, 0.05);
const HAIR: Vec3 = Vec3::new(0.33, 0.21, 0.13);
const NOSTRIL: Vec3 = Vec3::new(0.42, 0.25, 0.22);
const MOUTH_INSIDE: Vec3 = Vec3::new(0.22, 0.06, 0.07);

/// 0 below `from`, 1 above `to`, a smooth S between (`from > to` turns it).
fn smoothstep(from: f32, to: f32, x: f32) -> f32 {
    let t = ((x - from) / (to - from)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// A Gaussian bump of height 1 at `d = 0`, of radii `r`.
fn bump(d: Vec2, r: Vec2) -> f32 {
    let q = d / r;
    (-q.length_squared()).exp()
}

/// `count + 1` values from `from` to `to` whose spacing is inversely
/// proportional to `density`: the cumulative density `∫ density` is split
/// into equal steps (integrated by the midpoint rule on 4,096 cells).
fn spaced(count: usize, from: f32, to: f32, density: impl Fn(f32) -> f32) -> Vec<f32> {
    const CELLS: usize = 4096;
    let width = (to - from) / CELLS as f32;
    let mut cumulative = vec![0.0f32; CELLS + 1];
    for cell in 0..CELLS {
        let middle = from + (cell as f32 + 0.5) * width;
        cumulative[cell + 1] = cumulative[cell] + density(middle) * width;
    }
    let total = cumulative[CELLS];
    (0..=count)
        .map(|k| {
            let goal = total * k as f32 / count as f32;
            let cell = cumulative.partition_point(|&c| c < goal).clamp(1, CELLS) - 1;
            let span = (cumulative[cell + 1] - cumulative[cell]).max(f32::MIN_POSITIVE);
            let t = ((goal - cumulative[cell]) / span).clamp(0.0, 1.0);
            from + (cell as f32 + t) * width
        })
        .collect()
}

/// A bump of height 1 at `x = 0`, of radius `r`.
fn peak(x: f32, r: f32) -> f32 {
    (-(x / r).powi(2)).exp()
}

/// The rows' latitudes from the chin's pole to the crown's: three times as
/// close over the face, closer still at the eyes and the mouth.
fn latitudes() -> Vec<f32> {
    let at = |y: f32| (y / RADII.y).asin();
    spaced(UP, -FRAC_PI_2, FRAC_PI_2, |lat| {
        let face = smoothstep(-1.2, -1.0, lat) * smoothstep(1.1, 0.9, lat);
        1.0 + 2.0 * face
            + 3.0 * peak(lat - at(EYES[0].y), 0.1)
            + 2.0 * peak(lat - at(MOUTH_LINE), 0.1)
    })
}

/// The columns' longitudes, 0 facing the viewer: three times as close over
/// the face, closer still at the eyes.
fn longitudes() -> Vec<f32> {
    let eye = (EYES[1].x / RADII.x).asin();
    spaced(AROUND, -PI, PI, |lon| {
        1.0 + 2.0 * peak(lon, 0.8) + 3.0 * peak(lon.abs() - eye, 0.15)
    })
}

/// The point of the head in front view, `(x, y)` from the nearer eye's
/// centre, and how far inside the eye's almond it lies (1 at its middle,
/// 0 on its rim, negative outside).
fn eye_local(p: Vec2) -> (Vec2, f32) {
    let centre = if p.x < 0.0 { EYES[0] } else { EYES[1] };
    let d = p - centre;
    // An almond: 0.115 wide each way, its half-height falling to 0 at the corners.
    let across = (d.x / 0.115).clamp(-1.0, 1.0);
    let half_height = 0.048 * (1.0 - across * across).max(0.0).sqrt() + 1e-4;
    let inside = 1.0 - (d.x / 0.115).powi(2) - (d.y / half_height).powi(2) * 0.25;
    (
        d,
        if d.y.abs() < half_height {
            inside
        } else {
            -1.0
        },
    )
}

/// The brow's arc for the point: its distance from the arc's middle line and
/// where along it (−1 outer end … 1 inner end).
fn brow_arc(p: Vec2) -> (f32, f32) {
    let centre = if p.x < 0.0 { BROWS[0] } else { BROWS[1] };
    let along = (p.x - centre.x) / 0.16;
    let inner = if centre.x < 0.0 { along } else { -along };
    // Highest a little outward of the middle, lower at the inner end.
    let line = centre.y + 0.03 * (1.0 - along * along) - 0.015 * inner;
    (p.y - line, inner)
}

/// How far the features stand out of the skull along +Z at the front-view
/// point `p`, for a mouth whose lips meet at `mouth_y`.
fn relief(p: Vec2, mouth_y: f32) -> f32 {
    let side = Vec2::new(p.x.abs(), p.y);
    let eye = side - EYES[1];
    let mut z = 0.0;
    // The brow ridge over both eyes, and the sockets under it.
    z += 0.07
        * bump(Vec2::new(0.0, p.y - 0.35), Vec2::new(1.0, 0.08))
        * (-(p.x / 0.5).powi(4)).exp();
    z -= 0.1 * bump(eye + Vec2::new(0.0, 0.01), Vec2::new(0.16, 0.11));
    // The eyeball, a cap in the socket, with the lids' rims around its almond.
    let cap = (1.0 - (eye.x / 0.12).powi(2) - (eye.y / 0.08).powi(2)).max(0.0);
    z += 0.085 * cap.sqrt();
    let (_, almond) = eye_local(p);
    z += 0.012 * cap.sqrt() * smoothstep(0.0, -0.3, almond);
    z += 0.012 * bump(Vec2::new(eye.x, eye.y - 0.075), Vec2::new(0.1, 0.015));
    // The nose: a ridge growing from the bridge to the tip, the tip's bulb
    // and the wings beside the nostrils.
    let down = ((0.2 - p.y) / 0.46).clamp(0.0, 1.0);
    let ridge = (0.03 + 0.17 * down * down)
        * bump(Vec2::new(p.x, 0.0), Vec2::new(0.045 + 0.035 * down, 1.0))
        * smoothstep(-0.34, -0.24, p.y)
        * smoothstep(0.32, 0.16, p.y);
    z += ridge;
    z += 0.06 * bump(p - Vec2::new(0.0, -0.25), Vec2::new(0.065, 0.06));
    z += 0.055 * bump(side - Vec2::new(0.085, -0.275), Vec2::new(0.045, 0.04));
    // Cheeks, the muzzle round the mouth, the lips and the chin.
    z += 0.05 * bump(side - Vec2::new(0.33, -0.12), Vec2::new(0.16, 0.14));
    z += 0.06 * bump(p - Vec2::new(0.0, mouth_y), Vec2::new(0.3, 0.2));
    let lip_width = |half: f32| (-(p.x / half).powi(4)).exp();
    z +=
        0.045 * lip_width(0.19) * bump(Vec2::new(0.0, p.y - mouth_y - 0.032), Vec2::new(1.0, 0.03));
    z +=
        0.05 * lip_width(0.17) * bump(Vec2::new(0.0, p.y - mouth_y + 0.045), Vec2::new(1.0, 0.035));
    z -= 0.015 * bump(side - Vec2::new(0.2, mouth_y), Vec2::new(0.03, 0.03));
    z += 0.07 * bump(p - Vec2::new(0.0, -0.87), Vec2::new(0.16, 0.1));
    z
}

/// Whether the front-view point is on a lip (upper or lower).
fn on_lip(p: Vec2, mouth_y: f32) -> bool {
    let x = p.x / 0.2;
    let upper = p.y > mouth_y && p.y < mouth_y + 0.006 + 0.06 * (1.0 - x * x);
    let lower = p.y <= mouth_y && p.y > mouth_y - 0.085 * (1.0 - (p.x / 0.18).powi(2));
    x.abs() < 1.0 && (upper || lower)
}

/// The painted colour at a point of the head: `p` in front view, `front`
/// how much it faces the viewer (0 at the sides and back), `position` in
/// the model.
fn colour(p: Vec2, front: f32, position: Vec3, mouth_y: f32) -> Vec3 {
    if front > 0.3 {
        let (d, almond) = eye_local(p);
        if almond > 0.0 {
            let r = d.length();
            return if r < 0.014 {
                PUPIL
            } else if r < 0.036 {
                IRIS
            } else {
                EYE_WHITE
            };
        }
        let (off, inner) = brow_arc(p);
        let thickness = 0.018 + 0.008 * (inner + 1.0) / 2.0;
        if inner.abs() < 1.0 && off.abs() < thickness {
            return HAIR;
        }
        let nostril = Vec2::new(p.x.abs() - 0.045, p.y + 0.305);
        if (nostril / Vec2::new(0.022, 0.011)).length_squared() < 1.0 {
            return NOSTRIL;
        }
        if on_lip(p, mouth_y) {
            return LIPS;
        }
    }
    // Hair: the crown and the back of the head, with a hairline over the
    // forehead and above the ears.
    let hairline = if position.z > 0.0 {
        0.62 + 0.12 * (p.x / RADII.x).powi(2) - 0.3 * (1.0 - front)
    } else {
        0.32 - 0.77 * smoothstep(0.0, -0.5, position.z)
    };
    if p.y > hairline {
        return HAIR;
    }
    // A little warmth on the cheeks.
    let blush = bump(
        Vec2::new(p.x.abs() - 0.36, p.y + 0.2),
        Vec2::new(0.12, 0.09),
    ) * front;
    SKIN.lerp(LIPS, 0.18 * blush)
}

/// A point of the head at longitude `lon` (0 faces +Z) and latitude `lat`,
/// for a mouth at `mouth_y`: the point, and how much it faces the viewer.
fn head_point(lon: f32, lat: f32, mouth_y: f32) -> (Vec3, f32) {
    let dir = Vec3::new(lat.cos() * lon.sin(), lat.sin(), lat.cos() * lon.cos());
    let mut p = dir * RADII;
    // The jaw narrows toward the chin; the back of the head is rounder.
    let below = smoothstep(0.05, -1.0, p.y);
    p.x *= 1.0 - 0.22 * below;
    p.z *= if p.z > 0.0 { 1.0 - 0.1 * below } else { 1.08 };
    let front = smoothstep(0.1, 0.55, dir.z);
    p.z += front * relief(Vec2::new(p.x, p.y), mouth_y);
    // The ears, on the sides behind the middle.
    let sideways = smoothstep(0.55, 0.85, dir.x.abs());
    let ear = 0.11 * bump(Vec2::new(p.y - 0.08, p.z + 0.04), Vec2::new(0.17, 0.08));
    p.x += p.x.signum() * sideways * ear;
    // Hair stands a little proud of the scalp.
    p += dir * 0.03 * smoothstep(0.45, 0.75, dir.y) * (1.0 - 0.5 * front);
    (p, front)
}

/// Each target's offset for a point of the face: the visemes A, O, M, F,
/// the expressions smile and frown, the visemes E, I, U and the brows
/// raised. `front` fades every offset out toward the sides.
fn offsets(p: Vec3, front: f32, mouth_y: f32) -> [(&'static str, Vec3); 10] {
    let m = (-(p.x / 0.36).powi(2) - ((p.y - mouth_y) / 0.2).powi(2)).exp() * front;
    // The lower lip below the mouth line, the upper lip above it.
    let lower = p.y < mouth_y;
    let lips = |down: f32, up: f32| if lower { -down * m } else { up * m };
    let side = p.x / 0.36;
    let (off, inner) = brow_arc(Vec2::new(p.x, p.y));
    let b = (-(off / 0.09).powi(2)).exp() * (1.0 - inner.abs().powi(4)).max(0.0) * front;
    // Lips pushed forward, for the rounded vowels.
    let pucker = |amount: f32| amount * m * (-(p.y - mouth_y).powi(2) / 0.01).exp();
    [
        // "A": the jaw's vowel, wide open, the lower lip most.
        ("A", Vec3::new(-0.03 * side * m, lips(0.14, 0.04), 0.0)),
        // "O": rounded, narrower and open.
        (
            "O",
            Vec3::new(-0.14 * side * m, lips(0.09, 0.05), pucker(0.05)),
        ),
        // "M/B/P": the lips pressed together over the slit.
        ("M", Vec3::new(0.0, lips(-0.012, -0.012), 0.0)),
        // "F/V": the lower lip up under the upper teeth.
        (
            "F",
            Vec3::new(0.0, if lower { 0.02 * m } else { 0.004 * m }, -0.01 * m),
        ),
        // Expressions: the corners up, or down with the brows' inner ends.
        (
            "smile",
            Vec3::new(
                0.05 * side * m,
                0.17 * side * side * m,
                -0.03 * side * side * m,
            ),
        ),
        (
            "frown",
            Vec3::new(
                0.0,
                -0.1 * side * side * m - 0.05 * b * (inner + 1.0) / 2.0,
                0.0,
            ),
        ),
        // "E": open and spread.
        ("E", Vec3::new(0.06 * side * m, lips(0.07, 0.025), 0.0)),
        // "I": nearly closed, spread wide.
        (
            "I",
            Vec3::new(
                0.1 * side * m,
                lips(0.03, 0.01) + 0.02 * side * side * m,
                0.0,
            ),
        ),
        // "U": small, round and forward.
        (
            "U",
            Vec3::new(-0.22 * side * m, lips(0.025, 0.015), pucker(0.07)),
        ),
        // The brows raised.
        ("brows up", Vec3::new(0.0, 0.07 * b, 0.0)),
    ]
}

/// The jaw's weight at a point: the chin and the lower lip, under the mouth
/// line, at the front.
fn jaw_weight(p: Vec3, front: f32, mouth_y: f32) -> f32 {
    smoothstep(mouth_y + 0.005, mouth_y - 0.12, p.y) * smoothstep(0.2, 0.6, front)
}

/// The grid row whose quads hold the mouth line, and the height where the
/// lips meet: the middle of that row.
fn mouth_row(latitudes: &[f32]) -> (usize, f32) {
    (1..UP - 1)
        .map(|k| {
            let middle = RADII.y * (latitudes[k].sin() + latitudes[k + 1].sin()) / 2.0;
            (k, middle)
        })
        .min_by(|a, b| {
            (a.1 - MOUTH_LINE)
                .abs()
                .total_cmp(&(b.1 - MOUTH_LINE).abs())
        })
        .unwrap_or((UP / 2, MOUTH_LINE))
}

/// The head's mesh with each vertex's colour and target offsets, as they
/// are collected.
struct Painted {
    /// Where the lips meet.
    mouth_y: f32,
    mesh: MeshBuilder,
    colours: Vec<[f32; 3]>,
    morphs: Vec<Vec<f32>>,
}

impl Painted {
    /// A closed surface over a latitude-longitude grid: a pole below and
    /// above, a ring of `longitudes` at each of `latitudes` (poles left
    /// out) and quads between, each facing away from `inside`.
    /// `point(lon, lat)` gives a vertex's position, how much it faces the
    /// viewer and its colour; `hole(quad_row, centre)` leaves a quad out.
    fn grid(
        &mut self,
        latitudes: &[f32],
        longitudes: &[f32],
        point: impl Fn(f32, f32) -> (Vec3, f32, Vec3),
        hole: impl Fn(usize, Vec3) -> bool,
        inside: Vec3,
    ) {
        let mut add = |lon: f32, lat: f32| {
            let (p, front, paint) = point(lon, lat);
            self.vertex(p, front, paint)
        };
        let bottom = add(0.0, -FRAC_PI_2);
        let top = add(0.0, FRAC_PI_2);
        let rings: Vec<Vec<u32>> = latitudes
            .iter()
            .map(|&lat| longitudes.iter().map(|&lon| add(lon, lat)).collect())
            .collect();
        let around = longitudes.len();
        let (Some(first), Some(last)) = (rings.first(), rings.last()) else {
            return;
        };
        let centre_of = |mesh: &MeshBuilder, corners: &[u32]| {
            corners
                .iter()
                .map(|&v| mesh.positions[v as usize])
                .sum::<Vec3>()
                / corners.len() as f32
        };
        for column in 0..around {
            let next = (column + 1) % around;
            for fan in [
                [bottom, first[column], first[next]],
                [top, last[column], last[next]],
            ] {
                let centre = centre_of(&self.mesh, &fan);
                self.mesh.triangle(fan, centre - inside);
            }
            for (row, pair) in rings.windows(2).enumerate() {
                let quad = [
                    pair[0][column],
                    pair[0][next],
                    pair[1][next],
                    pair[1][column],
                ];
                let centre = centre_of(&self.mesh, &quad);
                if !hole(row, centre) {
                    self.mesh.quad(quad, centre - inside);
                }
            }
        }
    }

    fn vertex(&mut self, position: Vec3, front: f32, colour: Vec3) -> u32 {
        let mouth_y = self.mouth_y;
        let jaw = jaw_weight(position, front, mouth_y);
        let influences: Vec<(u32, f32)> = [(0, 1.0 - jaw), (1, jaw)]
            .into_iter()
            .filter(|&(_, w)| w > 0.0)
            .collect();
        for (k, (_, offset)) in offsets(position, front, mouth_y).iter().enumerate() {
            self.morphs[k].extend(offset.to_array());
        }
        self.colours.push(colour.to_array());
        self.mesh.vertex(position, influences)
    }
}

pub(super) fn face() -> SceneDoc {
    let latitudes = latitudes();
    let (slit_row, mouth_y) = mouth_row(&latitudes);
    let mut painted = Painted {
        mouth_y,
        mesh: MeshBuilder::default(),
        colours: Vec::new(),
        morphs: vec![Vec::new(); offsets(Vec3::ZERO, 0.0, 0.0).len()],
    };
    let longitudes = longitudes();
    let point = |lon: f32, lat: f32| {
        let (p, front) = head_point(lon, lat, mouth_y);
        (p, front, colour(Vec2::new(p.x, p.y), front, p, mouth_y))
    };
    // `quad_row` 0 lies between grid rows 1 and 2 (the first ring and the
    // second): the slit is the quads between grid rows `slit_row` and
    // `slit_row + 1`.
    let in_slit = |quad_row: usize, centre: Vec3| {
        quad_row + 1 == slit_row && centre.z > 0.0 && centre.x.abs() < MOUTH_HALF_WIDTH
    };
    painted.grid(
        &latitudes[1..UP],
        &longitudes[..AROUND],
        point,
        in_slit,
        Vec3::ZERO,
    );
    mouth_cavity(&mut painted, mouth_y);

    let head = bone("head", None, Quat::IDENTITY, 2.2);
    let mut jaw = bone("jaw", Some(0), Quat::from_rotation_z(PI), 0.75);
    // The jaw hinges below the ears, pointing down to the chin.
    jaw.origin = [0.0, -2.2 + 1.0, 0.0];
    let Painted {
        mesh,
        colours,
        morphs,
        ..
    } = painted;
    let mut doc = mesh.into_doc(vec![head, jaw]);
    doc.bones[0].origin = [0.0, -RADII.y, 0.0];
    doc.colours = colours;
    doc.morphs = offsets(Vec3::ZERO, 0.0, 0.0)
        .iter()
        .zip(morphs)
        .map(|((name, _), positions)| MorphDoc {
            name: (*name).to_owned(),
            positions,
            normals: None,
        })
        .collect();
    doc.morph_weights = vec![0.0; doc.morphs.len()];
    doc.animations = say_mama(doc.morphs.len());
    doc
}

/// A dark pouch behind the lips, seen when they part: a flattened
/// ellipsoid inside the head, following the head bone.
fn mouth_cavity(painted: &mut Painted, mouth_y: f32) {
    const AROUND: usize = 24;
    const UP: usize = 10;
    let (front_of_mouth, _) = head_point(0.0, (mouth_y / RADII.y).asin(), mouth_y);
    let centre = Vec3::new(0.0, mouth_y - 0.02, front_of_mouth.z - 0.13);
    let radii = Vec3::new(0.2, 0.11, 0.08);
    let latitudes: Vec<f32> = (1..UP)
        .map(|row| -FRAC_PI_2 + PI * row as f32 / UP as f32)
        .collect();
    let longitudes: Vec<f32> = (0..AROUND)
        .map(|column| TAU * column as f32 / AROUND as f32)
        .collect();
    let point = |lon: f32, lat: f32| {
        let dir = Vec3::new(lat.cos() * lon.sin(), lat.sin(), lat.cos() * lon.cos());
        // No morph moves it and the head bone carries it: front 0.
        (centre + dir * radii, 0.0, MOUTH_INSIDE)
    };
    painted.grid(&latitudes, &longitudes, point, |_, _| false, centre);
}

/// The word "mama" as a keyed clip: the visemes M, A, M, A as morph weight
/// keys, and the jaw dropping along its own +Y on each A (the bones note:
/// morphing and skinning acting together).
fn say_mama(targets: usize) -> Vec<crate::scene::clip_doc::ClipDoc> {
    // [time s, viseme index (0 = A, 2 = M) or none, weight, jaw opening].
    const KEYS: [(f32, Option<usize>, f32, f32); 6] = [
        (0.0, None, 0.0, 0.0),
        (0.15, Some(2), 1.0, 0.0),
        (0.35, Some(0), 1.0, 0.12),
        (0.55, Some(2), 1.0, 0.0),
        (0.8, Some(0), 0.9, 0.1),
        (1.1, None, 0.0, 0.0),
    ];
    let mut clip = Clip::new("mama");
    for (time, viseme, weight, jaw) in KEYS {
        let mut weights = vec![0.0; targets];
        if let Some(slot) = viseme.and_then(|k| weights.get_mut(k)) {
            *slot = weight;
        }
        clip.set_weights_key(time, &weights, Interpolation::Linear);
        let opening = BoneTransform {
            translation: Vec3::new(0.0, jaw, 0.0),
            ..BoneTransform::IDENTITY
        };
        clip.set_key(1, time, &opening, Interpolation::Linear);
    }
    clip_docs(&Animation { clips: vec![clip] })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Scene;
    use std::collections::HashMap;

    fn head() -> Scene {
        Scene::from_doc(&face()).unwrap()
    }

    /// Edges used by one triangle only: the rims of the mesh's holes.
    fn open_edges(scene: &Scene) -> Vec<(u32, u32)> {
        let mut uses: HashMap<(u32, u32), usize> = HashMap::new();
        for t in scene.mesh.indices.chunks_exact(3) {
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                *uses.entry((a.min(b), a.max(b))).or_default() += 1;
            }
        }
        uses.into_iter()
            .filter(|&(_, n)| n == 1)
            .map(|(e, _)| e)
            .collect()
    }

    #[test]
    fn the_head_is_closed_but_for_the_mouth() {
        let scene = head();
        let rims = open_edges(&scene);
        assert!(!rims.is_empty(), "the mouth is open");
        let (_, mouth_y) = mouth_row(&latitudes());
        for (a, b) in rims {
            for v in [a, b] {
                let p = scene.mesh.positions_model[v as usize];
                assert!(
                    p.z > 0.5
                        && p.x.abs() < MOUTH_HALF_WIDTH + 0.05
                        && (p.y - mouth_y).abs() < 0.03,
                    "an open edge away from the mouth at {p}"
                );
            }
        }
    }

    #[test]
    fn the_nose_tip_is_the_front_most_point_and_the_eyes_are_painted() {
        let scene = head();
        let positions = &scene.mesh.positions_model;
        let front = positions.iter().max_by(|a, b| a.z.total_cmp(&b.z)).unwrap();
        assert!(
            front.x.abs() < 0.03 && (front.y + 0.25).abs() < 0.06,
            "nose tip at {front}"
        );
        for eye in EYES {
            let near = |colour: Vec3| {
                positions.iter().zip(&scene.vertex_colours).any(|(p, &c)| {
                    c == colour && (Vec2::new(p.x, p.y) - eye).length() < 0.12 && p.z > 0.5
                })
            };
            assert!(near(EYE_WHITE) && near(IRIS) && near(PUPIL), "eye at {eye}");
        }
        let lips = scene.vertex_colours.iter().filter(|&&c| c == LIPS).count();
        assert!(lips > 100, "{lips} lip vertices");
    }

    /// The gap between the lips on the face's midline with `weights` on.
    fn mouth_opening(scene: &Scene, target: &str) -> f32 {
        let k = scene.morphs.iter().position(|m| m.name == target).unwrap();
        let (_, mouth_y) = mouth_row(&latitudes());
        let mut upper = f32::MAX;
        let mut lower = f32::MIN;
        for (v, p) in scene.mesh.positions_model.iter().enumerate() {
            let skin = scene.vertex_colours[v] != MOUTH_INSIDE;
            if skin && p.x.abs() < 0.02 && p.z > 0.5 && (p.y - mouth_y).abs() < 0.03 {
                let moved = *p + scene.morphs[k].positions[v];
                if p.y > mouth_y {
                    upper = upper.min(moved.y);
                } else {
                    lower = lower.max(moved.y);
                }
            }
        }
        upper - lower
    }

    #[test]
    fn a_and_o_open_the_mouth_and_m_closes_it() {
        let scene = head();
        let rest = mouth_opening(&scene, "brows up");
        assert!(rest > 0.0 && rest < 0.03, "a slit at rest: {rest}");
        let a = mouth_opening(&scene, "A");
        assert!(a > rest + 0.12, "A: {a}, rest {rest}");
        assert!(mouth_opening(&scene, "O") > rest + 0.08);
        assert!(mouth_opening(&scene, "M") < rest - 0.015);
    }

    #[test]
    fn only_the_front_moves_and_the_back_of_the_head_stays_on_the_head_bone() {
        let scene = head();
        for (v, p) in scene.mesh.positions_model.iter().enumerate() {
            if p.z < -0.2 {
                assert!(
                    scene.morphs.iter().all(|m| m.positions[v] == Vec3::ZERO),
                    "{p}"
                );
                assert_eq!(scene.influences[v].weight_of(1), 0.0, "{p}");
            }
        }
    }

    #[test]
    fn spacing_follows_the_density() {
        let even = spaced(4, 0.0, 1.0, |_| 1.0);
        for (k, x) in even.iter().enumerate() {
            assert!((x - k as f32 / 4.0).abs() < 1e-4, "{even:?}");
        }
        // Twice the density on the left half: two thirds of the steps there.
        let crowded = spaced(3, 0.0, 1.0, |x| if x < 0.5 { 2.0 } else { 1.0 });
        assert!((crowded[2] - 0.5).abs() < 1e-3, "{crowded:?}");
    }
}
