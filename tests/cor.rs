//! Skinning with optimized centres of rotation (Le and Hodgins 2016) against
//! a reference written apart from the core: the paper's formulas in f64, by
//! brute force over every triangle, with dense weights.
#![allow(clippy::unwrap_used)]

use glam::{DMat3, DMat4, DQuat, DVec3, Vec3};
use skinlab::lab::rotation_about;
use skinlab::{Lab, SkinningMethod};

const SIGMA: f64 = 0.1;

/// Every vertex's weights as a dense vector over the bones, normalised.
fn dense_weights(lab: &Lab) -> Vec<Vec<f64>> {
    let bones = lab.bone_count();
    lab.scene()
        .influences
        .iter()
        .map(|vertex| {
            let mut w = vec![0.0; bones];
            let total: f64 = vertex.pairs().map(|(_, x)| f64::from(x)).sum();
            for (bone, x) in vertex.pairs() {
                w[usize::from(bone)] += f64::from(x) / total;
            }
            w
        })
        .collect()
}

/// `Σ_{j≠k} a_j a_k b_j b_k exp(−(a_j b_k − a_k b_j)² / σ²)`, every ordered pair.
fn similarity(a: &[f64], b: &[f64]) -> f64 {
    let mut sum = 0.0;
    for j in 0..a.len() {
        for k in 0..a.len() {
            if j != k {
                let cross = a[j] * b[k] - a[k] * b[j];
                sum += a[j] * a[k] * b[j] * b[k] * (-(cross * cross) / (SIGMA * SIGMA)).exp();
            }
        }
    }
    sum
}

/// Each vertex's centre, summed over every triangle of the mesh.
fn reference_centres(lab: &Lab) -> Vec<Option<DVec3>> {
    let weights = dense_weights(lab);
    let mesh = &lab.scene().mesh;
    let p = |v: u32| mesh.positions_model[v as usize].as_dvec3();
    let triangles: Vec<(Vec<f64>, DVec3, f64)> = mesh
        .indices
        .chunks_exact(3)
        .map(|t| {
            let w: Vec<f64> = (0..lab.bone_count())
                .map(|b| t.iter().map(|&v| weights[v as usize][b]).sum::<f64>() / 3.0)
                .collect();
            let (a, b, c) = (p(t[0]), p(t[1]), p(t[2]));
            (w, (a + b + c) / 3.0, 0.5 * (b - a).cross(c - a).length())
        })
        .collect();
    weights
        .iter()
        .map(|wi| {
            let (mut num, mut den) = (DVec3::ZERO, 0.0);
            for (wt, centroid, area) in &triangles {
                let s = similarity(wi, wt) * area;
                num += s * *centroid;
                den += s;
            }
            (den > 0.0).then(|| num / den)
        })
        .collect()
}

/// The skinned positions by the paper's pose-time formulas, in f64.
fn reference_positions(lab: &Lab) -> Vec<DVec3> {
    let palette: Vec<DMat4> = lab.palette().iter().map(|m| m.as_dmat4()).collect();
    let rotations: Vec<DQuat> = palette
        .iter()
        .map(|m| DQuat::from_mat3(&DMat3::from_mat4(*m)).normalize())
        .collect();
    let centres = reference_centres(lab);
    let scene = lab.scene();
    scene
        .mesh
        .positions_model
        .iter()
        .zip(&scene.influences)
        .zip(&centres)
        .map(|((p, vertex), centre)| {
            let p = p.as_dvec3();
            let total: f64 = vertex.pairs().map(|(_, w)| f64::from(w)).sum();
            let pairs: Vec<(usize, f64)> = vertex
                .pairs()
                .map(|(b, w)| (usize::from(b), f64::from(w) / total))
                .collect();
            let lbs = |x: DVec3| -> DVec3 {
                pairs
                    .iter()
                    .map(|&(b, w)| w * palette[b].transform_point3(x))
                    .sum()
            };
            let Some(centre) = centre else {
                return lbs(p);
            };
            let first = rotations[pairs[0].0];
            let q = pairs
                .iter()
                .map(|&(b, w)| {
                    let q = rotations[b];
                    (if q.dot(first) < 0.0 { -q } else { q }) * w
                })
                .fold(DQuat::from_xyzw(0.0, 0.0, 0.0, 0.0), |a, b| a + b)
                .normalize();
            q * p + lbs(*centre) - q * *centre
        })
        .collect()
}

/// The largest distance between the core's CoR positions and the
/// reference's, over the model's size (the diagonal of its box).
fn relative_error(lab: &mut Lab) -> f64 {
    lab.update_centres();
    let core = lab.skinned_positions(SkinningMethod::Cor).to_vec();
    let reference = reference_positions(lab);
    let (min, max) = reference.iter().fold(
        (DVec3::splat(f64::MAX), DVec3::splat(f64::MIN)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let size = (max - min).length();
    core.iter()
        .zip(&reference)
        .map(|(a, b)| (a.as_dvec3() - *b).length() / size)
        .fold(0.0, f64::max)
}

fn pose(lab: &mut Lab, bone: usize, axis: Vec3, degrees: f32) {
    lab.set_bone_pose(
        bone,
        rotation_about(axis, degrees.to_radians()),
        [0.0; 3],
        [1.0; 3],
    )
    .unwrap();
}

#[test]
fn the_core_matches_the_brute_force_reference_on_the_tube_the_fingers_and_the_y() {
    let mut twisted = Lab::example("tube").unwrap();
    pose(&mut twisted, 1, Vec3::Y, 150.0);
    let mut bent = Lab::example("tube").unwrap();
    pose(&mut bent, 1, Vec3::Z, 70.0);
    let mut fingers = Lab::example("fingers").unwrap();
    for bone in 1..fingers.bone_count() {
        pose(&mut fingers, bone, Vec3::Z, 25.0);
    }
    let mut y = Lab::example("y-junction").unwrap();
    pose(&mut y, 2, Vec3::Z, -40.0);
    for (name, lab) in [
        ("tube twisted", &mut twisted),
        ("tube bent", &mut bent),
        ("fingers", &mut fingers),
        ("y-junction", &mut y),
    ] {
        let error = relative_error(lab);
        println!("CoR against the f64 reference, {name}: {error:.2e} of the model's size");
        assert!(error < 1e-5, "{name}: {error}");
    }
}

#[test]
fn vertices_on_one_bone_are_skinned_as_lbs() {
    let mut lab = Lab::example("tube").unwrap();
    pose(&mut lab, 1, Vec3::Z, 60.0);
    lab.update_centres();
    let cor = lab.skinned_positions(SkinningMethod::Cor).to_vec();
    let lbs = lab.skinned_positions(SkinningMethod::Lbs).to_vec();
    let mut single = 0;
    for (v, vertex) in lab.scene().influences.iter().enumerate() {
        if vertex.pairs().count() == 1 {
            assert_eq!(cor[v], lbs[v], "vertex {v}");
            single += 1;
        }
    }
    assert!(single > 0);
}

#[test]
fn the_tube_twisted_to_171_degrees_keeps_its_volume_under_cor() {
    let mut lab = Lab::example("tube").unwrap();
    pose(&mut lab, 1, Vec3::Y, 171.0);
    lab.update_centres();
    let rest = lab.rest_volume();
    let [lbs, dqs, cor] = [
        SkinningMethod::Lbs,
        SkinningMethod::Dqs,
        SkinningMethod::Cor,
    ]
    .map(|method| lab.volume(method) / rest);
    println!(
        "tube twisted 171°: volume LBS {:.1}%, DQS {:.1}%, CoR {:.1}% of rest",
        lbs * 100.0,
        dqs * 100.0,
        cor * 100.0
    );
    assert!(cor >= 0.95, "CoR keeps the volume: {cor}");
    assert!(lbs < 0.8, "LBS loses it (the candy wrapper): {lbs}");
}

#[test]
fn centres_go_stale_after_a_weight_edit_until_the_job_runs() {
    let mut lab = Lab::example("two-bone-smooth").unwrap();
    assert!(!lab.centres_current());
    lab.update_centres();
    assert!(lab.centres_current());
    let before = lab.centres_of_rotation().unwrap().to_vec();
    let vertex = (0..lab.vertex_count())
        .find(|&v| lab.scene().influences[v].pairs().count() == 2)
        .unwrap();
    lab.set_influences(vertex, &[(0, 0.9), (1, 0.1)]).unwrap();
    assert!(!lab.centres_current(), "stale after the edit");
    assert_eq!(lab.centres_of_rotation().unwrap(), before.as_slice());
    lab.update_centres();
    assert!(lab.centres_current());
    assert_ne!(lab.centres_of_rotation().unwrap(), before.as_slice());
}

#[test]
fn centres_from_elsewhere_are_taken_only_for_the_weights_they_were_made_of() {
    let mut lab = Lab::example("two-bone-smooth").unwrap();
    let mut helper = Lab::example("two-bone-smooth").unwrap();
    helper.update_centres();
    let centres = helper.centres_of_rotation().unwrap().to_vec();
    let revision = lab.influences_revision();
    assert!(
        lab.set_centres(centres[1..].to_vec(), revision).is_err(),
        "one short"
    );
    let vertex = (0..lab.vertex_count())
        .find(|&v| lab.scene().influences[v].pairs().count() == 2)
        .unwrap();
    lab.set_influences(vertex, &[(0, 0.7), (1, 0.3)]).unwrap();
    let error = lab.set_centres(centres.clone(), revision).unwrap_err();
    assert!(error.to_string().contains("weights revision"), "{error}");
    assert!(!lab.centres_current());
    // The helper's centres for the same weights are taken as they are.
    helper
        .set_influences(vertex, &[(0, 0.7), (1, 0.3)])
        .unwrap();
    helper.update_centres();
    lab.set_centres(
        helper.centres_of_rotation().unwrap().to_vec(),
        lab.influences_revision(),
    )
    .unwrap();
    assert!(lab.centres_current());
    assert_eq!(
        lab.skinned_positions(SkinningMethod::Cor).to_vec(),
        helper.skinned_positions(SkinningMethod::Cor).to_vec()
    );
}
