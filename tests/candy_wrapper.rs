//! The classic comparison of LBS and DQS on a tube twisted by 180°, and the
//! Y-junction's fork with and without weights on both branches.
#![allow(clippy::unwrap_used)]

use glam::Vec3;
use skinlab::examples::{TUBE_JOINT_RING, TUBE_RADIUS, TUBE_SEGMENTS};
use skinlab::lab::rotation_about;
use skinlab::{Lab, SkinningMethod};

/// Mean distance of the joint ring's vertices from the Y axis.
fn joint_ring_radius(positions: &[Vec3]) -> f32 {
    let ring = &positions[TUBE_JOINT_RING * TUBE_SEGMENTS..(TUBE_JOINT_RING + 1) * TUBE_SEGMENTS];
    ring.iter()
        .map(|p| Vec3::new(p.x, 0.0, p.z).length())
        .sum::<f32>()
        / ring.len() as f32
}

#[test]
fn half_twist_collapses_lbs_and_keeps_dqs() {
    let mut lab = Lab::example("tube").unwrap();
    lab.set_bone_pose(
        1,
        rotation_about(Vec3::Y, std::f32::consts::PI),
        [0.0; 3],
        [1.0; 3],
    )
    .unwrap();
    let lbs = joint_ring_radius(&lab.skinned_positions(SkinningMethod::Lbs)) / TUBE_RADIUS;
    let dqs = joint_ring_radius(&lab.skinned_positions(SkinningMethod::Dqs)) / TUBE_RADIUS;
    println!(
        "tube twisted 180°: joint-ring radius LBS {:.1}% of rest, DQS {:.1}% of rest",
        lbs * 100.0,
        dqs * 100.0
    );
    assert!(lbs < 0.2, "LBS collapses: {lbs}");
    assert!((dqs - 1.0).abs() < 0.02, "DQS keeps the radius: {dqs}");
}

#[test]
fn half_twist_loses_volume_under_lbs_and_keeps_it_under_dqs() {
    let mut lab = Lab::example("tube").unwrap();
    let rest = lab.rest_volume();
    let mut table = Vec::new();
    for degrees in [0, 45, 90, 135, 180] {
        let angle = (degrees as f32).to_radians();
        lab.set_bone_pose(1, rotation_about(Vec3::Y, angle), [0.0; 3], [1.0; 3])
            .unwrap();
        let lbs = lab.volume(SkinningMethod::Lbs) / rest;
        let dqs = lab.volume(SkinningMethod::Dqs) / rest;
        table.push((degrees, lbs, dqs));
    }
    for (degrees, lbs, dqs) in &table {
        println!("twist {degrees:3}°: volume posed/rest LBS {lbs:.3}, DQS {dqs:.3}");
    }
    let (_, lbs, dqs) = table[table.len() - 1];
    assert!(
        (dqs - 1.0).abs() < 0.05,
        "DQS within 5% of rest at 180°: {dqs}"
    );
    assert!(lbs < 0.9, "LBS visibly lower at 180°: {lbs}");
    assert!((table[0].1 - 1.0).abs() < 1e-4, "no twist, no loss");
}

/// How much the most stretched edge at the fork grows: `max(len / rest) − 1`.
fn fork_stretch(example: &str) -> f32 {
    let mut lab = Lab::example(example).unwrap();
    let rest = lab.scene().mesh.positions_model.clone();
    let fork = rest
        .iter()
        .position(|p| p.x.abs() < 1e-6 && p.y > 2.0)
        .unwrap() as u32;
    lab.set_bone_pose(
        2,
        rotation_about(Vec3::Z, -std::f32::consts::FRAC_PI_4),
        [0.0; 3],
        [1.0; 3],
    )
    .unwrap();
    let edges = lab.scene().mesh.edges();
    let posed = lab.skinned_positions(SkinningMethod::Lbs);
    edges
        .iter()
        .filter(|(a, b)| *a == fork || *b == fork)
        .map(|&(a, b)| {
            let (a, b) = (a as usize, b as usize);
            posed[a].distance(posed[b]) / rest[a].distance(rest[b])
        })
        .fold(0.0, f32::max)
        - 1.0
}

#[test]
fn the_fork_tears_unless_weighted_to_both_branches() {
    let unweighted = fork_stretch("y-junction-unweighted");
    let weighted = fork_stretch("y-junction");
    println!(
        "right branch bent 45°: fork edges stretch by {:.0}% unweighted, {:.0}% weighted",
        unweighted * 100.0,
        weighted * 100.0
    );
    assert!(unweighted > 1.8 * weighted, "the unweighted fork tears");
}

#[test]
fn the_skinning_notes_strip_bone_1_stays_put() {
    let mut lab = Lab::example("two-bone").unwrap();
    let rest = lab.scene().mesh.positions_model.clone();
    let bone_1: Vec<usize> = (0..rest.len())
        .filter(|&v| lab.influences(v).unwrap() == vec![(0, 1.0)])
        .collect();
    assert_eq!(bone_1.len(), 8);
    lab.set_bone_pose(1, rotation_about(Vec3::Z, 1.2), [0.0; 3], [1.0; 3])
        .unwrap();
    for method in [SkinningMethod::Lbs, SkinningMethod::Dqs] {
        let posed = lab.skinned_positions(method);
        for &v in &bone_1 {
            assert_eq!(
                posed[v], rest[v],
                "{method:?}: vertex {v} of bone 1 is exactly where it was"
            );
        }
    }
}
