//! Polygons cut into triangles, as FBX and OBJ files hold them: convex
//! ones as fans, concave ones by ear clipping in their plane.

use glam::{DVec2, DVec3};

/// The most corners of a polygon cut by ear clipping; a larger one (only
/// a hostile file has one) is a fan, so that the clipper's memory stays
/// bounded by this polygon size whatever the file declares.
pub const MAX_CLIPPED_CORNERS: usize = 1 << 16;

/// What [`triangulate`] keeps between polygons: the ear clipper and its
/// buffers.
#[derive(Default)]
pub struct Ears {
    earcut: earcut::Earcut<f64>,
    flat: Vec<DVec2>,
    corners: Vec<u32>,
}

/// Appends the triangles of one polygon (its vertices, in order) to
/// `triangles`: a convex polygon as a fan from its first corner; a concave
/// one by ear clipping in its plane (mapbox's earcut, which three.js's
/// `FBXLoader` also uses: corners on a straight line or repeated may make
/// fewer than `n − 2` triangles), or as a fan where fewer ears do not
/// cover the polygon's area (a polygon that crosses itself, as a twisted
/// quad does, which clipping would leave with holes).
pub fn triangulate(
    polygon: &[u32],
    positions: &[DVec3],
    ears: &mut Ears,
    triangles: &mut Vec<u32>,
) {
    let n = polygon.len();
    let fan = |triangles: &mut Vec<u32>| {
        for k in 1..n.saturating_sub(1) {
            triangles.extend([polygon[0], polygon[k], polygon[k + 1]]);
        }
    };
    if n <= 3 || n > MAX_CLIPPED_CORNERS {
        return fan(triangles);
    }
    let point = |k: usize| positions[polygon[k] as usize];
    // Newell's normal, and the polygon in a plane across it.
    let normal = (0..n).fold(DVec3::ZERO, |sum, k| {
        let (a, b) = (point(k), point((k + 1) % n));
        sum + DVec3::new(
            (a.y - b.y) * (a.z + b.z),
            (a.z - b.z) * (a.x + b.x),
            (a.x - b.x) * (a.y + b.y),
        )
    });
    let Some(normal) = normal.try_normalize() else {
        return fan(triangles);
    };
    let u = normal.any_orthonormal_vector();
    let v = normal.cross(u);
    ears.flat.clear();
    ears.flat
        .extend((0..n).map(|k| DVec2::new(point(k).dot(u), point(k).dot(v))));
    // Twice the signed area of the triangle of corners `i j k` in the plane.
    let twice = |[i, j, k]: [usize; 3]| {
        let [a, b, c] = [i, j, k].map(|i| ears.flat[i]);
        (b - a).perp_dot(c - a)
    };
    if (0..n).all(|k| twice([k, (k + 1) % n, (k + 2) % n]) >= 0.0) {
        return fan(triangles);
    }
    let mut corners = std::mem::take(&mut ears.corners);
    ears.earcut.earcut(
        ears.flat.iter().map(|p| p.to_array()),
        &[] as &[u32],
        &mut corners,
    );
    let ear = |t: &[u32]| twice([t[0], t[1], t[2]].map(|k| k as usize));
    // Twice the polygon's area (shoelace), and what its ears cover.
    let whole: f64 = (0..n)
        .map(|k| ears.flat[k].perp_dot(ears.flat[(k + 1) % n]))
        .sum();
    let ears_cover: f64 = corners.chunks_exact(3).map(|t| ear(t).abs()).sum();
    let covers = (ears_cover - whole.abs()).abs() <= 1e-3 * whole.abs();
    if corners.len() == 3 * (n - 2) || (!corners.is_empty() && covers) {
        // Each triangle wound as the polygon is (earcut winds its own way).
        for t in corners.chunks_exact(3) {
            let [i, j, k] = [t[0], t[1], t[2]].map(|k| polygon[k as usize]);
            triangles.extend(if ear(t) < 0.0 { [i, k, j] } else { [i, j, k] });
        }
    } else {
        fan(triangles);
    }
    ears.corners = corners;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The triangles of the polygon `points` (its vertices 0, 1, …).
    fn triangles_of(points: &[[f64; 3]]) -> Vec<[u32; 3]> {
        let positions: Vec<DVec3> = points.iter().map(|&p| DVec3::from(p)).collect();
        let polygon: Vec<u32> = (0..points.len() as u32).collect();
        let mut out = Vec::new();
        triangulate(&polygon, &positions, &mut Ears::default(), &mut out);
        out.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect()
    }

    /// Twice the signed area of triangle `t` in the XY plane.
    fn area(points: &[[f64; 3]], t: [u32; 3]) -> f64 {
        let [a, b, c] = t.map(|k| points[k as usize]);
        (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    }

    #[test]
    fn a_concave_polygon_is_clipped_into_ears_wound_as_it_is() {
        // An L of three unit squares, counter-clockwise: a fan from its
        // first corner would cover the notch.
        let l = [
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 1.0, 0.0],
            [1.0, 1.0, 0.0],
            [1.0, 2.0, 0.0],
            [0.0, 2.0, 0.0],
        ];
        let triangles = triangles_of(&l);
        assert_eq!(triangles.len(), 4);
        assert!(
            triangles.iter().all(|&t| area(&l, t) > 0.0),
            "{triangles:?}"
        );
        let covered: f64 = triangles.iter().map(|&t| area(&l, t)).sum();
        assert!(
            (covered - 6.0).abs() < 1e-12,
            "three squares, twice: {covered}"
        );
        // Wound the other way, each triangle is too.
        let mut reversed = l;
        reversed.reverse();
        assert!(triangles_of(&reversed)
            .iter()
            .all(|&t| area(&reversed, t) < 0.0));
    }

    #[test]
    fn a_twisted_quad_keeps_both_its_triangles() {
        // A quad that crosses itself: ear clipping finds one triangle and
        // would leave a hole; the fan keeps two.
        let bow_tie = [
            [0.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
        ];
        assert_eq!(triangles_of(&bow_tie), vec![[0, 1, 2], [0, 2, 3]]);
    }

    #[test]
    fn a_polygon_past_the_clipping_limit_is_a_fan() {
        // A saw of teeth, concave, one corner past the limit.
        let n = MAX_CLIPPED_CORNERS + 1;
        let saw: Vec<[f64; 3]> = (0..n)
            .map(|k| [k as f64, if k % 2 == 0 { 0.0 } else { 1.0 }, 0.0])
            .collect();
        let triangles = triangles_of(&saw);
        assert_eq!(triangles.len(), n - 2);
        assert!(triangles
            .iter()
            .enumerate()
            .all(|(k, t)| *t == [0, k as u32 + 1, k as u32 + 2]));
    }

    #[test]
    fn a_convex_polygon_is_a_fan_from_its_first_corner() {
        let pentagon: Vec<[f64; 3]> = (0..5)
            .map(|k| {
                let a = f64::from(k) * std::f64::consts::TAU / 5.0;
                [a.cos(), 0.0, -a.sin()]
            })
            .collect();
        assert_eq!(
            triangles_of(&pentagon),
            vec![[0, 1, 2], [0, 2, 3], [0, 3, 4]]
        );
    }
}
