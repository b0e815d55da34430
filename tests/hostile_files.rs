//! Hostile glTF and scene files, one by one: each is refused with its own
//! error naming the problem, the process carries on, and nothing of the
//! size a file merely claims is ever allocated.
#![allow(clippy::unwrap_used)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use serde_json::{json, Value};
use skinlab::formats::fbx::{scene_from_fbx, FbxError};
use skinlab::formats::gltf::{decode_base64, read_glb, read_gltf, GltfError, MAX_FILE_BYTES};
use skinlab::{Lab, SceneError, SkeletonError};

mod common;

/// The system allocator, remembering the largest single request made on
/// each thread (each test runs on its own).
struct Tracking;

thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn note(size: usize) {
    // Quietly skipped while the thread is being torn down.
    let _ = LARGEST.try_with(|largest| largest.set(largest.get().max(size)));
}

#[allow(unsafe_code)]
// SAFETY: every call is passed on unchanged to the system allocator.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        // SAFETY: as for `dealloc`, and `new_size` is the caller's request.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Tracking = Tracking;

fn simple_skin() -> Value {
    serde_json::from_str(&common::model_text("SimpleSkin")).unwrap()
}

fn read(doc: &Value) -> Result<(), GltfError> {
    read_gltf(&doc.to_string()).map(|_| ())
}

/// SimpleSkin with its inverse bind matrices (buffer 2) replaced.
fn with_inverse_binds(matrices: [[f32; 16]; 2]) -> Value {
    let mut doc = simple_skin();
    let bytes: Vec<u8> = matrices
        .iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    doc["buffers"][2]["uri"] = json!(format!(
        "data:application/octet-stream;base64,{}",
        common::encode_base64(&bytes)
    ));
    doc
}

const IDENTITY: [f32; 16] = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

#[test]
fn the_untouched_model_loads() {
    read(&simple_skin()).unwrap();
    let round_trip = common::encode_base64(b"skinlab!?");
    assert_eq!(decode_base64(&round_trip).unwrap(), b"skinlab!?");
}

#[test]
fn an_accessor_count_of_two_to_the_31_is_refused_before_allocating_it() {
    let mut doc = simple_skin();
    doc["accessors"][1]["count"] = json!(1u64 << 31);
    let text = doc.to_string();
    LARGEST.with(|largest| largest.set(0));
    let error = read_gltf(&text).unwrap_err();
    // Refused by the memory budget, before any buffer is decoded.
    assert!(
        matches!(&error, GltfError::OverBudget { index: 1, bytes, .. } if *bytes == (1 << 31) * 3 * 4),
        "{error}"
    );
    // 2³¹ positions would be 24 GiB; nothing near even 1 MiB was asked for.
    let largest = LARGEST.with(Cell::get);
    assert!(largest > 0, "the tracker sees this thread's allocations");
    assert!(largest < 1 << 20, "largest allocation {largest} bytes");
}

#[test]
fn a_buffer_far_larger_than_its_data_is_refused() {
    let mut doc = simple_skin();
    doc["buffers"][0]["byteLength"] = json!(4_000_000_000u64);
    let error = read(&doc).unwrap_err();
    assert_eq!(
        error,
        GltfError::BufferTooShort {
            buffer: 0,
            declared: 4_000_000_000,
            found: 168
        }
    );
    assert!(error.to_string().contains("168 bytes"), "{error}");
}

#[test]
fn a_file_over_the_size_limit_is_refused_with_the_limit_named() {
    let text = " ".repeat(MAX_FILE_BYTES + 1);
    let error = read_gltf(&text).unwrap_err();
    assert!(matches!(error, GltfError::TooLarge { .. }), "{error}");
    assert!(
        error.to_string().contains(&format!("{MAX_FILE_BYTES}")),
        "{error}"
    );
}

#[test]
fn a_stride_or_offset_past_the_end_is_refused() {
    let mut doc = simple_skin();
    doc["bufferViews"][2]["byteStride"] = json!(1_000_000);
    let error = read(&doc).unwrap_err();
    assert!(matches!(error, GltfError::Accessor { .. }), "{error}");

    let mut doc = simple_skin();
    doc["bufferViews"][1]["byteOffset"] = json!(u64::MAX);
    let error = read(&doc).unwrap_err();
    assert!(
        matches!(error, GltfError::Accessor { index: 1, .. }),
        "{error}"
    );

    let mut doc = simple_skin();
    doc["accessors"][1]["byteOffset"] = json!(1u64 << 40);
    let error = read(&doc).unwrap_err();
    assert!(
        matches!(error, GltfError::Accessor { index: 1, .. }),
        "{error}"
    );
}

#[test]
fn a_sparse_accessor_pointing_out_of_range_is_refused() {
    let mut doc = simple_skin();
    let accessor = doc["accessors"][1].as_object_mut().unwrap();
    accessor.remove("bufferView");
    accessor.insert(
        "sparse".to_owned(),
        json!({"count": 1_000_000, "indices": {"bufferView": 0, "componentType": 5123},
               "values": {"bufferView": 1}}),
    );
    // More substitutions than elements: refused before any is read.
    let error = read(&doc).unwrap_err();
    assert!(
        matches!(&error, GltfError::Accessor { index: 1, problem } if problem.contains("sparse")),
        "{error}"
    );
}

#[test]
fn joint_indices_past_the_skin_are_refused() {
    let mut doc = simple_skin();
    doc["skins"][0]["joints"] = json!([1]);
    doc["skins"][0]
        .as_object_mut()
        .unwrap()
        .remove("inverseBindMatrices");
    let error = read(&doc).unwrap_err();
    assert!(
        matches!(&error, GltfError::Missing(what) if what.contains("joint 1 named by vertex")),
        "{error}"
    );
    let mut doc = simple_skin();
    doc["skins"][0]["joints"] = json!([1, 99]);
    let error = read(&doc).unwrap_err();
    assert!(
        matches!(&error, GltfError::Missing(what) if what.contains("nodes[99]")),
        "{error}"
    );
}

#[test]
fn a_node_hierarchy_with_a_cycle_is_refused() {
    let mut doc = simple_skin();
    doc["nodes"][2]["children"] = json!([1]);
    let error = read(&doc).unwrap_err();
    assert_eq!(error, GltfError::NodeCycle { node: 1 });
}

#[test]
fn ten_thousand_nested_nodes_are_read_without_deep_recursion() {
    let mut doc = simple_skin();
    let nodes = doc["nodes"].as_array_mut().unwrap();
    // An armature of 10,000 nested nodes above the root joint.
    let first = nodes.len();
    for k in 0..10_000 {
        let child = if k == 9_999 { 1 } else { first + k + 1 };
        nodes.push(json!({"children": [child]}));
    }
    doc["scenes"][0]["nodes"] = json!([0, first]);
    read(&doc).unwrap();

    // The same depth of joints: a skeleton of 10,000 bones in a chain.
    let mut doc = simple_skin();
    let nodes = doc["nodes"].as_array_mut().unwrap();
    let first = nodes.len();
    for k in 0..10_000 {
        let children = if k == 9_999 {
            json!([])
        } else {
            json!([first + k + 1])
        };
        nodes.push(json!({"children": children, "translation": [0.0, 0.001, 0.0]}));
    }
    doc["nodes"][2]["children"] = json!([first]);
    let mut joints = vec![json!(1), json!(2)];
    joints.extend((first..first + 10_000).map(|n| json!(n)));
    doc["skins"][0]["joints"] = json!(joints);
    doc["skins"][0]
        .as_object_mut()
        .unwrap()
        .remove("inverseBindMatrices");
    read(&doc).unwrap();
}

#[test]
fn nan_in_an_inverse_bind_matrix_is_refused() {
    let mut bad = IDENTITY;
    bad[5] = f32::NAN;
    let error = read(&with_inverse_binds([IDENTITY, bad])).unwrap_err();
    assert_eq!(
        error,
        GltfError::BadInverseBind {
            joint: 1,
            problem: "holds a number that is not finite"
        }
    );
}

#[test]
fn a_non_invertible_inverse_bind_matrix_is_refused() {
    let mut flat = IDENTITY;
    flat[10] = 0.0; // z collapses
    let error = read(&with_inverse_binds([flat, IDENTITY])).unwrap_err();
    assert_eq!(
        error,
        GltfError::BadInverseBind {
            joint: 0,
            problem: "is not invertible"
        }
    );
    assert!(error.to_string().contains("joint 0"), "{error}");
}

#[test]
fn a_glb_whose_lengths_lie_is_refused() {
    let glb =
        skinlab::formats::gltf::glb::glb_from_embedded_gltf(&common::model_text("SimpleSkin"))
            .unwrap();
    assert!(read_glb(&glb).is_ok());
    let glb_error = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = glb.clone();
        edit(&mut bytes);
        match read_glb(&bytes) {
            Err(GltfError::Glb(problem)) => problem,
            other => panic!("expected a .glb error, got {other:?}"),
        }
    };
    let set = |bytes: &mut Vec<u8>, at: usize, value: u32| {
        bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
    };
    // The header's total length.
    let problem = glb_error(&|b| set(b, 8, u32::MAX));
    assert!(
        problem.contains("header says 4294967295 bytes"),
        "{problem}"
    );
    // The JSON chunk's length, far past the end.
    let problem = glb_error(&|b| set(b, 12, 1 << 30));
    assert!(
        problem.contains("chunk 0 claims 1073741824 bytes"),
        "{problem}"
    );
    // The binary chunk's length, a little past the end.
    let json_length = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let bin_at = 20 + json_length;
    let bin_length = u32::from_le_bytes(glb[bin_at..bin_at + 4].try_into().unwrap());
    let problem = glb_error(&|b| set(b, bin_at, bin_length + 4));
    assert!(problem.contains("chunk 1 claims"), "{problem}");
    // Cut short, and not a glb at all.
    let problem = glb_error(&|b| b.truncate(10));
    assert!(problem.contains("header"), "{problem}");
    let problem = glb_error(&|b| b[0] = b'x');
    assert!(problem.contains("'glTF'"), "{problem}");
    // A binary chunk shorter than the buffer it must hold.
    let mut bytes = glb.clone();
    let short = bin_length - 16;
    set(&mut bytes, bin_at, short);
    bytes.truncate(bin_at + 8 + short as usize);
    let total = bytes.len() as u32;
    set(&mut bytes, 8, total);
    assert!(matches!(
        read_glb(&bytes),
        Err(GltfError::BufferTooShort { buffer: 0, .. })
    ));
}

#[test]
fn a_scene_over_the_bone_limit_is_refused_naming_it() {
    let bones: Vec<Value> = (0..70_000)
        .map(|k| json!({"name": "b", "parent": if k == 0 { Value::Null } else { json!(k - 1) }, "origin": [0,0,0], "orientation": [0,0,0,1], "length": 1.0}))
        .collect();
    let scene = json!({"bones": bones, "mesh": {"positions": [], "indices": []}, "influences": []});
    let error = Lab::from_json(&scene.to_string()).unwrap_err();
    assert_eq!(
        error,
        SceneError::Skeleton(SkeletonError::TooManyBones {
            count: 70_000,
            max: 65_535
        })
    );
}

#[test]
fn a_scene_over_the_vertex_limit_is_refused_naming_it() {
    use skinlab::scene::MAX_VERTICES;
    let count = MAX_VERTICES + 1;
    let text = format!(
        r#"{{"bones": [{{"name": "b", "parent": null, "origin": [0,0,0], "orientation": [0,0,0,1], "length": 1}}],
            "mesh": {{"positions": [{}], "indices": []}}, "influences": []}}"#,
        vec!["0"; 3 * count].join(",")
    );
    let error = Lab::from_json(&text).unwrap_err();
    assert_eq!(
        error,
        SceneError::TooManyVertices {
            count,
            max: MAX_VERTICES
        }
    );
    assert!(error.to_string().contains("at most 1000000"), "{error}");
}

#[test]
fn a_deep_chain_listed_child_first_is_read_quickly() {
    // 20,000 nested joints listed child before parent: the bones are put in
    // order in n log n steps (a pass per placed node would take minutes).
    let count = 20_000;
    let mut nodes: Vec<String> = (0..count)
        .map(|k| {
            // Node k's parent is node k + 1; the last is the root.
            let children = if k == 0 {
                String::new()
            } else {
                format!(r#","children":[{}]"#, k - 1)
            };
            format!(r#"{{"translation":[0,0.001,0]{children}}}"#)
        })
        .collect();
    nodes.push(r#"{"mesh":0,"skin":0}"#.to_owned());
    let joints: Vec<String> = (0..count).map(|k| k.to_string()).collect();
    // One triangle on the first joint.
    let floats: Vec<f32> = vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let joints0: Vec<u16> = vec![0; 12];
    let weights0: Vec<f32> = [1.0, 0.0, 0.0, 0.0].repeat(3);
    let mut bytes: Vec<u8> = floats.iter().flat_map(|v| v.to_le_bytes()).collect();
    bytes.extend(joints0.iter().flat_map(|v| v.to_le_bytes()));
    bytes.extend(weights0.iter().flat_map(|v| v.to_le_bytes()));
    let text = format!(
        r#"{{"asset":{{"version":"2.0"}},"nodes":[{}],"skins":[{{"joints":[{}]}}],
        "meshes":[{{"primitives":[{{"attributes":{{"POSITION":0,"JOINTS_0":1,"WEIGHTS_0":2}}}}]}}],
        "buffers":[{{"byteLength":{},"uri":"data:application/octet-stream;base64,{}"}}],
        "bufferViews":[{{"buffer":0,"byteLength":36}},{{"buffer":0,"byteOffset":36,"byteLength":24}},{{"buffer":0,"byteOffset":60,"byteLength":48}}],
        "accessors":[{{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}},{{"bufferView":1,"componentType":5123,"count":3,"type":"VEC4"}},{{"bufferView":2,"componentType":5126,"count":3,"type":"VEC4"}}]}}"#,
        nodes.join(","),
        joints.join(","),
        bytes.len(),
        common::encode_base64(&bytes)
    );
    let scene = read_gltf(&text).unwrap();
    assert_eq!(scene.skeleton.len(), count);
    // Parents first: the root (the last node) is bone 0.
    assert_eq!(scene.skeleton.bones()[0].parent, None);
    assert!(scene
        .skeleton
        .bones()
        .iter()
        .enumerate()
        .all(|(k, b)| b.parent.is_none_or(|p| usize::from(p) < k)));
}

/// A binary FBX 7.4 file of `nodes` (name, encoded properties, children),
/// as the format lays records out.
fn fbx(nodes: &[FbxNode]) -> Vec<u8> {
    let mut out = b"Kaydara FBX Binary  \0\x1a\0".to_vec();
    out.extend(7400u32.to_le_bytes());
    for node in nodes {
        fbx_record(node, &mut out);
    }
    out.extend([0u8; 13]);
    out
}

struct FbxNode {
    name: &'static str,
    props: Vec<u8>,
    count: u32,
    children: Vec<FbxNode>,
}

fn fbx_node(name: &'static str, props: &[Vec<u8>], children: Vec<FbxNode>) -> FbxNode {
    FbxNode {
        name,
        props: props.concat(),
        count: props.len() as u32,
        children,
    }
}

fn fbx_record(node: &FbxNode, out: &mut Vec<u8>) {
    let start = out.len();
    out.extend([0u8; 4]); // end offset, patched below
    out.extend(node.count.to_le_bytes());
    out.extend((node.props.len() as u32).to_le_bytes());
    out.push(node.name.len() as u8);
    out.extend(node.name.as_bytes());
    out.extend(&node.props);
    for child in &node.children {
        fbx_record(child, out);
    }
    if !node.children.is_empty() {
        out.extend([0u8; 13]);
    }
    let end = out.len() as u32;
    out[start..start + 4].copy_from_slice(&end.to_le_bytes());
}

/// A `d` array property: `count` values claimed, `data` stored with
/// `encoding` (0 raw, 1 zlib).
fn fbx_doubles(count: u32, encoding: u32, data: &[u8]) -> Vec<u8> {
    let mut p = vec![b'd'];
    p.extend(count.to_le_bytes());
    p.extend(encoding.to_le_bytes());
    p.extend((data.len() as u32).to_le_bytes());
    p.extend(data);
    p
}

/// A file whose one geometry's `Vertices` holds `array`.
fn geometry_vertices(array: Vec<u8>) -> Vec<u8> {
    let vertices = fbx_node("Vertices", &[array], vec![]);
    let geometry = fbx_node("Geometry", &[], vec![vertices]);
    fbx(&[fbx_node("Objects", &[], vec![geometry])])
}

fn fbx_error(bytes: &[u8]) -> FbxError {
    match scene_from_fbx(bytes) {
        Ok(_) => panic!("the hostile FBX file was read"),
        Err(error) => error,
    }
}

#[test]
fn an_fbx_array_that_inflates_past_its_count_is_refused_by_its_path() {
    // One value claimed (8 bytes); 64 MB of zeros compressed into ~64 KB.
    let bomb = miniz_oxide::deflate::compress_to_vec_zlib(&vec![0u8; 64 << 20], 10);
    assert!(bomb.len() < 100_000);
    let file = geometry_vertices(fbx_doubles(1, 1, &bomb));
    LARGEST.with(|l| l.set(0));
    let error = fbx_error(&file);
    assert!(matches!(error, FbxError::Inflate { .. }), "{error}");
    assert!(
        error.to_string().contains("Objects/Geometry[0]/Vertices"),
        "{error}"
    );
    // Nothing near the 64 MB the data would inflate to was allocated.
    assert!(
        LARGEST.with(Cell::get) < 4 << 20,
        "{}",
        LARGEST.with(Cell::get)
    );
}

#[test]
fn an_fbx_array_claiming_gigabytes_is_refused_before_allocating_it() {
    let file = geometry_vertices(fbx_doubles(1 << 30, 1, &[0x78, 0x9c, 3, 0]));
    LARGEST.with(|l| l.set(0));
    let error = fbx_error(&file);
    assert!(matches!(error, FbxError::OverBudget { .. }), "{error}");
    assert!(
        error.to_string().contains("Objects/Geometry[0]/Vertices"),
        "{error}"
    );
    assert!(LARGEST.with(Cell::get) < 1 << 20);
}

#[test]
fn fbx_nodes_nested_past_the_limit_are_refused() {
    let mut node = fbx_node("leaf", &[], vec![]);
    for _ in 0..100 {
        node = fbx_node("n", &[], vec![node]);
    }
    let error = fbx_error(&fbx(&[node]));
    assert!(
        matches!(
            error,
            FbxError::TooDeep {
                max: skinlab::formats::fbx::MAX_DEPTH,
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn fbx_6_is_refused_by_its_version_binary_and_ascii() {
    let mut old = fbx(&[]);
    old[23..27].copy_from_slice(&6100u32.to_le_bytes());
    let error = fbx_error(&old);
    assert!(
        matches!(error, FbxError::OldVersion { version: 6100, .. }),
        "{error}"
    );
    assert!(error.to_string().contains("FBX 6.1"), "{error}");
    let ascii = "; FBX 6.1.0 project file\nFBXHeaderExtension:  {\n\tFBXVersion: 6100\n}\n";
    assert!(matches!(
        fbx_error(ascii.as_bytes()),
        FbxError::OldVersion { version: 6100, .. }
    ));
}

#[test]
fn a_cut_fbx_file_and_a_record_past_the_end_are_refused() {
    let file = fbx(&[fbx_node(
        "Objects",
        &[],
        vec![fbx_node(
            "Geometry",
            &[fbx_doubles(3, 0, &[0u8; 24])],
            vec![],
        )],
    )]);
    for cut in [30, 40, 60, file.len() - 20] {
        let error = fbx_error(&file[..cut]);
        assert!(
            matches!(
                error,
                FbxError::Truncated { .. } | FbxError::Malformed { .. }
            ),
            "cut at {cut}: {error}"
        );
    }
    // Raw data shorter than its count says.
    let short = fbx(&[fbx_node(
        "Objects",
        &[],
        vec![fbx_node(
            "Vertices",
            &[fbx_doubles(5, 0, &[0u8; 24])],
            vec![],
        )],
    )]);
    assert!(fbx_error(&short)
        .to_string()
        .contains("Objects/Vertices[0]"));
}

#[test]
fn a_polygon_naming_a_missing_point_is_refused_by_its_path() {
    let text = r#"; FBX 7.4.0 project file
Objects:  {
	Geometry: 10, "Geometry::g", "Mesh" {
		Vertices: *9 {
			a: 0,0,0,1,0,0,0,1,0
		}
		PolygonVertexIndex: *3 {
			a: 0,1,-8
		}
	}
	Model: 20, "Model::m", "Mesh" {
	}
}
Connections:  {
	C: "OO",10,20
	C: "OO",20,0
}
"#;
    let error = fbx_error(text.as_bytes());
    assert!(
        error
            .to_string()
            .contains("Objects/Geometry[0]/PolygonVertexIndex"),
        "{error}"
    );
    assert!(error.to_string().contains("point 7"), "{error}");
}

#[test]
fn text_that_is_not_fbx_is_refused_as_such() {
    assert_eq!(fbx_error(b"{\"asset\": {}}"), FbxError::NotFbx);
    assert_eq!(fbx_error(&[0xff, 0xfe, 0, 1]), FbxError::NotFbx);
}

/// An ASCII FBX file of a triangle under a chain of `count` models, each
/// of `InheritType` 0 (its parent's world scale along its own axes) and
/// turned 30° about Z, whose scale one take animates unevenly through
/// `keys` keys (X between 1 and 1.001, Y and Z at 1): the first model's
/// alone, or every model's.
fn inheriting_chain(count: usize, keys: usize, every_model_scaled: bool) -> String {
    let times: Vec<String> = (0..keys)
        .map(|k| (k as u64 * 1_924_423_250).to_string())
        .collect();
    let x: Vec<&str> = (0..keys)
        .map(|k| if k % 2 == 0 { "1" } else { "1.001" })
        .collect();
    let curve = |id: usize, values: &str| {
        format!(
            "\tAnimationCurve: {id}, \"AnimCurve::\", \"\" {{\n\t\tKeyTime: *{keys} {{\n\t\t\ta: {}\n\t\t}}\n\t\tKeyValueFloat: *{keys} {{\n\t\t\ta: {values}\n\t\t}}\n\t\tKeyAttrFlags: *1 {{\n\t\t\ta: 4\n\t\t}}\n\t\tKeyAttrRefCount: *1 {{\n\t\t\ta: {keys}\n\t\t}}\n\t}}\n",
            times.join(",")
        )
    };
    let ones = vec!["1"; keys].join(",");
    let mut objects = String::from(
        "\tGeometry: 1, \"Geometry::tri\", \"Mesh\" {\n\t\tVertices: *9 {\n\t\t\ta: 0,0,0,1,0,0,0,1,0\n\t\t}\n\t\tPolygonVertexIndex: *3 {\n\t\t\ta: 0,1,-3\n\t\t}\n\t}\n\tAnimationStack: 2, \"AnimStack::grow\", \"\" {\n\t}\n\tAnimationLayer: 3, \"AnimLayer::base\", \"\" {\n\t}\n",
    );
    let mut connections = String::from("\tC: \"OO\",3,2\n");
    for k in 0..count {
        let model = 1000 + k;
        objects.push_str(&format!(
            "\tModel: {model}, \"Model::m{k}\", \"Null\" {{\n\t\tProperties70:  {{\n\t\t\tP: \"InheritType\", \"enum\", \"\", \"\",0\n\t\t\tP: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",1,0,0\n\t\t\tP: \"Lcl Rotation\", \"Lcl Rotation\", \"\", \"A\",0,0,30\n\t\t}}\n\t}}\n"
        ));
        let parent = if k == 0 { 0 } else { model - 1 };
        connections.push_str(&format!("\tC: \"OO\",{model},{parent}\n"));
        if k == 0 || every_model_scaled {
            let node = 100_000 + 10 * k;
            objects.push_str(&format!(
                "\tAnimationCurveNode: {node}, \"AnimCurveNode::S\", \"\" {{\n\t}}\n"
            ));
            connections.push_str(&format!(
                "\tC: \"OO\",{node},3\n\tC: \"OP\",{node},{model}, \"Lcl Scaling\"\n"
            ));
            for (offset, axis, values) in [
                (1, "X", x.join(",")),
                (2, "Y", ones.clone()),
                (3, "Z", ones.clone()),
            ] {
                objects.push_str(&curve(node + offset, &values));
                connections.push_str(&format!(
                    "\tC: \"OP\",{},{node}, \"d|{axis}\"\n",
                    node + offset
                ));
            }
        }
    }
    let tri = 1000 + count;
    objects.push_str(&format!(
        "\tModel: {tri}, \"Model::tri\", \"Mesh\" {{\n\t}}\n"
    ));
    connections.push_str(&format!(
        "\tC: \"OO\",1,{tri}\n\tC: \"OO\",{tri},{}\n",
        tri - 1
    ));
    format!(
        "; FBX 7.4.0 project file\nObjects:  {{\n{objects}}}\nConnections:  {{\n{connections}}}\n"
    )
}

#[test]
fn a_long_chain_following_its_parents_uneven_scale_is_read_or_refused_in_bounded_time() {
    // Each model hangs from a frame node that follows its parent's scale,
    // which the take changes: its worlds are composed once per model and
    // time, so 1,000 models under one scaled root read at once.
    let started = std::time::Instant::now();
    let scene = scene_from_fbx(inheriting_chain(1_000, 2, false).as_bytes()).unwrap();
    assert!(scene.skeleton.len() > 2_000, "the models and their frames");
    assert!(scene.not_drawn.is_empty(), "{:?}", scene.not_drawn);
    println!("1,000 models under a scaled root: {:?}", started.elapsed());
    // Every model scaled: each follows every ancestor's scale between each
    // two keys, steps that grow with the chain's square and the keys;
    // refused past the bound, naming it.
    let started = std::time::Instant::now();
    match scene_from_fbx(inheriting_chain(1_000, 60, true).as_bytes()) {
        Err(error @ FbxError::InheritanceTooDeep { .. }) => {
            assert!(error.to_string().contains("the take 'grow'"), "{error}");
            println!(
                "1,000 models each scaled: refused in {:?}: {error}",
                started.elapsed()
            );
        }
        Err(other) => panic!("refused for another reason: {other}"),
        Ok(scene) => panic!("read, with {} bones", scene.skeleton.len()),
    }
}
