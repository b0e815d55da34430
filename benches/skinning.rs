//! Skinning throughput of the CPU reference: LBS and DQS, positions and
//! normals, on meshes of 10k, 100k and 1M vertices with four influences
//! each and a 64-bone palette. Prints `BENCH` lines `cargo xtask bench`
//! reads. Run with `cargo bench --bench skinning`.

mod common;

use common::fastest;
use glam::{Mat4, Quat, Vec3};
use skinlab::skin::dual_quat::RigidScale;
use skinlab::skin::influences::VertexInfluences;
use skinlab::skin::mesh::Mesh;
use skinlab::skin::skinning::{dqs_palette, lbs_palette, skin_dqs, skin_lbs_rows, MatrixRows};

/// Bones in the palette.
const BONES: usize = 64;

/// `count` vertices on a cylinder along Y with outward normals, four
/// influences each (weights 0.4, 0.3, 0.2, 0.1 on neighbouring bones).
fn mesh(count: usize) -> (Mesh, Vec<VertexInfluences>) {
    let mut positions = Vec::with_capacity(count);
    let mut normals = Vec::with_capacity(count);
    let mut influences = Vec::with_capacity(count);
    for v in 0..count {
        let angle = v as f32 * 0.618_034 * std::f32::consts::TAU;
        let height = 8.0 * v as f32 / count as f32;
        positions.push(Vec3::new(angle.cos(), height, angle.sin()));
        normals.push(Vec3::new(angle.cos(), 0.0, angle.sin()));
        let bone = (v * BONES / count).min(BONES - 4) as u16;
        let (fitted, _) = VertexInfluences::from_pairs(&[
            (bone, 0.4),
            (bone + 1, 0.3),
            (bone + 2, 0.2),
            (bone + 3, 0.1),
        ]);
        influences.push(fitted);
    }
    let mut mesh = Mesh::new(positions, Vec::new());
    mesh.normals_model = normals;
    (mesh, influences)
}

/// A bent and twisted pose: each bone turned a little more than the last.
fn palette() -> Vec<Mat4> {
    (0..BONES)
        .map(|b| {
            let t = b as f32 / BONES as f32;
            Mat4::from_rotation_translation(
                Quat::from_rotation_z(t * 1.2) * Quat::from_rotation_y(t * 2.0),
                Vec3::new(t, 0.0, -t),
            )
        })
        .collect()
}

fn main() {
    let palette = palette();
    let mut dq = vec![RigidScale::from_affine(&Mat4::IDENTITY); BONES];
    dqs_palette(&palette, &mut dq);
    // Both palettes prepared once per frame, as the lab does.
    let mut rows = vec![MatrixRows::from_affine(&Mat4::IDENTITY); BONES];
    lbs_palette(&palette, &mut rows);
    for count in [10_000, 100_000, 1_000_000] {
        let (mesh, influences) = mesh(count);
        let mut positions = vec![Vec3::ZERO; count];
        let mut normals = vec![Vec3::ZERO; count];
        let runs = (20_000_000 / count).clamp(5, 200);
        let lbs = fastest(runs, || {
            skin_lbs_rows(&mesh, &influences, &rows, &mut positions, &mut normals);
            std::hint::black_box(&positions);
        });
        let dqs = fastest(runs, || {
            skin_dqs(&mesh, &influences, &dq, &mut positions, &mut normals);
            std::hint::black_box(&positions);
        });
        let rate = |seconds: f64| count as f64 / seconds / 1e6;
        println!(
            "native {count:>9} vertices: LBS {:7.1} M vertices/s, DQS {:7.1} M vertices/s (DQS/LBS time {:.2}×)",
            rate(lbs),
            rate(dqs),
            dqs / lbs
        );
        println!("BENCH native_lbs_{count}={:.3}", rate(lbs));
        println!("BENCH native_dqs_{count}={:.3}", rate(dqs));
        if count == 100_000 {
            // Every bone also scaled: DQS blends the scale/shear parts
            // linearly and applies their cofactor to the normal.
            let scaled: Vec<Mat4> = palette
                .iter()
                .map(|m| *m * Mat4::from_scale(Vec3::new(1.2, 0.9, 1.0)))
                .collect();
            let mut dq_scaled = dq.clone();
            dqs_palette(&scaled, &mut dq_scaled);
            let seconds = fastest(runs, || {
                skin_dqs(&mesh, &influences, &dq_scaled, &mut positions, &mut normals);
                std::hint::black_box(&positions);
            });
            println!(
                "native {count:>9} vertices, every bone scaled: DQS {:7.1} M vertices/s ({:.2}× the time of LBS)",
                rate(seconds),
                seconds / lbs
            );
            println!("BENCH native_dqs_scaled_{count}={:.3}", rate(seconds));
        }
    }
}
