//! The `flip` example (the animation talk's sliding door, the engine
//! note's md2 keyframes): two arrows turned by 180° about their base
//! between two keys, the left by its bone (a slerped rotation: it turns),
//! the right by vertex animation, its two point lists interpolated
//! linearly (`p(t) = (1 − t)·p₀ + t·p₁`: every point runs straight through
//! the pivot, so the arrow shrinks to a point halfway and grows back
//! upside down).

use std::f32::consts::PI;

use glam::{Quat, Vec3};

use super::builder::{bone, MeshBuilder};
use super::tubes::{tube_rings, Ring};
use crate::rig::animation::{Animation, Clip, Interpolation};
use crate::rig::pose::BoneTransform;
use crate::scene::clip_doc::{clip_docs, ChannelDoc};
use crate::scene::doc::{MorphDoc, SceneDoc};

/// Seconds from the first key to the second.
const FLIP_SECONDS: f32 = 2.0;
/// Where each arrow's base sits, model space.
const PIVOTS: [Vec3; 2] = [Vec3::new(-1.5, -1.0, 0.0), Vec3::new(1.5, -1.0, 0.0)];

/// An arrow up +Y from `pivot`: a square shaft and a head, every vertex
/// bound to `bone`; returns its vertices' range.
fn arrow(mesh: &mut MeshBuilder, bone: u32, pivot: Vec3) -> std::ops::Range<usize> {
    let first = mesh.vertex_count();
    let shape = [
        (0.0, 0.15),
        (0.5, 0.15),
        (1.0, 0.15),
        (1.4, 0.15),
        (1.4, 0.35),
        (2.0, 0.02),
    ];
    tube_rings(
        mesh,
        shape.iter().map(|&(y, radius)| Ring {
            y,
            radius,
            weights: vec![(bone, 1.0)],
        }),
        4,
    );
    let range = first..mesh.vertex_count();
    mesh.shift(range.clone(), pivot);
    range
}

pub(super) fn flip() -> SceneDoc {
    let mut mesh = MeshBuilder::default();
    arrow(&mut mesh, 1, PIVOTS[0]);
    let keyed = arrow(&mut mesh, 2, PIVOTS[1]);
    // A stand between the two arrows holds them (one root).
    let stand = (PIVOTS[0] + PIVOTS[1]) / 2.0;
    let mut bones = vec![
        bone("stand", None, Quat::IDENTITY, 0.0),
        bone("bone keys", Some(0), Quat::IDENTITY, 2.0),
        bone("vertex keys", Some(0), Quat::IDENTITY, 2.0),
    ];
    bones[0].origin = stand.to_array();
    bones[1].origin = (PIVOTS[0] - stand).to_array();
    bones[2].origin = (PIVOTS[1] - stand).to_array();
    let mut doc = mesh.into_doc(bones);
    // The second key of the vertex animation: every point of the right
    // arrow turned 180° about Z through its pivot, stored as the offset
    // `R(π)(p − c) + c − p = −2 (p − c)` in X and Y.
    let mut offsets = vec![0.0_f32; doc.mesh.positions.len()];
    for v in keyed {
        for axis in 0..2 {
            offsets[3 * v + axis] = -2.0 * (doc.mesh.positions[3 * v + axis] - PIVOTS[1][axis]);
        }
    }
    doc.morphs = vec![MorphDoc {
        name: "turned".to_owned(),
        positions: offsets,
        normals: None,
    }];
    doc.morph_weights = vec![0.0];

    let mut clip = Clip::new("flip");
    for (time, angle) in [(0.0, 0.0), (FLIP_SECONDS, PI)] {
        let local = BoneTransform {
            rotation: Quat::from_rotation_z(angle),
            ..BoneTransform::IDENTITY
        };
        clip.set_key(1, time, &local, Interpolation::Linear);
    }
    let mut docs = clip_docs(&Animation { clips: vec![clip] });
    docs[0].channels.push(ChannelDoc {
        bone: None,
        path: "weights".to_owned(),
        interpolation: "LINEAR".to_owned(),
        times: vec![0.0, FLIP_SECONDS],
        values: vec![0.0, 1.0],
    });
    doc.animations = docs;
    doc
}
