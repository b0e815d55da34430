//! Turning pointer input into edits: picking a bone, rotating it by a drag in
//! the view plane, moving the root. Plain numbers in, plain numbers out.
//!
//! Screen points are CSS pixels, y down, as [`crate::view::camera`] uses them.

use glam::{Quat, Vec2, Vec3};

use crate::rig::pose::BoneTransform;

/// A bone as drawn: its origin and tip on the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScreenBone {
    /// The origin, CSS pixels.
    pub origin: Vec2,
    /// The tip, CSS pixels.
    pub tip: Vec2,
}

/// Distance from `point` to the segment `a..b`.
pub fn distance_to_segment(point: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((point - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    point.distance(a + ab * t)
}

/// The bone whose drawn segment is nearest to `point`, if within `radius`
/// pixels. Near a joint, where a parent's tip meets its child's origin, the
/// nearer segment interior wins: the distance is measured to the segment
/// shortened by 10% at the origin end.
pub fn pick_bone(bones: &[ScreenBone], point: Vec2, radius: f32) -> Option<usize> {
    bones
        .iter()
        .enumerate()
        .map(|(index, bone)| {
            let start = bone.origin.lerp(bone.tip, 0.1);
            (index, distance_to_segment(point, start, bone.tip))
        })
        .filter(|&(_, distance)| distance <= radius)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(index, _)| index)
}

/// The point where a press grabs a bone: 60% of the way to its tip, inside
/// its drawn shape and clear of the joint it shares with its parent.
pub fn grab_point(bone: &ScreenBone) -> Vec2 {
    bone.origin.lerp(bone.tip, 0.6)
}

/// The angle, radians, counter-clockwise as seen on screen, that turns the
/// direction `pivot → from` into `pivot → to`. Screen y points down, so the
/// sign is flipped from the pixel-space cross product.
pub fn drag_angle(pivot: Vec2, from: Vec2, to: Vec2) -> f32 {
    let a = from - pivot;
    let b = to - pivot;
    if a.length_squared() < 1e-6 || b.length_squared() < 1e-6 {
        return 0.0;
    }
    -a.perp_dot(b).atan2(a.dot(b))
}

/// Rotates a bone about its origin by `angle` about `axis_model` (a
/// model-space direction, usually towards the viewer):
/// `A' = Rot(F⁻¹ axis, angle) · A`, where `F` is the rotation of the bone's
/// frame without its own animation, `C'_p · T(origin) · O`.
pub fn rotate_about_axis(
    start: &BoneTransform,
    frame_rotation: Quat,
    axis_model: Vec3,
    angle: f32,
) -> BoneTransform {
    let axis_local = (frame_rotation.inverse() * axis_model)
        .try_normalize()
        .unwrap_or(Vec3::Z);
    let turn = Quat::from_axis_angle(axis_local, angle);
    BoneTransform {
        translation: turn * start.translation,
        rotation: (turn * start.rotation).normalize(),
        scale: start.scale,
    }
}

/// Moves a bone by `delta_model` (model space): `t' = t + F⁻¹ Δ`.
pub fn translate(start: &BoneTransform, frame_rotation: Quat, delta_model: Vec3) -> BoneTransform {
    BoneTransform {
        translation: start.translation + frame_rotation.inverse() * delta_model,
        ..*start
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_2;

    #[test]
    fn picks_the_nearest_bone_within_the_radius() {
        let bones = [
            ScreenBone {
                origin: Vec2::new(0.0, 100.0),
                tip: Vec2::new(100.0, 100.0),
            },
            ScreenBone {
                origin: Vec2::new(100.0, 100.0),
                tip: Vec2::new(200.0, 100.0),
            },
        ];
        assert_eq!(pick_bone(&bones, Vec2::new(50.0, 105.0), 10.0), Some(0));
        assert_eq!(pick_bone(&bones, Vec2::new(160.0, 95.0), 10.0), Some(1));
        assert_eq!(pick_bone(&bones, Vec2::new(160.0, 150.0), 10.0), None);
        assert_eq!(pick_bone(&bones, grab_point(&bones[1]), 1.0), Some(1));
    }

    #[test]
    fn a_quarter_turn_counter_clockwise_on_screen_is_positive() {
        let pivot = Vec2::new(100.0, 100.0);
        let angle = drag_angle(pivot, Vec2::new(150.0, 100.0), Vec2::new(100.0, 50.0));
        assert!((angle - FRAC_PI_2).abs() < 1e-6, "{angle}");
    }

    #[test]
    fn rotation_axis_is_taken_into_the_bones_frame() {
        // A bone lying along +X (its frame turned −90° about Z): a model-space
        // turn about +Z is a turn about its local +Z as well.
        let frame = Quat::from_rotation_z(-FRAC_PI_2);
        let turned = rotate_about_axis(&BoneTransform::IDENTITY, frame, Vec3::Z, 0.5);
        assert!(turned
            .rotation
            .abs_diff_eq(Quat::from_rotation_z(0.5), 1e-6));
        // A frame turned about Y flips which way +Z points locally.
        let frame = Quat::from_rotation_y(std::f32::consts::PI);
        let turned = rotate_about_axis(&BoneTransform::IDENTITY, frame, Vec3::Z, 0.5);
        assert!(turned
            .rotation
            .abs_diff_eq(Quat::from_rotation_z(-0.5), 1e-6));
    }

    #[test]
    fn translation_is_taken_into_the_bones_frame() {
        let frame = Quat::from_rotation_z(-FRAC_PI_2);
        let moved = translate(&BoneTransform::IDENTITY, frame, Vec3::X);
        assert!(
            moved.translation.abs_diff_eq(Vec3::Y, 1e-6),
            "+X in model is the bone's +Y"
        );
    }
}
