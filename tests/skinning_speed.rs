//! The fast skinning loops, and their positions alone, agree with the
//! straightforward reference (`skin::reference`) to 1e-5: random poses
//! with rotation, translation and non-uniform scale, random influences with
//! one to four bones.

#![allow(clippy::unwrap_used)]

use glam::{Mat4, Quat, Vec3};
use proptest::prelude::*;
use skinlab::skin::dual_quat::RigidScale;
use skinlab::skin::influences::VertexInfluences;
use skinlab::skin::mesh::Mesh;
use skinlab::skin::{reference, skinning};

const BONES: usize = 6;

fn arbitrary_matrix(scaled: bool) -> impl Strategy<Value = Mat4> {
    (
        prop::array::uniform3(-1.0_f32..1.0),
        -3.0_f32..3.0,
        prop::array::uniform3(-2.0_f32..2.0),
        prop::array::uniform3(0.5_f32..1.5),
    )
        .prop_map(move |(axis, angle, t, s)| {
            let axis = Vec3::from_array(axis).try_normalize().unwrap_or(Vec3::Z);
            let scale = if scaled {
                Vec3::from_array(s)
            } else {
                Vec3::ONE
            };
            Mat4::from_scale_rotation_translation(
                scale,
                Quat::from_axis_angle(axis, angle),
                Vec3::from_array(t),
            )
        })
}

fn arbitrary_vertex() -> impl Strategy<Value = (Vec3, Vec3, VertexInfluences)> {
    (
        prop::array::uniform3(-2.0_f32..2.0),
        prop::array::uniform3(-1.0_f32..1.0),
        prop::collection::vec((0..BONES as u16, 0.0_f32..1.0), 0..5),
    )
        .prop_map(|(p, n, pairs)| {
            let normal = Vec3::from_array(n).try_normalize().unwrap_or(Vec3::Y);
            let mut unique = pairs;
            unique.sort_by_key(|&(b, _)| b);
            unique.dedup_by_key(|&mut (b, _)| b);
            (
                Vec3::from_array(p),
                normal,
                VertexInfluences::from_pairs(&unique).0,
            )
        })
}

fn agree(scaled: bool) -> impl Strategy<Value = (Vec<Mat4>, Vec<(Vec3, Vec3, VertexInfluences)>)> {
    (
        prop::collection::vec(arbitrary_matrix(scaled), BONES),
        prop::collection::vec(arbitrary_vertex(), 1..40),
    )
}

/// The fast positions and normals agree with the reference's to 1e-5.
fn within(method: &str, fast: [&[Vec3]; 2], slow: [&[Vec3]; 2]) -> Result<(), TestCaseError> {
    for (what, fast, slow) in [("position", fast[0], slow[0]), ("normal", fast[1], slow[1])] {
        for (k, (a, b)) in fast.iter().zip(slow).enumerate() {
            prop_assert!(a.abs_diff_eq(*b, 1e-5), "{method} {what} {k}: {a} vs {b}");
        }
    }
    Ok(())
}

fn check(
    palette: &[Mat4],
    vertices: &[(Vec3, Vec3, VertexInfluences)],
) -> Result<(), TestCaseError> {
    let mut mesh = Mesh::new(vertices.iter().map(|v| v.0).collect(), Vec::new());
    mesh.normals_model = vertices.iter().map(|v| v.1).collect();
    let influences: Vec<_> = vertices.iter().map(|v| v.2).collect();
    let n = vertices.len();
    let mut dq = vec![RigidScale::from_affine(&Mat4::IDENTITY); palette.len()];
    skinning::dqs_palette(palette, &mut dq);
    let (mut p1, mut n1, mut p2, mut n2) = (
        vec![Vec3::ZERO; n],
        vec![Vec3::ZERO; n],
        vec![Vec3::ZERO; n],
        vec![Vec3::ZERO; n],
    );
    let rows: Vec<_> = palette
        .iter()
        .map(skinning::MatrixRows::from_affine)
        .collect();
    let mut alone = vec![Vec3::NAN; n];
    skinning::skin_lbs(&mesh, &influences, palette, &mut p1, &mut n1);
    reference::skin_lbs(&mesh, &influences, palette, &mut p2, &mut n2);
    within("LBS", [&p1, &n1], [&p2, &n2])?;
    skinning::skin_lbs_positions(&mesh, &influences, &rows, &mut alone);
    within("LBS positions alone", [&alone, &n1], [&p2, &n2])?;
    skinning::skin_dqs(&mesh, &influences, &dq, &mut p1, &mut n1);
    reference::skin_dqs(&mesh, &influences, &dq, &mut p2, &mut n2);
    within("DQS", [&p1, &n1], [&p2, &n2])?;
    skinning::skin_dqs_positions(&mesh, &influences, &dq, &mut alone);
    within("DQS positions alone", [&alone, &n1], [&p2, &n2])?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn rigid_poses_agree((palette, vertices) in agree(false)) {
        check(&palette, &vertices)?;
    }

    #[test]
    fn scaled_poses_agree((palette, vertices) in agree(true)) {
        check(&palette, &vertices)?;
    }
}

/// Down a 300-bone chain of rotations the palette's scale/shear parts
/// drift from the identity by `f32` rounding alone; DQS still takes its
/// rigid path there and agrees with the reference (which applies that
/// rounding) to 1e-5 relative to the vertex's distance from the origin.
#[test]
fn a_long_chain_of_rotations_is_skinned_as_rigid() {
    let mut lab = skinlab::lab::Lab::example("chain").unwrap();
    for bone in 0..lab.bone_count() {
        let turn = Quat::from_rotation_z(0.3) * Quat::from_rotation_y(0.05 * (bone % 7) as f32);
        lab.set_bone_pose(bone, turn.to_array(), [0.0; 3], [1.0; 3])
            .unwrap();
    }
    let palette = lab.dqs_palette().to_vec();
    let drift = palette
        .iter()
        .flat_map(|entry| (entry.scale_shear - glam::Mat3::IDENTITY).to_cols_array())
        .fold(0.0_f32, |worst, e| worst.max(e.abs()));
    assert!(drift > 1e-6, "the chain is long enough to drift: {drift:e}");
    assert!(skinning::is_rigid(&palette), "drift {drift:e}");
    let scene = lab.scene();
    let n = scene.mesh.vertex_count();
    let (mut p1, mut n1, mut p2, mut n2) = (
        vec![Vec3::ZERO; n],
        vec![Vec3::ZERO; n],
        vec![Vec3::ZERO; n],
        vec![Vec3::ZERO; n],
    );
    skinning::skin_dqs(&scene.mesh, &scene.influences, &palette, &mut p1, &mut n1);
    reference::skin_dqs(&scene.mesh, &scene.influences, &palette, &mut p2, &mut n2);
    let mut worst = 0.0_f32;
    for (k, rest) in scene.mesh.positions_model.iter().enumerate() {
        let scale = 1.0 + rest.length();
        worst = worst.max(p1[k].distance(p2[k]) / scale);
        assert!(
            p1[k].distance(p2[k]) <= 1e-5 * scale,
            "position {k}: {} vs {}",
            p1[k],
            p2[k]
        );
        assert!(
            n1[k].distance(n2[k]) <= 1e-5,
            "normal {k}: {} vs {}",
            n1[k],
            n2[k]
        );
    }
    println!("300-bone chain: drift {drift:e}, worst relative difference {worst:e}");
}
