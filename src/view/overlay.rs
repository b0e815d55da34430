//! Geometry of the teaching overlays, in model space: bones in the familiar
//! octahedral shape, and the two frames each bone owns.

use glam::{Mat4, Vec2, Vec3};

use super::camera::Camera;
use crate::lab::Lab;

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

/// A bone glyph's least length on screen, CSS pixels: the size of a
/// pointer target that WCAG 2.2 asks for (24 px), so that every bone can be
/// seen and grabbed however short it is or however far the view zoomed out.
pub const MIN_GLYPH_PIXELS: f32 = 24.0;

/// Every bone's glyph, model space, drawn with its joint's scale taken out:
/// an octahedron from the bone's origin toward its tip (where its children
/// start) as long as that distance in model space, widest (`0.09 ·` its
/// length) at a fifth of the way, in the frame's directions made
/// orthonormal. Lengths are at most half of the skeleton's size (the
/// diagonal of the box around the posed origins and tips) and at least a
/// quarter of the median bone's, so a joint scaled by 100 or an armature
/// root far from the mesh does not fill the view, and a zero-length bone is
/// a small diamond. `least(origin)` is the least length a glyph at
/// `origin` takes, model units: a bone short or far on screen still shows
/// (and is grabbed) at a size a pointer can hit ([`MIN_GLYPH_PIXELS`]).
pub fn bone_glyphs(
    frames: &[Mat4],
    lengths: &[f32],
    least: impl Fn(Vec3) -> f32,
) -> Vec<[Vec3; OCTAHEDRON_CORNERS]> {
    let ends: Vec<(Vec3, Vec3)> = frames
        .iter()
        .zip(lengths)
        .map(|(frame, &length)| {
            (
                frame.transform_point3(Vec3::ZERO),
                frame.transform_point3(Vec3::new(0.0, length, 0.0)),
            )
        })
        .collect();
    let (min, max) = ends.iter().flat_map(|&(a, b)| [a, b]).fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(p), hi.max(p)),
    );
    let size = (max - min).length();
    let size = if size.is_finite() && size > 0.0 {
        size
    } else {
        1.0
    };
    let mut model_lengths: Vec<f32> = ends
        .iter()
        .map(|&(a, b)| a.distance(b))
        .filter(|l| *l > 0.0 && l.is_finite())
        .collect();
    model_lengths.sort_unstable_by(f32::total_cmp);
    let floor = model_lengths
        .get(model_lengths.len() / 2)
        .map_or(0.02 * size, |median| 0.25 * median);
    frames
        .iter()
        .zip(&ends)
        .map(|(frame, &(origin, tip))| {
            let along = tip - origin;
            let y = along
                .try_normalize()
                .or_else(|| frame.y_axis.truncate().try_normalize())
                .unwrap_or(Vec3::Y);
            let x = (frame.x_axis.truncate() - y * frame.x_axis.truncate().dot(y))
                .try_normalize()
                .unwrap_or_else(|| y.any_orthonormal_vector());
            let z = x.cross(y);
            let length = along.length().max(floor).min(0.5 * size).max(least(origin));
            let (neck, width) = (0.2 * length, 0.09 * length);
            [
                origin,
                origin + y * length,
                origin + x * width + y * neck,
                origin - z * width + y * neck,
                origin - x * width + y * neck,
                origin + z * width + y * neck,
            ]
        })
        .collect()
}

/// Every bone's glyph as the view draws it, posed, through `camera` in a
/// view of `viewport` CSS pixels: none shorter on screen than
/// [`MIN_GLYPH_PIXELS`]. Drawing and picking both use it, so a bone is
/// grabbed where it is seen.
pub fn posed_bone_glyphs(
    lab: &Lab,
    camera: &Camera,
    viewport: Vec2,
) -> Vec<[Vec3; OCTAHEDRON_CORNERS]> {
    let least = |point: Vec3| MIN_GLYPH_PIXELS * camera.units_per_pixel(point, viewport);
    bone_glyphs(
        lab.model_from_bone_posed(),
        &lab.scene().skeleton.lengths(),
        least,
    )
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

#[cfg(test)]
mod glyph_tests {
    use super::*;
    use glam::Quat;

    fn extent(corners: &[Vec3; OCTAHEDRON_CORNERS]) -> f32 {
        corners
            .iter()
            .flat_map(|a| corners.iter().map(move |b| a.distance(*b)))
            .fold(0.0, f32::max)
    }

    #[test]
    fn a_joint_scaled_by_100_draws_as_large_as_its_bone_is_long_in_the_model() {
        // Two bones 1 model unit long each; the second carries a scale of
        // 100 and a local length of 0.01.
        let plain = [Mat4::IDENTITY, Mat4::from_translation(Vec3::Y)];
        let scaled = [
            Mat4::IDENTITY,
            Mat4::from_scale_rotation_translation(Vec3::splat(100.0), Quat::IDENTITY, Vec3::Y),
        ];
        let a = bone_glyphs(&plain, &[1.0, 1.0], |_| 0.0);
        let b = bone_glyphs(&scaled, &[1.0, 0.01], |_| 0.0);
        assert!(
            (extent(&a[1]) - extent(&b[1])).abs() < 1e-4,
            "{} {}",
            extent(&a[1]),
            extent(&b[1])
        );
        // The old drawing: the octahedron in the scaled frame is 100 times wider.
        let old = octahedron_model(&scaled[1], 0.01);
        assert!(extent(&old) > 3.0 * extent(&b[1]));
    }

    #[test]
    fn a_zero_length_root_is_a_small_diamond_and_no_glyph_outgrows_half_the_skeleton() {
        let frames = [
            Mat4::from_translation(Vec3::new(0.0, -50.0, 0.0)),
            Mat4::IDENTITY,
            Mat4::from_translation(Vec3::Y),
        ];
        let glyphs = bone_glyphs(&frames, &[0.0, 1.0, 1.0], |_| 0.0);
        let size = 52.0_f32;
        // A quarter of the median bone (1 unit long).
        assert!(extent(&glyphs[0]) <= 0.26, "{}", extent(&glyphs[0]));
        assert!(glyphs.iter().all(|g| extent(g) <= 0.5 * size + 1e-3));
    }

    #[test]
    fn every_glyph_is_at_least_its_least_length_on_screen_at_its_depth_however_far_the_view() {
        use crate::lab::SkinningMethod;
        use crate::view::framing::{frame_scene, ViewChoice};
        let viewport = Vec2::new(800.0, 600.0);
        for name in ["two-bone", "tail", "fingers", "leg"] {
            let lab = Lab::example(name).unwrap();
            for choice in [ViewChoice::Flat, ViewChoice::Solid] {
                let mut camera = frame_scene(&lab, SkinningMethod::Lbs, choice, 4.0 / 3.0);
                for zoom in [1.0, 20.0] {
                    camera.distance *= zoom;
                    for corners in posed_bone_glyphs(&lab, &camera, viewport) {
                        let origin = corners[0];
                        let shown = corners[0].distance(corners[1])
                            / camera.units_per_pixel(origin, viewport);
                        assert!(
                            shown >= MIN_GLYPH_PIXELS - 0.01,
                            "{name} {choice:?} ×{zoom}: {shown} px"
                        );
                    }
                }
            }
        }
    }
}
