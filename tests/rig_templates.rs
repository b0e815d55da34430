//! A real character's skin stripped and rigged again from markers at its
//! own joints: the humanoid template fitted, bound by bone heat and by
//! nearest bone, and each vertex's largest weight compared with the
//! artist's by body region (each arm, each leg, the trunk with the head).
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use glam::Vec3;
use skinlab::lab::{Lab, SkinningMethod};
use skinlab::scene::doc::{BoneDoc, MeshPartDoc, SceneDoc};
use skinlab::scene::rig_edit::rests;
use skinlab::scene::Scene;
use skinlab::weights::auto_weights::AutoWeights;

mod common;

/// The body region of a bone by its name, in either naming; Mixamo's
/// `LeftShoulder` (the clavicle) counts with the trunk, whose upper chest
/// it moves.
fn region(name: &str) -> &'static str {
    let left = name.contains("_L_") || name.starts_with("Left");
    let right = name.contains("_R_") || name.starts_with("Right");
    let arm =
        name.starts_with("arm_") || ["Arm", "ForeArm", "Hand"].iter().any(|p| name.ends_with(p));
    let leg = name.starts_with("leg_")
        || ["UpLeg", "Leg", "Foot", "ToeBase"]
            .iter()
            .any(|p| name.ends_with(p));
    match (left, right, arm, leg) {
        (true, _, true, _) => "left arm",
        (_, true, true, _) => "right arm",
        (true, _, _, true) => "left leg",
        (_, true, _, true) => "right leg",
        _ => "trunk",
    }
}

/// Each vertex's region of its largest weight.
fn regions(lab: &Lab) -> Vec<&'static str> {
    let names = lab
        .scene()
        .skeleton
        .bones()
        .iter()
        .map(|b| b.name.clone())
        .collect::<Vec<_>>();
    lab.all_influences()
        .iter()
        .map(|influences| {
            let (bone, _) = influences
                .pairs()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .unwrap();
            region(&names[usize::from(bone)])
        })
        .collect()
}

/// RiggedFigure as opened, its mesh as drawn at rest with its skin
/// stripped (a root point alone), and the humanoid markers at its own joints.
fn stripped_figure() -> (Lab, SceneDoc, HashMap<String, Vec<f32>>) {
    let original =
        Lab::new(skinlab::formats::gltf::read_gltf(&common::model_text("RiggedFigure")).unwrap());
    let skeleton = &original.scene().skeleton;
    let joint = |name: &str| {
        let bone = skeleton
            .bones()
            .iter()
            .position(|b| b.name == name)
            .unwrap();
        rests(skeleton)[bone].head
    };
    // The mesh as drawn at rest, with no skeleton but a root point.
    let positions: Vec<Vec3> = original.skinned_positions(SkinningMethod::Lbs).to_vec();
    let count = positions.len();
    let doc = SceneDoc {
        bones: vec![BoneDoc::plain("root", None, [0.0; 3], 0.0)],
        mesh: skinlab::scene::doc::MeshDoc {
            positions: positions.iter().flat_map(|p| p.to_array()).collect(),
            indices: original.scene().mesh.indices.clone(),
        },
        influences: vec![Vec::new(); count],
        meshes: vec![MeshPartDoc {
            name: "figure".into(),
            vertices: [0, count as u32],
            binding: "static".into(),
            bone: None,
            skin: None,
        }],
        ..SceneDoc::default()
    };
    let groin = (joint("leg_joint_L_1") + joint("leg_joint_R_1")) * 0.5;
    let markers: HashMap<String, Vec<f32>> = [
        ("chin", joint("neck_joint_2")),
        ("groin", groin),
        ("leftElbow", joint("arm_joint_L_2")),
        ("rightElbow", joint("arm_joint_R_2")),
        ("leftWrist", joint("arm_joint_L_3")),
        ("rightWrist", joint("arm_joint_R_3")),
        ("leftKnee", joint("leg_joint_L_2")),
        ("rightKnee", joint("leg_joint_R_2")),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_array().to_vec()))
    .collect();
    (original, doc, markers)
}

#[test]
fn riggedfigure_stripped_and_rigged_from_markers_at_its_joints_agrees_with_the_artist() {
    let (original, doc, markers) = stripped_figure();
    let count = original.vertex_count();
    let artist = regions(&original);
    for method in [
        AutoWeights::BoneHeat,
        AutoWeights::Voxel,
        AutoWeights::NearestBone,
    ] {
        let mut lab = Lab::new(Scene::from_doc(&doc).unwrap());
        let added = lab.fit_skeleton("humanoid", &markers).unwrap();
        assert!(added >= 20, "{added} bones");
        let report = lab.apply_auto_weights(method);
        assert!(
            lab.all_influences().iter().all(|i| i.total_weight() > 0.99),
            "every vertex weighted"
        );
        let fitted = regions(&lab);
        let agree = artist.iter().zip(&fitted).filter(|(a, b)| a == b).count();
        let mut confusion: HashMap<(&str, &str), usize> = HashMap::new();
        for (a, b) in artist.iter().zip(&fitted).filter(|(a, b)| a != b) {
            *confusion.entry((a, b)).or_default() += 1;
        }
        eprintln!("{confusion:?}");
        let share = agree as f64 / count as f64;
        eprintln!("{method:?}: {agree} of {count} vertices in the artist's region ({:.1} %), {} unreached", 100.0 * share, report.unreached.len());
        assert!(share >= 0.9, "{method:?}: {:.1} %", 100.0 * share);
    }
}

#[test]
fn the_rigged_figure_walks_with_its_limbs_where_the_capture_has_them() {
    let (_, doc, markers) = stripped_figure();
    let mut figure = Lab::new(Scene::from_doc(&doc).unwrap());
    figure.fit_skeleton("humanoid", &markers).unwrap();
    figure.apply_auto_weights(AutoWeights::BoneHeat);
    let (worst, at, report) = common::worst_limb_angle(&mut figure);
    eprintln!(
        "{} bones matched, unmatched {:?}; limbs within {worst:.2}° of the capture's (worst: {at})",
        report.matched, report.unmatched
    );
    assert!(worst < 5.0, "{worst}° at {at}");
}
