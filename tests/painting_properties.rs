//! Invariants of weight painting under random strokes: weights stay
//! normalised, at most four per vertex, and locked bones never change.
#![allow(clippy::unwrap_used)]

use glam::Vec2;
use proptest::prelude::*;
use skinlab::skin::influences::VertexInfluences;
use skinlab::weights::paint::{dab, vertex_neighbours, Brush, Falloff, PaintMode, PaintTarget};

fn brush() -> impl Strategy<Value = Brush> {
    let falloff = prop_oneof![
        Just(Falloff::Smooth),
        Just(Falloff::Linear),
        Just(Falloff::Constant)
    ];
    let mode = prop_oneof![
        Just(PaintMode::Add),
        Just(PaintMode::Subtract),
        Just(PaintMode::Set),
        Just(PaintMode::Smooth)
    ];
    (1.0_f32..40.0, 0.0_f32..1.0, falloff, mode, 0.0_f32..1.0).prop_map(
        |(radius, strength, falloff, mode, value)| Brush {
            radius,
            strength,
            falloff,
            mode,
            value,
        },
    )
}

/// A 6 × 6 grid of vertices 10 pixels apart with random starting weights
/// over 6 bones.
fn grid_weights() -> impl Strategy<Value = Vec<VertexInfluences>> {
    let pairs = proptest::collection::vec((0_u16..6, 0.05_f32..1.0), 1..4);
    proptest::collection::vec(pairs, 36).prop_map(|lists| {
        lists
            .into_iter()
            .map(|mut list| {
                list.sort_by_key(|p| p.0);
                list.dedup_by_key(|p| p.0);
                VertexInfluences::from_pairs(&list).0
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn strokes_keep_weights_normalised_and_locks_untouched(
        mut influences in grid_weights(),
        dabs in proptest::collection::vec((0_u16..6, 0.0_f32..50.0, 0.0_f32..50.0, brush()), 1..12),
        locked in proptest::collection::vec(any::<bool>(), 6),
        mirror in any::<bool>(),
    ) {
        let points: Vec<Vec2> = (0..36).map(|k| Vec2::new((k % 6) as f32 * 10.0, (k / 6) as f32 * 10.0)).collect();
        let paintable = vec![true; 36];
        let mut edges = Vec::new();
        for k in 0..36_u32 {
            if k % 6 < 5 { edges.push((k, k + 1)); }
            if k < 30 { edges.push((k, k + 6)); }
        }
        let neighbours = vertex_neighbours(36, &edges);
        // Mirror across the grid's middle column, bones 1 ↔ 2.
        let mirror_vertices: Vec<Option<u32>> = (0..36_u32).map(|k| Some(k - k % 6 + (5 - k % 6))).collect();
        let mirror_bones = [0_u16, 2, 1, 3, 4, 5];
        let target = PaintTarget {
            points: &points,
            paintable: &paintable,
            neighbours: &neighbours,
            locked: &locked,
            mirror: mirror.then_some((mirror_vertices.as_slice(), mirror_bones.as_slice())),
        };
        let before = influences.clone();
        for (bone, x, y, brush) in dabs {
            dab(&mut influences, &target, bone, Vec2::new(x, y), &brush);
        }
        for (v, (now, was)) in influences.iter().zip(&before).enumerate() {
            prop_assert!((now.total_weight() - 1.0).abs() < 1e-5, "vertex {} sums to {}", v, now.total_weight());
            prop_assert!(now.pairs().count() <= 4);
            prop_assert!(now.weights.iter().all(|w| (0.0..=1.0 + 1e-6).contains(w)));
            for bone in 0..6_u16 {
                if locked[usize::from(bone)] {
                    prop_assert!((now.weight_of(bone) - was.weight_of(bone)).abs() < 1e-5,
                        "vertex {} bone {} is locked: {} → {}", v, bone, was.weight_of(bone), now.weight_of(bone));
                }
            }
        }
    }
}

proptest! {
    /// A dab skins again only the vertices it changed: the lab's skinned
    /// positions and normals after each dab are, bit for bit, those of a
    /// fresh lab skinning the same scene whole.
    #[test]
    fn dabs_reskin_only_what_they_change_and_match_a_whole_skinning(
        brush in brush(),
        dabs in proptest::collection::vec((0.0_f32..1.0, 0.0_f32..1.0, 0_usize..3), 1..6),
        turn in -1.0_f32..1.0,
        dqs in any::<bool>(),
    ) {
        let method = if dqs { skinlab::SkinningMethod::Dqs } else { skinlab::SkinningMethod::Lbs };
        let mut lab = skinlab::Lab::example("y-junction").unwrap();
        lab.set_bone_pose(1, [0.0, 0.0, (turn / 2.0).sin(), (turn / 2.0).cos()], [0.0; 3], [1.0, 1.0 + turn.abs() * 0.3, 1.0]).unwrap();
        // Where each vertex is on a 100-pixel "screen": its rest x and y.
        let rest = lab.scene().mesh.positions_model.clone();
        let (low, high) = rest.iter().fold((glam::Vec3::MAX, glam::Vec3::MIN), |(l, h), p| (l.min(*p), h.max(*p)));
        let points: Vec<Vec2> = rest
            .iter()
            .map(|p| ((*p - low) / (high - low).max(glam::Vec3::splat(1e-6))).truncate() * 100.0)
            .collect();
        let paintable = vec![true; points.len()];
        lab.skinned(method);
        for (x, y, bone) in dabs {
            lab.paint_dab(&points, &paintable, bone, Vec2::new(x, y) * 100.0, &brush, false).unwrap();
            let whole = skinlab::Lab::new(lab.scene().clone());
            let (positions, normals) = lab.skinned(method);
            let (expected_positions, expected_normals) = whole.skinned(method);
            prop_assert_eq!(positions, expected_positions);
            prop_assert_eq!(normals, expected_normals);
        }
    }
}
