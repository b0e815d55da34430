//! The engine note's limits: bones per draw for each palette format in a uniform
//! budget, and a mesh split into batches of triangles, each skinned with its
//! own sub-palette exactly as the whole mesh is.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use glam::Vec3;
use skinlab::skin::batches::{batch_lower_bound, split_by_bone_budget, BatchError, PaletteFormat};
use skinlab::skin::mesh::Mesh;
use skinlab::skin::skinning::{skin_dqs, skin_lbs};
use skinlab::{Lab, SkinningMethod};

#[test]
fn bones_per_draw_in_the_engine_notes_budget() {
    for reserved in [16, 32] {
        let figures: Vec<String> = PaletteFormat::ALL
            .iter()
            .map(|f| format!("{f:?} {}", f.bones_per_draw(256, reserved)))
            .collect();
        println!("256 vectors, {reserved} reserved: {}", figures.join(", "));
    }
    // The engine note: 256 constant registers allow "about 80" bones as 4x3.
    assert_eq!(PaletteFormat::Mat4x3.bones_per_draw(256, 16), 80);
    assert_eq!(PaletteFormat::Mat4.bones_per_draw(256, 16), 60);
    assert_eq!(PaletteFormat::DualQuat.bones_per_draw(256, 16), 120);
    assert_eq!(PaletteFormat::QuatTranslation.bones_per_draw(10, 16), 0);
}

#[test]
fn the_chain_splits_into_batches_that_skin_exactly_as_the_whole() {
    let mut lab = Lab::example("chain").unwrap();
    for bone in (0..lab.bone_count()).step_by(7) {
        let turn = skinlab::lab::rotation_about(Vec3::new(0.3, 0.1, 1.0).normalize(), 0.05);
        lab.set_bone_pose(bone, turn, [0.0, 0.01, 0.0], [1.0, 1.02, 1.0])
            .unwrap();
    }
    let mesh = lab.scene().mesh.clone();
    let influences = lab.scene().influences.clone();
    for max in [80, 60, 16] {
        let batches = split_by_bone_budget(&mesh.indices, &influences, max).unwrap();
        // Every triangle exactly once; no batch over budget.
        let mut seen = vec![0; mesh.indices.len() / 3];
        for batch in &batches {
            assert!(batch.bones.len() <= max);
            for &t in &batch.triangles {
                seen[t as usize] += 1;
            }
        }
        assert!(
            seen.iter().all(|&n| n == 1),
            "every triangle in exactly one batch"
        );
        println!(
            "chain of {} bones, {max} bones a draw: {} batches (at least {})",
            lab.bone_count(),
            batches.len(),
            batch_lower_bound(&influences, max)
        );
        for method in [SkinningMethod::Lbs, SkinningMethod::Dqs] {
            let whole = lab.skinned_positions(method).to_vec();
            let (palette, dqs) = lab.palettes();
            let (palette, dqs) = (palette.to_vec(), dqs.to_vec());
            for batch in &batches {
                // The batch's own vertices, joints renumbered, sub-palette.
                let mut local_of: BTreeMap<u32, usize> = BTreeMap::new();
                for &t in &batch.triangles {
                    for k in 0..3 {
                        let v = mesh.indices[3 * t as usize + k];
                        let next = local_of.len();
                        local_of.entry(v).or_insert(next);
                    }
                }
                let mut vertices = vec![0u32; local_of.len()];
                for (&v, &local) in &local_of {
                    vertices[local] = v;
                }
                let sub = Mesh {
                    positions_model: vertices
                        .iter()
                        .map(|&v| mesh.positions_model[v as usize])
                        .collect(),
                    normals_model: vertices
                        .iter()
                        .map(|&v| mesh.normals_model[v as usize])
                        .collect(),
                    indices: Vec::new(),
                };
                let remapped: Vec<_> = vertices
                    .iter()
                    .map(|&v| batch.remap(&influences[v as usize]).unwrap())
                    .collect();
                let mut out = vec![Vec3::ZERO; vertices.len()];
                let mut normals = vec![Vec3::ZERO; vertices.len()];
                match method {
                    SkinningMethod::Lbs => {
                        let sub_palette: Vec<_> =
                            batch.bones.iter().map(|&b| palette[b as usize]).collect();
                        skin_lbs(&sub, &remapped, &sub_palette, &mut out, &mut normals);
                    }
                    SkinningMethod::Dqs => {
                        let sub_palette: Vec<_> =
                            batch.bones.iter().map(|&b| dqs[b as usize]).collect();
                        skin_dqs(&sub, &remapped, &sub_palette, &mut out, &mut normals);
                    }
                    // CoR is drawn whole, never batch by batch.
                    SkinningMethod::Cor => unreachable!("only LBS and DQS are split"),
                }
                for (local, &v) in vertices.iter().enumerate() {
                    assert!(
                        out[local].abs_diff_eq(whole[v as usize], 1e-5),
                        "{method:?}, {max} a draw, vertex {v}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_triangle_richer_than_the_budget_is_refused() {
    let lab = Lab::example("y-junction").unwrap();
    let scene = lab.scene();
    // The fork's triangle names stem and both branches: three bones.
    let error = split_by_bone_budget(&scene.mesh.indices, &scene.influences, 1).unwrap_err();
    assert!(
        matches!(error, BatchError::TriangleTooRich { max: 1, .. }),
        "{error}"
    );
    assert_eq!(
        split_by_bone_budget(&scene.mesh.indices, &scene.influences, 0),
        Err(BatchError::ZeroBudget)
    );
}

#[test]
fn draw_batches_carry_their_own_vertices_and_skin_as_the_whole() {
    let mut lab = Lab::example("chain").unwrap();
    for bone in (0..lab.bone_count()).step_by(5) {
        let turn = skinlab::lab::rotation_about(Vec3::Z, 0.04);
        lab.set_bone_pose(bone, turn, [0.0; 3], [1.0; 3]).unwrap();
    }
    let mesh = lab.scene().mesh.clone();
    let influences = lab.scene().influences.clone();
    let batches = skinlab::skin::batches::draw_batches(&mesh.indices, &influences, 80).unwrap();
    assert!(batches.len() >= 4);
    let whole = lab.skinned_positions(SkinningMethod::Lbs).to_vec();
    let palette = lab.palette().to_vec();
    let mut triangles = 0;
    for batch in &batches {
        assert!(batch.bones.len() <= 80);
        assert!(batch
            .indices
            .iter()
            .all(|&i| (i as usize) < batch.vertices.len()));
        triangles += batch.indices.len() / 3;
        let sub_palette: Vec<_> = batch
            .bones
            .iter()
            .map(|&b| palette[usize::from(b)])
            .collect();
        let sub = Mesh {
            positions_model: batch
                .vertices
                .iter()
                .map(|&v| mesh.positions_model[v as usize])
                .collect(),
            normals_model: batch
                .vertices
                .iter()
                .map(|&v| mesh.normals_model[v as usize])
                .collect(),
            indices: Vec::new(),
        };
        let n = batch.vertices.len();
        let (mut positions, mut normals) = (vec![Vec3::ZERO; n], vec![Vec3::ZERO; n]);
        skin_lbs(
            &sub,
            &batch.influences,
            &sub_palette,
            &mut positions,
            &mut normals,
        );
        for (local, &v) in batch.vertices.iter().enumerate() {
            assert!(positions[local].abs_diff_eq(whole[v as usize], 1e-6));
        }
    }
    assert_eq!(
        triangles,
        mesh.indices.len() / 3,
        "every triangle drawn once"
    );
}
