//! A mesh split by material into primitives that all draw from one vertex
//! set (as Unity, Blender and Skinlab's own export write it): the vertices
//! are read once, counted once against the vertex limit and the memory
//! budget, and come back once through the export.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use serde_json::json;
use skinlab::formats::export::glb_from_scene;
use skinlab::formats::gltf::{read_glb, read_gltf_files};

/// One mesh of `primitives` primitives over the same `vertices` points (a
/// ring), each one triangle of its own, in two materials taken in turn.
fn shared_file(vertices: usize, primitives: usize) -> (String, HashMap<String, Vec<u8>>) {
    let mut bytes = Vec::new();
    for v in 0..vertices {
        let angle = std::f32::consts::TAU * v as f32 / vertices as f32;
        for c in [angle.cos(), angle.sin(), 0.0_f32] {
            bytes.extend_from_slice(&c.to_le_bytes());
        }
    }
    let index_start = bytes.len();
    for k in 0..primitives {
        for i in [0, k + 1, k + 2] {
            bytes.extend_from_slice(&(i as u32).to_le_bytes());
        }
    }
    let mut accessors = vec![
        json!({"bufferView": 0, "componentType": 5126, "count": vertices, "type": "VEC3",
        "min": [-1.0, -1.0, 0.0], "max": [1.0, 1.0, 0.0]}),
    ];
    let mut mesh_primitives = Vec::new();
    for k in 0..primitives {
        accessors.push(json!({"bufferView": 1, "byteOffset": 12 * k, "componentType": 5125, "count": 3, "type": "SCALAR"}));
        mesh_primitives
            .push(json!({"attributes": {"POSITION": 0}, "indices": k + 1, "material": k % 2}));
    }
    let document = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "name": "body"}],
        "meshes": [{"primitives": mesh_primitives}],
        "materials": [
            {"name": "skin", "pbrMetallicRoughness": {"baseColorFactor": [1.0, 0.8, 0.7, 1.0]}},
            {"name": "cloth", "pbrMetallicRoughness": {"baseColorFactor": [0.2, 0.3, 0.9, 1.0]}}
        ],
        "accessors": accessors,
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": index_start},
            {"buffer": 0, "byteOffset": index_start, "byteLength": bytes.len() - index_start}
        ],
        "buffers": [{"uri": "body.bin", "byteLength": bytes.len()}]
    });
    (
        document.to_string(),
        HashMap::from([("body.bin".to_owned(), bytes)]),
    )
}

#[test]
fn primitives_sharing_one_vertex_set_read_it_once_even_past_the_vertex_limit_counted_per_primitive()
{
    // 40 × 30,000 would be 1,200,000 vertices, past the limit of 1,000,000.
    let (text, files) = shared_file(30_000, 40);
    let scene = read_gltf_files(&text, &files).unwrap();
    assert_eq!(scene.mesh.vertex_count(), 30_000);
    assert_eq!(scene.mesh.indices.len(), 40 * 3);
    assert_eq!(scene.materials.len(), 2);
    assert_eq!(scene.surfaces.len(), 40, "a run of triangles per primitive");
    assert_eq!(scene.surfaces[1].first_index, 3);
    assert_eq!(&scene.mesh.indices[3..6], &[0, 2, 3]);
}

#[test]
fn a_mesh_split_by_material_comes_back_from_its_export_with_its_vertices_once() {
    let (text, files) = shared_file(1_000, 59);
    let scene = read_gltf_files(&text, &files).unwrap();
    let back = read_glb(&glb_from_scene(&scene).unwrap()).unwrap();
    assert_eq!(back.mesh.vertex_count(), 1_000);
    assert_eq!(back.mesh.indices, scene.mesh.indices);
    assert_eq!(back.surfaces.len(), scene.surfaces.len());
    for (a, b) in scene
        .mesh
        .positions_model
        .iter()
        .zip(&back.mesh.positions_model)
    {
        assert!(a.distance(*b) < 1e-6);
    }
}
