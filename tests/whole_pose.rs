//! A whole pose set at once (`Lab::set_pose_arrays`, the page API's
//! `setPoseArrays`): the same posed frames as the bones set one by one,
//! given back by `pose_arrays`, and refused whole, leaving the pose before,
//! when an array has the wrong length, a bone's entry is not a pose or the
//! posed frames overflow.
#![allow(clippy::unwrap_used)]

use glam::{Quat, Vec3};
use proptest::prelude::*;
use skinlab::lab::{EditError, Lab};

/// Per bone: an axis, an angle, a translation and a scale.
type BonePose = ((f32, f32, f32), f32, (f32, f32, f32), f32);

fn bone_pose() -> impl Strategy<Value = BonePose> {
    (
        (-1.0_f32..1.0, -1.0_f32..1.0, -1.0_f32..1.0),
        -3.1_f32..3.1,
        (-0.5_f32..0.5, -0.5_f32..0.5, -0.5_f32..0.5),
        0.5_f32..2.0,
    )
}

/// The three arrays of `poses`, one entry a bone.
fn arrays(poses: &[BonePose]) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let mut out = (Vec::new(), Vec::new(), Vec::new());
    for &((x, y, z), angle, (tx, ty, tz), s) in poses {
        let axis = Vec3::new(x, y, z).try_normalize().unwrap_or(Vec3::Z);
        out.0.extend(Quat::from_axis_angle(axis, angle).to_array());
        out.1.extend([tx, ty, tz]);
        out.2.extend([s, s, 1.0]);
    }
    out
}

proptest! {
    #[test]
    fn a_whole_pose_gives_the_frames_of_its_bones_set_one_by_one(
        poses in proptest::collection::vec(bone_pose(), 3)
    ) {
        let mut whole = Lab::example("y-junction").unwrap();
        let mut each = Lab::example("y-junction").unwrap();
        prop_assume!(whole.bone_count() == poses.len());
        let (rotations, translations, scales) = arrays(&poses);
        whole.set_pose_arrays(&rotations, &translations, &scales).unwrap();
        for bone in 0..poses.len() {
            let four = [0, 1, 2, 3].map(|k| rotations[4 * bone + k]);
            let three = |v: &[f32]| [v[3 * bone], v[3 * bone + 1], v[3 * bone + 2]];
            each.set_bone_pose(bone, four, three(&translations), three(&scales)).unwrap();
        }
        prop_assert_eq!(whole.model_from_bone_posed(), each.model_from_bone_posed());
        prop_assert_eq!(&whole.skinned_positions(skinlab::skin::SkinningMethod::Dqs)[..],
            &each.skinned_positions(skinlab::skin::SkinningMethod::Dqs)[..]);
        // Given back as set (the rotations normalised, as they already are).
        let (r, t, s) = whole.pose_arrays();
        for (got, set) in r.iter().zip(&rotations) {
            prop_assert!((got - set).abs() < 1e-6, "{} for {}", got, set);
        }
        prop_assert_eq!(t, translations);
        prop_assert_eq!(s, scales);
    }
}

/// A lab posed by arrays of the given values for every bone.
fn posed(rotation: [f32; 4], translation: [f32; 3]) -> (Lab, Result<(), EditError>) {
    let mut lab = Lab::example("two-bone").unwrap();
    let n = lab.bone_count();
    let result = lab.set_pose_arrays(
        &rotation.repeat(n),
        &translation.repeat(n),
        &[1.0; 3].repeat(n),
    );
    (lab, result)
}

#[test]
fn a_bad_whole_pose_is_refused_whole_and_leaves_the_pose_before() {
    let turn = Quat::from_rotation_z(0.5).to_array();
    let (mut lab, result) = posed(turn, [0.0; 3]);
    result.unwrap();
    let before = lab.model_from_bone_posed().to_vec();
    let n = lab.bone_count();
    // An array one bone short: named, with the lengths.
    let short = lab.set_pose_arrays(
        &turn.repeat(n - 1),
        &[0.0; 3].repeat(n),
        &[1.0; 3].repeat(n),
    );
    let message = short.unwrap_err().to_string();
    assert!(
        message.contains("rotations") && message.contains(&format!("{}", 4 * n)),
        "{message}"
    );
    // One bone's rotation NaN, or the zero quaternion: the others are not set either.
    for bad in [[f32::NAN, 0.0, 0.0, 1.0], [0.0; 4]] {
        let mut rotations = Quat::IDENTITY.to_array().repeat(n);
        rotations[4 * (n - 1)..].copy_from_slice(&bad);
        let refused = lab.set_pose_arrays(&rotations, &[0.0; 3].repeat(n), &[1.0; 3].repeat(n));
        assert!(refused.is_err(), "{bad:?} refused");
        assert_eq!(
            lab.model_from_bone_posed(),
            &before[..],
            "{bad:?}: the pose before kept"
        );
    }
    // Translations of 3e38 on chained bones overflow the posed frames.
    let huge = lab.set_pose_arrays(
        &turn.repeat(n),
        &[3e38, 3e38, 0.0].repeat(n),
        &[1.0; 3].repeat(n),
    );
    assert!(
        matches!(huge, Err(EditError::PoseOverflows { .. })),
        "{huge:?}"
    );
    assert_eq!(
        lab.model_from_bone_posed(),
        &before[..],
        "the pose before kept after an overflow"
    );
}
