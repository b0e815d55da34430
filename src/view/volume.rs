//! A point inside the mesh under the pointer, as Blender's volume snapping
//! and Mixamo's markers place a joint: the ray through the pointer enters
//! the surface first and leaves it last; the joint goes midway between.

use glam::{Vec2, Vec3};

use super::camera::Camera;

/// The model-space ray through `point` (CSS pixels, y down) of a canvas of
/// `viewport` CSS pixels: its start on the near plane and its unit
/// direction.
pub fn ray_at(camera: &Camera, point: Vec2, viewport: Vec2) -> Option<(Vec3, Vec3)> {
    let model_from_clip = camera.clip_from_model(viewport).inverse();
    let ndc = Vec2::new(
        2.0 * point.x / viewport.x.max(1.0) - 1.0,
        1.0 - 2.0 * point.y / viewport.y.max(1.0),
    );
    let near = model_from_clip.project_point3(ndc.extend(-1.0));
    let far = model_from_clip.project_point3(ndc.extend(1.0));
    let direction = (far - near).try_normalize()?;
    near.is_finite().then_some((near, direction))
}

/// The distance along the ray `origin + t · direction` at which it crosses
/// triangle `(a, b, c)` (either side), if it does at `t > 0`
/// (Möller–Trumbore).
fn crossing(origin: Vec3, direction: Vec3, [a, b, c]: [Vec3; 3]) -> Option<f32> {
    let (ab, ac) = (b - a, c - a);
    let p = direction.cross(ac);
    let det = ab.dot(p);
    if det.abs() < 1e-12 {
        return None;
    }
    let to_origin = origin - a;
    let u = to_origin.dot(p) / det;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = to_origin.cross(ab);
    let v = direction.dot(q) / det;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = ac.dot(q) / det;
    (t > 0.0).then_some(t)
}

/// The point midway between where the ray first enters the triangles
/// `indices` of `positions` and where it last leaves them; `None` when it
/// misses them all. A ray that touches the surface once gives that point.
pub fn volume_point(
    positions: &[Vec3],
    indices: &[u32],
    origin: Vec3,
    direction: Vec3,
) -> Option<Vec3> {
    let mut range: Option<(f32, f32)> = None;
    for triangle in indices.chunks_exact(3) {
        let corners = [0, 1, 2].map(|k| positions[triangle[k] as usize]);
        if let Some(t) = crossing(origin, direction, corners) {
            range = Some(range.map_or((t, t), |(lo, hi)| (lo.min(t), hi.max(t))));
        }
    }
    range.map(|(first, last)| origin + direction * (0.5 * (first + last)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::camera::Projection;

    #[test]
    fn a_ray_through_a_box_gives_the_middle_of_its_depth() {
        let (points, indices) =
            crate::skin::mesh::test_box(Vec3::new(-1.0, -1.0, 2.0), Vec3::new(1.0, 1.0, 6.0), 0);
        let hit = volume_point(&points, &indices, Vec3::new(0.3, -0.2, 0.0), Vec3::Z).unwrap();
        assert!(hit.distance(Vec3::new(0.3, -0.2, 4.0)) < 1e-5, "{hit}");
        assert!(volume_point(&points, &indices, Vec3::new(3.0, 0.0, 0.0), Vec3::Z).is_none());
    }

    #[test]
    fn the_ray_under_the_pointer_passes_where_the_point_is_drawn() {
        let camera = Camera::framing(Vec3::splat(-1.0), Vec3::splat(1.0), Projection::Perspective);
        let viewport = Vec2::new(800.0, 600.0);
        let point = Vec3::new(0.3, 0.4, -0.2);
        let screen = camera.screen_from_model(point, viewport).unwrap();
        let (origin, direction) = ray_at(&camera, screen, viewport).unwrap();
        let along = (point - origin).dot(direction);
        assert!((origin + direction * along).distance(point) < 1e-3);
    }
}
