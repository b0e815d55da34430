//! The volume a skin encloses, to measure what LBS loses where DQS keeps it
//! (the engine note's "candy wrapper"). Open ends are closed first: each boundary
//! loop gets a fan of triangles to its centroid. Then, by the divergence
//! theorem, `V = Σ (a · (b × c)) / 6` over the triangles `(a, b, c)`,
//! signed tetrahedra to the origin.

use std::collections::HashMap;

use glam::Vec3;

/// The volume enclosed by the triangles `indices` over `positions`, open
/// boundary loops closed by fans to their centroids. Positive when the
/// triangles face outward (counter-clockwise seen from outside).
pub fn enclosed_volume(positions: &[Vec3], indices: &[u32]) -> f32 {
    let point = |i: u32| positions.get(i as usize).copied().unwrap_or(Vec3::ZERO);
    let tetra = |a: Vec3, b: Vec3, c: Vec3| a.dot(b.cross(c)) as f64 / 6.0;
    let mut volume = 0.0_f64;
    // Directed edges; an edge with no opposite twin lies on a boundary.
    let mut directed: HashMap<(u32, u32), usize> = HashMap::new();
    for triangle in indices.chunks_exact(3) {
        let [a, b, c] = [triangle[0], triangle[1], triangle[2]];
        volume += tetra(point(a), point(b), point(c));
        for edge in [(a, b), (b, c), (c, a)] {
            *directed.entry(edge).or_insert(0) += 1;
        }
    }
    // Boundary edges reversed form the caps' edges: next[b] = a for a
    // boundary edge a → b, walked into loops.
    let mut next: HashMap<u32, u32> = HashMap::new();
    for &(a, b) in directed.keys() {
        if !directed.contains_key(&(b, a)) {
            next.insert(b, a);
        }
    }
    while let Some(&start) = next.keys().next() {
        let mut chain = vec![start];
        let mut current = start;
        while let Some(following) = next.remove(&current) {
            if following == start {
                break;
            }
            chain.push(following);
            current = following;
        }
        if chain.len() < 3 {
            continue;
        }
        let centroid = chain.iter().map(|&i| point(i)).sum::<Vec3>() / chain.len() as f32;
        for k in 0..chain.len() {
            let (a, b) = (chain[k], chain[(k + 1) % chain.len()]);
            volume += tetra(point(a), point(b), centroid);
        }
    }
    volume as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit cube, outward faces, or with its top open.
    fn cube(open_top: bool) -> (Vec<Vec3>, Vec<u32>) {
        let positions: Vec<Vec3> = (0..8)
            .map(|k| Vec3::new((k & 1) as f32, ((k >> 1) & 1) as f32, ((k >> 2) & 1) as f32))
            .collect();
        let quads: [[u32; 4]; 6] = [
            [0, 2, 3, 1], // z = 0, facing −z
            [4, 5, 7, 6], // z = 1
            [0, 1, 5, 4], // y = 0
            [2, 6, 7, 3], // y = 1 (the top)
            [0, 4, 6, 2], // x = 0
            [1, 3, 7, 5], // x = 1
        ];
        let indices = quads
            .iter()
            .filter(|q| !(open_top && q == &&[2, 6, 7, 3]))
            .flat_map(|q| [q[0], q[1], q[2], q[0], q[2], q[3]])
            .collect();
        (positions, indices)
    }

    #[test]
    fn a_unit_cube_holds_one_closed_or_open() {
        let (positions, indices) = cube(false);
        assert!((enclosed_volume(&positions, &indices) - 1.0).abs() < 1e-6);
        let (positions, indices) = cube(true);
        assert!(
            (enclosed_volume(&positions, &indices) - 1.0).abs() < 1e-6,
            "the open top is closed by a fan"
        );
        let moved: Vec<Vec3> = positions
            .iter()
            .map(|p| *p + Vec3::new(3.0, -2.0, 5.0))
            .collect();
        assert!(
            (enclosed_volume(&moved, &indices) - 1.0).abs() < 1e-5,
            "independent of where it is"
        );
    }
}
