//! Invariants of posing and skinning, checked on random skeletons, meshes
//! and poses.
#![allow(clippy::unwrap_used)]

mod common;

use common::{assert_close, close};
use glam::{Mat4, Quat, Vec3};
use proptest::prelude::*;
use skinlab::rig::pose::{pose_to_model, skinning_palette, three_steps, BoneTransform};
use skinlab::rig::skeleton::{Bone, Skeleton};
use skinlab::skin::dual_quat::RigidScale;
use skinlab::skin::influences::VertexInfluences;
use skinlab::skin::mesh::Mesh;
use skinlab::skin::skinning::{dqs_palette, skin_dqs, skin_lbs};

fn vec3(range: f32) -> impl Strategy<Value = Vec3> {
    (-range..range, -range..range, -range..range).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn rotation() -> impl Strategy<Value = Quat> {
    (vec3(1.0), -3.2_f32..3.2).prop_map(|(axis, angle)| {
        Quat::from_axis_angle(axis.try_normalize().unwrap_or(Vec3::Z), angle)
    })
}

/// A random tree: bone `i > 0` hangs from a random earlier bone.
fn skeleton() -> impl Strategy<Value = Skeleton> {
    (1_usize..6)
        .prop_flat_map(|count| {
            let bones: Vec<_> = (0..count)
                .map(|i| (0..i.max(1), vec3(1.0), rotation(), 0.0_f32..2.0))
                .collect();
            bones
        })
        .prop_map(|specs| {
            let bones = specs
                .into_iter()
                .enumerate()
                .map(|(i, (parent, origin, orientation, length))| Bone {
                    name: format!("b{i}"),
                    parent: (i > 0).then_some(parent as u16),
                    origin_in_parent: origin,
                    orientation,
                    length,
                    turn: glam::Quat::IDENTITY,
                    rest_scale: glam::Vec3::ONE,
                })
                .collect();
            Skeleton::new(bones).unwrap()
        })
}

/// Rotation, translation and scale; `scaled` false keeps it rigid.
fn bone_transform(scaled: bool) -> impl Strategy<Value = BoneTransform> {
    let scale = if scaled {
        0.5_f32..2.0
    } else {
        1.0_f32..1.0 + f32::EPSILON
    };
    (rotation(), vec3(1.0), (scale.clone(), scale.clone(), scale)).prop_map(
        |(rotation, translation, (x, y, z))| BoneTransform {
            translation,
            rotation,
            scale: Vec3::new(x, y, z),
        },
    )
}

fn skeleton_and_pose(scaled: bool) -> impl Strategy<Value = (Skeleton, Vec<BoneTransform>)> {
    skeleton().prop_flat_map(move |skeleton| {
        let count = skeleton.len();
        (
            Just(skeleton),
            proptest::collection::vec(bone_transform(scaled), count),
        )
    })
}

/// Up to four random (bone, weight) pairs per vertex.
fn influences(bone_count: usize, vertices: usize) -> impl Strategy<Value = Vec<Vec<(u16, f32)>>> {
    let pair = (0..bone_count as u16, 0.05_f32..1.0);
    proptest::collection::vec(proptest::collection::vec(pair, 1..5), vertices).prop_map(|lists| {
        lists
            .into_iter()
            .map(|mut list| {
                list.sort_by_key(|&(bone, _)| bone);
                list.dedup_by_key(|&mut (bone, _)| bone);
                list
            })
            .collect()
    })
}

struct Posed {
    model_from_bone: Vec<Mat4>,
    palette: Vec<Mat4>,
    dqs: Vec<RigidScale>,
}

fn posed(skeleton: &Skeleton, pose: &[BoneTransform]) -> Posed {
    let mut model_from_bone = vec![Mat4::IDENTITY; skeleton.len()];
    pose_to_model(skeleton, pose, &mut model_from_bone);
    let mut palette = vec![Mat4::IDENTITY; skeleton.len()];
    skinning_palette(skeleton, &model_from_bone, &mut palette);
    let mut dqs = vec![RigidScale::from_affine(&Mat4::IDENTITY); skeleton.len()];
    dqs_palette(&palette, &mut dqs);
    Posed {
        model_from_bone,
        palette,
        dqs,
    }
}

fn skin(mesh: &Mesh, influences: &[VertexInfluences], posed: &Posed) -> (Vec<Vec3>, Vec<Vec3>) {
    let count = mesh.vertex_count();
    let (mut lbs, mut dqs, mut normals) = (
        vec![Vec3::ZERO; count],
        vec![Vec3::ZERO; count],
        vec![Vec3::ZERO; count],
    );
    skin_lbs(mesh, influences, &posed.palette, &mut lbs, &mut normals);
    skin_dqs(mesh, influences, &posed.dqs, &mut dqs, &mut normals);
    (lbs, dqs)
}

fn fitted(lists: &[Vec<(u16, f32)>]) -> Vec<VertexInfluences> {
    lists
        .iter()
        .map(|list| VertexInfluences::from_pairs(list).0)
        .collect()
}

/// `R'_i` computed the slow way: walk from the root down to bone `i`,
/// multiplying `T(origin) · O · A` and `T(0, length, 0)` in turn.
fn posed_frame_by_definition(skeleton: &Skeleton, pose: &[BoneTransform], bone: usize) -> Mat4 {
    let bones = skeleton.bones();
    let mut chain = vec![bone];
    while let Some(parent) = bones[*chain.last().unwrap()].parent {
        chain.push(usize::from(parent));
    }
    let mut frame = Mat4::IDENTITY;
    for (k, &index) in chain.iter().rev().enumerate() {
        if k > 0 {
            let parent = bones[index].parent.unwrap() as usize;
            frame *= Mat4::from_translation(Vec3::Y * bones[parent].length);
        }
        let definition = &bones[index];
        frame = frame
            * Mat4::from_translation(definition.origin_in_parent)
            * Mat4::from_quat(definition.orientation)
            * Mat4::from_translation(pose[index].translation)
            * Mat4::from_quat(pose[index].rotation)
            * Mat4::from_scale(pose[index].scale);
    }
    frame
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn rest_pose_reproduces_the_mesh(
        (skeleton, lists) in skeleton().prop_flat_map(|s| { let n = s.len(); (Just(s), influences(n, 12)) }),
        points in proptest::collection::vec(vec3(3.0), 12),
    ) {
        let mesh = Mesh::new(points.clone(), vec![]);
        let rest = posed(&skeleton, &vec![BoneTransform::IDENTITY; skeleton.len()]);
        let (lbs, dqs) = skin(&mesh, &fitted(&lists), &rest);
        for k in 0..points.len() {
            assert_close(lbs[k], points[k], 1e-4);
            assert_close(dqs[k], points[k], 1e-4);
        }
    }

    #[test]
    fn a_vertex_bound_to_one_bone_moves_rigidly(
        (skeleton, pose) in skeleton_and_pose(false),
        points in proptest::collection::vec(vec3(3.0), 6),
        bone_choice in 0_usize..6,
    ) {
        let bone = (bone_choice % skeleton.len()) as u16;
        let mesh = Mesh::new(points.clone(), vec![]);
        let influences = vec![VertexInfluences::single(bone); points.len()];
        let state = posed(&skeleton, &pose);
        let (lbs, dqs) = skin(&mesh, &influences, &state);
        for a in 0..points.len() {
            assert_close(lbs[a], state.palette[bone as usize].transform_point3(points[a]), 1e-4);
            for b in 0..a {
                let rest = points[a].distance(points[b]);
                prop_assert!((lbs[a].distance(lbs[b]) - rest).abs() < 1e-3 * (1.0 + rest));
                prop_assert!((dqs[a].distance(dqs[b]) - rest).abs() < 1e-3 * (1.0 + rest));
            }
        }
    }

    #[test]
    fn weights_are_normalised_on_use(
        (skeleton, pose) in skeleton_and_pose(true),
        lists in influences(5, 8),
        points in proptest::collection::vec(vec3(3.0), 8),
        factor in 0.01_f32..100.0,
    ) {
        let lists: Vec<Vec<(u16, f32)>> = lists
            .into_iter()
            .map(|l| l.into_iter().map(|(b, w)| (b % skeleton.len() as u16, w)).collect::<Vec<_>>())
            .map(|mut l| { l.sort_by_key(|p| p.0); l.dedup_by_key(|p| p.0); l })
            .collect();
        let scaled: Vec<Vec<(u16, f32)>> = lists
            .iter()
            .map(|l| l.iter().map(|&(b, w)| (b, w * factor)).collect())
            .collect();
        for vertex in fitted(&scaled) {
            prop_assert!((vertex.total_weight() - 1.0).abs() < 1e-5);
        }
        let mesh = Mesh::new(points, vec![]);
        let state = posed(&skeleton, &pose);
        let (lbs_a, dqs_a) = skin(&mesh, &fitted(&lists), &state);
        let (lbs_b, dqs_b) = skin(&mesh, &fitted(&scaled), &state);
        for k in 0..lbs_a.len() {
            assert_close(lbs_b[k], lbs_a[k], 1e-4);
            assert_close(dqs_b[k], dqs_a[k], 1e-4);
        }
    }

    #[test]
    fn lbs_and_dqs_agree_with_one_bone_per_vertex(
        (skeleton, pose) in skeleton_and_pose(true),
        points in proptest::collection::vec(vec3(3.0), 10),
        bones in proptest::collection::vec(0_u16..6, 10),
    ) {
        let influences: Vec<VertexInfluences> = bones
            .iter()
            .map(|&b| VertexInfluences::single(b % skeleton.len() as u16))
            .collect();
        let mesh = Mesh::new(points, vec![]);
        let (lbs, dqs) = skin(&mesh, &influences, &posed(&skeleton, &pose));
        for k in 0..lbs.len() {
            prop_assert!(close(dqs[k], lbs[k], 1e-3), "vertex {}: dqs {} vs lbs {}", k, dqs[k], lbs[k]);
        }
    }

    #[test]
    fn hierarchies_compose_as_the_formulas_say(
        (skeleton, pose) in skeleton_and_pose(true),
        point in vec3(3.0),
    ) {
        let state = posed(&skeleton, &pose);
        for bone in 0..skeleton.len() {
            let expected = posed_frame_by_definition(&skeleton, &pose, bone);
            prop_assert!(state.model_from_bone[bone].abs_diff_eq(expected, 1e-3 * (1.0 + expected.abs().to_cols_array().iter().fold(0.0_f32, |m, v| m.max(*v)))));
            // M_i · P equals the skinning note's three steps, done one by one.
            let steps = three_steps(&skeleton, &pose, &state.model_from_bone, bone, point);
            assert_close(state.palette[bone].transform_point3(point), steps.in_model_posed, 1e-4);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Keyframe playback turns frames back into a pose: for frames made by a
    /// pose (rigid, or uniformly scaled), the recovered pose makes them again.
    #[test]
    fn poses_are_recovered_from_their_frames(
        (skeleton, pose) in skeleton_and_pose(false),
        uniform in 0.5_f32..2.0,
    ) {
        let mut pose = pose;
        pose[0].scale = Vec3::splat(uniform);
        let mut frames = vec![Mat4::IDENTITY; skeleton.len()];
        pose_to_model(&skeleton, &pose, &mut frames);
        let mut recovered = vec![BoneTransform::IDENTITY; skeleton.len()];
        skinlab::rig::animation::pose_from_frames(&skeleton, &frames, &mut recovered);
        let mut again = vec![Mat4::IDENTITY; skeleton.len()];
        pose_to_model(&skeleton, &recovered, &mut again);
        for bone in 0..skeleton.len() {
            let scale = 1.0 + frames[bone].abs().to_cols_array().iter().fold(0.0_f32, |m, v| m.max(*v));
            prop_assert!(again[bone].abs_diff_eq(frames[bone], 1e-3 * scale), "bone {}", bone);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Two-bone IK reaches any point the chain can reach: the tip of the
    /// same chain under another pose.
    #[test]
    fn two_bone_ik_reaches_what_the_chain_can_reach(
        (skeleton, pose) in skeleton_and_pose(false),
        other in proptest::collection::vec(bone_transform(false), 6),
        choice in 0_usize..6,
    ) {
        // A bone with a parent, whose own origin lies on its parent's tip
        // frame as the generated skeletons have it.
        let Some(bone) = (0..skeleton.len()).rev().find(|&b| skeleton.bones()[b].parent.is_some() && b >= choice % skeleton.len()) else {
            return Ok(());
        };
        let upper = usize::from(skeleton.bones()[bone].parent.unwrap());
        let length = skeleton.bones()[bone].length;
        prop_assume!(length > 0.1);
        // Where the tip goes when only the chain's two bones take other
        // rotations (no translation, so the target stays reachable).
        let mut moved = pose.clone();
        moved[upper] = BoneTransform { translation: pose[upper].translation, ..other[upper % other.len()] };
        moved[bone] = BoneTransform { translation: pose[bone].translation, ..other[bone % other.len()] };
        let mut frames = vec![Mat4::IDENTITY; skeleton.len()];
        pose_to_model(&skeleton, &moved, &mut frames);
        let target = frames[bone].transform_point3(Vec3::new(0.0, length, 0.0));
        // The joint must not sit on the upper bone's origin, or nothing bends.
        let start_frames = { let mut f = vec![Mat4::IDENTITY; skeleton.len()]; pose_to_model(&skeleton, &pose, &mut f); f };
        prop_assume!(start_frames[upper].transform_point3(Vec3::ZERO).distance(start_frames[bone].transform_point3(Vec3::ZERO)) > 0.1);

        let solution = skinlab::rig::ik::solve_two_bone(&start_frames[upper], &start_frames[bone], length, target, Vec3::Z);
        let tip = solution.model_from_lower.transform_point3(Vec3::new(0.0, length, 0.0));
        assert_close(tip, target, 1e-3);
    }
}
