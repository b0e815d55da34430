//! Export to binary glTF and back: a painted, posed example and a clip
//! frame of the Fox re-import with the same skinned positions.
#![allow(clippy::unwrap_used)]

use glam::Vec3;
use skinlab::{Lab, SkinningMethod};

mod common;

fn worst_difference(a: &[Vec3], b: &[Vec3]) -> f32 {
    assert_eq!(a.len(), b.len(), "vertex counts");
    a.iter()
        .zip(b)
        .map(|(p, q)| p.distance(*q))
        .fold(0.0, f32::max)
}

/// Exports `lab`, reads the file back and compares both methods.
fn round_trip(name: &str, lab: &mut Lab, tolerance: f32) {
    let glb = lab.to_glb().unwrap();
    let back = Lab::from_glb(&glb).unwrap_or_else(|e| panic!("{name}: {e}"));
    for method in [SkinningMethod::Lbs, SkinningMethod::Dqs] {
        let worst = worst_difference(
            &lab.skinned_positions(method),
            &back.skinned_positions(method),
        );
        println!(
            "{name} ({method:?}): {} bytes, worst difference {worst:.2e}",
            glb.len()
        );
        assert!(worst < tolerance, "{name} {method:?}: {worst}");
    }
    // The mesh as bound and the weights as painted come back too. (The
    // file's nodes hold the pose it was saved in: that is the pose it
    // opens in, and what "Reset pose" returns to.)
    let worst = worst_difference(
        &lab.scene().mesh.positions_model,
        &back.scene().mesh.positions_model,
    );
    assert!(worst < tolerance, "{name}, bind pose: {worst}");
    // Bones are matched by name: the file may add a joint for vertices no
    // bone moves, and with it a common root.
    for vertex in 0..lab.vertex_count() {
        let pairs = |lab: &Lab| {
            let bones = lab.scene().skeleton.bones();
            let mut pairs: Vec<(String, f32)> = lab.scene().influences[vertex]
                .pairs()
                .map(|(bone, weight)| (bones[usize::from(bone)].name.clone(), weight))
                .collect();
            pairs.sort_by(|a, b| a.0.cmp(&b.0));
            pairs
        };
        if lab.scene().influences[vertex].total_weight() <= 0.0 {
            continue;
        }
        let (a, b) = (pairs(lab), pairs(&back));
        assert_eq!(a.len(), b.len(), "{name}, vertex {vertex}: {a:?} vs {b:?}");
        for (x, y) in a.iter().zip(&b) {
            assert!(
                x.0 == y.0 && (x.1 - y.1).abs() < 1e-3,
                "{name}, vertex {vertex}: {a:?} vs {b:?}"
            );
        }
    }
}

#[test]
fn every_example_posed_and_painted_survives_export() {
    for name in skinlab::examples::listed_names() {
        let mut lab = Lab::example(name).unwrap();
        for bone in 0..lab.bone_count().min(5) {
            let angle = 0.3 + 0.1 * bone as f32;
            lab.set_bone_pose(
                bone,
                skinlab::lab::rotation_about(Vec3::new(0.2, 0.3, 1.0).normalize(), angle),
                [0.05, 0.0, 0.0],
                [1.0; 3],
            )
            .unwrap();
        }
        // A painted vertex shared by the first two bones.
        if lab.bone_count() > 1 {
            lab.set_influences(0, &[(0, 0.3), (1, 0.7)]).unwrap();
        }
        round_trip(name, &mut lab, 1e-4);
    }
}

#[test]
fn a_vertex_no_bone_moves_stays_put_after_export() {
    let mut lab = Lab::example("two-bone").unwrap();
    lab.set_influences(3, &[]).unwrap();
    lab.set_bone_pose(
        0,
        skinlab::lab::rotation_about(Vec3::Z, 0.7),
        [0.0; 3],
        [1.0; 3],
    )
    .unwrap();
    round_trip("two-bone, vertex 3 unweighted", &mut lab, 1e-5);
    let back = Lab::from_glb(&lab.to_glb().unwrap()).unwrap();
    let rest = lab.scene().mesh.positions_model[3];
    assert!(back.skinned_positions(SkinningMethod::Lbs)[3].abs_diff_eq(rest, 1e-6));
}

#[test]
fn the_fox_at_a_clip_time_survives_export() {
    let mut fox = Lab::from_gltf(&common::model_text("Fox")).unwrap();
    fox.set_animation_time(2, 0.3).unwrap();
    round_trip("Fox running at 0.3 s", &mut fox, 1e-3);
}

#[test]
fn every_clip_of_every_model_survives_export_between_its_keys_too() {
    for name in ["SimpleSkin", "RiggedSimple", "RiggedFigure", "Fox"] {
        let mut original = Lab::from_gltf(&common::model_text(name)).unwrap();
        let mut back = Lab::from_glb(&original.to_glb().unwrap()).unwrap();
        assert_eq!(back.animation_names(), original.animation_names(), "{name}");
        let size = original
            .scene()
            .mesh
            .positions_model
            .iter()
            .fold(1.0_f32, |m, p| m.max(p.abs().max_element()));
        for clip in 0..original.animation_names().len() {
            let duration = original.animation_duration(clip).unwrap();
            assert!((back.animation_duration(clip).unwrap() - duration).abs() < 1e-6);
            let mut worst = 0.0_f32;
            // Times that fall between keys as well as on them.
            for step in 0..=37 {
                let time = duration * step as f32 / 37.0;
                original.set_animation_time(clip, time).unwrap();
                back.set_animation_time(clip, time).unwrap();
                worst = worst.max(worst_difference(
                    &original.skinned_positions(SkinningMethod::Lbs),
                    &back.skinned_positions(SkinningMethod::Lbs),
                ));
            }
            println!("{name} clip {clip}: worst {worst:.2e} over 38 times (model size {size})");
            assert!(worst < 2e-6 * size, "{name} clip {clip}: {worst}");
        }
    }
}

#[test]
fn morph_targets_and_their_weights_survive_export() {
    let mut face = Lab::example("face").unwrap();
    face.set_morph_weights(&[0.7, 0.0, 0.2, 0.0, 0.5, 0.0, 0.3, 0.0, 0.0, 0.4])
        .unwrap();
    face.set_bone_pose(
        1,
        skinlab::lab::rotation_about(Vec3::X, 0.3),
        [0.0, 0.1, 0.0],
        [1.0; 3],
    )
    .unwrap();
    let back = Lab::from_glb(&face.to_glb().unwrap()).unwrap();
    assert_eq!(back.morph_names(), face.morph_names());
    assert_eq!(back.morph_weights(), face.morph_weights());
    round_trip("face, morphed and posed", &mut face, 1e-5);
}

#[test]
fn the_faces_vertex_colours_survive_export_as_colour_0() {
    let face = Lab::example("face").unwrap();
    assert!(!face.scene().vertex_colours.is_empty());
    let back = Lab::from_glb(&face.to_glb().unwrap()).unwrap();
    assert_eq!(back.scene().vertex_colours, face.scene().vertex_colours);
}

#[test]
fn a_models_base_colour_and_texture_survive_export() {
    // The Fox: its PNG, factor and UVs come back byte for byte.
    let fox = Lab::from_gltf(&common::model_text("Fox")).unwrap();
    let colour = fox.scene().base_colour.clone().unwrap();
    assert!(colour.image.is_some());
    let back = Lab::from_glb(&fox.to_glb().unwrap()).unwrap();
    assert_eq!(back.scene().base_colour.as_ref(), Some(&colour));
    // RiggedSimple: a factor without a texture.
    let simple = Lab::from_gltf(&common::model_text("RiggedSimple")).unwrap();
    let back = Lab::from_glb(&simple.to_glb().unwrap()).unwrap();
    assert_eq!(back.scene().base_colour, simple.scene().base_colour);
    // An example has none, and its export has no material.
    let arm = Lab::example("arm").unwrap();
    assert_eq!(arm.scene().base_colour, None);
    let back = Lab::from_glb(&arm.to_glb().unwrap()).unwrap();
    assert_eq!(back.scene().base_colour, None);
}

/// SimpleSkin's document with a second mesh, `name`: a copy of its mesh's
/// positions and triangles, unskinned, in `material` if given (no node
/// shows it yet).
fn simple_skin_with_copy(name: &str, material: Option<usize>) -> serde_json::Value {
    let mut doc: serde_json::Value =
        serde_json::from_str(&common::model_text("SimpleSkin")).unwrap();
    let primitive = &doc["meshes"][0]["primitives"][0];
    let mut copy = serde_json::json!({"attributes": {"POSITION": primitive["attributes"]["POSITION"]},
                                      "indices": primitive["indices"]});
    if let Some(material) = material {
        copy["material"] = material.into();
    }
    doc["meshes"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"name": name, "primitives": [copy]}));
    doc
}

#[test]
fn meshes_stay_meshes_with_their_names_materials_and_bindings() {
    // The robot's nine rigid parts come back as nine meshes by name, each
    // on its joint (written skinned to it with weight 1).
    let robot = Lab::example("robot").unwrap();
    let back = Lab::from_glb(&robot.to_glb().unwrap()).unwrap();
    let parts = |lab: &Lab| -> Vec<(String, usize, usize)> {
        lab.scene()
            .meshes
            .iter()
            .map(|m| (m.name.clone(), m.first_vertex, m.vertex_count))
            .collect()
    };
    assert_eq!(parts(&back), parts(&robot));
    // SimpleSkin's mesh in a masked material beside a static copy of it in
    // a blended, double-sided, unlit one: two meshes, the copy static, both
    // materials as they were.
    let mut doc = simple_skin_with_copy("glass", Some(1));
    doc["meshes"][0]["primitives"][0]["material"] = 0.into();
    doc["meshes"][0]["name"] = "body".into();
    doc["nodes"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"name": "glass", "mesh": 1, "translation": [2, 0, 0]}));
    let copy = doc["nodes"].as_array().unwrap().len() - 1;
    doc["scenes"][0]["nodes"]
        .as_array_mut()
        .unwrap()
        .push(copy.into());
    doc["materials"] = serde_json::json!([
        {"name": "painted", "alphaMode": "MASK", "alphaCutoff": 0.25,
         "pbrMetallicRoughness": {"baseColorFactor": [1, 0.5, 0.25, 1]}},
        {"name": "clear", "alphaMode": "BLEND", "doubleSided": true,
         "extensions": {"KHR_materials_unlit": {}},
         "pbrMetallicRoughness": {"baseColorFactor": [0, 0, 1, 0.5]}}
    ]);
    let lab = Lab::from_gltf(&doc.to_string()).unwrap();
    let back = Lab::from_glb(&lab.to_glb().unwrap()).unwrap();
    assert_eq!(back.scene().materials, lab.scene().materials);
    assert_eq!(back.scene().surfaces, lab.scene().surfaces);
    let bindings = |lab: &Lab| -> Vec<skinlab::scene::MeshBinding> {
        lab.scene().meshes.iter().map(|m| m.binding).collect()
    };
    assert_eq!(
        bindings(&back),
        [
            skinlab::scene::MeshBinding::Skinned,
            skinlab::scene::MeshBinding::Static
        ]
    );
    assert_eq!(parts(&back), parts(&lab));
    let worst = worst_difference(
        &lab.skinned_positions(SkinningMethod::Lbs),
        &back.skinned_positions(SkinningMethod::Lbs),
    );
    assert!(worst < 1e-5, "{worst}");
}

/// The JSON chunk of a `.glb`.
fn glb_json(glb: &[u8]) -> serde_json::Value {
    let length = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&glb[20..20 + length]).unwrap()
}

#[test]
fn a_rigid_mesh_goes_out_as_a_node_under_its_joint_and_follows_it() {
    // SimpleSkin with a copy of its mesh hung on its second joint (node 2),
    // unskinned: a rigid part on that joint's bone.
    let mut doc = simple_skin_with_copy("hat", None);
    doc["nodes"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"name": "hat", "mesh": 1, "translation": [0.5, 0.2, 0]}));
    doc["nodes"][2]["children"] = serde_json::json!([3]);
    let mut lab = Lab::from_gltf(&doc.to_string()).unwrap();
    let hat = lab.scene().meshes[1].clone();
    assert!(matches!(
        hat.binding,
        skinlab::scene::MeshBinding::Rigid { .. }
    ));
    // Turned, exported: the hat is a mesh node (no skin) among the children
    // of the joint its bone is.
    let skinlab::scene::MeshBinding::Rigid { bone } = hat.binding else {
        unreachable!()
    };
    let parent = lab.scene().skeleton.bones()[bone].parent.unwrap();
    lab.set_bone_pose(
        usize::from(parent),
        skinlab::lab::rotation_about(Vec3::Z, 0.6),
        [0.0; 3],
        [1.0; 3],
    )
    .unwrap();
    let glb = lab.to_glb().unwrap();
    let written = glb_json(&glb);
    let nodes = written["nodes"].as_array().unwrap();
    // Read, the hat's node became the bone it rides; written, that node
    // carries the mesh again, unskinned, under the joint it hung from.
    let hat_node = nodes.iter().position(|n| n["name"] == "hat").unwrap();
    assert_eq!(nodes.iter().filter(|n| n["name"] == "hat").count(), 1);
    assert_eq!(nodes[hat_node]["mesh"], 1);
    assert!(
        nodes[hat_node].get("skin").is_none(),
        "a rigid node, not skinned"
    );
    let holder = nodes
        .iter()
        .position(|n| {
            n["children"]
                .as_array()
                .is_some_and(|c| c.contains(&hat_node.into()))
        })
        .expect("the hat hangs under a node");
    assert_eq!(
        nodes[holder]["name"],
        lab.scene().skeleton.bones()[usize::from(parent)]
            .name
            .as_str()
    );
    // Read back, it is where it was, posed.
    let back = Lab::from_glb(&glb).unwrap();
    let worst = worst_difference(
        &lab.skinned_positions(SkinningMethod::Lbs),
        &back.skinned_positions(SkinningMethod::Lbs),
    );
    assert!(worst < 1e-5, "{worst}");
    assert!(matches!(
        back.scene().meshes[1].binding,
        skinlab::scene::MeshBinding::Rigid { .. }
    ));
    assert_eq!(
        common::bone_names(&back),
        common::bone_names(&lab),
        "no bone added"
    );
}
