//! The IK examples (the bones note and the animation talk): a leg whose knee is a hinge that
//! bends one way, and an arm with cone limits. Each is a flat strip around
//! its bones, weighted to one bone along a segment and blended over the
//! joints, seen from the side so the bending happens in the view plane.

use std::f32::consts::{FRAC_PI_2, PI};

use glam::{Quat, Vec3};

use super::builder::{bone, MeshBuilder};
use crate::rig::limits::{HingeDoc, LimitDoc};
use crate::scene::doc::SceneDoc;

fn hinge_z(min: f32, max: f32) -> LimitDoc {
    LimitDoc {
        hinge: Some(HingeDoc {
            axis: [0.0, 0.0, 1.0],
            min,
            max,
        }),
        ..LimitDoc::default()
    }
}

fn cone(swing: f32, twist: f32) -> LimitDoc {
    LimitDoc {
        swing: Some(swing),
        twist: Some([-twist, twist]),
        ..LimitDoc::default()
    }
}

/// A strip of half-width `half_width` along the polyline `joints` (one
/// segment per bone, bone `k` from `joints[k]` to `joints[k + 1]`), in the
/// XY plane, blended half and half at each inner joint and linearly over
/// the `blend` fraction of each segment next to it.
fn strip(joints: &[Vec3], half_width: f32, rows: usize, blend: f32) -> MeshBuilder {
    let mut mesh = MeshBuilder::default();
    strip_into(&mut mesh, joints, 0, half_width, rows, blend);
    mesh
}

/// [`strip`] added to `mesh`, its bones numbered from `first_bone`.
pub(super) fn strip_into(
    mesh: &mut MeshBuilder,
    joints: &[Vec3],
    first_bone: u32,
    half_width: f32,
    rows: usize,
    blend: f32,
) {
    let segments = joints.len() - 1;
    let mut previous: Option<[u32; 2]> = None;
    for k in 0..segments {
        let (start, end) = (joints[k], joints[k + 1]);
        let along = (end - start).normalize();
        let across = Vec3::new(-along.y, along.x, 0.0) * half_width;
        let first = if k == 0 { 0 } else { 1 };
        let own = first_bone + k as u32;
        for row in first..=rows {
            let t = row as f32 / rows as f32;
            let centre = start.lerp(end, t);
            // Weight of the neighbouring bone near each end of the segment.
            let mut pairs = vec![(own, 1.0_f32)];
            if k > 0 && t < blend {
                let other = 0.5 * (1.0 - t / blend);
                pairs = vec![(own, 1.0 - other), (own - 1, other)];
            } else if k + 1 < segments && t > 1.0 - blend {
                let other = 0.5 * (1.0 - (1.0 - t) / blend);
                pairs = vec![(own, 1.0 - other), (own + 1, other)];
            }
            pairs.retain(|&(_, w)| w > 0.0);
            let row_vertices = [
                mesh.vertex(centre - across, pairs.clone()),
                mesh.vertex(centre + across, pairs),
            ];
            if let Some(last) = previous {
                mesh.quad(
                    [last[0], row_vertices[0], row_vertices[1], last[1]],
                    Vec3::Z,
                );
            }
            previous = Some(row_vertices);
        }
    }
}

/// The animation talk's leg, from the side: hip, knee and ankle down the −Y axis and
/// the foot pointing forward (−X). The knee is a hinge about Z from 0° to
/// 150°: it folds backwards only.
pub(super) fn leg() -> SceneDoc {
    let joints = [
        Vec3::ZERO,
        Vec3::new(0.0, -1.0, 0.0),
        Vec3::new(0.0, -2.0, 0.0),
        Vec3::new(-0.45, -2.0, 0.0),
    ];
    let mesh = strip(&joints, 0.14, 6, 0.3);
    let mut hip = bone("thigh", None, Quat::from_rotation_z(PI), 1.0);
    hip.limits = Some(cone(1.7, 0.4));
    let mut knee = bone("shin", Some(0), Quat::IDENTITY, 1.0);
    knee.limits = Some(hinge_z(0.0, 150_f32.to_radians()));
    let mut foot = bone("foot", Some(1), Quat::from_rotation_z(-FRAC_PI_2), 0.45);
    foot.limits = Some(hinge_z(-0.5, 0.6));
    mesh.into_doc(vec![hip, knee, foot])
}

/// Where the `arm`'s cup stands: the middle of its base, model space.
pub(super) const CUP_BASE: Vec3 = Vec3::new(2.0, 1.0, 0.0);
/// The cup's height: its rim is `CUP_BASE + (0, CUP_HEIGHT, 0)`.
pub(super) const CUP_HEIGHT: f32 = 0.4;

/// An arm reaching sideways along +X: collarbone, upper arm, forearm and
/// hand, with cone limits at the shoulder and wrist and an elbow hinge;
/// above the forearm a cup to reach for (a flat outline on bone 4, a child
/// of the collarbone).
pub(super) fn arm() -> SceneDoc {
    let joints = [
        Vec3::ZERO,
        Vec3::new(0.4, 0.0, 0.0),
        Vec3::new(1.6, 0.0, 0.0),
        Vec3::new(2.7, 0.0, 0.0),
        Vec3::new(3.1, 0.0, 0.0),
    ];
    let mesh = strip(&joints, 0.12, 5, 0.3);
    let mut collar = bone("collarbone", None, Quat::from_rotation_z(-FRAC_PI_2), 0.4);
    collar.limits = Some(cone(0.25, 0.1));
    let mut upper = bone("upper arm", Some(0), Quat::IDENTITY, 1.2);
    upper.limits = Some(cone(1.4, 1.0));
    let mut fore = bone("forearm", Some(1), Quat::IDENTITY, 1.1);
    fore.limits = Some(hinge_z(0.0, 145_f32.to_radians()));
    let mut hand = bone("hand", Some(2), Quat::IDENTITY, 0.4);
    hand.limits = Some(cone(0.7, 0.3));
    let mut mesh = mesh;
    let at = |x: f32, y: f32| CUP_BASE + Vec3::new(x, y, 0.0);
    let corners = [
        at(-0.15, 0.0),
        at(0.15, 0.0),
        at(0.2, CUP_HEIGHT),
        at(-0.2, CUP_HEIGHT),
    ];
    let body = corners.map(|p| mesh.vertex(p, vec![(4, 1.0)]));
    mesh.quad(body, Vec3::Z);
    let handle = [at(0.17, 0.1), at(0.3, 0.1), at(0.3, 0.3), at(0.19, 0.3)]
        .map(|p| mesh.vertex(p, vec![(4, 1.0)]));
    mesh.quad(handle, Vec3::Z);
    // A skeleton has one root: the cup hangs off the collarbone's tip
    // (model (0.4, 0, 0), turned by −90° about Z), standing upright.
    let mut cup = bone("cup", Some(0), Quat::from_rotation_z(FRAC_PI_2), CUP_HEIGHT);
    cup.origin =
        (Quat::from_rotation_z(FRAC_PI_2) * (CUP_BASE - Vec3::new(0.4, 0.0, 0.0))).to_array();
    mesh.into_doc(vec![collar, upper, fore, hand, cup])
}
