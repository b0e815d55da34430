//! The `robot` example (the bones note: "bei einem Roboter können es sofort
//! die Bauteile sein"): an arm of rigid parts on a table, each part a mesh
//! bound to one joint with weight 1 — nothing blends, nothing bends — with a
//! hinge at every joint, for the same IK solvers and limits as the skinned
//! `arm`.

use glam::{Quat, Vec3};

use super::builder::{bone, MeshBuilder};
use crate::rig::limits::{HingeDoc, LimitDoc};
use crate::scene::doc::{MeshPartDoc, SceneDoc};

/// Where the arm's turntable sits, model space.
pub const ROBOT_BASE: Vec3 = Vec3::new(-1.0, -1.4, 0.0);

fn hinge(min_degrees: f32, max_degrees: f32) -> LimitDoc {
    LimitDoc {
        hinge: Some(HingeDoc {
            axis: [0.0, 0.0, 1.0],
            min: min_degrees.to_radians(),
            max: max_degrees.to_radians(),
        }),
        ..LimitDoc::default()
    }
}

/// A flat rectangle from `start` to `end`, `half_width` either side, facing
/// +Z, every vertex on `bone`; returns its vertices' range.
fn plate(mesh: &mut MeshBuilder, start: Vec3, end: Vec3, half_width: f32, bone: u32) -> [u32; 2] {
    let first = mesh.vertex_count() as u32;
    let along = (end - start).normalize_or(Vec3::Y);
    let across = Vec3::new(-along.y, along.x, 0.0) * half_width;
    let corners = [start - across, end - across, end + across, start + across]
        .map(|p| mesh.vertex(p, vec![(bone, 1.0)]));
    mesh.quad(corners, Vec3::Z);
    [first, mesh.vertex_count() as u32 - first]
}

/// A regular octagon of `radius` round `centre` on `bone` (a joint's hub).
fn hub(mesh: &mut MeshBuilder, centre: Vec3, radius: f32, bone: u32) -> [u32; 2] {
    let first = mesh.vertex_count() as u32;
    let middle = mesh.vertex(centre, vec![(bone, 1.0)]);
    let rim: Vec<u32> = (0..8)
        .map(|k| {
            let angle = std::f32::consts::TAU * k as f32 / 8.0;
            mesh.vertex(
                centre + Vec3::new(angle.cos(), angle.sin(), 0.0) * radius,
                vec![(bone, 1.0)],
            )
        })
        .collect();
    for k in 0..8 {
        mesh.triangle([middle, rim[k], rim[(k + 1) % 8]], Vec3::Z);
    }
    [first, mesh.vertex_count() as u32 - first]
}

pub(super) fn robot() -> SceneDoc {
    // Bones: the table (fixed), the turntable's column, upper arm, forearm,
    // gripper; straight up from the base at rest.
    let lengths = [0.0_f32, 0.5, 1.4, 1.2, 0.45];
    let names = ["table", "column", "upper arm", "forearm", "gripper"];
    let limits = [
        None,
        Some(hinge(0.0, 0.0)),
        Some(hinge(-110.0, 110.0)),
        Some(hinge(-150.0, 150.0)),
        Some(hinge(-100.0, 100.0)),
    ];
    let mut bones = Vec::new();
    for (k, name) in names.iter().enumerate() {
        let mut b = bone(
            name,
            k.checked_sub(1).map(|p| p as u32),
            Quat::IDENTITY,
            lengths[k],
        );
        b.limits = limits[k].clone();
        bones.push(b);
    }
    bones[0].origin = ROBOT_BASE.to_array();
    let mut mesh = MeshBuilder::default();
    let mut parts = Vec::new();
    let mut part = |name: &str, range: [u32; 2], bone: u32| {
        parts.push(MeshPartDoc {
            name: name.to_owned(),
            vertices: range,
            binding: "rigid".to_owned(),
            bone: Some(bone),
            skin: None,
        });
    };
    // The table top, a wide plate under the base, on the fixed bone.
    let top = plate(
        &mut mesh,
        ROBOT_BASE + Vec3::new(-1.0, -0.1, 0.0),
        ROBOT_BASE + Vec3::new(4.2, -0.1, 0.0),
        0.08,
        0,
    );
    part("table", top, 0);
    let mut y = 0.0;
    for k in 1..names.len() {
        let start = ROBOT_BASE + Vec3::new(0.0, y, 0.0);
        let end = start + Vec3::new(0.0, lengths[k], 0.0);
        let width = [0.0, 0.28, 0.16, 0.13, 0.1][k];
        let range = plate(&mut mesh, start, end, width, k as u32);
        part(names[k], range, k as u32);
        if k >= 2 {
            let range = hub(&mut mesh, start, width * 1.35, k as u32);
            part(&format!("{} joint", names[k]), range, k as u32);
        }
        y += lengths[k];
    }
    // The gripper's two fingers.
    let tip = ROBOT_BASE + Vec3::new(0.0, y, 0.0);
    for side in [-1.0_f32, 1.0] {
        let range = plate(
            &mut mesh,
            tip + Vec3::new(0.1 * side, -0.05, 0.0),
            tip + Vec3::new(0.1 * side, 0.25, 0.0),
            0.03,
            4,
        );
        part("finger", range, 4);
    }
    let mut doc = mesh.into_doc(bones);
    doc.meshes = parts;
    doc
}
