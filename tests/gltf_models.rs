//! The Khronos sample models in www/models load as scenes whose rest
//! frames are the inverse bind matrices and whose weights are the file's.
#![allow(clippy::unwrap_used)]

use common::accessor_values;
use glam::{Mat4, Vec3};
use serde_json::Value;
use skinlab::{Lab, SkinningMethod};

mod common;

/// The inverse bind matrices of the file's first skin.
fn inverse_binds(text: &str) -> Vec<Mat4> {
    let doc: Value = serde_json::from_str(text).unwrap();
    let index = doc["skins"][0]["inverseBindMatrices"].as_u64().unwrap() as usize;
    accessor_values(&doc, index, 16)
        .chunks_exact(16)
        .map(Mat4::from_cols_slice)
        .collect()
}

/// The transform of the nodes above the skin's first joint, from the file.
#[allow(dead_code)]
fn armature_of(text: &str) -> Mat4 {
    let doc: Value = serde_json::from_str(text).unwrap();
    let nodes = doc["nodes"].as_array().unwrap();
    let parent_of = |index: usize| {
        nodes.iter().position(|n| {
            n["children"]
                .as_array()
                .is_some_and(|c| c.iter().any(|x| x.as_u64() == Some(index as u64)))
        })
    };
    let numbers = |value: &Value| -> Option<Vec<f32>> {
        value
            .as_array()
            .map(|a| a.iter().map(|x| x.as_f64().unwrap() as f32).collect())
    };
    let mut global = Mat4::IDENTITY;
    let mut current = parent_of(doc["skins"][0]["joints"][0].as_u64().unwrap() as usize);
    while let Some(index) = current {
        let node = &nodes[index];
        let local = match numbers(&node["matrix"]) {
            Some(m) => Mat4::from_cols_slice(&m),
            None => Mat4::from_scale_rotation_translation(
                numbers(&node["scale"]).map_or(Vec3::ONE, |s| Vec3::from_slice(&s)),
                numbers(&node["rotation"])
                    .map_or(glam::Quat::IDENTITY, |r| glam::Quat::from_slice(&r)),
                numbers(&node["translation"]).map_or(Vec3::ZERO, |t| Vec3::from_slice(&t)),
            ),
        };
        global = local * global;
        current = parent_of(index);
    }
    global
}

#[test]
fn every_sample_model_loads_with_its_inverse_bind_matrices() {
    for (name, bones, vertices) in [
        ("SimpleSkin", 2, 10),
        ("RiggedSimple", 4, 160),
        ("RiggedFigure", 21, 370),
        ("Fox", 25, 1728),
    ] {
        let text = common::model_text(name);
        let lab = Lab::from_gltf(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Every joint, and every node a joint hangs from.
        assert_eq!(lab.bone_count(), bones, "{name}");
        assert_eq!(lab.vertex_count(), vertices, "{name}");
        // Each joint keeps the file's inverse bind matrix exactly (scale
        // and shear included), and its bone is found by the node's name.
        let doc: Value = serde_json::from_str(&text).unwrap();
        let skeleton = &lab.scene().skeleton;
        for (joint, inverse_bind) in inverse_binds(&text).iter().enumerate() {
            let node = doc["skins"][0]["joints"][joint].as_u64().unwrap() as usize;
            let node_name = doc["nodes"][node]["name"]
                .as_str()
                .map_or(format!("node {node}"), str::to_owned);
            let bone = skeleton
                .bones()
                .iter()
                .position(|b| b.name == node_name)
                .unwrap_or_else(|| panic!("{name}: a bone for joint {joint}"));
            assert_eq!(
                skeleton.inverse_bind(bone),
                Some(*inverse_bind),
                "{name} joint {joint}"
            );
            // The drawn bone's frame is the joint's, turned: U⁻¹ · IBM maps
            // the bind frame to the identity.
            let unturned = skeleton.model_from_bone_bind()[bone]
                * Mat4::from_quat(skeleton.bones()[bone].turn.inverse());
            assert!(
                (*inverse_bind * unturned).abs_diff_eq(Mat4::IDENTITY, 1e-4),
                "{name} joint {joint}"
            );
        }
        assert!(
            lab.all_influences()
                .iter()
                .all(|v| (v.total_weight() - 1.0).abs() < 1e-5),
            "{name}: weights sum to 1"
        );
        println!(
            "{name}: {} bones, {} vertices, lengths {:?}",
            lab.bone_count(),
            lab.vertex_count(),
            &lab.scene().skeleton.lengths()[..bones.min(4)]
        );
    }
}

#[test]
fn turning_simple_skins_second_joint_bends_the_upper_half_only() {
    let mut lab = Lab::from_gltf(&common::model_text("SimpleSkin")).unwrap();
    let rest = lab.scene().mesh.positions_model.clone();
    lab.set_bone_pose(
        1,
        skinlab::lab::rotation_about(Vec3::Z, 1.0),
        [0.0; 3],
        [1.0; 3],
    )
    .unwrap();
    let posed = lab.skinned_positions(SkinningMethod::Lbs).to_vec();
    for (v, (before, after)) in rest.iter().zip(&posed).enumerate() {
        let only_first = lab
            .influences(v)
            .unwrap()
            .iter()
            .all(|&(bone, _)| bone == 0);
        if only_first {
            assert_eq!(before, after, "vertex {v} belongs to joint 0 alone");
        }
    }
    assert!(
        rest.iter().zip(&posed).any(|(a, b)| a.distance(*b) > 0.1),
        "the upper vertices moved"
    );
}

#[test]
fn a_scene_read_from_gltf_round_trips_through_scene_json() {
    let lab = Lab::from_gltf(&common::model_text("RiggedFigure")).unwrap();
    let again = Lab::from_json(&lab.scene_json()).unwrap();
    assert!(
        again.scene_json() == lab.scene_json(),
        "the reloaded scene differs"
    );
}

#[test]
fn simple_skins_keyframes_turn_its_second_joint() {
    let text = common::model_text("SimpleSkin");
    let mut lab = Lab::from_gltf(&text).unwrap();
    assert_eq!(lab.animation_names(), vec!["animation 1".to_owned()]);
    let duration = lab.animation_duration(0).unwrap();
    assert!((duration - 5.5).abs() < 1e-4, "{duration}");
    // Read the keys straight from the file: times and rotations of node 2.
    let doc: Value = serde_json::from_str(&text).unwrap();
    let read = |accessor: usize, width: usize| accessor_values(&doc, accessor, width);
    let sampler = &doc["animations"][0]["samplers"][0];
    let times = read(sampler["input"].as_u64().unwrap() as usize, 1);
    let rotations = read(sampler["output"].as_u64().unwrap() as usize, 4);
    let rest = lab.scene().mesh.positions_model.clone();
    for (key, &time) in times.iter().enumerate() {
        lab.set_animation_time(0, time).unwrap();
        let q = glam::Quat::from_slice(&rotations[4 * key..4 * key + 4]).normalize();
        // Joint 1 sits at (0, 1, 0) and turns by the keyed rotation; joint 0
        // stays. Each vertex is the weighted mean of the two.
        let posed = lab.skinned_positions(SkinningMethod::Lbs).to_vec();
        for (v, p) in rest.iter().enumerate() {
            let pairs = lab.influences(v).unwrap();
            let expected = pairs.iter().fold(Vec3::ZERO, |sum, &(bone, w)| {
                let moved = if bone == 1 {
                    Vec3::Y + q * (*p - Vec3::Y)
                } else {
                    *p
                };
                sum + moved * w
            });
            assert!(
                posed[v].abs_diff_eq(expected, 1e-4),
                "key {key}, vertex {v}: {} vs {expected}",
                posed[v]
            );
        }
    }
}

#[test]
fn the_fox_runs_as_its_gltf_says() {
    let text = common::model_text("Fox");
    let mut lab = Lab::from_gltf(&text).unwrap();
    assert_eq!(lab.animation_names(), vec!["Survey", "Walk", "Run"]);
    for clip in 0..3 {
        let duration = lab.animation_duration(clip).unwrap();
        for step in 0..5 {
            let time = duration * step as f32 / 4.0;
            lab.set_animation_time(clip, time).unwrap();
            let positions = lab.skinned_positions(SkinningMethod::Dqs);
            assert!(
                positions
                    .iter()
                    .all(|p| p.is_finite() && p.length() < 500.0),
                "clip {clip} at {time}"
            );
        }
    }
    // The pose found for the frames reproduces them.
    lab.set_animation_time(2, 0.4).unwrap();
    let posed = lab.model_from_bone_posed().to_vec();
    lab.set_animation_time(2, 0.4).unwrap();
    assert_eq!(lab.model_from_bone_posed(), posed.as_slice());
    assert!(lab
        .set_animation_time(3, 0.0)
        .unwrap_err()
        .to_string()
        .contains("animation 3 does not exist"));
    assert!(lab.set_animation_time(0, f32::NAN).is_err());
}

#[test]
fn every_model_reads_the_same_from_its_glb_and_from_gltf_with_bin_files() {
    for name in ["SimpleSkin", "RiggedSimple", "RiggedFigure", "Fox"] {
        let text = common::model_text(name);
        let glb = skinlab::formats::gltf::glb::glb_from_embedded_gltf(&text).unwrap();
        let mut from_text = Lab::from_gltf(&text).unwrap();
        let mut from_glb = Lab::from_glb(&glb).unwrap();
        let (separate, files) = common::split_gltf(&text, name);
        let from_files = Lab::from_gltf_files(&separate, &files).unwrap();
        assert_eq!(from_files.scene_json(), from_text.scene_json(), "{name}");
        let without_bin = Lab::from_gltf(&separate).unwrap_err().to_string();
        assert!(
            without_bin.contains(&format!("'{name}0.bin', which was not given")),
            "{without_bin}"
        );
        println!(
            "{name}: {} bytes as .glb, {} vertices, {} bones, clips {:?}",
            glb.len(),
            from_glb.vertex_count(),
            from_glb.bone_count(),
            from_glb.animation_names()
        );
        assert_eq!(from_glb.scene_json(), from_text.scene_json(), "{name}");
        assert_eq!(from_glb.animation_names(), from_text.animation_names());
        for clip in 0..from_text.animation_names().len() {
            let t = 0.37 * from_text.animation_duration(clip).unwrap();
            from_text.set_animation_time(clip, t).unwrap();
            from_glb.set_animation_time(clip, t).unwrap();
            assert_eq!(
                from_glb.skinned_positions(SkinningMethod::Lbs),
                from_text.skinned_positions(SkinningMethod::Lbs),
                "{name}, clip {clip}"
            );
        }
    }
}

/// Every node's global transform from its own `T · R · S` (or matrix).
fn node_globals(doc: &Value) -> Vec<Mat4> {
    let nodes = doc["nodes"].as_array().unwrap();
    let numbers = |value: &Value| -> Option<Vec<f32>> {
        value
            .as_array()
            .map(|a| a.iter().map(|x| x.as_f64().unwrap() as f32).collect())
    };
    let local = |node: &Value| match numbers(&node["matrix"]) {
        Some(m) => Mat4::from_cols_slice(&m),
        None => Mat4::from_scale_rotation_translation(
            numbers(&node["scale"]).map_or(Vec3::ONE, |s| Vec3::from_slice(&s)),
            numbers(&node["rotation"]).map_or(glam::Quat::IDENTITY, |r| glam::Quat::from_slice(&r)),
            numbers(&node["translation"]).map_or(Vec3::ZERO, |t| Vec3::from_slice(&t)),
        ),
    };
    let mut globals = vec![None; nodes.len()];
    let mut stack: Vec<(usize, Mat4)> = doc["scenes"][0]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n.as_u64().unwrap() as usize, Mat4::IDENTITY))
        .collect();
    while let Some((index, parent)) = stack.pop() {
        let global = parent * local(&nodes[index]);
        globals[index] = Some(global);
        for child in nodes[index]["children"].as_array().into_iter().flatten() {
            stack.push((child.as_u64().unwrap() as usize, global));
        }
    }
    globals.into_iter().map(Option::unwrap_or_default).collect()
}

#[test]
fn each_model_opens_in_its_default_node_pose_as_gltf_skins_it() {
    for name in ["SimpleSkin", "RiggedSimple", "RiggedFigure", "Fox"] {
        let text = common::model_text(name);
        let doc: Value = serde_json::from_str(&text).unwrap();
        // glTF's skinning of the default pose, straight from the file:
        // Σ w_j · G_j · IBM_j · v.
        let globals = node_globals(&doc);
        let joints: Vec<usize> = doc["skins"][0]["joints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| j.as_u64().unwrap() as usize)
            .collect();
        let binds = inverse_binds(&text);
        let primitive = &doc["meshes"][0]["primitives"][0]["attributes"];
        let attribute = |key: &str, width| {
            accessor_values(&doc, primitive[key].as_u64().unwrap() as usize, width)
        };
        let (positions, joint_ids, weights) = (
            attribute("POSITION", 3),
            attribute("JOINTS_0", 4),
            attribute("WEIGHTS_0", 4),
        );
        let expected: Vec<Vec3> = (0..positions.len() / 3)
            .map(|v| {
                let p = Vec3::from_slice(&positions[3 * v..3 * v + 3]);
                (0..4)
                    .map(|k| {
                        let joint = joint_ids[4 * v + k] as usize;
                        weights[4 * v + k]
                            * (globals[joints[joint]] * binds[joint]).transform_point3(p)
                    })
                    .sum()
            })
            .collect();
        let lab = Lab::from_gltf(&text).unwrap();
        let moved = lab.bone_pose(1).unwrap() != skinlab::BoneTransform::IDENTITY;
        let skinned = lab.skinned_positions(SkinningMethod::Lbs);
        let scale = expected
            .iter()
            .fold(1.0_f32, |m, p| m.max(p.abs().max_element()));
        let worst = skinned
            .iter()
            .zip(&expected)
            .map(|(a, b)| a.distance(*b))
            .fold(0.0, f32::max);
        println!("{name}: opening pose differs from bind: {moved}; worst {worst:.2e} of {scale}");
        assert!(worst < 1e-4 * scale, "{name}: {worst}");
    }
}

#[test]
fn every_skinned_mesh_is_read_and_unknown_required_extensions_are_refused() {
    let text = common::model_text("SimpleSkin");
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    // A second mesh on the same skin, and a third on a skin of joint 2 alone.
    let mesh = doc["meshes"][0].clone();
    doc["meshes"]
        .as_array_mut()
        .unwrap()
        .extend([mesh.clone(), mesh]);
    doc["skins"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"joints": [2]}));
    doc["nodes"].as_array_mut().unwrap().extend([
        serde_json::json!({"mesh": 1, "skin": 0}),
        serde_json::json!({"mesh": 2, "skin": 1}),
    ]);
    doc["scenes"][0]["nodes"]
        .as_array_mut()
        .unwrap()
        .extend([3.into(), 4.into()]);
    // Skin 1 has only joint 0 (node 2), but the copied attributes also name
    // joint 1: give the third mesh weights (1, 0, 0, 0) of its own.
    let vertices = 10;
    let weights = [1.0f32, 0.0, 0.0, 0.0].repeat(vertices);
    let bytes: Vec<u8> = weights.iter().flat_map(|w| w.to_le_bytes()).collect();
    doc["buffers"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({
            "uri": format!("data:application/octet-stream;base64,{}", common::encode_base64(&bytes)),
            "byteLength": bytes.len()
        }));
    let buffer = doc["buffers"].as_array().unwrap().len() - 1;
    doc["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"buffer": buffer, "byteLength": bytes.len()}));
    let view = doc["bufferViews"].as_array().unwrap().len() - 1;
    doc["accessors"].as_array_mut().unwrap().push(serde_json::json!({"bufferView": view, "componentType": 5126, "count": vertices, "type": "VEC4"}));
    let accessor = doc["accessors"].as_array().unwrap().len() - 1;
    doc["meshes"][2]["primitives"][0]["attributes"]["WEIGHTS_0"] = accessor.into();

    let lab = Lab::from_gltf(&doc.to_string()).unwrap();
    println!("three skinned meshes: {} vertices", lab.vertex_count());
    assert_eq!(
        lab.vertex_count(),
        30,
        "every skinned mesh, every primitive"
    );
    // Node 2 is the first skin's joint 1, a bone named after it. The
    // second skin binds it with the identity (it has no inverse bind
    // matrices), not where the first skin does: its vertices follow a twin
    // of that bone, a child that moves with it, bound as the second skin
    // says.
    let bones = lab.scene().skeleton.bones();
    let bone_of_node_2 = bones.iter().position(|bone| bone.name == "node 2").unwrap();
    let twin = bones
        .iter()
        .position(|bone| bone.name == "node 2 (bind 2)")
        .unwrap();
    assert_eq!(bones[twin].parent, Some(bone_of_node_2 as u16));
    assert_eq!(
        lab.scene().skeleton.inverse_bind(twin),
        Some(Mat4::IDENTITY)
    );
    let bone_of_node_2 = twin as u16;
    for v in 20..30 {
        assert_eq!(
            lab.influences(v).unwrap(),
            vec![(bone_of_node_2, 1.0)],
            "vertex {v}"
        );
    }
    let _ = lab.skinned_positions(SkinningMethod::Lbs);

    doc["extensionsRequired"] =
        serde_json::json!(["KHR_mesh_quantization", "KHR_draco_mesh_compression"]);
    assert_eq!(
        Lab::from_gltf(&doc.to_string()).unwrap_err().to_string(),
        "glTF: the required extension KHR_draco_mesh_compression is not supported"
    );
}

#[test]
fn each_model_keeps_its_base_colour_texture_and_uvs_from_every_kind_of_file() {
    // The Fox: a PNG texture read with TEXCOORD_0, one UV per vertex, equal
    // to the file's accessor; from .gltf, .glb, and .gltf with the image as
    // a file of its own.
    let text = common::model_text("Fox");
    let doc: Value = serde_json::from_str(&text).unwrap();
    let fox = Lab::from_gltf(&text).unwrap();
    let colour = fox.scene().base_colour.clone().unwrap();
    assert_eq!(colour.factor, [1.0; 4]);
    let image = colour.image.clone().unwrap();
    assert_eq!(image.mime_type, "image/png");
    assert_eq!(&image.bytes[..8], b"\x89PNG\r\n\x1a\n");
    let uv_accessor = doc["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"]
        .as_u64()
        .unwrap() as usize;
    let expected = accessor_values(&doc, uv_accessor, 2);
    let read: Vec<f32> = colour.uvs.iter().flat_map(|uv| uv.to_array()).collect();
    assert_eq!(read.len(), 2 * fox.vertex_count());
    assert_eq!(read, expected);
    println!(
        "Fox: {} × 2 UVs, a {}-byte PNG",
        colour.uvs.len(),
        image.bytes.len()
    );
    let glb = skinlab::formats::gltf::glb::glb_from_embedded_gltf(&text).unwrap();
    assert_eq!(
        Lab::from_glb(&glb).unwrap().scene().base_colour,
        Some(colour.clone())
    );
    let mut separate: Value = doc.clone();
    separate["images"][0] = serde_json::json!({ "uri": "Fox texture.png" });
    let files = std::collections::HashMap::from([("Fox texture.png".to_owned(), image.bytes)]);
    let from_files = Lab::from_gltf_files(&separate.to_string(), &files).unwrap();
    assert_eq!(from_files.scene().base_colour, Some(colour));
    // Without the image file the Fox still loads, in its factor's colour.
    let bare =
        Lab::from_gltf_files(&separate.to_string(), &std::collections::HashMap::new()).unwrap();
    let bare = bare.scene().base_colour.clone().unwrap();
    assert!(bare.image.is_none() && bare.uvs.is_empty());
    // RiggedSimple: a green factor, no texture; SimpleSkin: no material.
    let simple = Lab::from_gltf(&common::model_text("RiggedSimple")).unwrap();
    let green = simple.scene().base_colour.clone().unwrap();
    assert!((green.factor[1] - 0.64).abs() < 1e-6 && green.image.is_none());
    let skin = Lab::from_gltf(&common::model_text("SimpleSkin")).unwrap();
    assert_eq!(skin.scene().base_colour, None);
}

/// Appends `bytes` to `doc` as a buffer, a view and an accessor of `kind`
/// (`"VEC2"`, …) holding `count` floats; the accessor's index.
fn add_float_accessor(doc: &mut Value, values: &[f32], kind: &str, count: usize) -> usize {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let push = |doc: &mut Value, key: &str, item: Value| {
        let list = doc[key].as_array_mut().unwrap();
        list.push(item);
        list.len() - 1
    };
    let buffer = push(
        doc,
        "buffers",
        serde_json::json!({
            "uri": format!("data:application/octet-stream;base64,{}", common::encode_base64(&bytes)),
            "byteLength": bytes.len()
        }),
    );
    let view = push(
        doc,
        "bufferViews",
        serde_json::json!({"buffer": buffer, "byteLength": bytes.len()}),
    );
    push(
        doc,
        "accessors",
        serde_json::json!({"bufferView": view, "componentType": 5126, "count": count, "type": kind}),
    )
}

#[test]
fn every_primitive_keeps_its_own_material_alpha_sides_and_texture_transform() {
    // SimpleSkin's one primitive three times over (the last two drawing
    // from the same attributes): a textured material
    // whose UVs are scaled and offset (KHR_texture_transform), a blended,
    // double-sided, unlit one, and none (glTF's default material).
    let mut doc: Value = serde_json::from_str(&common::model_text("SimpleSkin")).unwrap();
    let uvs: Vec<f32> = (0..10).flat_map(|v| [0.1 * v as f32, 0.5]).collect();
    let uv_accessor = add_float_accessor(&mut doc, &uvs, "VEC2", 10);
    let primitive = doc["meshes"][0]["primitives"][0].clone();
    let mut textured = primitive.clone();
    textured["attributes"]["TEXCOORD_0"] = uv_accessor.into();
    textured["material"] = 0.into();
    let mut blended = primitive.clone();
    blended["material"] = 1.into();
    doc["meshes"][0]["primitives"] = serde_json::json!([textured, blended, primitive]);
    let png = common::png_header();
    doc["images"] = serde_json::json!([{"uri": format!("data:image/png;base64,{}", common::encode_base64(&png))}]);
    doc["textures"] = serde_json::json!([{"source": 0}]);
    doc["materials"] = serde_json::json!([
        {"name": "painted", "alphaMode": "MASK", "alphaCutoff": 0.3,
         "pbrMetallicRoughness": {"baseColorFactor": [1, 0.5, 0.25, 1],
            "baseColorTexture": {"index": 0, "extensions": {"KHR_texture_transform": {"offset": [0.5, 0], "scale": [2, 2]}}}}},
        {"name": "glass", "alphaMode": "BLEND", "doubleSided": true,
         "extensions": {"KHR_materials_unlit": {}},
         "pbrMetallicRoughness": {"baseColorFactor": [0, 0, 1, 0.5]}}
    ]);
    let lab = Lab::from_gltf(&doc.to_string()).unwrap();
    let scene = lab.scene();
    // The textured primitive's vertices, and the ones the blended and the
    // plain primitive share (the same attributes, read once).
    assert_eq!(lab.vertex_count(), 20);
    let names: Vec<&str> = scene.materials.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["painted", "glass", ""]);
    let [painted, glass, default] = &scene.materials[..] else {
        panic!("three materials");
    };
    assert_eq!(
        painted.alpha_mode,
        skinlab::scene::AlphaMode::Mask { cutoff: 0.3 }
    );
    assert_eq!(
        (painted.texture, painted.double_sided, painted.unlit),
        (Some(0), false, false)
    );
    assert_eq!(painted.base_colour, [1.0, 0.5, 0.25, 1.0]);
    assert_eq!(glass.alpha_mode, skinlab::scene::AlphaMode::Blend);
    assert_eq!(
        (glass.texture, glass.double_sided, glass.unlit),
        (None, true, true)
    );
    assert_eq!(
        default.base_colour, [1.0; 4],
        "glTF's default material is white"
    );
    assert_eq!(default.alpha_mode, skinlab::scene::AlphaMode::Opaque);
    assert_eq!(scene.images.len(), 1);
    assert_eq!(scene.images[0].size(), Some((2, 3)));
    // One run of 24 indices a primitive, in order, each in its material.
    let runs: Vec<(usize, usize, usize)> = scene
        .surfaces
        .iter()
        .map(|s| (s.first_index, s.index_count, s.material))
        .collect();
    assert_eq!(runs, [(0, 24, 0), (24, 24, 1), (48, 24, 2)]);
    // The textured primitive's UVs scaled by 2, then offset by (0.5, 0).
    let read = &scene.base_colour.as_ref().unwrap().uvs;
    for (v, uv) in read.iter().take(10).enumerate() {
        let expected = glam::Vec2::new(0.2 * v as f32 + 0.5, 1.0);
        assert!(
            (*uv - expected).length() < 1e-6,
            "vertex {v}: {uv} vs {expected}"
        );
    }
    assert!(
        read[10..].iter().all(|uv| *uv == glam::Vec2::ZERO),
        "no texture, no UVs"
    );
    // A file without materials is drawn in the page's own colour.
    let plain = Lab::from_gltf(&common::model_text("SimpleSkin")).unwrap();
    assert!(plain.scene().materials.is_empty() && plain.scene().surfaces.is_empty());
}

#[test]
fn a_texture_transform_rotation_turns_the_uvs_as_three_js_does() {
    // rotation π/2 turns u = (1, 0) to (0, −1): counter-clockwise in glTF's
    // V-down texture space, as three.js reads it.
    let mut doc: Value = serde_json::from_str(&common::model_text("SimpleSkin")).unwrap();
    let uvs: Vec<f32> = (0..10).flat_map(|_| [1.0, 0.0]).collect();
    let uv_accessor = add_float_accessor(&mut doc, &uvs, "VEC2", 10);
    doc["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = uv_accessor.into();
    doc["meshes"][0]["primitives"][0]["material"] = 0.into();
    doc["images"] = serde_json::json!([{"uri": format!("data:image/png;base64,{}", common::encode_base64(&common::png_header()))}]);
    doc["textures"] = serde_json::json!([{"source": 0}]);
    doc["materials"] = serde_json::json!([{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0,
        "extensions": {"KHR_texture_transform": {"rotation": std::f32::consts::FRAC_PI_2}}}}}]);
    let lab = Lab::from_gltf(&doc.to_string()).unwrap();
    let uv = lab.scene().base_colour.as_ref().unwrap().uvs[0];
    assert!((uv - glam::Vec2::new(0.0, -1.0)).length() < 1e-6, "{uv}");
}

#[test]
fn morph_targets_of_several_meshes_join_by_name_and_every_meshs_clip_channel_plays() {
    // SimpleSkin's mesh (targets smile and blink) and a static copy of it
    // (targets blink and wink, in that order): one target per name, the
    // copy's blink moving with the mesh's, and a clip whose two channels,
    // one per node on keys of their own, both play.
    let mut doc: Value = serde_json::from_str(&common::model_text("SimpleSkin")).unwrap();
    let shift = |doc: &mut Value, d: [f32; 3]| add_float_accessor(doc, &d.repeat(10), "VEC3", 10);
    let (smile, blink, blink_copy, wink) = (
        shift(&mut doc, [1.0, 0.0, 0.0]),
        shift(&mut doc, [0.0, 1.0, 0.0]),
        shift(&mut doc, [0.0, 0.0, 1.0]),
        shift(&mut doc, [0.0, 0.0, -2.0]),
    );
    let position = doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"].clone();
    let indices = doc["meshes"][0]["primitives"][0]["indices"].clone();
    doc["meshes"][0]["primitives"][0]["targets"] =
        serde_json::json!([{"POSITION": smile}, {"POSITION": blink}]);
    doc["meshes"][0]["weights"] = serde_json::json!([0.5, 0.0]);
    doc["meshes"][0]["extras"] = serde_json::json!({"targetNames": ["smile", "blink"]});
    doc["meshes"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({
            "primitives": [{"attributes": {"POSITION": position}, "indices": indices,
                            "targets": [{"POSITION": blink_copy}, {"POSITION": wink}]}],
            "weights": [0.9, 0.25],
            "extras": {"targetNames": ["blink", "wink"]}
        }));
    doc["nodes"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"mesh": 1, "translation": [3, 0, 0]}));
    let copy_node = doc["nodes"].as_array().unwrap().len() - 1;
    doc["scenes"][0]["nodes"]
        .as_array_mut()
        .unwrap()
        .push(copy_node.into());
    let mesh_node = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .position(|n| n["mesh"] == 0)
        .unwrap();
    // The mesh's smile rises over 1 s, the copy's wink over 2 s.
    let t1 = add_float_accessor(&mut doc, &[0.0, 1.0], "SCALAR", 2);
    let w1 = add_float_accessor(&mut doc, &[0.0, 0.0, 1.0, 0.0], "SCALAR", 4);
    let t2 = add_float_accessor(&mut doc, &[0.0, 2.0], "SCALAR", 2);
    let w2 = add_float_accessor(&mut doc, &[0.0, 0.0, 0.0, 1.0], "SCALAR", 4);
    doc["animations"] = serde_json::json!([{"name": "faces",
        "samplers": [{"input": t1, "output": w1}, {"input": t2, "output": w2}],
        "channels": [{"sampler": 0, "target": {"node": mesh_node, "path": "weights"}},
                     {"sampler": 1, "target": {"node": copy_node, "path": "weights"}}]}]);

    let mut lab = Lab::from_gltf(&doc.to_string()).unwrap();
    assert_eq!(lab.morph_names(), ["smile", "blink", "wink"]);
    assert_eq!(
        lab.morph_weights(),
        [0.5, 0.0, 0.25],
        "each as the first mesh with it says"
    );
    let offset =
        |lab: &Lab, target: usize, vertex: usize| lab.scene().morphs[target].positions[vertex];
    // blink moves the mesh up and the copy forward; wink only the copy.
    assert_eq!(offset(&lab, 1, 0), Vec3::Y);
    assert_eq!(offset(&lab, 1, 10), Vec3::Z);
    assert_eq!(offset(&lab, 2, 0), Vec3::ZERO);
    assert_eq!(offset(&lab, 2, 10), Vec3::new(0.0, 0.0, -2.0));
    let clip = lab
        .animation_names()
        .iter()
        .position(|n| n == "faces")
        .unwrap();
    for (time, smile, wink) in [
        (0.0, 0.0, 0.0),
        (0.5, 0.5, 0.25),
        (1.0, 1.0, 0.5),
        (2.0, 1.0, 1.0),
    ] {
        lab.set_animation_time(clip, time).unwrap();
        let w = lab.morph_weights().to_vec();
        assert!(
            (w[0] - smile).abs() < 1e-5 && (w[2] - wink).abs() < 1e-5,
            "at {time} s: {w:?}"
        );
    }
}

/// SimpleSkin with its channels written as `KHR_animation_pointer` channels
/// (`/nodes/N/path`), as Unity's and Needle's exporters write them, plus a
/// material channel and a clip of a material alone.
fn simple_skin_by_pointer() -> String {
    let mut doc: Value = serde_json::from_str(&common::model_text("SimpleSkin")).unwrap();
    for channel in doc["animations"][0]["channels"].as_array_mut().unwrap() {
        let node = channel["target"]["node"].as_u64().unwrap();
        let path = channel["target"]["path"].as_str().unwrap().to_owned();
        channel["target"] = serde_json::json!({
            "path": "pointer",
            "extensions": {"KHR_animation_pointer": {"pointer": format!("/nodes/{node}/{path}")}}
        });
    }
    let pointer = |to: &str| {
        serde_json::json!({"sampler": 0, "target": {"path": "pointer",
            "extensions": {"KHR_animation_pointer": {"pointer": to}}}})
    };
    doc["animations"][0]["channels"]
        .as_array_mut()
        .unwrap()
        .push(pointer("/materials/0/pbrMetallicRoughness/baseColorFactor"));
    let mut glow = doc["animations"][0].clone();
    glow["name"] = "glow".into();
    glow["channels"] = serde_json::json!([pointer("/materials/0/emissiveFactor")]);
    doc["animations"].as_array_mut().unwrap().push(glow);
    doc["extensionsUsed"] = serde_json::json!(["KHR_animation_pointer"]);
    doc.to_string()
}

#[test]
fn a_clip_animated_by_pointer_plays_as_its_node_channels_and_the_rest_is_named() {
    let plain = Lab::from_gltf(&common::model_text("SimpleSkin")).unwrap();
    let mut by_pointer = Lab::from_gltf(&simple_skin_by_pointer()).unwrap();
    assert_eq!(by_pointer.animation_names(), plain.animation_names());
    let mut plain = plain;
    for time in [0.0, 1.3, 2.75, 5.5] {
        plain.set_animation_time(0, time).unwrap();
        by_pointer.set_animation_time(0, time).unwrap();
        assert_eq!(
            plain.skinned_positions(SkinningMethod::Lbs).to_vec(),
            by_pointer.skinned_positions(SkinningMethod::Lbs).to_vec(),
            "at {time} s"
        );
    }
    let said = by_pointer.scene().not_drawn.join("\n");
    assert!(
        said.contains("/materials/0/pbrMetallicRoughness/baseColorFactor"),
        "{said}"
    );
    assert!(
        said.contains("'glow': no channel drives a joint or a morph target"),
        "{said}"
    );
}

/// A texture whose file is missing, empty or not an image: the model is
/// drawn without it, the texture named, and the scene goes through the
/// page's handover and export as any other.
#[test]
fn a_missing_empty_or_broken_texture_leaves_the_model_drawn_without_it() {
    let mut doc: Value = serde_json::from_str(&common::model_text("Fox")).unwrap();
    doc["images"][0] = serde_json::json!({"uri": "fox.png"});
    let text = doc.to_string();
    let cases: [(&str, Option<Vec<u8>>); 3] = [
        ("missing", None),
        ("empty", Some(Vec::new())),
        ("broken", Some(b"<html>not found</html>".to_vec())),
    ];
    for (case, bytes) in cases {
        let files: std::collections::HashMap<String, Vec<u8>> = bytes
            .into_iter()
            .map(|b| ("fox.png".to_owned(), b))
            .collect();
        let lab = Lab::from_gltf_files(&text, &files).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert!(lab.scene().images.is_empty(), "{case}: no texture");
        assert!(
            !lab.scene().materials.is_empty(),
            "{case}: its material kept"
        );
        assert!(
            lab.scene()
                .not_drawn
                .iter()
                .any(|n| n.contains("'fox.png'")),
            "{case}: the texture named: {:?}",
            lab.scene().not_drawn
        );
        let handed = skinlab::formats::handover::handover_bytes(lab.scene());
        skinlab::formats::handover::scene_from_handover(&handed)
            .unwrap_or_else(|e| panic!("{case}: the handover: {e}"));
        let again = Lab::from_glb(&lab.to_glb().unwrap()).unwrap();
        assert_eq!(
            again.vertex_count(),
            lab.vertex_count(),
            "{case}: the export reads back"
        );
    }
}
