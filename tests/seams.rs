//! One place, one weight: a file splits a vertex where its UVs part (a
//! seam) and where two meshes of a skin meet. Every automatic method gives
//! the copies of a vertex the same weights, so no pose parts them.
#![allow(clippy::unwrap_used)]

mod common;

use glam::{Quat, Vec3};
use skinlab::lab::Lab;
use skinlab::skin::SkinningMethod;
use skinlab::weights::weld::first_copies;

/// The real characters of the tests that hold copies of their vertices.
fn characters() -> Vec<(String, Lab)> {
    let mut labs = Vec::new();
    for name in ["Fox", "RiggedFigure", "RiggedSimple"] {
        labs.push((
            name.to_owned(),
            Lab::from_gltf(&common::model_text(name)).unwrap(),
        ));
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fbx");
    for file in [
        "ufbx-maya_kenney_character_7700_binary.fbx",
        "ufbx-blender_279_sausage_7400_binary.fbx",
    ] {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let scene = skinlab::formats::fbx::scene_from_fbx(&bytes).unwrap();
        labs.push((file.to_owned(), Lab::new(scene)));
    }
    labs
}

/// The largest distance between the posed copies of one place, over the
/// mesh's size, with every bone that deforms turned a little.
fn parting(lab: &mut Lab) -> f32 {
    let rest = lab.scene().mesh.positions_model.clone();
    let (lo, hi) = rest
        .iter()
        .fold((Vec3::MAX, Vec3::MIN), |(l, h), &p| (l.min(p), h.max(p)));
    let size = (hi - lo).length();
    let first = first_copies(&rest, 1e-5 * size);
    for bone in 0..lab.bone_count() {
        if lab.bone_deforms(bone).unwrap() {
            let mut pose = lab.scene().pose[bone];
            let axis = Vec3::new(1.0, 0.3 * bone as f32 % 1.0, 0.5).normalize();
            pose.rotation = Quat::from_axis_angle(axis, 0.35) * pose.rotation;
            lab.set_bone_transform(bone, pose).unwrap();
        }
    }
    let posed = lab.skinned_positions(SkinningMethod::Lbs).into_owned();
    lab.reset_pose();
    first
        .iter()
        .enumerate()
        .map(|(v, &f)| posed[v].distance(posed[f as usize]) / size)
        .fold(0.0, f32::max)
}

#[test]
fn no_automatic_method_parts_the_copies_of_a_vertex() {
    let mut copies = 0;
    for (name, lab) in characters() {
        let rest = &lab.scene().mesh.positions_model;
        copies += first_copies(rest, 1e-6)
            .iter()
            .enumerate()
            .filter(|(v, f)| **f as usize != *v)
            .count();
        // The file's own weights do not part them. (Bone heat on the Fox
        // without welding parted its copies by 4.2 % of its size.)
        let mut own = lab.clone();
        let by_file = parting(&mut own);
        for method in common::AUTO_WEIGHTS {
            let mut auto = lab.clone();
            auto.apply_auto_weights(method);
            let apart = parting(&mut auto);
            println!("{name} {method:?}: copies part by {apart:.2e} of the size (file's weights: {by_file:.2e})");
            assert!(
                apart <= 1e-5,
                "{name}, {method:?}: copies part by {apart} of the size"
            );
        }
    }
    assert!(copies > 0, "the characters hold copies of vertices");
}

#[test]
fn the_brush_paints_the_copies_of_a_place_alike_and_typed_weights_may_part_them() {
    use skinlab::weights::paint::{Brush, Falloff, PaintMode};
    // Readied or not, painting gives the same weights.
    let mut painted = Vec::new();
    for prepared in [false, true] {
        let mut fox = Lab::from_gltf(&common::model_text("Fox")).unwrap();
        if prepared {
            fox.prepare_painting();
        }
        assert_eq!(
            fox.seams_apart(),
            0,
            "the file's weights keep its copies together"
        );
        let rest = fox.scene().mesh.positions_model.clone();
        let first = first_copies(&rest, 1e-6);
        // A place with copies, painted from the side (x, y as the brush's space).
        let copy = first
            .iter()
            .enumerate()
            .find(|(v, f)| **f as usize != *v)
            .unwrap()
            .0;
        let place = rest[copy];
        let points: Vec<glam::Vec2> = rest.iter().map(|p| glam::Vec2::new(p.z, p.y)).collect();
        // Only the vertices on one side may be painted: the copies on the far
        // side of a seam are reached by the copying alone.
        let paintable: Vec<bool> = (0..rest.len()).map(|v| v == copy).collect();
        let brush = Brush {
            radius: 5.0,
            strength: 1.0,
            falloff: Falloff::Constant,
            mode: PaintMode::Add,
            value: 1.0,
        };
        let bone = (0..fox.bone_count())
            .find(|&b| {
                fox.bone_deforms(b).unwrap()
                    && fox
                        .influences(copy)
                        .unwrap()
                        .iter()
                        .all(|&(x, _)| usize::from(x) != b)
            })
            .unwrap();
        let report = fox
            .paint_dab(
                &points,
                &paintable,
                bone,
                glam::Vec2::new(place.z, place.y),
                &brush,
                false,
            )
            .unwrap();
        assert!(report.touched > 0);
        let group: Vec<usize> = (0..rest.len())
            .filter(|&v| first[v] == first[copy])
            .collect();
        assert!(group.len() > 1);
        for &v in &group {
            assert_eq!(
                fox.influences(v).unwrap(),
                fox.influences(copy).unwrap(),
                "copy {v} of {copy}"
            );
        }
        assert_eq!(fox.seams_apart(), 0);
        // Typed apart on purpose: allowed, and counted.
        let other = (0..fox.bone_count())
            .find(|&b| b != bone && fox.bone_deforms(b).unwrap())
            .unwrap();
        fox.set_influences(copy, &[(bone as u32, 0.5), (other as u32, 0.5)])
            .unwrap();
        assert_eq!(fox.seams_apart(), 1);
        painted.push(fox.scene().influences.clone());
    }
    assert_eq!(painted[0], painted[1]);
}

/// A body of two meshes that meet at a ring (as a character's body and its
/// head are): each mesh has its own copy of the ring's vertices.
fn two_mesh_tube() -> Lab {
    const SEGMENTS: usize = 12;
    const RINGS: usize = 5;
    let mut positions = Vec::new();
    let mut indices = Vec::new();
    for half in 0..2 {
        let first = positions.len() / 3;
        for ring in 0..RINGS {
            let y = 2.0 * half as f32 + 2.0 * ring as f32 / (RINGS - 1) as f32;
            for s in 0..SEGMENTS {
                let angle = std::f32::consts::TAU * s as f32 / SEGMENTS as f32;
                positions.extend([0.4 * angle.cos(), y, 0.4 * angle.sin()]);
            }
        }
        for ring in 0..RINGS - 1 {
            for s in 0..SEGMENTS {
                let a = (first + ring * SEGMENTS + s) as u32;
                let b = (first + ring * SEGMENTS + (s + 1) % SEGMENTS) as u32;
                let (c, d) = (a + SEGMENTS as u32, b + SEGMENTS as u32);
                indices.extend([a, c, b, b, c, d]);
            }
        }
    }
    let per_half = RINGS * SEGMENTS;
    let influences: Vec<Vec<(u32, f32)>> = (0..2 * per_half)
        .map(|v| vec![(u32::from(v >= per_half), 1.0)])
        .collect();
    let scene = serde_json::json!({
        "bones": [
            {"name": "lower", "parent": null, "origin": [0, 0, 0], "orientation": [0, 0, 0, 1], "length": 2},
            {"name": "upper", "parent": 0, "origin": [0, 0, 0], "orientation": [0, 0, 0, 1], "length": 2}
        ],
        "mesh": {"positions": positions, "indices": indices},
        "influences": influences,
        "meshes": [
            {"name": "body", "vertices": [0, per_half], "binding": "skinned"},
            {"name": "head", "vertices": [per_half, per_half], "binding": "skinned"}
        ]
    });
    Lab::from_json(&scene.to_string()).unwrap()
}

#[test]
fn two_meshes_that_meet_bend_as_one_under_every_automatic_method() {
    let tube = two_mesh_tube();
    let mut own = tube.clone();
    // Rigid halves part at the ring when bent: the check can see it.
    assert!(parting(&mut own) > 1e-3, "the file's rigid halves part");
    for method in common::AUTO_WEIGHTS {
        let mut auto = tube.clone();
        auto.apply_auto_weights(method);
        let apart = parting(&mut auto);
        assert!(
            apart <= 1e-5,
            "{method:?}: the meshes part by {apart} of the size"
        );
    }
}
