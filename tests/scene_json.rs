//! Reading and writing scene JSON: round trips, defaults, and one test per
//! kind of bad input, each refused with its own error.
#![allow(clippy::unwrap_used)]

mod common;

use serde_json::{json, Value};
use skinlab::examples::{example, listed_names};
use skinlab::formats::scene_json::BulkList;
use skinlab::{Lab, Scene, SceneError, SkeletonError};

/// A small valid scene: two bones up +Y and a quad bound across them.
fn valid() -> Value {
    json!({
        "bones": [
            {"name": "upper", "parent": null, "origin": [0, 0, 0], "orientation": [0, 0, 0, 1], "length": 2.0},
            {"name": "lower", "parent": 0, "origin": [0, 0, 0], "orientation": [0, 0, 0, 1], "length": 2.0}
        ],
        "mesh": {"positions": [-0.5, 0, 0,  0.5, 0, 0,  0.5, 4, 0,  -0.5, 4, 0], "indices": [0, 1, 2, 0, 2, 3]},
        "influences": [[[0, 1.0]], [[0, 1.0]], [[1, 1.0]], [[0, 0.5], [1, 0.5]]],
        "pose": [{"rotation": [0, 0, 0, 1]}]
    })
}

fn load(doc: &Value) -> Result<Scene, SceneError> {
    Scene::from_json(&doc.to_string())
}

fn refused(edit: impl FnOnce(&mut Value)) -> SceneError {
    let mut doc = valid();
    edit(&mut doc);
    load(&doc).unwrap_err()
}

#[test]
fn the_valid_scene_loads_with_defaults() {
    let scene = load(&valid()).unwrap();
    assert_eq!(scene.skeleton.len(), 2);
    assert_eq!(
        scene.pose.len(),
        2,
        "a short pose is filled with the identity"
    );
    let mut no_pose = valid();
    no_pose.as_object_mut().unwrap().remove("pose");
    assert_eq!(load(&no_pose).unwrap().pose, scene.pose);
}

#[test]
fn every_example_survives_a_round_trip() {
    for name in listed_names() {
        let scene = example(name).unwrap();
        let again = Scene::from_json(&scene.to_json()).unwrap();
        assert_eq!(again.to_doc(), scene.to_doc(), "{name}");
        assert_eq!(
            scene.to_json(),
            serde_json::to_string_pretty(&scene.to_doc()).unwrap(),
            "{name}: indented as serde_json indents"
        );
        let compact = scene.to_json_compact();
        assert!(!compact.contains('\n') && compact.len() < scene.to_json().len());
        let (head, between, tail) = scene.to_json_around_bulk();
        assert_eq!(
            format!(
                "{head}{}{between}{}{tail}",
                scene.mesh_json(),
                scene.influences_json()
            ),
            compact,
            "{name}: the pieces around the mesh and the influences"
        );
        assert_eq!(between, ",\"influences\":", "{name}: split at both values");
        // The bulk in chunks of an odd size, bracketed, is the same text.
        let chunked = |list: BulkList, total: usize| {
            let chunks: Vec<String> = (0..total)
                .step_by(7)
                .map(|first| scene.bulk_json_chunk(list, first, 7))
                .collect();
            format!("[{}]", chunks.join(","))
        };
        let vertices = scene.mesh.vertex_count();
        assert_eq!(
            format!(
                "{{\"positions\":{},\"indices\":{}}}",
                chunked(BulkList::Positions, vertices),
                chunked(BulkList::Indices, scene.mesh.indices.len())
            ),
            scene.mesh_json(),
            "{name}: the mesh in chunks"
        );
        assert_eq!(
            chunked(BulkList::Influences, vertices),
            scene.influences_json(),
            "{name}: the influences in chunks"
        );
        let again = Scene::from_json(&compact).unwrap();
        assert_eq!(again.to_doc(), scene.to_doc(), "{name}, compact");
    }
}

#[test]
fn a_posed_lab_round_trips_its_pose_and_weights() {
    let mut lab = Lab::example("two-bone-smooth").unwrap();
    lab.set_bone_pose(1, [0.0, 0.0, 0.3, 0.95], [0.1, 0.0, 0.0], [1.0, 1.2, 1.0])
        .unwrap();
    lab.set_influences(3, &[(0, 0.2), (1, 0.8)]).unwrap();
    let again = Lab::from_json(&lab.scene_json()).unwrap();
    assert_eq!(again.scene_json(), lab.scene_json());
    assert_eq!(again.bone_pose(1).unwrap(), lab.bone_pose(1).unwrap());
}

#[test]
fn more_than_four_influences_are_pruned_and_counted() {
    let mut doc = valid();
    doc["bones"].as_array_mut().unwrap().extend([
        json!({"parent": 1, "origin": [0, 0, 0], "orientation": [0, 0, 0, 1], "length": 1}),
        json!({"parent": 2, "origin": [0, 0, 0], "orientation": [0, 0, 0, 1], "length": 1}),
        json!({"parent": 3, "origin": [0, 0, 0], "orientation": [0, 0, 0, 1], "length": 1}),
    ]);
    doc["influences"][0] = json!([[0, 0.1], [1, 0.3], [2, 0.2], [3, 0.25], [4, 0.15]]);
    let scene = load(&doc).unwrap();
    assert_eq!(scene.pruned_vertices, 1);
    let kept: Vec<u16> = scene.influences[0].pairs().map(|(b, _)| b).collect();
    assert_eq!(kept, vec![1, 3, 2, 4]);
    assert!((scene.influences[0].total_weight() - 1.0).abs() < 1e-6);
}

#[test]
fn unknown_parent() {
    let error = refused(|doc| doc["bones"][1]["parent"] = json!(5));
    assert_eq!(
        error,
        SceneError::Skeleton(SkeletonError::UnknownParent { bone: 1, parent: 5 })
    );
    assert_eq!(error.to_string(), "bones[1].parent: bone 5 does not exist");
}

#[test]
fn parent_listed_after_its_child() {
    let error = refused(|doc| {
        doc["bones"][0]["parent"] = json!(1);
        doc["bones"][1]["parent"] = Value::Null;
    });
    assert_eq!(
        error,
        SceneError::Skeleton(SkeletonError::ParentAfterChild { bone: 0, parent: 1 })
    );
}

#[test]
fn a_cycle() {
    let error = refused(|doc| doc["bones"][1]["parent"] = json!(1));
    assert_eq!(
        error,
        SceneError::Skeleton(SkeletonError::Cycle { bone: 1 })
    );
    let mut three = valid();
    three["bones"]
        .as_array_mut()
        .unwrap()
        .push(json!({"parent": 1, "origin": [0,0,0], "orientation": [0,0,0,1], "length": 1}));
    three["bones"][1]["parent"] = json!(2);
    assert_eq!(
        load(&three).unwrap_err(),
        SceneError::Skeleton(SkeletonError::Cycle { bone: 1 })
    );
}

#[test]
fn nan_anywhere() {
    // JSON cannot spell NaN, so documents built in code carry it.
    let doc: skinlab::scene::doc::SceneDoc = serde_json::from_value(valid()).unwrap();
    type Edit = Box<dyn Fn(&mut skinlab::scene::doc::SceneDoc)>;
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|d| d.bones[1].origin[2] = f32::NAN),
            "bones[1].origin[2]",
        ),
        (
            Box::new(|d| d.bones[0].orientation[0] = f32::NAN),
            "bones[0].orientation[0]",
        ),
        (
            Box::new(|d| d.bones[1].length = f32::NAN),
            "bones[1].length",
        ),
        (
            Box::new(|d| d.mesh.positions[7] = f32::NAN),
            "mesh.positions[7]",
        ),
        (
            Box::new(|d| d.influences[3][1].1 = f32::NAN),
            "influences[3][1] weight",
        ),
        (
            Box::new(|d| d.pose[0].rotation = Some([0.0, f32::NAN, 0.0, 1.0])),
            "pose[0].rotation[1]",
        ),
        (
            Box::new(|d| d.pose[0].scale = Some([1.0, 1.0, f32::NAN])),
            "pose[0].scale[2]",
        ),
    ];
    for (edit, field) in cases {
        let mut bad = doc.clone();
        edit(&mut bad);
        match Scene::from_doc(&bad).unwrap_err() {
            SceneError::NonFinite { field: found, .. }
            | SceneError::Skeleton(SkeletonError::NonFinite { field: found, .. }) => {
                assert_eq!(found, field)
            }
            other => panic!("{field}: expected NonFinite, got {other}"),
        }
    }
}

#[test]
fn infinity_from_a_number_too_large_for_f32() {
    let error = refused(|doc| doc["mesh"]["positions"][4] = json!(1e39));
    assert!(
        matches!(&error, SceneError::NonFinite { field, value } if field == "mesh.positions[4]" && value.is_infinite()),
        "{error}"
    );
    let error = refused(|doc| doc["pose"][0]["translation"] = json!([0, -1e39, 0]));
    assert_eq!(
        error.to_string(),
        "pose[0].translation[1]: -inf is not a finite number"
    );
}

#[test]
fn wrong_array_lengths() {
    let error = refused(|doc| {
        doc["mesh"]["positions"]
            .as_array_mut()
            .unwrap()
            .push(json!(1.0))
    });
    assert!(
        matches!(&error, SceneError::WrongLength { field, found: 13, .. } if field == "mesh.positions"),
        "{error}"
    );
    let error = refused(|doc| {
        doc["mesh"]["indices"]
            .as_array_mut()
            .unwrap()
            .pop()
            .map(|_| ())
            .unwrap()
    });
    assert!(
        matches!(&error, SceneError::WrongLength { field, found: 5, .. } if field == "mesh.indices"),
        "{error}"
    );
    let error = refused(|doc| doc["influences"].as_array_mut().unwrap().truncate(3));
    assert!(
        matches!(&error, SceneError::WrongLength { field, found: 3, .. } if field == "influences"),
        "{error}"
    );
    let error = refused(|doc| doc["pose"] = json!([{}, {}, {}]));
    assert!(
        matches!(&error, SceneError::WrongLength { field, found: 3, .. } if field == "pose"),
        "{error}"
    );
    let error = refused(|doc| doc["bones"][1]["origin"] = json!([0, 0]));
    assert!(
        matches!(&error, SceneError::Json { path, message } if path == "bones[1].origin" && message.contains("length 2")),
        "{error}"
    );
    let error = refused(|doc| doc["pose"][0]["rotation"] = json!([0, 0, 1]));
    assert!(
        matches!(&error, SceneError::Json { path, .. } if path == "pose[0].rotation"),
        "{error}"
    );
}

#[test]
fn index_out_of_range() {
    let error = refused(|doc| doc["influences"][2][0][0] = json!(2));
    assert_eq!(
        error,
        SceneError::BoneOutOfRange {
            field: "influences[2][0]".to_owned(),
            bone: 2,
            bone_count: 2
        }
    );
    let error = refused(|doc| doc["mesh"]["indices"][4] = json!(4));
    assert_eq!(
        error,
        SceneError::VertexOutOfRange {
            field: "mesh.indices[4]".to_owned(),
            vertex: 4,
            vertex_count: 4
        }
    );
    let error = refused(|doc| doc["influences"][2][0][0] = json!(-1));
    assert!(
        matches!(&error, SceneError::Json { path, .. } if path == "influences[2][0][0]"),
        "{error}"
    );
}

#[test]
fn negative_weight() {
    let error = refused(|doc| doc["influences"][3][1][1] = json!(-0.5));
    assert_eq!(
        error,
        SceneError::NegativeWeight {
            vertex: 3,
            slot: 1,
            weight: -0.5
        }
    );
    assert_eq!(
        error.to_string(),
        "influences[3][1]: weight -0.5 is negative"
    );
}

#[test]
fn a_bone_twice_in_one_vertex() {
    let error = refused(|doc| doc["influences"][3][1][0] = json!(0));
    assert_eq!(
        error,
        SceneError::DuplicateBone {
            vertex: 3,
            slot: 1,
            bone: 0
        }
    );
}

#[test]
fn empty_bones() {
    let error = refused(|doc| {
        doc["bones"] = json!([]);
        doc["influences"] = json!([[], [], [], []]);
        doc["pose"] = json!([]);
    });
    assert_eq!(error, SceneError::Skeleton(SkeletonError::EmptyBones));
}

#[test]
fn two_roots_negative_length_and_zero_rotation() {
    assert_eq!(
        refused(|doc| doc["bones"][1]["parent"] = Value::Null),
        SceneError::Skeleton(SkeletonError::MultipleRoots {
            first: 0,
            second: 1
        })
    );
    assert_eq!(
        refused(|doc| doc["bones"][1]["length"] = json!(-2)),
        SceneError::Skeleton(SkeletonError::NegativeLength {
            bone: 1,
            length: -2.0
        })
    );
    assert_eq!(
        refused(|doc| doc["pose"][0]["rotation"] = json!([0, 0, 0, 0])),
        SceneError::ZeroQuaternion {
            field: "pose[0].rotation".to_owned()
        }
    );
}

#[test]
fn not_json_or_the_wrong_shape() {
    let error = Scene::from_json("{\"bones\": [").unwrap_err();
    assert!(matches!(error, SceneError::Json { .. }), "{error}");
    let error = refused(|doc| doc["bogus"] = json!(1));
    assert!(error.to_string().contains("bogus"), "{error}");
}

#[test]
fn colours_are_one_rgb_triple_from_0_to_1_per_vertex() {
    let mut painted = valid();
    painted["colours"] = json!([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0.5, 0.5, 0.5]]);
    let scene = load(&painted).unwrap();
    assert_eq!(scene.vertex_colours[2], glam::Vec3::Z);
    assert_eq!(
        Scene::from_json(&scene.to_json()).unwrap().vertex_colours,
        scene.vertex_colours
    );
    assert!(
        load(&valid()).unwrap().vertex_colours.is_empty(),
        "none unless given"
    );
    let short = refused(|doc| doc["colours"] = json!([[1, 0, 0]]));
    assert!(
        matches!(&short, SceneError::WrongLength { field, found: 1, .. } if field == "colours"),
        "{short}"
    );
    let bright =
        refused(|doc| doc["colours"] = json!([[1, 0, 0], [0, 1, 0], [0, 0, 1.5], [0, 0, 0]]));
    assert!(
        matches!(&bright, SceneError::OutOfRange { field, value, .. } if field == "colours[2][2]" && *value == 1.5),
        "{bright}"
    );
}

/// A textured character saved as scene JSON comes back as it was drawn:
/// its materials, their runs of triangles, texture coordinates and images.
#[test]
fn a_saved_scene_keeps_its_look() {
    for name in ["Fox", "RiggedSimple", "RiggedFigure"] {
        let lab = skinlab::Lab::from_gltf(&common::model_text(name)).unwrap();
        let scene = lab.scene();
        assert!(!scene.materials.is_empty(), "{name} has materials");
        let again = skinlab::Lab::from_json(&lab.scene_json()).unwrap();
        let back = again.scene();
        assert_eq!(back.materials, scene.materials, "{name}: materials");
        assert_eq!(back.surfaces, scene.surfaces, "{name}: surfaces");
        assert_eq!(back.images, scene.images, "{name}: images");
        assert_eq!(back.base_colour, scene.base_colour, "{name}: base colour");
        // The compact text and the autosave's look give the same scene.
        assert_eq!(again.scene_json(), lab.scene_json());
    }
    let fox = skinlab::Lab::from_gltf(&common::model_text("Fox")).unwrap();
    assert!(!fox.scene().images.is_empty(), "the Fox's texture is kept");
}

/// A look that does not fit its scene is refused by name, and nothing of it
/// is taken.
#[test]
fn a_look_that_does_not_fit_is_refused_by_name() {
    let fox = skinlab::Lab::from_gltf(&common::model_text("Fox")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&fox.scene_json()).unwrap();
    let refused = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut bad = doc.clone();
        edit(&mut bad);
        skinlab::Lab::from_json(&bad.to_string())
            .unwrap_err()
            .to_string()
    };
    let error = refused(&|d| d["look"]["textures"][0]["mimeType"] = "text/html".into());
    assert!(
        error.contains("look") && error.contains("text/html"),
        "{error}"
    );
    let error = refused(&|d| d["look"]["surfaces"][0][2] = 99.into());
    assert!(
        error.contains("look") && error.contains("surfaces[0].material"),
        "{error}"
    );
    let error = refused(&|d| d["look"]["textures"][0]["data"] = "@@@".into());
    assert!(error.contains("not base64"), "{error}");
    let error = refused(&|d| d["look"]["baseColour"]["uvs"] = serde_json::json!([0.5]));
    assert!(error.contains("look"), "{error}");
}

/// The autosave's pieces of a textured character, with its look written
/// apart, make the same text as the whole.
#[test]
fn the_autosaves_pieces_and_the_look_make_the_whole() {
    let fox = Lab::from_gltf(&common::model_text("Fox")).unwrap();
    let scene = fox.scene();
    let (head, between, tail) = scene.to_json_around_bulk();
    let look = scene.look_json();
    assert!(!look.is_empty());
    let whole = format!(
        "{head}{}{between}{}{},\"look\":{look}}}",
        scene.mesh_json(),
        scene.influences_json(),
        tail.strip_suffix('}').unwrap()
    );
    assert_eq!(whole, scene.to_json_compact());
}
