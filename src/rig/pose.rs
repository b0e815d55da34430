//! Poses: each bone's animation `A_i`, the posed frames `R'_i` and the
//! skinning palette `M_i = R'_i · R_i⁻¹`.

use glam::{Mat4, Vec3};

use crate::rig::skeleton::{own_from_child_frame, parent_tip_from_bone, Skeleton};

pub use crate::rig::transform::{unit_rotation, BoneTransform};

/// Computes the posed frames, parent before child:
/// `R'_i = C'_p(i) · T(origin_i) · O_i · A_i` with
/// `C'_p = R'_p · T(0, length_p, 0)` and `C'_root = I`.
///
/// # Panics
///
/// If `pose` or `model_from_bone_posed` does not have one entry per bone.
pub fn pose_to_model(
    skeleton: &Skeleton,
    pose: &[BoneTransform],
    model_from_bone_posed: &mut [Mat4],
) {
    crate::rig::skeleton::compose_frames(skeleton.bones(), pose, model_from_bone_posed);
}

/// [`pose_to_model`] with bone `i` stretched by `stretch[i]` along its own
/// +Y (see [`crate::rig::skeleton`]'s stretched composition): children
/// start at the stretched tip without inheriting the stretch.
///
/// # Panics
///
/// If `pose` or `model_from_bone_posed` does not have one entry per bone.
pub fn pose_to_model_stretched(
    skeleton: &Skeleton,
    pose: &[BoneTransform],
    stretch: &[f32],
    model_from_bone_posed: &mut [Mat4],
) {
    crate::rig::skeleton::compose_stretched_frames(
        skeleton.bones(),
        pose,
        Some(stretch),
        model_from_bone_posed,
    );
}

/// Computes the skinning palette `M_i = R'_i · R_i⁻¹`: the matrix that takes
/// a model-space rest point of bone `i` to its posed model-space position
/// (exactly `I` for a bone whose posed frame is its rest frame). For a
/// glTF joint `R_i⁻¹` is its bind, `U_i⁻¹ · IBM_i`, so that
/// `M_j = model_from_joint_j · IBM_j` as glTF defines it.
///
/// # Panics
///
/// If the slices do not have one entry per bone.
pub fn skinning_palette(skeleton: &Skeleton, model_from_bone_posed: &[Mat4], palette: &mut [Mat4]) {
    assert_eq!(
        model_from_bone_posed.len(),
        skeleton.len(),
        "one posed frame per bone"
    );
    assert_eq!(palette.len(), skeleton.len(), "one palette entry per bone");
    for (bone, entry) in palette.iter_mut().enumerate() {
        let posed = model_from_bone_posed[bone];
        // A bone still in its rest frame gets exactly I, not R · R⁻¹ with
        // its rounding: its vertices stay bit for bit where they were.
        *entry = if posed == skeleton.model_from_bone_rest()[bone]
            && !skeleton.is_bound_elsewhere(bone)
        {
            Mat4::IDENTITY
        } else {
            posed * skeleton.bone_from_model_bind()[bone]
        };
    }
}

/// The three steps of the skinning note for one point and one bone, kept apart so the
/// views can show each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThreeSteps {
    /// Step 1, `Q = R_i⁻¹ · P`: the point in the bone's own rest frame.
    pub in_bone_rest: Vec3,
    /// Step 2, `T = A_i · Q`: the point animated in the bone's own frame.
    pub in_bone_animated: Vec3,
    /// Step 3, `Z = C'_p(i) · T(origin_i) · O_i · T`: back out to model space
    /// through the *re-posed parent*, without applying `A_i` a second time.
    pub in_model_posed: Vec3,
}

/// Runs the skinning note's three steps for the model-space rest point `point_model`
/// bound to `bone`.
///
/// The skinning note's summary `Z = R'_i · A_i · R_i⁻¹ · P` applies the pose twice,
/// since its `R'_i` already contains `A_i`. Step 3 here uses the re-posed
/// frame *without* the bone's own animation, so `Z = M_i · P`.
///
/// # Panics
///
/// If `bone` is out of range or the slices do not match the skeleton.
pub fn three_steps(
    skeleton: &Skeleton,
    pose: &[BoneTransform],
    model_from_bone_posed: &[Mat4],
    bone: usize,
    point_model: Vec3,
) -> ThreeSteps {
    let in_bone_rest = skeleton.bone_from_model_bind()[bone].transform_point3(point_model);
    let in_bone_animated = skeleton.bones()[bone]
        .animated(&pose[bone])
        .transform_point3(in_bone_rest);
    let definition = &skeleton.bones()[bone];
    let model_from_parent_tip = match definition.parent {
        Some(parent) => {
            let parent = usize::from(parent);
            model_from_bone_posed[parent] * own_from_child_frame(skeleton.bones()[parent].length)
        }
        None => Mat4::IDENTITY,
    };
    let in_model_posed = (model_from_parent_tip * parent_tip_from_bone(definition))
        .transform_point3(in_bone_animated);
    ThreeSteps {
        in_bone_rest,
        in_bone_animated,
        in_model_posed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rig::skeleton::Bone;
    use glam::Quat;
    use std::f32::consts::FRAC_PI_2;

    fn chain(lengths: &[f32]) -> Skeleton {
        let bones = lengths
            .iter()
            .enumerate()
            .map(|(i, &length)| {
                Bone::new(
                    &format!("bone {}", i + 1),
                    i.checked_sub(1).map(|p| p as u16),
                    Vec3::ZERO,
                    Quat::IDENTITY,
                    length,
                )
            })
            .collect();
        Skeleton::new(bones).unwrap()
    }

    fn palette_for(skeleton: &Skeleton, pose: &[BoneTransform]) -> (Vec<Mat4>, Vec<Mat4>) {
        let mut posed = vec![Mat4::IDENTITY; skeleton.len()];
        pose_to_model(skeleton, pose, &mut posed);
        let mut palette = vec![Mat4::IDENTITY; skeleton.len()];
        skinning_palette(skeleton, &posed, &mut palette);
        (posed, palette)
    }

    #[test]
    fn rest_pose_palette_is_identity() {
        let skeleton = chain(&[2.0, 2.0, 1.0]);
        let (_, palette) = palette_for(&skeleton, &[BoneTransform::IDENTITY; 3]);
        for entry in palette {
            assert!(entry.abs_diff_eq(Mat4::IDENTITY, 1e-6));
        }
    }

    #[test]
    fn skinning_note_bone_2_turned_90_degrees() {
        // Strip along +Y, two bones of length 2; bone 2 turned 90° about Z.
        let skeleton = chain(&[2.0, 2.0]);
        let pose = [
            BoneTransform::IDENTITY,
            BoneTransform::from_rotation(Quat::from_rotation_z(FRAC_PI_2)),
        ];
        let (_, palette) = palette_for(&skeleton, &pose);
        let moved = palette[1].transform_point3(Vec3::new(0.0, 3.0, 0.0));
        assert!(
            moved.abs_diff_eq(Vec3::new(-1.0, 2.0, 0.0), 1e-6),
            "{moved}"
        );
        assert_eq!(palette[0], Mat4::IDENTITY, "bone 1 does not move at all");
    }

    #[test]
    fn the_pose_is_applied_once_not_twice() {
        // The skinning note's summary R'_i · A_i · R_i⁻¹ would turn the point by 90°;
        // the right answer turns it by the 45° that was asked for.
        let skeleton = chain(&[2.0, 2.0]);
        let angle = FRAC_PI_2 / 2.0;
        let pose = [
            BoneTransform::IDENTITY,
            BoneTransform::from_rotation(Quat::from_rotation_z(angle)),
        ];
        let (posed, palette) = palette_for(&skeleton, &pose);
        let point = Vec3::new(0.0, 3.0, 0.0);
        let expected = Vec3::new(-angle.sin(), 2.0 + angle.cos(), 0.0);
        assert!(palette[1]
            .transform_point3(point)
            .abs_diff_eq(expected, 1e-6));
        let steps = three_steps(&skeleton, &pose, &posed, 1, point);
        assert!(steps.in_bone_rest.abs_diff_eq(Vec3::Y, 1e-6));
        assert!(steps.in_model_posed.abs_diff_eq(expected, 1e-6));
        let applied_twice = (posed[1] * pose[1].to_mat4() * skeleton.bone_from_model_bind()[1])
            .transform_point3(point);
        assert!(
            !applied_twice.abs_diff_eq(expected, 1e-2),
            "the pitfall differs"
        );
    }

    #[test]
    fn parent_rotation_carries_the_child() {
        let skeleton = chain(&[2.0, 2.0]);
        let pose = [
            BoneTransform::from_rotation(Quat::from_rotation_z(FRAC_PI_2)),
            BoneTransform::IDENTITY,
        ];
        let (_, palette) = palette_for(&skeleton, &pose);
        let tip = palette[1].transform_point3(Vec3::new(0.0, 4.0, 0.0));
        assert!(tip.abs_diff_eq(Vec3::new(-4.0, 0.0, 0.0), 1e-6), "{tip}");
    }

    #[test]
    fn scale_and_translation_act_in_the_bones_own_frame() {
        let skeleton = chain(&[2.0, 2.0]);
        let pose = [
            BoneTransform {
                translation: Vec3::new(1.0, 0.0, 0.0),
                rotation: Quat::IDENTITY,
                scale: Vec3::new(1.0, 2.0, 1.0),
            },
            BoneTransform::IDENTITY,
        ];
        let (posed, palette) = palette_for(&skeleton, &pose);
        // Bone 1 stretched to twice its length: its tip, and bone 2's origin,
        // lands at y = 4, shifted by x = 1.
        assert!(posed[1]
            .transform_point3(Vec3::ZERO)
            .abs_diff_eq(Vec3::new(1.0, 4.0, 0.0), 1e-6));
        assert!(palette[0]
            .transform_point3(Vec3::new(0.0, 1.0, 0.0))
            .abs_diff_eq(Vec3::new(1.0, 2.0, 0.0), 1e-6));
    }

    #[test]
    fn rotations_of_any_finite_length_normalise() {
        let huge = unit_rotation(Quat::from_xyzw(1e20, 0.0, 0.0, 0.0)).unwrap();
        assert_eq!(huge, Quat::from_xyzw(1.0, 0.0, 0.0, 0.0));
        let big = unit_rotation(Quat::from_xyzw(3e38, 0.0, 0.0, 3e38)).unwrap();
        assert!((big.length() - 1.0).abs() < 1e-6);
        assert_eq!(unit_rotation(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)), None);
        assert_eq!(unit_rotation(Quat::from_xyzw(1e-30, 0.0, 0.0, 0.0)), None);
        assert_eq!(
            unit_rotation(Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)),
            None
        );
        let almost = Quat::from_xyzw(0.0, 0.0, 0.0, 1.0 + 1e-7);
        assert_eq!(unit_rotation(almost), Some(almost), "kept bit for bit");
    }
}
