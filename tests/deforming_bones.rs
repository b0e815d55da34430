//! Bones that deform: on real files whose rigs hold end bones, IK
//! controllers and roots, a bone deforms exactly when the file gives it
//! weight; every automatic method leaves each skinned vertex's largest
//! weight on a deforming bone; turning the spine moves what the file's own
//! weights move; the flag survives scene JSON and glTF export.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeSet;

use common::bone_names;
use serde_json::Value;
use skinlab::lab::Lab;
use skinlab::skin::SkinningMethod;

const GLTF_MODELS: [&str; 4] = ["Fox", "RiggedFigure", "RiggedSimple", "SimpleSkin"];

/// The sample glTF models and every FBX file of the tests: the Fox's root
/// at the floor, the armature nodes above RiggedFigure's joints, the IK
/// controllers and foot-roll helpers of ufbx's Maya character (Kenney),
/// the arrows of a Maya axes rig.
fn real_files() -> Vec<(String, Lab)> {
    let mut labs = Vec::new();
    for name in GLTF_MODELS {
        labs.push((
            name.to_owned(),
            Lab::from_gltf(&common::model_text(name)).unwrap(),
        ));
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fbx");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "fbx"))
        .collect();
    names.sort();
    for path in names {
        let scene = skinlab::formats::fbx::scene_from_fbx(&std::fs::read(&path).unwrap()).unwrap();
        labs.push((
            path.file_name().unwrap().to_string_lossy().into_owned(),
            Lab::new(scene),
        ));
    }
    labs
}

fn deforming_names(lab: &Lab) -> BTreeSet<String> {
    let names = bone_names(lab);
    (0..lab.bone_count())
        .filter(|&b| lab.bone_deforms(b).unwrap())
        .map(|b| names[b].clone())
        .collect()
}

/// The names of the nodes a glTF file's skinned primitives give weight,
/// read from its JSON and accessors alone.
fn weighted_in_file(text: &str) -> BTreeSet<String> {
    let doc: Value = serde_json::from_str(text).unwrap();
    let mut names = BTreeSet::new();
    for node in doc["nodes"].as_array().unwrap() {
        let (Some(mesh), Some(skin)) = (node["mesh"].as_u64(), node["skin"].as_u64()) else {
            continue;
        };
        let joints = doc["skins"][skin as usize]["joints"].as_array().unwrap();
        for primitive in doc["meshes"][mesh as usize]["primitives"]
            .as_array()
            .unwrap()
        {
            let read = |key: &str| {
                common::accessor_values(
                    &doc,
                    primitive["attributes"][key].as_u64().unwrap() as usize,
                    4,
                )
            };
            for (joint, weight) in read("JOINTS_0").into_iter().zip(read("WEIGHTS_0")) {
                if weight > 0.0 {
                    let node = joints[joint as usize].as_u64().unwrap() as usize;
                    // An unnamed node is called as the reader calls it.
                    let name = doc["nodes"][node]["name"]
                        .as_str()
                        .map_or_else(|| format!("node {node}"), str::to_owned);
                    names.insert(name);
                }
            }
        }
    }
    names
}

#[test]
fn a_gltf_bone_deforms_exactly_when_the_file_gives_it_weight() {
    for name in GLTF_MODELS {
        let text = common::model_text(name);
        let lab = Lab::from_gltf(&text).unwrap();
        assert_eq!(deforming_names(&lab), weighted_in_file(&text), "{name}");
    }
    // The Fox's root at the floor and the nodes above it deform nothing.
    let fox = Lab::from_gltf(&common::model_text("Fox")).unwrap();
    let names = bone_names(&fox);
    let root = names.iter().position(|n| n == "b_Root_00").unwrap();
    assert!(!fox.bone_deforms(root).unwrap());
}

#[test]
fn an_fbx_controller_or_helper_deforms_nothing() {
    let kenney = real_files()
        .into_iter()
        .find(|(name, _)| name.contains("kenney"))
        .unwrap()
        .1;
    let names = bone_names(&kenney);
    for controller in [
        "LeftFootIK",
        "RightKneeCtrl",
        "HipsCtrl",
        "LeftToeRoll",
        "Root",
    ] {
        let bone = names.iter().position(|n| n == controller).unwrap();
        assert!(!kenney.bone_deforms(bone).unwrap(), "{controller}");
    }
    for joint in ["Hips", "Spine", "LeftUpLeg", "Head"] {
        let bone = names.iter().position(|n| n == joint).unwrap();
        assert!(kenney.bone_deforms(bone).unwrap(), "{joint}");
    }
}

/// The skinned vertices whose largest weight is on a bone that deforms
/// nothing in `flags`.
fn largest_on_non_deforming(lab: &Lab, flags: &[bool]) -> usize {
    lab.scene()
        .meshes
        .iter()
        .filter(|part| part.binding == skinlab::scene::MeshBinding::Skinned)
        .flat_map(|part| part.first_vertex..part.first_vertex + part.vertex_count)
        .filter(|&v| {
            let largest = lab.influences(v).unwrap()[0].0;
            !flags[usize::from(largest)]
        })
        .count()
}

#[test]
fn every_automatic_method_leaves_each_vertexs_largest_weight_on_a_deforming_bone() {
    let mut before = 0;
    for (name, lab) in real_files() {
        let flags: Vec<bool> = (0..lab.bone_count())
            .map(|b| lab.bone_deforms(b).unwrap())
            .collect();
        for method in common::AUTO_WEIGHTS {
            let mut auto = lab.clone();
            auto.apply_auto_weights(method);
            assert_eq!(
                largest_on_non_deforming(&auto, &flags),
                0,
                "{name}, {method:?}"
            );
            // Every bone let deform, as before the flag: the same methods
            // hand skin to the controllers.
            let mut every = lab.clone();
            for bone in 0..every.bone_count() {
                every.set_bone_deforms(bone, true).unwrap();
            }
            every.apply_auto_weights(method);
            let taken = largest_on_non_deforming(&every, &flags);
            if taken > 0 {
                println!("{name}, {method:?}: with every bone deforming, {taken} vertices' largest weight would go to a bone the file gives none");
            }
            before += taken;
        }
    }
    assert!(
        before > 0,
        "the files hold bones a method without the flag would weight"
    );
}

/// Which vertices a half-radian turn of `bone` moves by more than
/// `fraction` of the mesh's size.
fn moved_by_turn(lab: &mut Lab, bone: usize, fraction: f32) -> Vec<bool> {
    let rest = lab.skinned_positions(SkinningMethod::Lbs).into_owned();
    let (lo, hi) = rest
        .iter()
        .fold((glam::Vec3::MAX, glam::Vec3::MIN), |(l, h), &p| {
            (l.min(p), h.max(p))
        });
    let size = (hi - lo).length();
    let mut pose = lab.scene().pose[bone];
    pose.rotation = glam::Quat::from_rotation_z(0.5) * pose.rotation;
    lab.set_bone_transform(bone, pose).unwrap();
    let turned = lab.skinned_positions(SkinningMethod::Lbs).into_owned();
    lab.reset_pose();
    rest.iter()
        .zip(&turned)
        .map(|(a, b)| a.distance(*b) > fraction * size)
        .collect()
}

#[test]
fn turning_the_spine_moves_every_vertex_the_files_own_weights_move_far() {
    for (name, mut lab) in real_files() {
        let names = bone_names(&lab);
        let Some(spine) = names.iter().position(|n| {
            let n = n.to_lowercase();
            n.contains("spine") || n.contains("torso")
        }) else {
            continue;
        };
        // Moved far by the file's weights: a tenth of the body's size.
        let by_file = moved_by_turn(&mut lab, spine, 0.1);
        for method in common::AUTO_WEIGHTS {
            let mut auto = lab.clone();
            auto.apply_auto_weights(method);
            let by_auto = moved_by_turn(&mut auto, spine, 0.001);
            let left = by_file
                .iter()
                .zip(&by_auto)
                .filter(|(f, a)| **f && !**a)
                .count();
            assert_eq!(left, 0, "{name}, {method:?}: {left} vertices stay behind");
        }
    }
}

#[test]
fn the_flag_survives_scene_json_and_glb_export() {
    for (name, lab) in real_files() {
        let expected = deforming_names(&lab);
        let again = Lab::from_json(&lab.scene_json()).unwrap();
        assert_eq!(deforming_names(&again), expected, "{name}: scene JSON");
        let reread = Lab::from_glb(&lab.to_glb().unwrap()).unwrap();
        assert_eq!(deforming_names(&reread), expected, "{name}: .glb");
    }
}

#[test]
fn a_bone_turned_off_hands_its_weight_up_and_undo_gives_it_back() {
    let mut fox = Lab::from_gltf(&common::model_text("Fox")).unwrap();
    let names = bone_names(&fox);
    let head = names.iter().position(|n| n.contains("Head")).unwrap();
    let parent = usize::from(fox.scene().skeleton.bones()[head].parent.unwrap());
    let weights_before = fox.all_influences().to_vec();
    fox.checkpoint();
    let moved = fox.set_bone_deforms(head, false).unwrap();
    assert!(moved > 0);
    assert!(!fox.bone_deforms(head).unwrap());
    assert!(fox
        .all_influences()
        .iter()
        .all(|i| i.pairs().all(|(b, _)| usize::from(b) != head)));
    assert!(fox
        .all_influences()
        .iter()
        .any(|i| i.pairs().any(|(b, _)| usize::from(b) == parent)));
    let error = fox
        .set_influences(0, &[(head as u32, 1.0)])
        .unwrap_err()
        .to_string();
    assert!(error.contains("deforms nothing"), "{error}");
    fox.undo();
    assert!(fox.bone_deforms(head).unwrap());
    assert_eq!(fox.all_influences(), weights_before.as_slice());
}
