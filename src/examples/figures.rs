//! The skinning note's figures: the two-bone strip, the Y-junction whose
//! fork tears unless weighted to both branches, the tube that shows the
//! candy wrapper, the long chain, the fingers and the dense tube.

use glam::{Quat, Vec2, Vec3};

use super::builder::{bone, bone_chain, MeshBuilder};
use super::tubes::{tube_rings, Ring};
use crate::scene::doc::SceneDoc;

/// Bones in the `chain` example: more than a uniform array of matrices can
/// hold on most GPUs, so the palette must travel another way.
pub const CHAIN_BONES: usize = 300;

/// The skinning note's strip: two bones of length 2 lying along +X, a strip of 9 × 2
/// vertices around them. Rigid: the vertices left of the joint belong to
/// bone 1, the rest to bone 2. Smooth: bone 2's weight rises linearly from 0
/// at x = 1 to 1 at x = 3.
pub(crate) fn two_bone(smooth: bool) -> SceneDoc {
    let mut mesh = MeshBuilder::default();
    let mut columns = Vec::new();
    for column in 0..=8 {
        let x = column as f32 * 0.5;
        let to_bone_2 = if smooth {
            ((x - 1.0) / 2.0).clamp(0.0, 1.0)
        } else if x < 2.0 {
            0.0
        } else {
            1.0
        };
        let weights: Vec<(u32, f32)> = [(0, 1.0 - to_bone_2), (1, to_bone_2)]
            .into_iter()
            .filter(|&(_, w)| w > 0.0)
            .collect();
        let bottom = mesh.vertex(Vec3::new(x, -0.5, 0.0), weights.clone());
        let top = mesh.vertex(Vec3::new(x, 0.5, 0.0), weights);
        columns.push((bottom, top));
    }
    for pair in columns.windows(2) {
        let ((b0, t0), (b1, t1)) = (pair[0], pair[1]);
        mesh.quad([b0, b1, t1, t0], Vec3::Z);
    }
    let along_x = Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2);
    mesh.into_doc(vec![
        bone("bone 1", None, along_x, 2.0),
        bone("bone 2", Some(0), Quat::IDENTITY, 2.0),
    ])
}

/// The skinning note's Y: a stem of length 2 up the Y axis and two branches of length
/// 2 leaving its tip at ±40°. The fork vertex, where the branches' inner
/// edges meet, belongs to both branches (weighted) or to the left one only
/// (unweighted), which makes it tear when the right branch bends.
pub(crate) fn y_junction(fork_weighted: bool) -> SceneDoc {
    let half_angle = 40_f32.to_radians();
    let half_width = 0.5;
    let mut mesh = MeshBuilder::default();
    let mut stem = Vec::new();
    for row in 0..=4 {
        let y = row as f32 * 0.5;
        let left = mesh.vertex(Vec3::new(-half_width, y, 0.0), vec![(0, 1.0)]);
        let right = mesh.vertex(Vec3::new(half_width, y, 0.0), vec![(0, 1.0)]);
        stem.push((left, right));
    }
    for pair in stem.windows(2) {
        let ((l0, r0), (l1, r1)) = (pair[0], pair[1]);
        mesh.quad([l0, r0, r1, l1], Vec3::Z);
    }
    // The fork sits where both branches, centred on their bones, have the
    // stem's half width on their inner side.
    let fork_height = half_width / half_angle.tan();
    let fork_influences = if fork_weighted {
        vec![(1, 0.5), (2, 0.5)]
    } else {
        vec![(1, 1.0)]
    };
    let fork = mesh.vertex(Vec3::new(0.0, 2.0 + fork_height, 0.0), fork_influences);
    let (top_left, top_right) = stem[4];
    mesh.triangle([top_left, top_right, fork], Vec3::Z);
    for (bone_index, side, outer_start) in [(1_u32, -1.0_f32, top_left), (2, 1.0, top_right)] {
        let direction = Vec2::new(side * half_angle.sin(), half_angle.cos());
        let outer_origin = mesh.positions[outer_start as usize];
        let inner_origin = mesh.positions[fork as usize];
        let (mut outer, mut inner) = (outer_start, fork);
        for step in 1..=4 {
            let offset = (direction * 0.5 * step as f32).extend(0.0);
            let next_outer = mesh.vertex(outer_origin + offset, vec![(bone_index, 1.0)]);
            let next_inner = mesh.vertex(inner_origin + offset, vec![(bone_index, 1.0)]);
            mesh.quad([outer, inner, next_inner, next_outer], Vec3::Z);
            (outer, inner) = (next_outer, next_inner);
        }
    }
    mesh.into_doc(vec![
        bone("stem", None, Quat::IDENTITY, 2.0),
        bone(
            "left branch",
            Some(0),
            Quat::from_rotation_z(half_angle),
            2.0,
        ),
        bone(
            "right branch",
            Some(0),
            Quat::from_rotation_z(-half_angle),
            2.0,
        ),
    ])
}

/// Rings in the tube, and where the joint's ring is.
pub const TUBE_RINGS: usize = 17;
/// The ring at the joint between the tube's two bones (y = 2).
pub const TUBE_JOINT_RING: usize = 8;
/// Vertices per ring of the tube.
pub const TUBE_SEGMENTS: usize = 24;
/// The tube's rest radius.
pub const TUBE_RADIUS: f32 = 0.5;

/// An open cylinder of radius 0.5 along +Y from 0 to 4 over two bones of
/// length 2, 17 rings of 24 vertices. Bone 2's weight rises linearly from 0
/// at y = 1 to 1 at y = 3, so the joint ring is half and half: twisting bone
/// 2 by 180° collapses it under LBS (the candy wrapper) and not under DQS.
pub(crate) fn tube() -> SceneDoc {
    let mut mesh = MeshBuilder::default();
    let rings = (0..TUBE_RINGS).map(|ring| {
        let y = ring as f32 * 0.25;
        let to_bone_2 = ((y - 1.0) / 2.0).clamp(0.0, 1.0);
        let weights = [(0, 1.0 - to_bone_2), (1, to_bone_2)]
            .into_iter()
            .filter(|&(_, w)| w > 0.0)
            .collect();
        Ring {
            y,
            radius: TUBE_RADIUS,
            weights,
        }
    });
    tube_rings(&mut mesh, rings, TUBE_SEGMENTS);
    mesh.into_doc(vec![
        bone("bone 1", None, Quat::IDENTITY, 2.0),
        bone("bone 2", Some(0), Quat::IDENTITY, 2.0),
    ])
}

/// Rings and segments of the `dense` tube: 400 × 250 = 100,000 vertices.
pub(crate) const DENSE_RINGS: usize = 400;
/// Rings of the `million` tube: 4,000 × 250 = 1,000,000 vertices, the most
/// a scene may hold.
pub(crate) const MILLION_RINGS: usize = 4_000;
const DENSE_SEGMENTS: usize = 250;
/// Bones along the `dense` tube, each `DENSE_BONE_LENGTH` long.
const DENSE_BONES: usize = 4;
const DENSE_BONE_LENGTH: f32 = 2.0;

/// A tube of `rings` × 250 vertices (`dense`: 100,000) and four bones, each
/// ring blended linearly between the two nearest bones' middles: big enough
/// that the cost of skinning on the CPU shows in the page and the
/// benchmarks.
pub(crate) fn dense_tube(ring_count: usize) -> SceneDoc {
    let mut mesh = MeshBuilder::default();
    let height = DENSE_BONES as f32 * DENSE_BONE_LENGTH;
    let rings = (0..ring_count).map(|ring| {
        let y = height * ring as f32 / (ring_count - 1) as f32;
        // Bone k's middle is at (k + ½) · length.
        let along = (y / DENSE_BONE_LENGTH - 0.5).clamp(0.0, (DENSE_BONES - 1) as f32);
        let lower = (along.floor() as usize).min(DENSE_BONES - 2);
        let to_upper = along - lower as f32;
        let weights = [(lower as u32, 1.0 - to_upper), (lower as u32 + 1, to_upper)]
            .into_iter()
            .filter(|&(_, w)| w > 0.0)
            .collect();
        Ring {
            y,
            radius: 0.6,
            weights,
        }
    });
    tube_rings(&mut mesh, rings, DENSE_SEGMENTS);
    mesh.into_doc(bone_chain("bone", DENSE_BONES, DENSE_BONE_LENGTH))
}

/// A strip along +Y driven by a chain of `bones` short bones, each vertex
/// row blended between the two nearest bones: a stress test for the palette.
pub(crate) fn chain(bones: usize) -> SceneDoc {
    let bone_length = 0.05;
    let mut mesh = MeshBuilder::default();
    let mut rows = Vec::new();
    for row in 0..=bones {
        let y = row as f32 * bone_length;
        let influences = if row == 0 {
            vec![(0, 1.0)]
        } else if row == bones {
            vec![(row as u32 - 1, 1.0)]
        } else {
            vec![(row as u32 - 1, 0.5), (row as u32, 0.5)]
        };
        let left = mesh.vertex(Vec3::new(-0.2, y, 0.0), influences.clone());
        let right = mesh.vertex(Vec3::new(0.2, y, 0.0), influences);
        rows.push((left, right));
    }
    for pair in rows.windows(2) {
        let ((l0, r0), (l1, r1)) = (pair[0], pair[1]);
        mesh.quad([l0, r0, r1, l1], Vec3::Z);
    }
    mesh.into_doc(bone_chain("link", bones, bone_length))
}

/// The bones note's warning made concrete: a palm with a long middle finger and a
/// shorter index finger side by side, 0.2 apart. The index finger's bone
/// ends well before its tip, so the tip's inner edge is nearer to the middle
/// finger's bone: weighting by nearest bone hands it to the wrong finger.
/// The scene ships with each region bound to its own bone.
pub(crate) fn fingers() -> SceneDoc {
    let mut mesh = MeshBuilder::default();
    let palm_columns = [-1.0, -0.9, -0.5, -0.1, 0.1, 0.5, 0.9, 1.0];
    let mut palm_rows = Vec::new();
    for row in 0..=2 {
        let y = row as f32 * 0.5;
        let vertices: Vec<u32> = palm_columns
            .iter()
            .map(|&x| mesh.vertex(Vec3::new(x, y, 0.0), vec![(0, 1.0)]))
            .collect();
        palm_rows.push(vertices);
    }
    for pair in palm_rows.windows(2) {
        for k in 0..palm_columns.len() - 1 {
            mesh.quad(
                [pair[0][k], pair[0][k + 1], pair[1][k + 1], pair[1][k]],
                Vec3::Z,
            );
        }
    }
    let top = palm_rows[2].clone();
    // (bone, first palm column, length of the finger above the palm)
    for (bone, first_column, length) in [(1_u32, 1_usize, 2.5_f32), (2, 4, 2.0)] {
        let mut previous: Vec<u32> = top[first_column..first_column + 3].to_vec();
        let rows = (length / 0.25).round() as usize;
        for row in 1..=rows {
            let y = 1.0 + row as f32 * 0.25;
            let current: Vec<u32> = (0..3)
                .map(|k| {
                    mesh.vertex(
                        Vec3::new(palm_columns[first_column + k], y, 0.0),
                        vec![(bone, 1.0)],
                    )
                })
                .collect();
            for k in 0..2 {
                mesh.quad(
                    [previous[k], previous[k + 1], current[k + 1], current[k]],
                    Vec3::Z,
                );
            }
            previous = current;
        }
    }
    let mut middle = bone("middle finger", Some(0), Quat::IDENTITY, 2.2);
    middle.origin = [-0.5, 0.0, 0.0];
    let mut index = bone("index finger", Some(0), Quat::IDENTITY, 1.2);
    index.origin = [0.5, 0.0, 0.0];
    mesh.into_doc(vec![bone("palm", None, Quat::IDENTITY, 1.0), middle, index])
}
