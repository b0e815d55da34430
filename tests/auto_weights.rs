//! Automatic weights on the built-in examples: nearest bone, distance
//! falloff and bone heat (Baran and Popović 2007).

use skinlab::examples::{example, TUBE_RINGS, TUBE_SEGMENTS};
mod common;

use skinlab::lab::Lab;
use skinlab::weights::auto_weights::{
    bone_heat, bone_heat_with, bone_segments, compute, AutoWeights, HeatSolver,
};
use skinlab::weights::ldlt::Ldlt;
use skinlab::weights::sparse::CsrMatrix;

#[test]
fn nearest_bone_is_rigid() {
    let scene = example("two-bone-smooth").unwrap();
    let (weights, _) = compute(&scene.skeleton, &scene.mesh, AutoWeights::NearestBone);
    assert!(weights.iter().all(|w| w.pairs().count() == 1));
    assert_eq!(weights[0].bones[0], 0);
    assert_eq!(weights[weights.len() - 1].bones[0], 1);
}

#[test]
fn distance_falloff_blends_at_the_joint() {
    let scene = example("two-bone").unwrap();
    let (weights, _) = compute(&scene.skeleton, &scene.mesh, AutoWeights::DistanceFalloff);
    let joint = scene
        .mesh
        .positions_model
        .iter()
        .position(|p| (p.x - 2.0).abs() < 1e-6)
        .unwrap();
    assert!(
        (weights[joint].weight_of(0) - 0.5).abs() < 0.05,
        "{:?}",
        weights[joint]
    );
    assert!(weights
        .iter()
        .all(|w| (w.total_weight() - 1.0).abs() < 1e-5));
}

#[test]
fn bone_heat_sums_to_one_and_falls_off_monotonically_along_the_tube() {
    let scene = example("tube").unwrap();
    let segments = bone_segments(&scene.skeleton);
    let (heat, visibility, _) = bone_heat(&scene.mesh, &segments);
    assert!(visibility);
    for v in 0..scene.mesh.vertex_count() {
        let sum: f64 = heat.iter().map(|column| column[v]).sum();
        assert!(
            (sum - 1.0).abs() < 1e-5,
            "vertex {v}: the weights sum to {sum}"
        );
    }
    let ring_mean = |ring: usize| {
        (0..TUBE_SEGMENTS)
            .map(|k| heat[0][ring * TUBE_SEGMENTS + k])
            .sum::<f64>()
            / TUBE_SEGMENTS as f64
    };
    let profile: Vec<f64> = (0..TUBE_RINGS).map(ring_mean).collect();
    println!("bone 1's heat weight along the tube: {profile:.3?}");
    assert!(profile[0] > 0.9 && profile[TUBE_RINGS - 1] < 0.1);
    for pair in profile.windows(2) {
        assert!(pair[1] <= pair[0] + 1e-9, "monotone: {profile:?}");
        assert!(pair[0] - pair[1] < 0.3, "smooth, no jump: {profile:?}");
    }
    assert!(
        (profile[TUBE_RINGS / 2] - 0.5).abs() < 0.05,
        "half and half at the joint"
    );
}

#[test]
fn nearest_bone_takes_the_neighbouring_finger_and_bone_heat_does_not() {
    let scene = example("fingers").unwrap();
    let index_finger: Vec<usize> = (0..scene.mesh.vertex_count())
        .filter(|&v| {
            scene.mesh.positions_model[v].x > 0.05 && scene.mesh.positions_model[v].y > 1.01
        })
        .collect();
    let middle = 1;
    let (nearest, _) = compute(&scene.skeleton, &scene.mesh, AutoWeights::NearestBone);
    let stolen = index_finger
        .iter()
        .filter(|&&v| nearest[v].weight_of(middle) > 0.5)
        .count();
    assert!(
        stolen >= 2,
        "nearest bone gives {stolen} index-finger vertices to the middle finger"
    );
    let (heat, report) = compute(&scene.skeleton, &scene.mesh, AutoWeights::BoneHeat);
    assert!(report.visibility_checked);
    for &v in &index_finger {
        assert!(heat[v].weight_of(middle) < 0.1, "vertex {v}: {:?}", heat[v]);
    }
}

/// The factored solve (one `LDLᵀ`, a substitution per bone) against the
/// conjugate-gradient solve per bone it replaced, on a real character and
/// on the fingers, where visibility matters.
#[test]
fn bone_heat_factored_equals_the_iterative_solver() {
    let fox = Lab::from_gltf(&common::model_text("Fox")).unwrap();
    let fingers = example("fingers").unwrap();
    for (name, skeleton, mesh) in [
        ("Fox", &fox.scene().skeleton, &fox.scene().mesh),
        ("fingers", &fingers.skeleton, &fingers.mesh),
    ] {
        let segments = bone_segments(skeleton);
        let (factored, _, direct_iterations) =
            bone_heat_with(mesh, &segments, HeatSolver::Factored);
        let (iterative, _, iterations) = bone_heat_with(mesh, &segments, HeatSolver::Iterative);
        assert_eq!(direct_iterations, 0, "{name}: factored, not iterated");
        assert!(iterations > 0);
        let mut worst = 0.0f64;
        for (a, b) in factored.iter().zip(&iterative) {
            for (x, y) in a.iter().zip(b) {
                worst = worst.max((x - y).abs());
            }
        }
        println!(
            "{name}: largest difference {worst:.2e} over {} bones",
            segments.len()
        );
        assert!(worst < 1e-4, "{name}: {worst}");
    }
}

/// A factor larger than allowed is refused by counting, before it exists.
#[test]
fn a_factor_is_counted_before_it_is_allocated() {
    let scene = example("dense").unwrap();
    let n = scene.mesh.vertex_count();
    let mut triplets: Vec<(usize, usize, f64)> = (0..n).map(|v| (v, v, 1.0)).collect();
    for t in scene.mesh.indices.chunks_exact(3) {
        for (a, b) in [(0, 1), (1, 2), (2, 0)] {
            let (i, j) = (t[a] as usize, t[b] as usize);
            triplets.extend([(i, j, -0.01), (j, i, -0.01), (i, i, 0.01), (j, j, 0.01)]);
        }
    }
    let matrix = CsrMatrix::from_triplets(n, triplets);
    let error = Ldlt::factor(&matrix, 1000).unwrap_err().to_string();
    assert!(error.contains("more than 1000"), "{error}");
}
