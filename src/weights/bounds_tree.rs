//! A bounding-volume hierarchy over boxes, for asking whether a segment
//! hits any of many primitives (bone heat's visibility test) in about
//! `log n` box tests instead of one test per primitive.

use glam::Vec3;

/// Primitives a leaf holds at most.
const LEAF_SIZE: usize = 4;

#[derive(Clone, Copy, Debug)]
struct Node {
    min: Vec3,
    max: Vec3,
    /// A leaf: `order[first..first + count]`; an inner node (`count == 0`):
    /// its left child is the next node and its right child is `first`.
    first: u32,
    count: u32,
}

/// A hierarchy of axis-aligned boxes, split at the median of the longest
/// axis of their centres.
#[derive(Clone, Debug)]
pub struct BoundsTree {
    nodes: Vec<Node>,
    order: Vec<u32>,
}

impl BoundsTree {
    /// Builds the hierarchy over `boxes[i] = (min, max)` of primitive `i`.
    pub fn new(boxes: &[(Vec3, Vec3)]) -> Self {
        let mut tree = Self {
            nodes: Vec::with_capacity(2 * boxes.len() / LEAF_SIZE + 1),
            order: (0..boxes.len() as u32).collect(),
        };
        if boxes.is_empty() {
            return tree;
        }
        // An explicit stack of (node, first, end): no recursion depth to
        // worry about, whatever the mesh.
        tree.nodes.push(bounds(boxes, &tree.order));
        let mut stack = vec![(0usize, 0usize, boxes.len())];
        while let Some((node, first, end)) = stack.pop() {
            let count = end - first;
            if count <= LEAF_SIZE {
                tree.nodes[node].first = first as u32;
                tree.nodes[node].count = count as u32;
                continue;
            }
            let centre = |i: u32| (boxes[i as usize].0 + boxes[i as usize].1) * 0.5;
            let (low, high) = tree.order[first..end].iter().fold(
                (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
                |(lo, hi), &i| (lo.min(centre(i)), hi.max(centre(i))),
            );
            let extent = high - low;
            let axis = if extent.x >= extent.y && extent.x >= extent.z {
                0
            } else if extent.y >= extent.z {
                1
            } else {
                2
            };
            let middle = first + count / 2;
            tree.order[first..end].select_nth_unstable_by(count / 2, |&a, &b| {
                centre(a)[axis].total_cmp(&centre(b)[axis])
            });
            let left = tree.nodes.len();
            tree.nodes.push(bounds(boxes, &tree.order[first..middle]));
            let right = tree.nodes.len();
            tree.nodes.push(bounds(boxes, &tree.order[middle..end]));
            // Inner nodes keep their children's indices apart: left is the
            // `first` of the pair below, right follows it.
            tree.nodes[node].first = left as u32;
            tree.nodes[node].count = 0;
            debug_assert_eq!(right, left + 1);
            stack.push((right, middle, end));
            stack.push((left, first, middle));
        }
        tree
    }

    /// Whether `hit(i)` holds for some primitive `i` whose box the segment
    /// `from..to` passes through.
    pub fn any_on_segment(&self, from: Vec3, to: Vec3, mut hit: impl FnMut(u32) -> bool) -> bool {
        if self.nodes.is_empty() {
            return false;
        }
        let direction = to - from;
        let inverse = direction.recip();
        let mut stack = vec![0usize];
        while let Some(index) = stack.pop() {
            let node = &self.nodes[index];
            if !segment_meets_box(from, inverse, node.min, node.max) {
                continue;
            }
            if node.count > 0 {
                let span = node.first as usize..(node.first + node.count) as usize;
                if self.order[span].iter().any(|&i| hit(i)) {
                    return true;
                }
            } else {
                stack.push(node.first as usize + 1);
                stack.push(node.first as usize);
            }
        }
        false
    }
}

fn bounds(boxes: &[(Vec3, Vec3)], members: &[u32]) -> Node {
    let (min, max) = members.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), &i| (lo.min(boxes[i as usize].0), hi.max(boxes[i as usize].1)),
    );
    Node {
        min,
        max,
        first: 0,
        count: 0,
    }
}

/// The slab test for the segment `from + t · d`, `t ∈ [0, 1]`, given
/// `inverse = 1 / d` (infinite along an axis the segment does not move on),
/// against a box grown by a hair so touching counts.
fn segment_meets_box(from: Vec3, inverse: Vec3, min: Vec3, max: Vec3) -> bool {
    let pad = (max - min).max_element() * 1e-5 + 1e-7;
    let (min, max) = (min - Vec3::splat(pad), max + Vec3::splat(pad));
    let mut enter = 0.0f32;
    let mut leave = 1.0f32;
    for axis in 0..3 {
        if inverse[axis].is_infinite() {
            if from[axis] < min[axis] || from[axis] > max[axis] {
                return false;
            }
            continue;
        }
        let t0 = (min[axis] - from[axis]) * inverse[axis];
        let t1 = (max[axis] - from[axis]) * inverse[axis];
        enter = enter.max(t0.min(t1));
        leave = leave.min(t0.max(t1));
        if enter > leave {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box(centre: Vec3) -> (Vec3, Vec3) {
        (centre - Vec3::splat(0.1), centre + Vec3::splat(0.1))
    }

    #[test]
    fn never_misses_a_box_the_segment_passes() {
        // A 3D lattice of small boxes; segments in many directions. Every
        // box a scan finds on the segment is offered to the callback (which
        // makes the exact test), and the callback can stop the walk.
        let mut boxes = Vec::new();
        for x in 0..9 {
            for y in 0..7 {
                for z in 0..5 {
                    boxes.push(unit_box(Vec3::new(x as f32, y as f32, z as f32 * 0.5)));
                }
            }
        }
        let tree = BoundsTree::new(&boxes);
        let exact = |a: Vec3, b: Vec3, i: usize| {
            segment_meets_box(a, (b - a).recip(), boxes[i].0, boxes[i].1)
        };
        let mut offered_total = 0;
        for k in 0..200 {
            let a = Vec3::new(
                (k % 9) as f32,
                ((k * 3) % 7) as f32 + 0.5,
                (k % 5) as f32 * 0.3,
            );
            let b = Vec3::new(
                ((k * 7) % 9) as f32 + 0.3,
                (k % 7) as f32,
                ((k * 2) % 5) as f32 * 0.4,
            );
            let scanned: Vec<usize> = (0..boxes.len()).filter(|&i| exact(a, b, i)).collect();
            let mut offered = Vec::new();
            assert!(!tree.any_on_segment(a, b, |i| {
                offered.push(i as usize);
                false
            }));
            offered_total += offered.len();
            let mut found: Vec<usize> = offered.into_iter().filter(|&i| exact(a, b, i)).collect();
            found.sort_unstable();
            assert_eq!(found, scanned, "segment {k}");
            if let Some(&first) = scanned.first() {
                assert!(tree.any_on_segment(a, b, |i| i as usize == first));
            }
        }
        // Far fewer boxes offered than a scan tests.
        assert!(offered_total < 200 * boxes.len() / 4, "{offered_total}");
    }

    #[test]
    fn an_empty_hierarchy_hits_nothing() {
        assert!(!BoundsTree::new(&[]).any_on_segment(Vec3::ZERO, Vec3::ONE, |_| true));
    }
}
