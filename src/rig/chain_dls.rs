//! Damped least squares steps for a limited chain: the finish that CCD and
//! FABRIK hand over to once their own sweeps slow down.
//!
//! Both sweep methods converge linearly: near the target each sweep takes
//! off a fixed share of the distance, and with limits that share can be
//! tiny. A damped least squares (Levenberg–Marquardt) step moves every
//! joint at once along the chain's Jacobian:
//!
//! ```text
//! J = [ e_k × (tip − origin_i) ]       one column per degree of freedom
//! Δθ = Jᵀ (J Jᵀ + λ² I)⁻¹ (target − tip)
//! ```
//!
//! `e_k` is each model axis for a free or cone-limited joint and the hinge's
//! axis for a hinge. Each joint then turns by its part of `Δθ` about its
//! origin and is clamped to its limit; a joint already pressed against its
//! limit, whose column only pushes it further out, is left out of the next
//! solve (an active set), so the others make up for it.

use glam::{Mat3, Quat, Vec3};

use crate::rig::chain::Chain;
use crate::rig::limits::{twist_angle, JointLimit};

/// One degree of freedom: a bone and a model-space axis it turns about.
#[derive(Clone, Copy)]
struct Freedom {
    bone: usize,
    axis_model: Vec3,
}

/// The chain's degrees of freedom, leaving out `frozen` bones.
fn freedoms(chain: &Chain, bones: &[usize], frozen: &[usize]) -> Vec<Freedom> {
    let mut out = Vec::with_capacity(3 * bones.len());
    for &bone in bones.iter().filter(|b| !frozen.contains(b)) {
        match chain.limits[bone] {
            Some(JointLimit::Hinge { axis, .. }) => out.push(Freedom {
                bone,
                axis_model: chain.unanimated_rotation(bone) * axis,
            }),
            _ => out
                .extend([Vec3::X, Vec3::Y, Vec3::Z].map(|axis_model| Freedom { bone, axis_model })),
        }
    }
    out
}

/// Turns `bone` by the model-space rotation vector `turn_model` about its
/// origin, clamped to its limit (a hinge by its angle along the axis).
fn turn_by(chain: &mut Chain, bone: usize, turn_model: Vec3) {
    let frame = chain.unanimated_rotation(bone);
    let rotation = match chain.limits[bone] {
        Some(JointLimit::Hinge { axis, min, max }) => {
            let step = turn_model.dot(frame * axis);
            let now = twist_angle(chain.pose[bone].rotation, axis);
            Quat::from_axis_angle(axis, (now + step).clamp(min, max))
        }
        limit => {
            let turn_local = frame.inverse() * Quat::from_scaled_axis(turn_model) * frame;
            let rotation = (turn_local * chain.pose[bone].rotation).normalize();
            limit.map_or(rotation, |limit| limit.clamp(rotation))
        }
    };
    if rotation.is_finite() {
        chain.pose[bone].rotation = rotation;
    }
}

/// One damped least squares step toward `target` (model space) for the
/// chain `bones` ending at `tip`, with damping `lambda` (model units).
/// Keeps the step only if it brings the tip nearer, trying larger damping
/// and then an active set without the joints the limits stopped; returns
/// whether it did.
pub(super) fn dls_step(
    chain: &mut Chain,
    bones: &[usize],
    tip: usize,
    target: Vec3,
    lambda: f32,
) -> bool {
    let start: Vec<_> = bones.iter().map(|&b| chain.pose[b]).collect();
    let before = chain.end(tip).distance(target);
    let mut frozen = Vec::new();
    for attempt in 0..6 {
        let lambda = lambda * 4f32.powi(attempt / 2);
        let tip_model = chain.end(tip);
        let error = target - tip_model;
        let columns: Vec<(Freedom, Vec3)> = freedoms(chain, bones, &frozen)
            .into_iter()
            .map(|f| (f, f.axis_model.cross(tip_model - chain.origin(f.bone))))
            .collect();
        // J Jᵀ + λ² I, a 3 × 3 matrix whatever the chain's length.
        let mut normal = Mat3::from_diagonal(Vec3::splat(lambda * lambda));
        for (_, c) in &columns {
            normal += Mat3::from_cols(*c * c.x, *c * c.y, *c * c.z);
        }
        if normal.determinant().abs() < f32::MIN_POSITIVE {
            return false;
        }
        let solved = normal.inverse() * error;
        let mut turns = vec![Vec3::ZERO; bones.len()];
        for (freedom, column) in &columns {
            let k = bones.iter().position(|&b| b == freedom.bone).unwrap_or(0);
            turns[k] += freedom.axis_model * column.dot(solved);
        }
        // Root first, so each turn is about the origin the Jacobian used.
        for (k, &bone) in bones.iter().enumerate() {
            turn_by(chain, bone, turns[k]);
        }
        chain.update();
        let after = chain.end(tip).distance(target);
        if after < before {
            return true;
        }
        // The limits or the step size spoilt it: note the joints that did
        // not turn as asked (pressed against a limit) and try again.
        if attempt % 2 == 1 {
            for (k, &bone) in bones.iter().enumerate() {
                let asked = turns[k].length();
                let got = start[k].rotation.angle_between(chain.pose[bone].rotation);
                if asked > 1e-6 && got < 0.5 * asked && !frozen.contains(&bone) {
                    frozen.push(bone);
                }
            }
        }
        for (k, &bone) in bones.iter().enumerate() {
            chain.pose[bone] = start[k];
        }
        chain.update();
    }
    false
}
