//! Time per brush dab on a 20,000-vertex mesh, natively. `cargo xtask bench`
//! runs this and the same dabs as wasm in Node, and prints the ratio.
#![allow(clippy::unwrap_used, missing_docs)]

use std::time::Instant;

use glam::Vec2;
use skinlab::scene::doc::{BoneDoc, MeshDoc, SceneDoc};
use skinlab::weights::paint::{mirror_vertices, triangle_neighbours, Brush};
use skinlab::Lab;

/// Columns and rows of the grid: 142 × 141 = 20,022 vertices.
const COLUMNS: usize = 142;
const ROWS: usize = 141;
const DABS: usize = 400;

fn grid_scene() -> SceneDoc {
    let mut positions = Vec::new();
    let mut influences = Vec::new();
    for row in 0..ROWS {
        for column in 0..COLUMNS {
            let x = column as f32 / (COLUMNS - 1) as f32 * 4.0;
            positions.extend([x, row as f32 / (ROWS - 1) as f32 * 4.0 - 2.0, 0.0]);
            let to_second = (x / 4.0).clamp(0.0, 1.0);
            influences.push(
                vec![(0, 1.0 - to_second), (1, to_second)]
                    .into_iter()
                    .filter(|&(_, w)| w > 0.0)
                    .collect(),
            );
        }
    }
    let mut indices = Vec::new();
    for row in 0..ROWS - 1 {
        for column in 0..COLUMNS - 1 {
            let v = (row * COLUMNS + column) as u32;
            let c = COLUMNS as u32;
            indices.extend([v, v + 1, v + c + 1, v, v + c + 1, v + c]);
        }
    }
    let bone = |parent: Option<u32>| BoneDoc {
        orientation: [
            0.0,
            0.0,
            -std::f32::consts::FRAC_1_SQRT_2,
            std::f32::consts::FRAC_1_SQRT_2,
        ],
        ..BoneDoc::plain("", parent, [0.0; 3], 2.0)
    };
    let mut second = bone(Some(0));
    second.orientation = [0.0, 0.0, 0.0, 1.0];
    SceneDoc {
        bones: vec![bone(None), second],
        mesh: MeshDoc { positions, indices },
        influences,
        ..SceneDoc::default()
    }
}

fn main() {
    let json = serde_json::to_string(&grid_scene()).unwrap();
    let mut lab = Lab::from_json(&json).unwrap();
    // Screen pixels: the 4 × 4 grid drawn 800 pixels wide.
    let points: Vec<Vec2> = lab
        .scene()
        .mesh
        .positions_model
        .iter()
        .map(|p| p.truncate() * 200.0)
        .collect();
    let paintable = vec![true; points.len()];
    let brush = Brush::parse(40.0, 0.1, "smooth", "add", 1.0).unwrap();
    // The first dab builds the neighbour and mirror tables; time the rest.
    lab.paint_dab(&points, &paintable, 1, Vec2::ZERO, &brush, true)
        .unwrap();
    let started = Instant::now();
    let mut touched = 0;
    for k in 0..DABS {
        let t = k as f32 / DABS as f32;
        let centre = Vec2::new(100.0 + 600.0 * t, 150.0 * (t * 12.0).sin());
        touched += lab
            .paint_dab(&points, &paintable, 1, centre, &brush, true)
            .unwrap()
            .touched;
    }
    let per_dab = started.elapsed().as_secs_f64() / DABS as f64;
    println!(
        "paint-dab native: {:.1} µs per dab ({} vertices, radius 40 px, X-mirror on, {:.0} vertices changed per dab)",
        per_dab * 1e6,
        lab.vertex_count(),
        touched as f64 / DABS as f64
    );
    println!("BENCH native_us={:.3}", per_dab * 1e6);
    first_dab_on_dense();
}

/// The first dab on a scene builds its tables (neighbours, X-mirror):
/// on the 100,000-vertex `dense` tube, the pieces timed apart.
fn first_dab_on_dense() {
    let scene = skinlab::examples::example("dense").unwrap();
    let mesh = &scene.mesh;
    let started = Instant::now();
    let neighbours = triangle_neighbours(mesh.vertex_count(), &mesh.indices);
    let neighbours_ms = started.elapsed().as_secs_f64() * 1e3;
    let started = Instant::now();
    let mirrored = mirror_vertices(&mesh.positions_model, 1e-4 * 4.0);
    let mirror_ms = started.elapsed().as_secs_f64() * 1e3;
    let points: Vec<Vec2> = mesh
        .positions_model
        .iter()
        .map(|p| p.truncate() * 100.0)
        .collect();
    let mut lab = Lab::new(scene.clone());
    let paintable = vec![true; points.len()];
    let brush = Brush::parse(40.0, 0.1, "smooth", "add", 1.0).unwrap();
    let started = Instant::now();
    lab.paint_dab(&points, &paintable, 1, Vec2::ZERO, &brush, true)
        .unwrap();
    let first_ms = started.elapsed().as_secs_f64() * 1e3;
    println!(
        "first dab on dense natively: {first_ms:.1} ms ({} vertices; \
         neighbours {neighbours_ms:.1} ms, X-mirror {mirror_ms:.1} ms; {} neighbour lists, {} mirrored)",
        mesh.vertex_count(),
        neighbours.len(),
        mirrored.iter().filter(|m| m.is_some()).count()
    );
    println!("BENCH native_first_dab_dense_ms={first_ms:.3}");
}
