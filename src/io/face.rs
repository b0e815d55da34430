//! The morph example (the bones note): a flat face whose mouth takes visemes and
//! expressions as morph targets, with a jaw bone, so morphing (before) and
//! skinning (after) act together.

use glam::{Quat, Vec3};

use super::clips::clip_docs;
use super::examples::{bone, MeshBuilder};
use super::scene::{MorphDoc, SceneDoc};
use crate::rig::animation::{Animation, Clip, Interpolation};
use crate::rig::pose::BoneTransform;

/// Columns and rows of the face grid.
const COLUMNS: usize = 17;
const ROWS: usize = 23;
/// Half-width and half-height of the face's oval.
const HALF_WIDTH: f32 = 0.8;
const HALF_HEIGHT: f32 = 1.1;
/// Where the mouth is.
const MOUTH: Vec3 = Vec3::new(0.0, -0.5, 0.0);

/// How strongly a point belongs to the mouth: 1 at its centre, fading out.
fn mouth(p: Vec3) -> f32 {
    let x = (p.x - MOUTH.x) / 0.38;
    let y = (p.y - MOUTH.y) / 0.2;
    (-(x * x + y * y)).exp()
}

/// Each target's offset for a point of the face.
fn offsets(p: Vec3) -> [(&'static str, Vec3); 6] {
    let m = mouth(p);
    let below = if p.y < MOUTH.y { 1.0 } else { -0.4 };
    let side = (p.x - MOUTH.x) / 0.38;
    [
        // "A": the lips part, the lower one most.
        ("A", Vec3::new(0.0, -0.16 * below * m, 0.0)),
        // "O": rounded, narrower and a little open.
        ("O", Vec3::new(-0.12 * side * m, -0.07 * below * m, 0.0)),
        // "M/B/P": pressed together.
        ("M", Vec3::new(0.0, 0.06 * below * m, 0.0)),
        // "F/V": the lower lip up under the teeth.
        (
            "F",
            Vec3::new(0.0, 0.08 * m * f32::from(p.y < MOUTH.y), 0.0),
        ),
        // Expressions: the corners up or down.
        (
            "smile",
            Vec3::new(0.04 * side * m, 0.14 * side * side * m, 0.0),
        ),
        ("frown", Vec3::new(0.0, -0.12 * side * side * m, 0.0)),
    ]
}

/// The weight of the jaw for a point: the chin, blended over the cheeks.
fn jaw_weight(p: Vec3) -> f32 {
    ((-0.15 - p.y) / 0.3).clamp(0.0, 1.0)
}

pub(super) fn face() -> SceneDoc {
    let mut mesh = MeshBuilder::default();
    let mut grid = vec![vec![None; COLUMNS]; ROWS];
    let mut morphs: Vec<Vec<f32>> = vec![Vec::new(); 6];
    for (row, cells) in grid.iter_mut().enumerate() {
        for (column, cell) in cells.iter_mut().enumerate() {
            let x = -HALF_WIDTH + 2.0 * HALF_WIDTH * column as f32 / (COLUMNS - 1) as f32;
            let y = -HALF_HEIGHT + 2.0 * HALF_HEIGHT * row as f32 / (ROWS - 1) as f32;
            let p = Vec3::new(x, y, 0.0);
            if (x / HALF_WIDTH).powi(2) + (y / HALF_HEIGHT).powi(2) > 1.02 {
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
fn say_mama(targets: usize) -> Vec<super::clips::ClipDoc> {
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
