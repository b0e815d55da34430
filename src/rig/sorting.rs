//! The core's sorts, through a few shared instances (in the lowest layer,
//! so every layer can use them).
//!
//! Every `sort_by` with its own closure is a new copy of the standard
//! library's sort in the wasm (its driftsort and ipnsort are 3–7 KB of code
//! per element type and comparison): twenty call sites made 79 KB of code,
//! 24 KB of the module's gzip size. The core sorts through these instead:
//! floats, `(key, index)` pairs, and a small stable merge sort for lists
//! of indices (a vertex's neighbours, a frame's riders).

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

/// Stable sort by `key`: runs of 16 by insertion, then merged bottom-up
/// through one buffer, so `O(n log n)` for any length (a hub vertex's
/// thousands of neighbours, a list of every bone) and a few hundred bytes
/// of code per use instead of a standard sort's kilobytes. A list of 16 or
/// fewer (a vertex's neighbours, its tied bones) allocates nothing.
pub fn sort_stable_by_key<T: Copy, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    const RUN: usize = 16;
    for run in items.chunks_mut(RUN) {
        for end in 1..run.len() {
            let mut k = end;
            while k > 0 && key(&run[k - 1]) > key(&run[k]) {
                run.swap(k - 1, k);
                k -= 1;
            }
        }
    }
    if items.len() <= RUN {
        return;
    }
    let mut merged: Vec<T> = Vec::with_capacity(items.len());
    let mut width = RUN;
    while width < items.len() {
        merged.clear();
        for pair in items.chunks(2 * width) {
            let (mut left, mut right) = pair.split_at(width.min(pair.len()));
            // The left one on ties: equal keys keep their order.
            while let (Some(l), Some(r)) = (left.first(), right.first()) {
                if key(r) < key(l) {
                    merged.push(*r);
                    right = &right[1..];
                } else {
                    merged.push(*l);
                    left = &left[1..];
                }
            }
            merged.extend_from_slice(left);
            merged.extend_from_slice(right);
        }
        items.copy_from_slice(&merged);
        width *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn merge_sort_is_the_standard_stable_sort(items in prop::collection::vec((0_u8..6, any::<u16>()), 0..200)) {
            let mut expected = items.clone();
            expected.sort_by_key(|&(key, _)| key);
            let mut sorted = items;
            sort_stable_by_key(&mut sorted, |&(key, _)| key);
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
            prop_assert!(sorted.windows(2).all(|w| w[0].total_cmp(&w[1]) != std::cmp::Ordering::Greater));
        }
    }
}
