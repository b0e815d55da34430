//! The morph example (the bones note): a flat face whose mouth takes visemes and
//! expressions as morph targets, with a jaw bone, so morphing (before) and
//! skinning (after) act together.

use glam::{Quat, Vec3};

use super::builder::{bone, MeshBuilder};
use crate::rig::animation::{Animation, Clip, Interpolation};
use crate::rig::pose::BoneTransform;
use crate::scene::clip_doc::clip_docs;
use crate::scene::doc::{MorphDoc, SceneDoc};

/// Columns and rows of the face grid: a quad every 0.05 units, fine enough
/// for eye, brow and mouth openings.
const COLUMNS: usize = 33;
const ROWS: usize = 45;
/// Half-width and half-height of the face's oval.
const HALF_WIDTH: f32 = 0.8;
const HALF_HEIGHT: f32 = 1.1;
/// Where the mouth is: on a row of quad centres, so its slit is one quad tall.
const MOUTH: Vec3 = Vec3::new(0.0, -0.525, 0.0);
/// The eyes' centres (left and right) and their half-width and half-height.
const EYES: [Vec3; 2] = [Vec3::new(-0.3, 0.2, 0.0), Vec3::new(0.3, 0.2, 0.0)];
const EYE_SIZE: (f32, f32) = (0.15, 0.07);
/// The brows' centres.
const BROWS: [Vec3; 2] = [Vec3::new(-0.3, 0.425, 0.0), Vec3::new(0.3, 0.425, 0.0)];

/// How strongly a point belongs to the mouth: 1 at its centre, fading out.
fn mouth(p: Vec3) -> f32 {
    let x = (p.x - MOUTH.x) / 0.38;
    let y = (p.y - MOUTH.y) / 0.2;
    (-(x * x + y * y)).exp()
}

/// How strongly a point belongs to a brow, and how far toward the nose
/// (−1 outer end … 1 inner end).
fn brow(p: Vec3) -> (f32, f32) {
    BROWS
        .iter()
        .map(|c| {
            let x = (p.x - c.x) / 0.22;
            let y = (p.y - c.y) / 0.1;
            let inner = if c.x < 0.0 { x } else { -x };
            ((-(x * x + y * y)).exp(), inner.clamp(-1.0, 1.0))
        })
        .fold(
            (0.0, 0.0),
            |best, next| if next.0 > best.0 { next } else { best },
        )
}

/// Whether the quad centred at `p` is an opening: the eyes, the brows (thin
/// arcs) and the mouth (a slit at rest, which the visemes open and shape).
fn is_opening(p: Vec3) -> bool {
    let inside =
        |c: Vec3, (a, b): (f32, f32)| ((p.x - c.x) / a).powi(2) + ((p.y - c.y) / b).powi(2) < 1.0;
    let brow_arc = |c: Vec3| {
        let x = (p.x - c.x) / 0.17;
        // An arc, highest in its middle.
        x.abs() < 1.0 && (p.y - (c.y - 0.03 * x * x)).abs() < 0.026
    };
    EYES.iter().any(|&c| inside(c, EYE_SIZE))
        || BROWS.iter().any(|&c| brow_arc(c))
        || inside(MOUTH, (0.27, 0.026))
}

/// Each target's offset for a point of the face: the first six as before
/// (visemes A, O, M, F and the expressions), then the visemes E, I, U and
/// the brows raised.
fn offsets(p: Vec3) -> [(&'static str, Vec3); 10] {
    let m = mouth(p);
    // The lower lip below the mouth line, the upper lip above it.
    let lower = p.y < MOUTH.y;
    let lips = |down: f32, up: f32| if lower { -down * m } else { up * m };
    let side = (p.x - MOUTH.x) / 0.38;
    let (b, inner) = brow(p);
    [
        // "A": the jaw's vowel, wide open, the lower lip most.
        ("A", Vec3::new(-0.03 * side * m, lips(0.16, 0.05), 0.0)),
        // "O": rounded, narrower and open.
        ("O", Vec3::new(-0.14 * side * m, lips(0.09, 0.05), 0.0)),
        // "M/B/P": the lips pressed together.
        ("M", Vec3::new(0.0, lips(-0.02, -0.02), 0.0)),
        // "F/V": the lower lip up under the upper teeth.
        (
            "F",
            Vec3::new(0.0, if lower { 0.03 * m } else { 0.012 * m }, 0.0),
        ),
        // Expressions: the corners up, or down with the brows' inner ends.
        (
            "smile",
            Vec3::new(0.04 * side * m, 0.14 * side * side * m, 0.0),
        ),
        (
            "frown",
            Vec3::new(
                0.0,
                -0.12 * side * side * m - 0.05 * b * (inner + 1.0) / 2.0,
                0.0,
            ),
        ),
        // "E": open and spread.
        ("E", Vec3::new(0.06 * side * m, lips(0.08, 0.03), 0.0)),
        // "I": nearly closed, spread wide.
        (
            "I",
            Vec3::new(
                0.1 * side * m,
                lips(0.035, 0.012) + 0.02 * side * side * m,
                0.0,
            ),
        ),
        // "U": small and round.
        ("U", Vec3::new(-0.22 * side * m, lips(0.03, 0.02), 0.0)),
        // The brows raised.
        ("brows up", Vec3::new(0.0, 0.08 * b, 0.0)),
    ]
}

/// The weight of the jaw for a point: the chin, blended over the cheeks.
fn jaw_weight(p: Vec3) -> f32 {
    ((-0.15 - p.y) / 0.3).clamp(0.0, 1.0)
}

pub(super) fn face() -> SceneDoc {
    let mut mesh = MeshBuilder::default();
    let mut grid = vec![vec![None; COLUMNS]; ROWS];
    let mut morphs: Vec<Vec<f32>> = vec![Vec::new(); offsets(Vec3::ZERO).len()];
    let at = |row: usize, column: usize| {
        Vec3::new(
            -HALF_WIDTH + 2.0 * HALF_WIDTH * column as f32 / (COLUMNS - 1) as f32,
            -HALF_HEIGHT + 2.0 * HALF_HEIGHT * row as f32 / (ROWS - 1) as f32,
            0.0,
        )
    };
    for (row, cells) in grid.iter_mut().enumerate() {
        for (column, cell) in cells.iter_mut().enumerate() {
            let p = at(row, column);
            if (p.x / HALF_WIDTH).powi(2) + (p.y / HALF_HEIGHT).powi(2) > 1.02 {
                continue;
            }
            let jaw = jaw_weight(p);
            let influences: Vec<(u32, f32)> = [(0, 1.0 - jaw), (1, jaw)]
                .into_iter()
                .filter(|&(_, w)| w > 0.0)
                .collect();
            *cell = Some(mesh.vertex(p, influences));
            for (k, (_, offset)) in offsets(p).iter().enumerate() {
                morphs[k].extend(offset.to_array());
            }
        }
    }
    for row in 0..ROWS - 1 {
        for column in 0..COLUMNS - 1 {
            let corners = [
                grid[row][column],
                grid[row][column + 1],
                grid[row + 1][column + 1],
                grid[row + 1][column],
            ];
            let centre = (at(row, column) + at(row + 1, column + 1)) / 2.0;
            if is_opening(centre) {
                continue;
            }
            if let [Some(a), Some(b), Some(c), Some(d)] = corners {
                mesh.quad([a, b, c, d], Vec3::Z);
            }
        }
    }
    let head = bone("head", None, Quat::IDENTITY, 2.2);
    let mut jaw = bone(
        "jaw",
        Some(0),
        Quat::from_rotation_z(std::f32::consts::PI),
        0.75,
    );
    // The jaw hinges below the ears, pointing down to the chin.
    jaw.origin = [0.0, -2.2 + 1.0, 0.0];
    let mut doc = mesh.into_doc(vec![head, jaw]);
    doc.bones[0].origin = [0.0, -HALF_HEIGHT, 0.0];
    doc.morphs = offsets(Vec3::ZERO)
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
