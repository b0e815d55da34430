//! The core's sorts, through a few shared instances (in the lowest layer,
//! so every layer can use them).
//!
//! Every `sort_by` with its own closure is a new copy of the standard
//! library's sort in the wasm (its driftsort and ipnsort are 3–7 KB of code
//! per element type and comparison): twenty call sites made 79 KB of code,
//! 24 KB of the module's gzip size. The core sorts through these instead:
//! floats, `(key, index)` pairs, and a stable insertion sort for the short
//! lists (a vertex's influences, a frame's riders) that never grow past a
//! few dozen entries.

use std::cmp::Ordering;

/// Sorts `values` increasing in `f32::total_cmp`'s order (−0 before +0,
/// NaN last).
pub fn sort_floats(values: &mut [f32]) {
    values.sort_unstable_by(f32::total_cmp);
}

/// Sorts `(key, index)` pairs by key (`f32::total_cmp`), then by index.
///
/// With distinct indices the order is total, so the result is the one a
/// stable sort by key gives to pairs listed in index order: callers that
/// need "largest first, equal ones as given" sort `(−key, position)`.
pub fn sort_keyed(pairs: &mut [(f32, u32)]) {
    pairs.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
}

/// Stable insertion sort by `key`: `O(n²)` comparisons, for lists of a few
/// dozen entries at most, and a few hundred bytes of code per use instead
/// of a standard sort's kilobytes.
pub fn sort_short_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    for end in 1..items.len() {
        let mut k = end;
        while k > 0 && key(&items[k - 1]).cmp(&key(&items[k])) == Ordering::Greater {
            items.swap(k - 1, k);
            k -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn short_sort_is_the_standard_stable_sort(items in prop::collection::vec((0_u8..6, any::<u16>()), 0..40)) {
            let mut expected = items.clone();
            expected.sort_by_key(|&(key, _)| key);
            let mut sorted = items;
            sort_short_by_key(&mut sorted, |&(key, _)| key);
            prop_assert_eq!(sorted, expected);
        }

        #[test]
        fn keyed_sort_is_a_stable_sort_by_key(keys in prop::collection::vec(-3_i8..3, 0..60)) {
            let mut pairs: Vec<(f32, u32)> =
                keys.iter().enumerate().map(|(k, &key)| (f32::from(key), k as u32)).collect();
            let mut expected = pairs.clone();
            expected.sort_by(|a, b| a.0.total_cmp(&b.0));
            sort_keyed(&mut pairs);
            prop_assert_eq!(pairs, expected);
        }

        #[test]
        fn floats_sort_in_total_order(values in prop::collection::vec(any::<f32>(), 0..60)) {
            let mut sorted = values;
            sort_floats(&mut sorted);
            prop_assert!(sorted.windows(2).all(|w| w[0].total_cmp(&w[1]) != Ordering::Greater));
        }
    }
}
