//! A mannequin with no skeleton, to be rigged: six closed tubes (trunk,
//! head, arms held out in a T, legs) that overlap where they meet, as a
//! sculpt or a kitbashed character arrives. It faces +Z, its left at +X,
//! 1.8 tall on the floor, on one root point that holds no skin.

use glam::Vec3;

use super::builder::MeshBuilder;
use crate::scene::doc::{BoneDoc, MeshPartDoc, SceneDoc};

/// Sides around each tube.
const SIDES: usize = 16;

/// The parts: from, to, radius, rings along the tube.
const PARTS: [([f32; 3], [f32; 3], f32, usize); 6] = [
    ([0.0, 0.86, 0.0], [0.0, 1.5, 0.0], 0.16, 9),
    ([0.0, 1.46, 0.0], [0.0, 1.8, 0.0], 0.1, 6),
    ([0.12, 1.42, 0.0], [0.86, 1.42, 0.0], 0.05, 16),
    ([-0.12, 1.42, 0.0], [-0.86, 1.42, 0.0], 0.05, 16),
    ([0.1, 0.94, 0.0], [0.1, 0.0, 0.0], 0.07, 14),
    ([-0.1, 0.94, 0.0], [-0.1, 0.0, 0.0], 0.07, 14),
];

/// The mannequin: a static mesh of the six tubes on a root point.
pub(super) fn mannequin() -> SceneDoc {
    let mut mesh = MeshBuilder::default();
    for (from, to, radius, rings) in PARTS {
        closed_tube(&mut mesh, Vec3::from(from), Vec3::from(to), radius, rings);
    }
    let count = mesh.vertex_count() as u32;
    let mut doc = mesh.into_doc(vec![BoneDoc::plain("root", None, [0.0; 3], 0.0)]);
    doc.bones[0].deforms = false;
    doc.meshes = vec![MeshPartDoc {
        name: "mannequin".into(),
        vertices: [0, count],
        binding: "static".into(),
        bone: None,
        skin: None,
    }];
    doc
}

/// A tube from `from` to `to` of `rings` rings, closed by a fan at each end.
fn closed_tube(mesh: &mut MeshBuilder, from: Vec3, to: Vec3, radius: f32, rings: usize) {
    let axis = (to - from).normalize();
    let side = axis.any_orthonormal_vector();
    let other = axis.cross(side);
    let first = mesh.vertex_count() as u32;
    let around = |s: usize| {
        let angle = std::f32::consts::TAU * s as f32 / SIDES as f32;
        side * angle.cos() + other * angle.sin()
    };
    for r in 0..rings {
        let centre = from.lerp(to, r as f32 / (rings - 1) as f32);
        for s in 0..SIDES {
            mesh.vertex(centre + around(s) * radius, Vec::new());
        }
    }
    let at = |r: usize, s: usize| first + (r * SIDES + s % SIDES) as u32;
    for r in 0..rings - 1 {
        for s in 0..SIDES {
            let outward = around(s) + around(s + 1);
            mesh.quad(
                [at(r, s), at(r, s + 1), at(r + 1, s + 1), at(r + 1, s)],
                outward,
            );
        }
    }
    for (ring, centre, outward) in [(0, from, -axis), (rings - 1, to, axis)] {
        let middle = mesh.vertex(centre, Vec::new());
        for s in 0..SIDES {
            mesh.triangle([middle, at(ring, s), at(ring, s + 1)], outward);
        }
    }
}
