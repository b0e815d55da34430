//! OBJ files in: static meshes on one root bone, counted as the file
//! writes them (polygons as fans, corners with their own texture
//! coordinates as vertices of their own), materials from the MTL, and
//! named errors for what cannot be read.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use skinlab::formats::obj::{scene_from_obj, scene_from_obj_files, ObjError};
use skinlab::scene::MeshBinding;

mod common;

/// A unit cube of six quads, in two groups (three faces each) and two
/// materials, the second group indexed from the end (negative indices).
const CUBE: &str = "\
mtllib cube.mtl
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
vt 0 0
vt 1 0
vt 1 1
vt 0 1
g front
usemtl red
f 1/1 2/2 3/3 4/4
f 5/1 6/2 7/3 8/4
f 1/1 2/2 6/3 5/4
g back
usemtl glass
f -5/1 -8/2 -4/3 -1/4
f -7/1 -6/2 -2/3 -3/4
f -6/1 -5/2 -1/3 -2/4
";

const MTL: &str = "\
newmtl red
Kd 1 0 0
newmtl glass
Kd 0.5 0.5 1
d 0.25
map_Kd -s 1 1 1 textures/glass.png
";

#[test]
fn a_cube_of_quads_reads_as_static_meshes_on_one_root_bone() {
    let scene = scene_from_obj(CUBE).unwrap();
    // Each group is a mesh; each of its corners with its own (v, vt) pair a
    // vertex; each quad two triangles.
    assert_eq!(scene.meshes.len(), 2);
    assert!(scene
        .meshes
        .iter()
        .all(|m| m.binding == MeshBinding::Static));
    assert_eq!(
        scene
            .meshes
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>(),
        ["front", "back"]
    );
    assert_eq!(scene.mesh.indices.len(), 6 * 2 * 3);
    assert_eq!(scene.skeleton.len(), 1, "the one root bone");
    // The corners land where the file's vertices are: every position is a
    // corner of the unit cube, each corner used.
    let mut corners: Vec<[i32; 3]> = scene
        .mesh
        .positions_model
        .iter()
        .map(|p| p.to_array().map(|c| c.round() as i32))
        .collect();
    for p in &scene.mesh.positions_model {
        assert!(
            p.to_array()
                .iter()
                .all(|c| c.abs() < 1e-6 || (c - 1.0).abs() < 1e-6),
            "{p}"
        );
    }
    corners.sort_unstable();
    corners.dedup();
    assert_eq!(corners.len(), 8);
    // Without its MTL the file still reads, and says what it lacks.
    assert!(
        scene.not_drawn.iter().any(|n| n.contains("cube.mtl")),
        "{:?}",
        scene.not_drawn
    );
}

#[test]
fn the_mtl_gives_colours_opacity_and_the_texture_from_the_files_chosen_with_it() {
    let mut files = HashMap::new();
    files.insert("cube.mtl".to_owned(), MTL.as_bytes().to_vec());
    files.insert("glass.png".to_owned(), common::png_header());
    let scene = scene_from_obj_files(CUBE, &files).unwrap();
    let names: Vec<&str> = scene.materials.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["red", "glass"]);
    assert_eq!(scene.materials[0].base_colour, [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(scene.materials[1].base_colour[3], 0.25);
    assert!(
        scene.materials[1].texture.is_some(),
        "map_Kd found by its file name"
    );
    assert!(scene.not_drawn.is_empty(), "{:?}", scene.not_drawn);
    // A texture named but not chosen is left out and named.
    files.remove("glass.png");
    let scene = scene_from_obj_files(CUBE, &files).unwrap();
    assert!(scene.materials[1].texture.is_none());
    assert!(
        scene.not_drawn.iter().any(|n| n.contains("glass.png")),
        "{:?}",
        scene.not_drawn
    );
}

/// Blender writes `usemtl` with no name before faces without a material.
#[test]
fn an_empty_usemtl_gives_the_faces_after_it_no_material() {
    let text = CUBE
        .replace("usemtl glass", "usemtl")
        .replace("g back\n", "g back\r\n");
    let mut files = HashMap::new();
    files.insert("cube.mtl".to_owned(), MTL.as_bytes().to_vec());
    let scene = scene_from_obj_files(&text, &files).unwrap();
    assert_eq!(scene.mesh.indices.len(), 36, "every face read");
    assert_eq!(scene.meshes.len(), 2);
    // The run of the last triangle is not the red one.
    let material_at = |index: usize| {
        scene
            .surfaces
            .iter()
            .find(|s| (s.first_index..s.first_index + s.index_count).contains(&index))
            .map(|s| scene.materials[s.material].name.as_str())
    };
    assert_eq!(material_at(0), Some("red"));
    assert_ne!(material_at(35), Some("red"));
}

#[test]
fn a_pentagon_becomes_a_fan_of_three_triangles() {
    let text = "v 0 0 0\nv 1 0 0\nv 1.5 1 0\nv 0.5 1.8 0\nv -0.5 1 0\nf 1 2 3 4 5\n";
    let scene = scene_from_obj(text).unwrap();
    assert_eq!(scene.mesh.indices.len(), 9);
    assert_eq!(scene.mesh.vertex_count(), 5);
}

#[test]
fn bad_files_are_refused_by_name() {
    let cases: [(&str, &str); 4] = [
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", "past the vertices"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\n", "no faces"),
        ("v 0 zero 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "vertex position"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -9\n", "past the vertices"),
    ];
    for (text, expected) in cases {
        let error = scene_from_obj(text)
            .err()
            .unwrap_or_else(|| panic!("{text:?} was read"));
        assert!(error.to_string().contains(expected), "{text:?}: {error}");
    }
    let huge = " ".repeat(skinlab::formats::gltf::MAX_FILE_BYTES + 1);
    assert!(matches!(
        scene_from_obj(&huge),
        Err(ObjError::TooLarge { .. })
    ));
}

/// A concave face (an L of three unit squares, as Blender writes an n-gon)
/// is cut into four triangles that cover the L and nothing else, wound as
/// the face is; a fan from its first corner would cover its notch.
#[test]
fn a_concave_face_is_cut_into_triangles_within_it() {
    let l = "v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\nf 1 2 3 4 5 6\n";
    let scene = scene_from_obj(l).unwrap();
    let p = &scene.mesh.positions_model;
    let triangles: Vec<&[u32]> = scene.mesh.indices.chunks_exact(3).collect();
    assert_eq!(triangles.len(), 4);
    let mut covered = 0.0;
    for t in triangles {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| p[i as usize]);
        let normal = (b - a).cross(c - a);
        assert!(normal.z > 0.0, "wound as the face is: {t:?}");
        covered += normal.z / 2.0;
        // No triangle reaches into the notch (x > 1 and y > 1).
        let centre = (a + b + c) / 3.0;
        assert!(centre.x <= 1.0 || centre.y <= 1.0, "{t:?}");
    }
    assert!((covered - 3.0).abs() < 1e-6, "three squares: {covered}");
}
