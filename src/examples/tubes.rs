//! Tubes around the Y axis: the ring builder the `tube`, `dense` and `tail`
//! examples share, and the `tail` (the engine note): a tapering tail of
//! [`TAIL_BONES`] bones, more than the engine note's 256 uniform vectors carry in
//! any palette format, so drawing it within that budget takes several draw
//! calls. Its clip "swish" sends a wave down it.

use std::f32::consts::TAU;

use glam::{Quat, Vec3};

use super::builder::{bone_chain, MeshBuilder};
use crate::rig::animation::{Animation, Clip, Interpolation};
use crate::rig::pose::BoneTransform;
use crate::scene::clip_doc::clip_docs;
use crate::scene::doc::SceneDoc;

/// One ring of a tube: its height, its radius and its vertices' weights.
pub(super) struct Ring {
    pub(super) y: f32,
    pub(super) radius: f32,
    pub(super) weights: Vec<(u32, f32)>,
}

/// Adds a tube to `mesh`: `segments` vertices around each ring, at angle
/// `2πk / segments` in the XZ plane, and a quad facing outward between each
/// pair of neighbouring rings.
pub(super) fn tube_rings(
    mesh: &mut MeshBuilder,
    rings: impl IntoIterator<Item = Ring>,
    segments: usize,
) {
    let mut previous: Option<Vec<u32>> = None;
    for ring in rings {
        let vertices: Vec<u32> = (0..segments)
            .map(|k| {
                let angle = TAU * k as f32 / segments as f32;
                let position =
                    Vec3::new(ring.radius * angle.cos(), ring.y, ring.radius * angle.sin());
                mesh.vertex(position, ring.weights.clone())
            })
            .collect();
        if let Some(below) = &previous {
            for k in 0..segments {
                let next = (k + 1) % segments;
                let angle = TAU * (k as f32 + 0.5) / segments as f32;
                let quad = [below[k], below[next], vertices[next], vertices[k]];
                mesh.quad(quad, Vec3::new(angle.cos(), 0.0, angle.sin()));
            }
        }
        previous = Some(vertices);
    }
}

/// Bones in the `tail`: at 256 vectors, four draw calls as 4x3 matrices
/// (80 bones a draw), five as `mat4` (60), three as dual quaternions (120);
/// neighbouring batches share the bone at their seam, so `m` bones a draw
/// need at least `⌈(n − 1)/(m − 1)⌉` of them.
pub const TAIL_BONES: usize = 240;
const TAIL_BONE_LENGTH: f32 = 0.025;
const TAIL_SEGMENTS: usize = 10;
/// The swish's period, seconds, and each bone's largest turn, degrees.
const SWISH_SECONDS: f32 = 2.0;
const SWISH_DEGREES: f32 = 2.5;
/// Bones per wavelength of the swish.
const SWISH_WAVELENGTH: f32 = 80.0;

/// The `tail`: two rings per bone, at its start (half and half with the
/// bone before) and its middle (its own), tapering from 0.35 to 0.035.
pub(super) fn tail() -> SceneDoc {
    let mut mesh = MeshBuilder::default();
    let length = TAIL_BONES as f32 * TAIL_BONE_LENGTH;
    let rings = (0..=2 * TAIL_BONES).map(|k| {
        let y = k as f32 * TAIL_BONE_LENGTH / 2.0;
        let bone = (k / 2) as u32;
        let weights = match (k % 2, k) {
            (1, _) => vec![(bone, 1.0)],
            (_, 0) => vec![(0, 1.0)],
            _ if k == 2 * TAIL_BONES => vec![(bone - 1, 1.0)],
            _ => vec![(bone - 1, 0.5), (bone, 0.5)],
        };
        Ring {
            y,
            radius: 0.35 * (1.0 - 0.9 * y / length),
            weights,
        }
    });
    tube_rings(&mut mesh, rings, TAIL_SEGMENTS);
    let mut doc = mesh.into_doc(bone_chain("vertebra", TAIL_BONES, TAIL_BONE_LENGTH));
    doc.animations = clip_docs(&Animation {
        clips: vec![swish()],
    });
    doc
}

/// Bone `b` turns about Z by `A sin(2π (t/T − b/λ))`: a wave travelling
/// down the tail, keyed smooth at eighths of the period.
fn swish() -> Clip {
    let mut clip = Clip::new("swish");
    for bone in 0..TAIL_BONES {
        for key in 0..=8 {
            let time = SWISH_SECONDS * key as f32 / 8.0;
            let phase = TAU * (time / SWISH_SECONDS - bone as f32 / SWISH_WAVELENGTH);
            let local = BoneTransform {
                rotation: Quat::from_rotation_z(SWISH_DEGREES.to_radians() * phase.sin()),
                ..BoneTransform::IDENTITY
            };
            clip.set_key(bone, time, &local, Interpolation::CubicSpline);
        }
    }
    clip
}
