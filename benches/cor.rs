//! Skinning with optimized centres of rotation, natively: the precompute of
//! the centres (indexed by bone pairs) on a 30,000-vertex, 65-bone tube,
//! on the 100,000-vertex `dense` example and on the RiggedFigure model
//! (weights as its exporter wrote them), and the cost of a frame of
//! CoR next to LBS and DQS on the same mesh. Prints `BENCH` lines; run with
//! `cargo bench --bench cor` (part of `cargo xtask bench`).

mod common;

use common::fastest;
use glam::{Mat4, Quat, Vec3};
use skinlab::skin::cor::{centres_of_rotation, skin_cor};
use skinlab::skin::dual_quat::RigidScale;
use skinlab::skin::influences::VertexInfluences;
use skinlab::skin::mesh::Mesh;
use skinlab::skin::skinning::{dqs_palette, lbs_palette, skin_dqs, skin_lbs_rows, MatrixRows};

/// Bones along the synthetic tube, as many as the benchmarks' character has.
const BONES: usize = 65;

/// A closed tube of `rings × segments` vertices along Y, its bones one after
/// another, each vertex weighted to the two bones nearest its height (and
/// the next two, lightly): a character's limbs in one piece.
fn tube(rings: usize, segments: usize, jitter: f32) -> (Mesh, Vec<VertexInfluences>) {
    let mut positions = Vec::with_capacity(rings * segments);
    let mut influences = Vec::with_capacity(rings * segments);
    for ring in 0..rings {
        let along = ring as f32 / (rings - 1) as f32 * BONES as f32;
        let bone = (along.floor() as usize).min(BONES - 1);
        for s in 0..segments {
            // With `jitter`, each vertex of a ring weighs its bones a little
            // differently, as painted or computed weights do.
            let t =
                (along - bone as f32 + jitter * (s as f32 / segments as f32 - 0.5)).clamp(0.0, 1.0);
            let angle = s as f32 / segments as f32 * std::f32::consts::TAU;
            positions.push(Vec3::new(angle.cos(), along, angle.sin()));
            let next = (bone + 1).min(BONES - 1) as u16;
            let (fitted, _) = VertexInfluences::from_pairs(&[
                (bone as u16, 1.0 - t),
                (next, t),
                (bone.saturating_sub(1) as u16, 0.05),
                ((bone + 2).min(BONES - 1) as u16, 0.05),
            ]);
            influences.push(fitted);
        }
    }
    let mut indices = Vec::new();
    for ring in 0..rings - 1 {
        for s in 0..segments {
            let a = (ring * segments + s) as u32;
            let b = (ring * segments + (s + 1) % segments) as u32;
            let (c, d) = (a + segments as u32, b + segments as u32);
            indices.extend([a, b, d, a, d, c]);
        }
    }
    (Mesh::new(positions, indices), influences)
}

/// Each bone turned a little more than the last, about Y (a twist) and Z.
fn palette() -> Vec<Mat4> {
    (0..BONES)
        .map(|b| {
            let t = b as f32 / BONES as f32;
            Mat4::from_rotation_translation(
                Quat::from_rotation_z(t * 0.8) * Quat::from_rotation_y(t * 3.0),
                Vec3::new(t, 0.0, -t),
            )
        })
        .collect()
}

fn main() {
    let (mesh, influences) = tube(1_000, 30, 0.0);
    let count = mesh.vertex_count();
    let precompute = fastest(3, || {
        std::hint::black_box(centres_of_rotation(&mesh, &influences));
    });
    println!(
        "CoR centres, {count}-vertex {BONES}-bone tube, a ring's vertices weighted alike: {:.0} ms natively",
        precompute * 1e3
    );
    println!("BENCH cor_precompute_tube_ms={:.1}", precompute * 1e3);
    let (own_mesh, own_influences) = tube(1_000, 30, 0.05);
    let own = fastest(2, || {
        std::hint::black_box(centres_of_rotation(&own_mesh, &own_influences));
    });
    println!(
        "CoR centres, the same tube with every vertex's weights its own: {:.0} ms natively",
        own * 1e3
    );
    println!("BENCH cor_precompute_tube_own_ms={:.1}", own * 1e3);
    let dense = skinlab::examples::example("dense").expect("the dense example");
    let dense_seconds = fastest(3, || {
        std::hint::black_box(centres_of_rotation(&dense.mesh, &dense.influences));
    });
    println!(
        "CoR centres, dense ({} vertices, 4 bones): {:.0} ms natively",
        dense.mesh.vertex_count(),
        dense_seconds * 1e3
    );
    println!("BENCH cor_precompute_dense_ms={:.1}", dense_seconds * 1e3);

    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/www/models/RiggedFigure/RiggedFigure.gltf"
    ))
    .expect("the RiggedFigure model");
    let figure = skinlab::formats::gltf::read_gltf(&text).expect("RiggedFigure reads");
    let figure_seconds = fastest(3, || {
        std::hint::black_box(centres_of_rotation(&figure.mesh, &figure.influences));
    });
    println!(
        "CoR centres, RiggedFigure ({} vertices, {} bones, weights from its exporter): {:.0} ms natively",
        figure.mesh.vertex_count(),
        figure.skeleton.len(),
        figure_seconds * 1e3
    );
    println!("BENCH cor_precompute_figure_ms={:.1}", figure_seconds * 1e3);

    let palette = palette();
    let mut rows = vec![MatrixRows::from_affine(&Mat4::IDENTITY); BONES];
    lbs_palette(&palette, &mut rows);
    let mut rigid = vec![RigidScale::from_affine(&Mat4::IDENTITY); BONES];
    dqs_palette(&palette, &mut rigid);
    let centres = centres_of_rotation(&mesh, &influences);
    let (mut positions, mut normals) = (vec![Vec3::ZERO; count], vec![Vec3::ZERO; count]);
    let lbs = fastest(50, || {
        skin_lbs_rows(&mesh, &influences, &rows, &mut positions, &mut normals);
        std::hint::black_box(&positions);
    });
    let dqs = fastest(50, || {
        skin_dqs(&mesh, &influences, &rigid, &mut positions, &mut normals);
        std::hint::black_box(&positions);
    });
    let cor = fastest(50, || {
        skin_cor(
            &mesh,
            &influences,
            &centres,
            &rows,
            &rigid,
            &mut positions,
            &mut normals,
        );
        std::hint::black_box(&positions);
    });
    println!(
        "a frame on the CPU, {count} vertices: LBS {:.2} ms, DQS {:.2} ms, CoR {:.2} ms ({:.2}× LBS)",
        lbs * 1e3,
        dqs * 1e3,
        cor * 1e3,
        cor / lbs
    );
    println!("BENCH cor_frame_ms={:.3}", cor * 1e3);
}
