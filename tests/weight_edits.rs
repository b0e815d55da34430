//! The share link's weight edits: what differs from the scene as it opened,
//! through the link's bytes, rebuilds the same weights on a fresh copy.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use skinlab::formats::weight_edits::{decode, encode};
use skinlab::Lab;

proptest! {
    #[test]
    fn edits_through_the_link_bytes_rebuild_the_weights(
        edits in prop::collection::vec((0_usize..1000, 0_u32..3, 0.05_f32..1.0, 1_u32..3), 0..40)
    ) {
        let mut lab = Lab::example("y-junction").unwrap();
        lab.keep_weights_as_baseline();
        let vertices = lab.vertex_count();
        for &(vertex, a, weight, b) in &edits {
            // Two different bones (y-junction has three).
            let pairs = [(a, weight), ((a + b) % 3, 1.0 - weight)];
            lab.set_influences(vertex % vertices, &pairs).unwrap();
        }
        let changed = lab.weight_edits();
        // Exactly the vertices whose weights are not those it opened with.
        let opened = Lab::example("y-junction").unwrap();
        for vertex in 0..vertices {
            let differs = lab.influences(vertex).unwrap() != opened.influences(vertex).unwrap();
            prop_assert_eq!(differs, changed.iter().any(|(v, _)| *v as usize == vertex), "vertex {}", vertex);
        }
        let mut copy = Lab::example("y-junction").unwrap();
        copy.apply_weight_edits(&decode(&encode(&changed), vertices).unwrap()).unwrap();
        for vertex in 0..vertices {
            let bits = |lab: &Lab| lab.influences(vertex).unwrap().iter().map(|&(b, w)| (b, w.to_bits())).collect::<Vec<_>>();
            prop_assert_eq!(bits(&copy), bits(&lab), "vertex {}", vertex);
        }
    }
}

#[test]
fn a_bad_edit_changes_nothing() {
    let mut lab = Lab::example("two-bone").unwrap();
    let before = lab.scene_json();
    let edits = vec![(0, vec![(1, 1.0)]), (1, vec![(99, 1.0)])];
    assert!(lab.apply_weight_edits(&edits).is_err());
    assert_eq!(lab.scene_json(), before);
}

#[test]
fn without_a_baseline_there_are_no_edits() {
    let mut lab = Lab::example("two-bone").unwrap();
    lab.set_influences(0, &[(1, 1.0)]).unwrap();
    assert!(lab.weight_edits().is_empty());
}
