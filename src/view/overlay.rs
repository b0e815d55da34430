//! Geometry of the teaching overlays, in model space: bones in the familiar
//! octahedral shape, and the two frames each bone owns.

use glam::{Mat4, Vec3};

/// Corners of a bone's octahedron: origin, tip, then four around the neck.
pub const OCTAHEDRON_CORNERS: usize = 6;

/// The octahedron's eight faces, counter-clockwise seen from outside.
pub const OCTAHEDRON_TRIANGLES: [[u16; 3]; 8] = [
    [0, 3, 2],
    [0, 4, 3],
    [0, 5, 4],
    [0, 2, 5],
    [1, 2, 3],
    [1, 3, 4],
    [1, 4, 5],
    [1, 5, 2],
];

/// The octahedron's twelve edges, for an outline.
pub const OCTAHEDRON_EDGES: [[u16; 2]; 12] = [
    [0, 2],
    [0, 3],
    [0, 4],
    [0, 5],
    [1, 2],
    [1, 3],
    [1, 4],
    [1, 5],
    [2, 3],
    [3, 4],
    [4, 5],
    [5, 2],
];

/// Corners of bone's octahedron in model space: in the bone's own frame it
/// runs from the origin to `(0, length, 0)`, widest (`0.09 · length`) at a
/// fifth of the way. A zero-length bone is drawn as a small diamond.
pub fn octahedron_model(model_from_bone: &Mat4, length: f32) -> [Vec3; OCTAHEDRON_CORNERS] {
    let length = length.max(0.05);
    let (neck, width) = (0.2 * length, 0.09 * length);
    [
        Vec3::ZERO,
        Vec3::new(0.0, length, 0.0),
        Vec3::new(width, neck, 0.0),
        Vec3::new(0.0, neck, -width),
        Vec3::new(-width, neck, 0.0),
        Vec3::new(0.0, neck, width),
    ]
    .map(|corner| model_from_bone.transform_point3(corner))
}

/// The three unit axes of a frame as model-space segments from its origin,
/// each `size` long: `[origin, origin + size · axis]` for x, y, z.
pub fn frame_axes(model_from_frame: &Mat4, size: f32) -> [[Vec3; 2]; 3] {
    let origin = model_from_frame.transform_point3(Vec3::ZERO);
    [Vec3::X, Vec3::Y, Vec3::Z].map(|axis| {
        let direction = model_from_frame
            .transform_vector3(axis)
            .try_normalize()
            .unwrap_or(axis);
        [origin, origin + direction * size]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_octahedron_spans_the_bone_and_faces_outwards() {
        let frame = Mat4::from_translation(Vec3::new(1.0, 0.0, 0.0));
        let corners = octahedron_model(&frame, 2.0);
        assert_eq!(corners[0], Vec3::new(1.0, 0.0, 0.0));
        assert_eq!(corners[1], Vec3::new(1.0, 2.0, 0.0));
        let centre = corners.iter().sum::<Vec3>() / 6.0;
        for [a, b, c] in OCTAHEDRON_TRIANGLES.map(|t| t.map(|k| corners[k as usize])) {
            let normal = (b - a).cross(c - a);
            assert!(normal.dot((a + b + c) / 3.0 - centre) > 0.0);
        }
    }
}
