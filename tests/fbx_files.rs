//! FBX files read natively: every file of `tests/fbx/` (Blender's exporter
//! on the sample models, some rewritten as ASCII) opens with its meshes,
//! skins, shapes and takes; a blend shape's `DeformPercent` is its weight
//! (three.js's `FBXLoader`, the Node test's oracle, leaves it out); a
//! skeleton without a mesh opens as bones with capsules and its clip.
//! Hostile files are in `hostile_files.rs`; positions against three.js in
//! `tests/node/fbx.test.mjs`.
#![allow(clippy::unwrap_used)]

use skinlab::formats::fbx::scene_from_fbx;

fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fbx");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fbx")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "fbx"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

#[test]
fn every_corpus_file_opens_with_bones_vertices_and_takes() {
    let files = corpus();
    assert!(files.len() >= 8, "{} FBX files", files.len());
    for (name, bytes) in files {
        let scene = scene_from_fbx(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(scene.skeleton.len() >= 2, "{name}: bones");
        assert!(!scene.mesh.positions_model.is_empty(), "{name}: vertices");
        assert!(!scene.animation.clips.is_empty(), "{name}: takes");
        for influences in &scene.influences {
            let used = influences.weights.iter().filter(|&&w| w > 0.0).count();
            assert!(used <= 4, "{name}: at most four influences per vertex");
        }
    }
}

#[test]
fn the_binary_and_ascii_encodings_of_a_file_give_one_scene() {
    let files = corpus();
    let get = |name: &str| &files.iter().find(|(n, _)| n == name).unwrap().1;
    for stem in ["shapes-takes", "riggedsimple-x100"] {
        let binary = scene_from_fbx(get(&format!("{stem}-blender.fbx"))).unwrap();
        let ascii = scene_from_fbx(get(&format!("{stem}-ascii.fbx"))).unwrap();
        assert_eq!(
            binary.mesh.positions_model, ascii.mesh.positions_model,
            "{stem}"
        );
        assert_eq!(binary.skeleton.len(), ascii.skeleton.len(), "{stem}");
        assert_eq!(
            binary.animation.clips.len(),
            ascii.animation.clips.len(),
            "{stem}"
        );
    }
}

/// An ASCII FBX file of one triangle (geometry 10 on model 20, with UVs),
/// with `objects` and `connections` added and `settings` as its
/// `GlobalSettings` properties.
fn triangle(settings: &str, objects: &str, connections: &str) -> String {
    format!(
        r#"; FBX 7.4.0 project file
GlobalSettings:  {{
	Properties70:  {{
{settings}
	}}
}}
Objects:  {{
	Geometry: 10, "Geometry::tri", "Mesh" {{
		Vertices: *9 {{
			a: 0,0,0,1,0,0,0,1,0
		}}
		PolygonVertexIndex: *3 {{
			a: 0,1,-3
		}}
		LayerElementUV: 0 {{
			MappingInformationType: "ByPolygonVertex"
			ReferenceInformationType: "Direct"
			UV: *6 {{
				a: 0,0,1,0,0,1
			}}
		}}
	}}
	Model: 20, "Model::tri", "Mesh" {{
	}}
{objects}
}}
Connections:  {{
	C: "OO",20,0
	C: "OO",10,20
{connections}
}}
"#
    )
}

#[test]
fn a_blend_shape_channel_rests_at_its_deform_percent() {
    let text = triangle(
        r#"		P: "UnitScaleFactor", "double", "Number", "",100"#,
        r#"	Deformer: 30, "Deformer::shapes", "BlendShape" {
	}
	Deformer: 31, "SubDeformer::smile", "BlendShapeChannel" {
		DeformPercent: 25
		FullWeights: *1 {
			a: 100
		}
	}
	Geometry: 40, "Geometry::smile", "Shape" {
		Indexes: *1 {
			a: 2
		}
		Vertices: *3 {
			a: 0,0,4
		}
	}"#,
        r#"	C: "OO",30,10
	C: "OO",31,30
	C: "OO",40,31"#,
    );
    let scene = scene_from_fbx(text.as_bytes()).unwrap();
    assert_eq!(scene.morphs.len(), 1);
    assert_eq!(scene.morphs[0].name, "smile");
    assert_eq!(scene.morph_weights, vec![0.25]);
    // A metre per unit: the offset of 4 units is 4 m, on the third point.
    let offsets = &scene.morphs[0].positions;
    assert!(
        offsets.iter().any(|d| (d.z - 4.0).abs() < 1e-6),
        "{offsets:?}"
    );
    assert_eq!(offsets.iter().filter(|d| d.length() > 0.0).count(), 1);
}

/// A mesh model moved after it was bound: its cluster's `Transform` (the
/// mesh in the bone's frame at bind) places it, as MotionBuilder and 3ds
/// Max draw it, and ufbx; a file of Maya's, and three.js's `FBXLoader`,
/// draw it where the mesh model now stands.
#[test]
fn a_skinned_mesh_is_drawn_where_its_clusters_bound_it() {
    let bound = |transform: &str, header: &str, link: &str| {
        let text = triangle(
            r#"		P: "UnitScaleFactor", "double", "Number", "",100"#,
            &format!(
                r#"	Model: 50, "Model::bone", "LimbNode" {{
	}}
	Model: 51, "Model::tip", "LimbNode" {{
		Properties70:  {{
			P: "Lcl Translation", "Lcl Translation", "", "A",0,1,0
		}}
	}}
	Deformer: 60, "Deformer::skin", "Skin" {{
	}}
	Deformer: 61, "SubDeformer::bone", "Cluster" {{
		Indexes: *3 {{
			a: 0,1,2
		}}
		Weights: *3 {{
			a: 1,1,1
		}}
		{transform}
		{link}
	}}"#
            ),
            r#"	C: "OO",50,0
	C: "OO",51,50
	C: "OO",60,10
	C: "OO",61,60
	C: "OO",50,61"#,
        )
        // The mesh model now stands 5 units along X.
        .replace(
            "\tModel: 20, \"Model::tri\", \"Mesh\" {\n\t}",
            "\tModel: 20, \"Model::tri\", \"Mesh\" {\n\t\tProperties70:  {\n\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",5,0,0\n\t\t}\n\t}",
        );
        let text = format!("{header}{text}");
        let scene = scene_from_fbx(text.as_bytes()).unwrap();
        let lab = skinlab::lab::Lab::new(scene);
        let xs: Vec<[f32; 3]> = lab
            .skinned_positions(skinlab::skin::SkinningMethod::Lbs)
            .iter()
            .map(|p| p.to_array())
            .collect();
        xs
    };
    // Bound 2 units up Z, in the bone's frame: drawn there.
    let transform = "Transform: *16 {\n\t\t\ta: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,2,1\n\t\t}";
    let link = "TransformLink: *16 {\n\t\t\ta: 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1\n\t\t}";
    let at_bind = bound(transform, "", link);
    assert!(at_bind.contains(&[1.0, 0.0, 2.0]), "{at_bind:?}");
    assert!(
        at_bind.iter().all(|p| p[2] == 2.0 && p[0] < 2.0),
        "{at_bind:?}"
    );
    // Without a Transform, the mesh is bound where it stands now.
    let standing = bound("", "", link);
    assert!(standing.contains(&[6.0, 0.0, 0.0]), "{standing:?}");
    // Maya draws a skinned mesh where its model stands.
    let maya = "FBXHeaderExtension:  {\n\tSceneInfo: \"SceneInfo::GlobalInfo\", \"UserData\" {\n\t\tProperties70:  {\n\t\t\tP: \"Original|ApplicationName\", \"KString\", \"\", \"\", \"Maya\"\n\t\t}\n\t}\n}\n";
    assert_eq!(bound(transform, maya, link), standing);
    // A cluster without a TransformLink binds its bone where it rests.
    assert_eq!(bound("", "", ""), standing);
}

/// A mesh of no points or polygons (an empty object, a circle of edges
/// alone) is left out, and the file opens with its other meshes.
#[test]
fn an_empty_mesh_is_left_out_and_the_rest_opens() {
    let text = triangle(
        "",
        r#"	Geometry: 11, "Geometry::empty", "Mesh" {
	}
	Model: 21, "Model::empty", "Mesh" {
	}
	Geometry: 12, "Geometry::edges", "Mesh" {
		Vertices: *6 {
			a: 0,0,0,1,1,1
		}
		Edges: *1 {
			a: 0
		}
	}
	Model: 22, "Model::edges", "Mesh" {
	}"#,
        r#"	C: "OO",21,0
	C: "OO",11,21
	C: "OO",22,0
	C: "OO",12,22"#,
    );
    let scene = scene_from_fbx(text.as_bytes()).unwrap();
    assert_eq!(scene.mesh.positions_model.len(), 3, "the triangle alone");
}

#[test]
fn a_skeleton_without_a_mesh_opens_with_capsules_and_its_clip() {
    let files = corpus();
    let (_, bytes) = files.iter().find(|(n, _)| n.contains("skeleton")).unwrap();
    let scene = scene_from_fbx(bytes).unwrap();
    // RiggedFigure's 19 joints, its armature and the capsule body's bones.
    assert!(scene.skeleton.len() >= 19, "{}", scene.skeleton.len());
    assert!(scene.mesh.positions_model.len() > 100);
    assert_eq!(scene.animation.clips.len(), 1);
    assert!(
        scene
            .skeleton
            .bones()
            .iter()
            .any(|b| b.name.contains("torso")),
        "bones keep their names"
    );
}

#[test]
fn a_texture_the_file_names_is_taken_from_the_files_chosen_with_it() {
    use skinlab::formats::fbx::{scene_from_fbx_files, Files};
    // The triangle in a material whose diffuse texture is the file
    // `maps\skin.png`, not embedded.
    let textured = triangle(
        "",
        r#"	Material: 30, "Material::skin", "" {
		Properties70:  {
			P: "DiffuseColor", "Color", "", "A",1,0.5,0.25
		}
	}
	Texture: 40, "Texture::skin", "" {
		FileName: "C:\work\maps\skin.png"
		RelativeFilename: "maps\skin.png"
	}"#,
        r#"	C: "OO",30,20
	C: "OP",40,30, "DiffuseColor""#,
    );
    // A 1 × 1 PNG.
    let png = skinlab::formats::gltf::decode_base64(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    )
    .unwrap();
    let alone = scene_from_fbx(textured.as_bytes()).unwrap();
    assert_eq!(alone.materials.len(), 1);
    assert!(alone.images.is_empty(), "no file given: no texture");
    let mut files = Files::new();
    files.insert("Skin.PNG".to_owned(), png.clone());
    let with = scene_from_fbx_files(textured.as_bytes(), &files).unwrap();
    assert_eq!(with.images.len(), 1);
    assert_eq!(with.images[0].bytes, png);
    assert_eq!(with.images[0].size(), Some((1, 1)));
    assert_eq!(with.materials[0].texture, Some(0));
    assert_eq!(with.materials[0].base_colour[1], 0.5);
    // Not an image: left out.
    files.insert("Skin.PNG".to_owned(), b"not a png".to_vec());
    assert!(scene_from_fbx_files(textured.as_bytes(), &files)
        .unwrap()
        .images
        .is_empty());
}

/// Maya's values for the cube's X translation (cm) in ufbx's
/// `maya_anim_interpolation` test: a cubic segment sampled every frame,
/// then linear, constant ("previous") and constant-next segments, checked
/// just before and after the steps.
const MAYA_INTERPOLATION: [(f64, f64); 25] = [
    (0.0, 0.0),
    (1.0 / 30.0, -0.855245),
    (2.0 / 30.0, -1.13344),
    (3.0 / 30.0, -1.17802),
    (4.0 / 30.0, -1.10882),
    (5.0 / 30.0, -0.991537),
    (6.0 / 30.0, -0.875223),
    (7.0 / 30.0, -0.808958),
    (8.0 / 30.0, -0.858419),
    (9.0 / 30.0, -1.14293),
    (10.0 / 30.0, -2.0),
    (20.0 / 30.0, -4.0),
    (25.0 / 30.0 - 0.001, -4.0),
    (25.0 / 30.0, -6.0),
    (25.0 / 30.0 + 0.001, -8.0),
    (1.0, -8.0),
    (35.0 / 30.0 - 0.001, -8.0),
    (35.0 / 30.0, -10.0),
    (40.0 / 30.0, -12.0),
    (40.0 / 30.0 + 0.001, -14.0),
    (45.0 / 30.0, -14.0),
    (50.0 / 30.0 - 0.001, -14.0),
    (50.0 / 30.0, -16.0),
    (50.0 / 30.0 + 0.001, -14.0),
    (55.0 / 30.0, -14.0),
];

#[test]
fn cubic_and_constant_keys_go_as_maya_evaluates_them() {
    let (mut lab, cube) = cube_in("maya_anim_interpolation_7700_ascii");
    let mut worst = 0.0_f64;
    for (time, maya_cm) in MAYA_INTERPOLATION {
        lab.set_animation_time(0, time as f32).unwrap();
        // The file is in centimetres; the scene in metres.
        let x_cm = lab.model_from_bone_posed()[cube].w_axis.x * 100.0;
        worst = worst.max((f64::from(x_cm) - maya_cm).abs());
        assert!(
            (f64::from(x_cm) - maya_cm).abs() < 1e-3,
            "at {time} s: {x_cm} cm, Maya {maya_cm}"
        );
    }
    println!("# Maya's 25 values: worst {worst:.2e} cm");
}

/// An ASCII FBX file of a triangle on model `tri` (`InheritType`
/// `inherit`, one unit along X) under a model `parent` whose scale grows
/// evenly from 1 to 2 over a second.
fn scaled_parent(inherit: u8) -> String {
    scaled_parent_with(inherit, 2.0, 0.0)
}

/// [`scaled_parent`] with the parent's Y and Z scale going from 1 to
/// `y_and_z` (its X from 1 to 2), and `tri` turned `turn` degrees about Z.
fn scaled_parent_with(inherit: u8, y_and_z: f64, turn: f64) -> String {
    let curve = |id: u32, to: f64| {
        format!(
            r#"	AnimationCurve: {id}, "AnimCurve::", "" {{
		KeyTime: *2 {{
			a: 0,46186158000
		}}
		KeyValueFloat: *2 {{
			a: 1,{to}
		}}
		KeyAttrFlags: *1 {{
			a: 4
		}}
		KeyAttrRefCount: *1 {{
			a: 2
		}}
	}}"#
        )
    };
    format!(
        r#"; FBX 7.4.0 project file
Objects:  {{
	Geometry: 10, "Geometry::tri", "Mesh" {{
		Vertices: *9 {{
			a: 0,0,0,1,0,0,0,1,0
		}}
		PolygonVertexIndex: *3 {{
			a: 0,1,-3
		}}
	}}
	Model: 50, "Model::parent", "Null" {{
	}}
	Model: 20, "Model::tri", "Mesh" {{
		Properties70:  {{
			P: "InheritType", "enum", "", "",{inherit}
			P: "Lcl Translation", "Lcl Translation", "", "A",1,0,0
			P: "Lcl Rotation", "Lcl Rotation", "", "A",0,0,{turn}
		}}
	}}
	AnimationStack: 60, "AnimStack::grow", "" {{
	}}
	AnimationLayer: 61, "AnimLayer::base", "" {{
	}}
	AnimationCurveNode: 62, "AnimCurveNode::S", "" {{
	}}
{}
{}
{}
}}
Connections:  {{
	C: "OO",50,0
	C: "OO",20,50
	C: "OO",10,20
	C: "OO",61,60
	C: "OO",62,61
	C: "OP",62,50, "Lcl Scaling"
	C: "OP",70,62, "d|X"
	C: "OP",71,62, "d|Y"
	C: "OP",72,62, "d|Z"
}}
"#,
        curve(70, 2.0),
        curve(71, y_and_z),
        curve(72, y_and_z)
    )
}

/// Maya's segment scale compensation (`InheritType` 2, `Rrs`): the child
/// moves with its parent's scale but keeps its own size, as ufbx evaluates
/// it (the parent's world without its scale, times the child's transform
/// with its translation scaled); `RSrs` (1) takes the parent's scale too.
#[test]
fn a_model_that_does_not_inherit_its_parents_scale_keeps_its_size_through_a_clip() {
    for (inherit, size_at) in [(2u8, [1.0, 1.0, 1.0]), (1, [1.0, 1.5, 2.0])] {
        let scene = scene_from_fbx(scaled_parent(inherit).as_bytes()).unwrap();
        let mut lab = skinlab::lab::Lab::new(scene);
        let tri = bone_named(&lab, "tri");
        // Measured against the start, in whatever unit the file's become.
        lab.set_animation_time(0, 0.0).unwrap();
        let start = lab.model_from_bone_posed()[tri];
        let unit = start.x_axis.truncate().length();
        for (time, size) in [0.0, 0.5, 1.0].into_iter().zip(size_at) {
            lab.set_animation_time(0, time).unwrap();
            let world = lab.model_from_bone_posed()[tri];
            // The triangle's model sits a parent's scale along X.
            let parent_scale = 1.0 + time;
            let along = world.w_axis.x / start.w_axis.x;
            assert!(
                (along - parent_scale).abs() < 1e-5,
                "InheritType {inherit} at {time} s: {along} along X"
            );
            for axis in [world.x_axis, world.y_axis, world.z_axis] {
                let length = axis.truncate().length() / unit;
                assert!(
                    (length - size).abs() < 1e-5,
                    "InheritType {inherit} at {time} s: size {length} for {size}"
                );
            }
        }
    }
}

/// A parent scaled along X alone, its child turned 90° about Z, as each
/// inheritance mode defines the child's world (`S_P` the parent's scale,
/// `R` the child's turn): `RSrs` (1) `S_P · R`, the world X stretched;
/// `Rrs` (2) `R`, no stretch; `RrSs` (0) `R · S_P`, the child's own X
/// stretched. The last two would need a shear under the parent; they hang
/// from a frame node that undoes its scale.
#[test]
fn a_parent_scaled_along_one_axis_reaches_its_child_as_its_inherit_type_says() {
    for inherit in [0u8, 1, 2] {
        let scene = scene_from_fbx(scaled_parent_with(inherit, 1.0, 90.0).as_bytes()).unwrap();
        let mut lab = skinlab::lab::Lab::new(scene);
        let tri = bone_named(&lab, "tri");
        lab.set_animation_time(0, 0.0).unwrap();
        let unit = lab.model_from_bone_posed()[tri].x_axis.truncate().length();
        let start_x = lab.model_from_bone_posed()[tri].w_axis.x;
        for time in [0.0, 0.5, 1.0] {
            lab.set_animation_time(0, time).unwrap();
            // The joint's own axes: the bone's frame without its turn.
            let turn = lab.scene().skeleton.bones()[tri].turn;
            let world = lab.model_from_bone_posed()[tri] * glam::Mat4::from_quat(turn.inverse());
            let stretch = 1.0 + time;
            // The child's own X points along the world's Y, its own Y
            // along the world's −X.
            let own_x = world.x_axis.truncate() / unit;
            let own_y = world.y_axis.truncate() / unit;
            let (x_length, y_length) = match inherit {
                1 => (1.0, stretch),
                2 => (1.0, 1.0),
                _ => (stretch, 1.0),
            };
            let what = format!("InheritType {inherit} at {time} s");
            assert!(
                (own_x.length() - x_length).abs() < 1e-5,
                "{what}: own X {own_x}"
            );
            assert!(
                (own_y.length() - y_length).abs() < 1e-5,
                "{what}: own Y {own_y}"
            );
            assert!(
                own_x.dot(own_y).abs() < 1e-5,
                "{what}: sheared, {own_x} · {own_y}"
            );
            // Every mode moves the child with its parent's scale.
            let along = world.w_axis.x / start_x;
            assert!((along - stretch).abs() < 1e-5, "{what}: {along} along X");
        }
    }
}

/// Maya's world Y (centimetres) and scale of `joint1`–`joint4` in ufbx's
/// `maya_anim_no_inherit_scale` (a chain whose last three joints keep
/// their parent's scale out, `InheritType` 2, while the take scales each
/// in turn), at frames 0, 6, 12, 18 and 24, as ufbx's test lists them.
const MAYA_NO_INHERIT_SCALE: [(f32, [(f32, f32); 4]); 5] = [
    (0.0, [(1.0, 0.0), (2.0, 4.0), (1.0, 12.0), (1.0, 16.0)]),
    (6.0, [(1.5, 0.0), (1.5, 6.0), (1.0, 12.0), (1.0, 16.0)]),
    (12.0, [(2.0, 0.0), (1.0, 8.0), (1.0, 12.0), (1.0, 16.0)]),
    (18.0, [(0.5, 0.0), (1.5, 2.0), (1.0, 8.0), (1.0, 12.0)]),
    (24.0, [(0.5, 0.0), (2.0, 2.0), (1.5, 10.0), (1.0, 16.0)]),
];

#[test]
fn joints_that_keep_their_parents_scale_out_are_where_maya_puts_them() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fbx/keys/ufbx-maya_anim_no_inherit_scale_7700_ascii.fbx");
    let scene = scene_from_fbx(&std::fs::read(path).unwrap()).unwrap();
    let mut lab = skinlab::lab::Lab::new(scene);
    let joints = ["joint1", "joint2", "joint3", "joint4"].map(|name| bone_named(&lab, name));
    for (frame, expected) in MAYA_NO_INHERIT_SCALE {
        lab.set_animation_time(0, frame / 24.0).unwrap();
        for (k, (scale, y)) in expected.into_iter().enumerate() {
            let bone = &lab.scene().skeleton.bones()[joints[k]];
            let world =
                lab.model_from_bone_posed()[joints[k]] * glam::Mat4::from_quat(bone.turn.inverse());
            let what = format!("joint{} at frame {frame}", k + 1);
            // Skinlab's metres are the file's centimetres / 100.
            let height = world.w_axis.y * 100.0;
            assert!((height - y).abs() < 1e-3, "{what}: Y {height} cm, Maya {y}");
            for axis in [world.x_axis, world.y_axis, world.z_axis] {
                let length = axis.truncate().length();
                assert!(
                    (length - scale).abs() < 1e-4,
                    "{what}: scale {length}, Maya {scale}"
                );
            }
        }
    }
}

/// The bone named `name` in `lab`'s skeleton.
fn bone_named(lab: &skinlab::lab::Lab, name: &str) -> usize {
    let bones = lab.scene().skeleton.bones();
    bones.iter().position(|b| b.name == name).unwrap()
}

/// ufbx's test file `keys/ufbx-{stem}.fbx` opened, and the bone of its
/// animated cube, `pCube1`.
fn cube_in(stem: &str) -> (skinlab::lab::Lab, usize) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("tests/fbx/keys/ufbx-{stem}.fbx"));
    let scene = scene_from_fbx(&std::fs::read(path).unwrap()).unwrap();
    let lab = skinlab::lab::Lab::new(scene);
    let cube = bone_named(&lab, "pCube1");
    (lab, cube)
}

/// The X translation (centimetres) of `pCube1` in ufbx's test file
/// `keys/ufbx-{stem}.fbx` at each 24th of a second, as Skinlab plays it.
fn cube_x_at_24fps(stem: &str, frames: usize) -> Vec<f64> {
    let (mut lab, cube) = cube_in(stem);
    (0..frames)
        .map(|frame| {
            lab.set_animation_time(0, frame as f32 / 24.0).unwrap();
            f64::from(lab.model_from_bone_posed()[cube].w_axis.x) * 100.0
        })
        .collect()
}

/// Auto tangents (Maya's clamped auto and spline tangents, MotionBuilder's
/// auto tangents with and without bias) and MotionBuilder's TCB keys
/// (tension, continuity and bias), solved from the neighbouring keys
/// as Maya and MotionBuilder do: ufbx's test lists the values those
/// programs give at each 24th of a second (`test/test_animation.h`), and
/// Skinlab plays them within 2e-3 cm (the Maya clamp file's values are
/// given to a thousandth).
#[test]
fn auto_and_tcb_tangents_go_as_maya_and_motionbuilder_evaluate_them() {
    let cases: [(&str, &[f64]); 5] = [
        (
            "maya_auto_clamp_7700_ascii",
            &[
                0.000, 0.000, 0.273, 0.515, 0.718, 0.868, 0.945, 0.920, 0.779, 0.611, 0.591, 0.747,
                1.206, 2.059, 3.191, 4.489, 5.837, 7.121, 8.228, 9.042, 9.449, 9.694, 10.128,
                10.610, 10.873, 10.927, 10.854, 10.704, 10.502, 10.264, 10.000,
            ],
        ),
        (
            "maya_tangent_spline_7700_ascii",
            &[
                0.00000, 3.50000, 6.00000, 6.51562, 6.37500, 6.04688, 6.00000, 6.67313, 7.71167,
                8.39438, 8.00000, 3.63667, -1.04000, -1.96474, -1.68059, -1.00000, 0.27700,
                2.00000,
            ],
        ),
        (
            "motionbuilder_tangent_auto_7700_ascii",
            &[
                0.000000, 0.000000, 2.592592, 7.407408, 10.000000, 9.570312, 8.437500, 6.835938,
                5.000000, 3.164062, 1.562500, 0.429688, 0.000000, 0.000000, 1.037037, 2.962963,
                4.000000, 0.000000, -4.000000, -4.000000, -4.000000, -4.000000, -4.000000,
                -1.000000, 2.000000, -1.000000, -4.000000, -4.000000,
            ],
        ),
        (
            "motionbuilder_tangent_auto_bias_7700_ascii",
            &[
                0.000000, 0.896991, 1.898148, 2.968750, 4.074074, 5.179398, 6.250000, 7.251157,
                8.148148, 8.906251, 9.490741, 9.866899, 10.000000, 8.125000, 5.000000, 3.190000,
                2.586667, 2.930000, 3.960000, 5.416667, 7.040000, 8.570000, 9.746667, 10.310000,
                10.000000, 9.224537, 8.518518, 7.812500, 7.037037, 6.122685, 5.000000, 3.146296,
                1.014815, 0.000000, 1.855556, 5.927778, 10.000000, 11.805555, 11.111111, 8.750000,
                5.555555, 2.361110, 0.000000,
            ],
        ),
        (
            "motionbuilder_tangent_tcb_7700_ascii",
            &[
                0.000000, -0.839699, -2.648148, -4.546875, -5.657407, -5.101273, -2.000000,
                -1.805556, -1.222222, -0.250000, 1.111111, 2.861111, 5.000000, 6.862268, 7.870370,
                8.156250, 7.851851, 7.089120, 6.000000, 4.716435, 3.370370, 2.093750, 1.018518,
                0.276620, 0.000000, 2.407407, 3.481481, 4.000000, 4.740741, 6.481482, 10.000000,
                7.193704, 5.340741, 4.290000, 3.890371, 3.990741, 4.440001, 5.087037, 5.780741,
                6.370000, 6.703704, 6.630741, 6.000000, 4.702963, 2.951704, 1.076000, -0.594370,
                -1.729629, -2.000000, -0.186167, 2.875667, 4.000000, 3.947917, 2.680556, 0.875000,
                -0.791667, -1.642361, -1.000000, -0.069444, 2.354167, 4.000000,
            ],
        ),
    ];
    for (stem, expected) in cases {
        let played = cube_x_at_24fps(stem, expected.len());
        let mut worst = 0.0_f64;
        for (frame, (got, want)) in played.iter().zip(expected).enumerate() {
            worst = worst.max((got - want).abs());
            assert!(
                (got - want).abs() < 2e-3,
                "{stem} frame {frame}: {got} cm, expected {want}"
            );
        }
        println!("# {stem}: {} frames, worst {worst:.2e} cm", expected.len());
    }
}

/// Binary files as some writers lay them out, from ufbx's test data: Maya's
/// cube with big-endian numbers (FBX 7.4 and 7.5), with records whose end
/// is written as 0, and with Maya's audio, whose templates hold one-byte
/// (`Z`) properties. Each opens as the same cube as Maya's plain
/// little-endian file (and `tests/node/fbx.test.mjs` checks each against
/// three.js's `FBXLoader` on that plain file).
#[test]
fn big_endian_zero_ended_and_audio_files_open_as_the_plain_cube() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fbx");
    let positions = |path: std::path::PathBuf| {
        let scene = scene_from_fbx(&std::fs::read(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        scene.mesh.positions_model.clone()
    };
    let plain = positions(dir.join("odd/ufbx-maya_cube_7400_binary.fbx"));
    assert_eq!(
        plain.len(),
        14,
        "a cube's 8 corners, 6 of them twice for its UV seams"
    );
    for name in [
        "ufbx-maya_cube_big_endian_7400_binary.fbx",
        "ufbx-maya_cube_big_endian_7500_binary.fbx",
        "ufbx-maya_zero_end_7400_binary.fbx",
        "ufbx-maya_audio_7500_binary.fbx",
    ] {
        assert_eq!(positions(dir.join("odd").join(name)), plain, "{name}");
    }
}
