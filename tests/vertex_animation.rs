//! The `flip` example: between the same two keys a bone's slerped rotation
//! turns its arrow whole, while interpolating the other arrow's two point
//! lists runs every point straight through the pivot.
#![allow(clippy::unwrap_used)]

use glam::Vec3;
use skinlab::lab::{Lab, SkinningMethod};

/// The arrows' pivots, as the example places them.
const PIVOTS: [Vec3; 2] = [Vec3::new(-1.5, -1.0, 0.0), Vec3::new(1.5, -1.0, 0.0)];

#[test]
fn halfway_the_bone_arrow_lies_flat_and_the_vertex_arrow_is_a_point() {
    let mut lab = Lab::example("flip").unwrap();
    let duration = lab.animation_duration(0).unwrap();
    lab.set_animation_time(0, duration / 2.0).unwrap();
    let positions = lab.skinned_positions(SkinningMethod::Lbs).to_vec();
    let count = positions.len() / 2;
    let (left, right) = positions.split_at(count);
    // The turned arrow keeps its length of 2, now lying flat.
    let reach = left
        .iter()
        .map(|p| p.distance(PIVOTS[0]))
        .fold(0.0, f32::max);
    assert!((reach - 2.0).abs() < 1e-4, "{reach}");
    let tip = left
        .iter()
        .copied()
        .max_by(|a, b| a.distance(PIVOTS[0]).total_cmp(&b.distance(PIVOTS[0])))
        .unwrap();
    // A quarter turn either way (slerp takes the shorter of two equal arcs).
    assert!(
        (tip.x - PIVOTS[0].x).abs() > 1.9 && (tip.y - PIVOTS[0].y).abs() < 0.1,
        "it lies flat: {tip}"
    );
    // The interpolated one has shrunk onto its pivot in X and Y.
    let spread = right
        .iter()
        .map(|p| (p.truncate() - PIVOTS[1].truncate()).length())
        .fold(0.0, f32::max);
    assert!(spread < 1e-5, "{spread}");
    // At the second key both point down, the same shape side by side.
    lab.set_animation_time(0, duration).unwrap();
    let end = lab.skinned_positions(SkinningMethod::Lbs).to_vec();
    let (left, right) = end.split_at(count);
    for (l, r) in left.iter().zip(right) {
        assert!((*r - *l - (PIVOTS[1] - PIVOTS[0])).length() < 1e-4);
    }
    let (vertex_bytes, bone_bytes) = lab.keyframe_bytes();
    assert_eq!((vertex_bytes, bone_bytes), (12 * 2 * count, 40 * 3));
}
