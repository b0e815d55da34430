//! Real characters' skins stripped and rigged again from markers at their
//! own joints (RiggedFigure from glTF, ufbx's Maya character from FBX):
//! the humanoid template fitted, bound by bone heat, voxels and nearest
//! bone, and each vertex's largest weight compared with the artist's by
//! body region (each arm, each leg, the trunk with the head);
//! and a quadruped fitted in a real OBJ (Keenan Crane's Spot), whose lower
//! legs each go to their own leg.
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
    // A hand's fingers (`LeftHandIndex1`) and a foot's toes count with it.
    let arm = name.starts_with("arm_") || ["Arm", "Hand"].iter().any(|p| name.contains(p));
    let leg = name.starts_with("leg_") || ["Leg", "Foot", "Toe"].iter().any(|p| name.contains(p));
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

/// The joints a character's markers sit at: the chin, the two hips (the
/// groin between them), then each side's elbow, wrist and knee, left first.
type MarkerJoints<'a> = [&'a str; 9];

/// RiggedFigure's joints for the markers.
const RIGGED_FIGURE_JOINTS: MarkerJoints = [
    "neck_joint_2",
    "leg_joint_L_1",
    "leg_joint_R_1",
    "arm_joint_L_2",
    "arm_joint_L_3",
    "leg_joint_L_2",
    "arm_joint_R_2",
    "arm_joint_R_3",
    "leg_joint_R_2",
];

/// RiggedFigure as opened, its mesh as drawn at rest with its skin
/// stripped (a root point alone), and the humanoid markers at its own joints.
fn stripped_figure() -> (Lab, SceneDoc, HashMap<String, Vec<f32>>) {
    let original =
        Lab::new(skinlab::formats::gltf::read_gltf(&common::model_text("RiggedFigure")).unwrap());
    stripped(original, RIGGED_FIGURE_JOINTS)
}

/// `original`, its mesh as drawn with its skin stripped (a root point
/// alone), and the humanoid markers at its `joints`.
fn stripped(mut original: Lab, joints: MarkerJoints) -> (Lab, SceneDoc, HashMap<String, Vec<f32>>) {
    // The joints at rest, and the mesh drawn with them.
    original.reset_pose();
    let skeleton = &original.scene().skeleton;
    let joint = |name: &str| {
        let bone = skeleton
            .bones()
            .iter()
            .position(|b| b.name == name)
            .unwrap_or_else(|| panic!("no joint {name}"));
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
    let [chin, left_hip, right_hip, rest @ ..] = joints;
    let groin = (joint(left_hip) + joint(right_hip)) * 0.5;
    let names = [
        "leftElbow",
        "leftWrist",
        "leftKnee",
        "rightElbow",
        "rightWrist",
        "rightKnee",
    ];
    let markers: HashMap<String, Vec<f32>> = [("chin", joint(chin)), ("groin", groin)]
        .into_iter()
        .chain(names.into_iter().zip(rest.map(joint)))
        .map(|(k, v)| (k.to_owned(), v.to_array().to_vec()))
        .collect();
    (original, doc, markers)
}

/// The share of `original`'s vertices whose largest weight, after `doc`
/// is fitted from `markers` and bound by `method`, lies in the artist's
/// region; every vertex must be weighted.
fn agreement(
    original: &Lab,
    doc: &SceneDoc,
    markers: &HashMap<String, Vec<f32>>,
    method: AutoWeights,
) -> f64 {
    let artist = regions(original);
    let mut lab = Lab::new(Scene::from_doc(doc).unwrap());
    let added = lab.fit_skeleton("humanoid", markers).unwrap();
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
    let count = artist.len();
    let share = agree as f64 / count as f64;
    eprintln!(
        "{method:?}: {agree} of {count} vertices in the artist's region ({:.1} %), {} unreached",
        100.0 * share,
        report.unreached.len()
    );
    share
}

#[test]
fn riggedfigure_stripped_and_rigged_from_markers_at_its_joints_agrees_with_the_artist() {
    let (original, doc, markers) = stripped_figure();
    for method in [
        AutoWeights::BoneHeat,
        AutoWeights::Voxel,
        AutoWeights::NearestBone,
    ] {
        let share = agreement(&original, &doc, &markers, method);
        assert!(share >= 0.9, "{method:?}: {:.1} %", 100.0 * share);
    }
}

/// ufbx's Maya character (Kenney's, FBX 7.7 binary): its skin stripped,
/// its IK controllers and foot-roll helpers gone with it, and rigged again
/// from markers at its joints (Mixamo's names, fingers and toes of its own).
/// It rests mid-stride with its left shin kicked back level behind the
/// knee: the template finds each shin and foot in the mesh from the knee
/// (bone heat 93.6 %, voxels 93.7 % of the vertices in the artist's region;
/// with the shins hung along the thighs, voxels gave 85.9 %).
#[test]
fn the_maya_character_stripped_and_rigged_from_markers_at_its_joints_agrees_with_the_artist() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fbx/ufbx-maya_kenney_character_7700_binary.fbx");
    let scene = skinlab::formats::fbx::scene_from_fbx(&std::fs::read(path).unwrap()).unwrap();
    let joints = [
        "Head",
        "LeftUpLeg",
        "RightUpLeg",
        "LeftForeArm",
        "LeftHand",
        "LeftLeg",
        "RightForeArm",
        "RightHand",
        "RightLeg",
    ];
    let (original, doc, markers) = stripped(Lab::new(scene), joints);
    for method in [AutoWeights::BoneHeat, AutoWeights::Voxel] {
        let share = agreement(&original, &doc, &markers, method);
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

/// Spot (tests/obj/spot.obj, CC0, Keenan Crane): a cow facing −z, y up,
/// her left at −x. Markers inside her: the nose, the withers over the
/// front legs, the hips over the back legs, the tail, and the four hooves.
fn spot_with_markers() -> (Lab, HashMap<String, Vec<f32>>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/obj/spot.obj");
    let text = std::fs::read_to_string(path).unwrap();
    let lab = Lab::new(skinlab::formats::obj::scene_from_obj(&text).unwrap());
    let markers: HashMap<String, Vec<f32>> = [
        ("nose", [0.0, 0.3, -0.55]),
        ("withers", [0.0, 0.05, 0.05]),
        ("hips", [0.0, 0.0, 0.75]),
        ("tailBase", [0.0, 0.0, 0.95]),
        ("tailTip", [0.0, -0.06, 1.03]),
        ("frontLeftPaw", [-0.23, -0.62, 0.04]),
        ("frontRightPaw", [0.23, -0.62, 0.04]),
        ("backLeftPaw", [-0.2, -0.62, 0.79]),
        ("backRightPaw", [0.2, -0.62, 0.79]),
    ]
    .into_iter()
    .map(|(name, p)| (name.to_owned(), p.to_vec()))
    .collect();
    (lab, markers)
}

/// Fits `template` to `markers` in `lab`, binds it by `method` (every
/// vertex weighted), and counts the vertices `wanted` names bones for (the
/// bone names its largest weight may be on) and those whose largest weight
/// is on one of them: `(own, counted)`.
fn own_share(
    mut lab: Lab,
    (template, markers): (&str, &HashMap<String, Vec<f32>>),
    method: AutoWeights,
    wanted: impl Fn(Vec3) -> Option<Vec<String>>,
) -> (usize, usize) {
    assert!(lab.fit_skeleton(template, markers).unwrap() >= 20);
    lab.apply_auto_weights(method);
    assert!(
        lab.all_influences().iter().all(|i| i.total_weight() > 0.99),
        "{method:?}: every vertex weighted"
    );
    let names = common::bone_names(&lab);
    let positions = &lab.scene().mesh.positions_model;
    let (mut own, mut counted) = (0, 0);
    for (v, influences) in lab.all_influences().iter().enumerate() {
        let Some(bones) = wanted(positions[v]) else {
            continue;
        };
        let (bone, _) = influences
            .pairs()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap();
        counted += 1;
        if bones.contains(&names[usize::from(bone)]) {
            own += 1;
        }
    }
    eprintln!(
        "{template}, {method:?}: {own} of {counted} vertices on their own limb ({:.1} %)",
        100.0 * own as f64 / counted as f64
    );
    (own, counted)
}

#[test]
fn a_quadruped_fitted_in_spot_gives_each_lower_leg_to_its_own_leg_by_every_method() {
    for method in common::AUTO_WEIGHTS {
        let (lab, markers) = spot_with_markers();
        assert_eq!(lab.mesh_report().loose_parts, 1, "Spot is one surface");
        // Below the belly: the leg of that corner.
        let (own, lower) = own_share(lab, ("quadruped", &markers), method, |p| {
            let end = if p.z < 0.4 { "Front" } else { "Back" };
            let side = if p.x < 0.0 { "Left" } else { "Right" };
            (p.y <= -0.45).then(|| {
                ["UpLeg", "Leg", "Foot"]
                    .map(|b| format!("{end}{side}{b}"))
                    .to_vec()
            })
        });
        assert!(
            own as f64 >= 0.95 * lower as f64,
            "{method:?}: {own} of {lower}"
        );
    }
}

/// The markers the lesson on rigging asks for, in the mannequin example.
fn mannequin_markers() -> HashMap<String, Vec<f32>> {
    [
        ("chin", [0.0, 1.55, 0.0]),
        ("groin", [0.0, 0.92, 0.0]),
        ("leftElbow", [0.48, 1.42, 0.0]),
        ("leftWrist", [0.78, 1.42, 0.0]),
        ("leftKnee", [0.1, 0.48, 0.0]),
        ("rightElbow", [-0.48, 1.42, 0.0]),
        ("rightWrist", [-0.78, 1.42, 0.0]),
        ("rightKnee", [-0.1, 0.48, 0.0]),
    ]
    .into_iter()
    .map(|(name, p)| (name.to_owned(), p.to_vec()))
    .collect()
}

#[test]
fn the_mannequin_rigged_from_markers_gives_each_limb_its_own_bones_by_every_method() {
    let markers = mannequin_markers();
    for method in common::AUTO_WEIGHTS {
        let lab = Lab::example("mannequin").unwrap();
        // Beyond the elbows and below the knees: the forearm and hand, the
        // leg and foot, of that side.
        let (own, limb) = own_share(lab, ("humanoid", &markers), method, |p| {
            let side = if p.x > 0.0 { "Left" } else { "Right" };
            let bones: &[&str] = if p.x.abs() > 0.55 {
                &["ForeArm", "Hand"]
            } else if p.y < 0.4 {
                &["Leg", "Foot", "ToeBase"]
            } else {
                return None;
            };
            Some(bones.iter().map(|b| format!("{side}{b}")).collect())
        });
        assert!(
            own as f64 >= 0.95 * limb as f64,
            "{method:?}: {own} of {limb}"
        );
    }
}

#[test]
fn the_mannequin_is_six_closed_parts_on_a_root_that_takes_no_skin() {
    let lab = Lab::example("mannequin").unwrap();
    assert_eq!(lab.bone_count(), 1);
    assert!(!lab.bone_deforms(0).unwrap());
    assert_eq!(
        lab.scene().meshes[0].binding,
        skinlab::scene::MeshBinding::Static
    );
    let report = lab.mesh_report();
    assert_eq!(report.loose_parts, 6);
    assert_eq!(report.open_edges, 0, "closed tubes");
    assert_eq!(report.flipped_triangles, 0);
    let (min, max) = lab.scene().mesh.bounds();
    assert!((max.y - 1.8).abs() < 1e-6 && min.y.abs() < 1e-6);
    assert!(
        (max.x - 0.86).abs() < 1e-6 && (min.x + 0.86).abs() < 1e-6,
        "arms held out to ±0.86"
    );
}

/// A rest edit rebuilds the skeleton alone: the scene after it is the one
/// the whole document's round trip gives, on a file with a clip, inverse
/// binds, joint names of the file's and a skinned mesh, for a moved head,
/// a moved tail, a roll and a new name.
#[test]
fn a_rest_edit_gives_the_scene_the_whole_round_trip_gives() {
    let text = common::model_text("RiggedFigure");
    let opened = Lab::new(skinlab::formats::gltf::read_gltf(&text).unwrap());
    let bone = opened
        .scene()
        .skeleton
        .bones()
        .iter()
        .position(|b| b.name == "arm_joint_L_2")
        .unwrap();
    let rest = rests(&opened.scene().skeleton)[bone];
    let edits = [
        (Some(rest.head + Vec3::new(0.0, 0.05, 0.0)), None, None),
        (None, Some(rest.tail + Vec3::new(0.03, -0.02, 0.01)), None),
        (None, None, Some(0.4)),
    ];
    for (head, tail, roll) in edits {
        let mut lab = Lab::new(skinlab::formats::gltf::read_gltf(&text).unwrap());
        lab.set_bone_rest(bone, head, tail, roll).unwrap();
        let mut doc = opened.scene().to_doc();
        skinlab::scene::rig_edit::set_rest(&mut doc, bone, head, tail, roll).unwrap();
        let whole = Scene::from_doc(&doc).unwrap();
        assert_eq!(
            lab.scene().to_doc(),
            whole.to_doc(),
            "{head:?} {tail:?} {roll:?}"
        );
        let after = rests(&lab.scene().skeleton)[bone];
        if let Some(head) = head {
            assert!(after.head.distance(head) < 1e-5);
        }
    }
    // A rename goes the same way.
    let mut lab = Lab::new(skinlab::formats::gltf::read_gltf(&text).unwrap());
    lab.rename_bone(bone, "LeftForeArm").unwrap();
    let mut doc = opened.scene().to_doc();
    skinlab::scene::rig_edit::rename(&mut doc, bone, "LeftForeArm").unwrap();
    assert_eq!(
        lab.scene().to_doc(),
        Scene::from_doc(&doc).unwrap().to_doc()
    );
}
