//! Inverse kinematics for a two-bone chain, analytically (the animation talk): given
//! where the end of the lower bone should be, turn the upper bone about its
//! origin and the lower bone about its own so that it gets there.
//!
//! With `a` the distance from the upper bone's origin `A` to the lower
//! bone's origin `B`, `b` the lower bone's reach from `B` to its tip `E`,
//! and `d` the distance from `A` to the target (clamped to what the chain
//! can reach), the law of cosines gives the angle at `A` between the target
//! direction and the upper bone: `cos α = (a² + d² − b²) / (2 a d)`. The
//! chain keeps bending to the side it bends now, in the plane through the
//! target and the current bend.

use glam::{Mat4, Quat, Vec3};

/// The chain's new frames, model space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoBoneSolution {
    /// The upper bone's posed frame.
    pub model_from_upper: Mat4,
    /// The lower bone's posed frame.
    pub model_from_lower: Mat4,
}

/// Turns `frame` by `turn` about the model-space point `pivot`.
fn turn_about(frame: &Mat4, pivot: Vec3, turn: Quat) -> Mat4 {
    Mat4::from_translation(pivot) * Mat4::from_quat(turn) * Mat4::from_translation(-pivot) * *frame
}

/// Solves the two-bone chain: `model_from_upper` and `model_from_lower` are
/// the posed frames of a bone and its child, `lower_length` the child's
/// length (its tip is `(0, lower_length, 0)` in its own frame), `target` the
/// model-space point the tip should reach, and `fallback_normal` the plane
/// to bend in when the chain is straight (usually the view direction).
///
/// Out-of-reach targets are approached as closely as the chain allows:
/// pointing straight at them, or folded as far as it goes.
pub fn solve_two_bone(
    model_from_upper: &Mat4,
    model_from_lower: &Mat4,
    lower_length: f32,
    target: Vec3,
    fallback_normal: Vec3,
) -> TwoBoneSolution {
    let start = model_from_upper.transform_point3(Vec3::ZERO);
    let joint = model_from_lower.transform_point3(Vec3::ZERO);
    let tip = model_from_lower.transform_point3(Vec3::new(0.0, lower_length, 0.0));
    let upper = (joint - start).length();
    let lower = (tip - joint).length();
    let unchanged = TwoBoneSolution {
        model_from_upper: *model_from_upper,
        model_from_lower: *model_from_lower,
    };
    let to_target = target - start;
    if upper < 1e-6 || lower < 1e-6 || to_target.length() < 1e-6 {
        return unchanged;
    }
    let toward = to_target.normalize();
    let reach = to_target
        .length()
        .clamp((upper - lower).abs() + 1e-5, upper + lower - 1e-5);
    let cos_alpha =
        ((upper * upper + reach * reach - lower * lower) / (2.0 * upper * reach)).clamp(-1.0, 1.0);
    let sin_alpha = (1.0 - cos_alpha * cos_alpha).sqrt();

    // The side the chain bends to: the joint's offset from the line start →
    // tip, made perpendicular to the new target direction.
    let line = (tip - start).try_normalize().unwrap_or(toward);
    let bend = (joint - start) - line * (joint - start).dot(line);
    let side = (bend - toward * bend.dot(toward))
        .try_normalize()
        .or_else(|| fallback_normal.cross(toward).try_normalize())
        .or_else(|| toward.any_orthonormal_vector().try_normalize())
        .unwrap_or(Vec3::X);
    let new_joint = start + (toward * cos_alpha + side * sin_alpha) * upper;

    let upper_turn =
        Quat::from_rotation_arc((joint - start).normalize(), (new_joint - start).normalize());
    let model_from_upper_new = turn_about(model_from_upper, start, upper_turn);
    let carried_lower = turn_about(model_from_lower, start, upper_turn);
    let carried_tip = carried_lower.transform_point3(Vec3::new(0.0, lower_length, 0.0));
    let new_tip = new_joint + (target - new_joint).try_normalize().unwrap_or(toward) * lower;
    let lower_turn = Quat::from_rotation_arc(
        (carried_tip - new_joint).normalize(),
        (new_tip - new_joint).normalize(),
    );
    TwoBoneSolution {
        model_from_upper: model_from_upper_new,
        model_from_lower: turn_about(&carried_lower, new_joint, lower_turn),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two bones of length 2 up +Y from the origin, the child at the tip.
    fn chain() -> (Mat4, Mat4) {
        (
            Mat4::IDENTITY,
            Mat4::from_translation(Vec3::new(0.0, 2.0, 0.0)),
        )
    }

    fn tip(solution: &TwoBoneSolution) -> Vec3 {
        solution
            .model_from_lower
            .transform_point3(Vec3::new(0.0, 2.0, 0.0))
    }

    #[test]
    fn a_reachable_target_is_reached_with_lengths_kept() {
        let (upper, lower) = chain();
        for target in [
            Vec3::new(1.0, 2.0, 0.0),
            Vec3::new(-2.5, 1.0, 0.0),
            Vec3::new(0.5, 0.5, 1.0),
        ] {
            let solution = solve_two_bone(&upper, &lower, 2.0, target, Vec3::Z);
            assert!(
                tip(&solution).abs_diff_eq(target, 1e-4),
                "{target}: reached {}",
                tip(&solution)
            );
            assert!(
                solution
                    .model_from_upper
                    .transform_point3(Vec3::ZERO)
                    .abs_diff_eq(Vec3::ZERO, 1e-6),
                "the root stays"
            );
            let joint = solution.model_from_lower.transform_point3(Vec3::ZERO);
            assert!((joint.length() - 2.0).abs() < 1e-4, "upper length kept");
            assert!(
                joint.abs_diff_eq(
                    solution
                        .model_from_upper
                        .transform_point3(Vec3::new(0.0, 2.0, 0.0)),
                    1e-4
                ),
                "the child stays on its parent's tip"
            );
        }
    }

    #[test]
    fn an_unreachable_target_is_pointed_at() {
        let (upper, lower) = chain();
        let solution = solve_two_bone(&upper, &lower, 2.0, Vec3::new(10.0, 0.0, 0.0), Vec3::Z);
        assert!(
            tip(&solution).abs_diff_eq(Vec3::new(4.0, 0.0, 0.0), 1e-2),
            "{}",
            tip(&solution)
        );
    }

    #[test]
    fn the_chain_keeps_bending_to_its_side() {
        let (upper, lower) = chain();
        // Bent to the left (+X side of the joint) first...
        let bent = solve_two_bone(&upper, &lower, 2.0, Vec3::new(-1.0, 3.0, 0.0), Vec3::Z);
        let side = bent
            .model_from_lower
            .transform_point3(Vec3::ZERO)
            .x
            .signum();
        // ...it stays on that side when the target moves on.
        let again = solve_two_bone(
            &bent.model_from_upper,
            &bent.model_from_lower,
            2.0,
            Vec3::new(0.0, 2.5, 0.0),
            Vec3::Z,
        );
        assert_eq!(
            again
                .model_from_lower
                .transform_point3(Vec3::ZERO)
                .x
                .signum(),
            side
        );
        assert!(tip(&again).abs_diff_eq(Vec3::new(0.0, 2.5, 0.0), 1e-4));
    }
}
