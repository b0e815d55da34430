//! Framing a scene: the camera the page opens a scene with, looking at the
//! box around everything there is to see.

use glam::{Mat4, Vec3};

use super::camera::{Camera, Projection};
use crate::lab::{Lab, SkinningMethod};

/// The view a framing asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewChoice {
    /// `"2d"`: an orthographic front view.
    Flat,
    /// `"3d"`: a perspective view from above the side.
    Solid,
    /// `"front"`: a perspective view from in front, a little to the side
    /// and above, as a face is looked at.
    Front,
    /// `"auto"`: flat for a scene that lies in one plane facing the viewer,
    /// from the front for one with morph targets (a face), else from above
    /// the side.
    Auto,
}

impl std::str::FromStr for ViewChoice {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name {
            "2d" => Ok(Self::Flat),
            "3d" => Ok(Self::Solid),
            "front" => Ok(Self::Front),
            "auto" => Ok(Self::Auto),
            _ => Err(format!(
                "unknown view '{name}'; use '2d', '3d', 'front' or 'auto'"
            )),
        }
    }
}

/// The smallest box, model space, `[min, max]`, around the mesh, every
/// bone's origin and every path's control points. A file's mesh is stored in
/// its skin's bind space, which may be scaled or turned against what is
/// drawn (a mesh under a 0.01 armature): it counts as drawn now, skinned by
/// `method`; a built scene's mesh counts at rest.
pub fn scene_bounds(lab: &Lab, method: SkinningMethod) -> [Vec3; 2] {
    let scene = lab.scene();
    let skeleton = &scene.skeleton;
    let from_file = (0..skeleton.len()).any(|b| skeleton.is_bound_elsewhere(b));
    let (positions, bones): (std::borrow::Cow<'_, [Vec3]>, &[Mat4]) = if from_file {
        (lab.skinned_positions(method), lab.model_from_bone_posed())
    } else {
        (
            std::borrow::Cow::Borrowed(&scene.mesh.positions_model[..]),
            skeleton.model_from_bone_rest(),
        )
    };
    let paths = lab
        .paths()
        .iter()
        .flat_map(|p| p.path.points().iter().copied());
    let (min, max) = positions
        .iter()
        .copied()
        .chain(bones.iter().map(|m| m.transform_point3(Vec3::ZERO)))
        .chain(paths)
        .fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(lo, hi), p| (lo.min(p), hi.max(p)),
        );
    [min, max]
}

/// Whether a box lies in one plane facing the viewer (`z` spans less than
/// 1e-4 model units).
pub fn is_planar([min, max]: [Vec3; 2]) -> bool {
    (max.z - min.z).abs() < 1e-4
}

/// The aspects (width / height) a framing fits between: a view that is
/// wider frames as if it were this wide, so that the scene still fits when
/// the view narrows as far (the side panel grows).
const FLAT_ASPECTS: (f32, f32) = (0.45, 1.25);

/// The camera that shows the whole scene ([`scene_bounds`]) as `choice`
/// asks in a view of `aspect` (width / height): orthographic for
/// [`ViewChoice::Flat`] and for a planar scene under [`ViewChoice::Auto`],
/// perspective otherwise.
pub fn frame_scene(lab: &Lab, method: SkinningMethod, choice: ViewChoice, aspect: f32) -> Camera {
    let bounds = scene_bounds(lab, method);
    let choice = match choice {
        ViewChoice::Auto if is_planar(bounds) => ViewChoice::Flat,
        ViewChoice::Auto if !lab.scene().morphs.is_empty() => ViewChoice::Front,
        ViewChoice::Auto => ViewChoice::Solid,
        chosen => chosen,
    };
    let [min, max] = bounds;
    let aspect = if aspect.is_finite() {
        aspect.clamp(FLAT_ASPECTS.0, FLAT_ASPECTS.1)
    } else {
        1.0
    };
    // A perspective framing fits a view as wide as high: a narrower one
    // (a phone held upright) steps back by as much as it is narrower.
    let mut whole = Camera::framing(min, max, Projection::Perspective);
    whole.distance /= aspect.min(1.0);
    match choice {
        ViewChoice::Flat => Camera::framing_flat(min, max, aspect),
        ViewChoice::Front => {
            // A head fills the view from the front: nothing lies beside it.
            Camera {
                yaw: 0.3,
                pitch: 0.12,
                distance: 0.8 * whole.distance,
                ..whole
            }
        }
        _ => whole,
    }
}

/// [`frame_scene`] for a view named as the page names it (`"2d"`, `"3d"`,
/// `"front"`, `"auto"`).
pub fn frame_scene_named(
    lab: &Lab,
    method: SkinningMethod,
    view: &str,
    aspect: f32,
) -> Result<Camera, FramingError> {
    let choice = view
        .parse()
        .map_err(|message| FramingError::UnknownView { message })?;
    Ok(frame_scene(lab, method, choice, aspect))
}

/// Why a framing was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FramingError {
    /// The view is not `2d`, `3d` or `auto`.
    #[error("{message}")]
    UnknownView {
        /// What was wrong, with the names known.
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn the_strip_is_planar_and_framed_flat_the_tube_in_perspective() {
        let strip = Lab::example("two-bone").unwrap();
        assert!(is_planar(scene_bounds(&strip, SkinningMethod::Lbs)));
        let camera = frame_scene(&strip, SkinningMethod::Lbs, ViewChoice::Auto, 1.5);
        assert_eq!(camera.projection, Projection::Orthographic);
        let tube = Lab::example("tube").unwrap();
        assert!(!is_planar(scene_bounds(&tube, SkinningMethod::Lbs)));
        let camera = frame_scene(&tube, SkinningMethod::Lbs, ViewChoice::Auto, 1.5);
        assert_eq!(camera.projection, Projection::Perspective);
    }

    #[test]
    fn every_vertex_and_bone_origin_of_a_framed_scene_is_on_screen() {
        // A laptop's view and a phone's; flat, also a wide view that
        // narrowed after the scene was framed in it (the panel grew).
        let both = [ViewChoice::Flat, ViewChoice::Solid];
        every_point_on_screen(Vec2::new(800.0, 600.0), 800.0 / 600.0, &both);
        every_point_on_screen(Vec2::new(390.0, 500.0), 390.0 / 500.0, &both);
        every_point_on_screen(Vec2::new(750.0, 600.0), 2.0, &[ViewChoice::Flat]);
    }

    fn every_point_on_screen(size: Vec2, framed_in: f32, choices: &[ViewChoice]) {
        for name in ["two-bone", "y-junction", "tube", "fingers", "leg", "path"] {
            let lab = Lab::example(name).unwrap();
            for &choice in choices {
                let camera = frame_scene(&lab, SkinningMethod::Lbs, choice, framed_in);
                for &p in &lab.scene().mesh.positions_model {
                    let s = camera
                        .screen_from_model(p, size)
                        .unwrap_or_else(|| panic!("{name}: {p} behind the camera"));
                    assert!(
                        (0.0..=size.x).contains(&s.x) && (0.0..=size.y).contains(&s.y),
                        "{name} {choice:?}: {p} lands at {s}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_flat_scene_fills_its_view() {
        // The path example (a fish and its S-shaped path) and the strip: the
        // box spans at least 80 % of the view's height or width.
        let size = Vec2::new(740.0, 630.0);
        for name in ["path", "two-bone", "y-junction"] {
            let lab = Lab::example(name).unwrap();
            let [min, max] = scene_bounds(&lab, SkinningMethod::Lbs);
            let camera = frame_scene(&lab, SkinningMethod::Lbs, ViewChoice::Flat, size.x / size.y);
            let (a, b) = (
                camera.screen_from_model(min, size).unwrap(),
                camera.screen_from_model(max, size).unwrap(),
            );
            let span = (b - a).abs() / size;
            assert!(
                span.max_element() >= 0.8,
                "{name}: the box spans {span} of the view"
            );
            assert!(
                span.max_element() <= 0.95,
                "{name}: a margin is left: {span}"
            );
        }
    }

    #[test]
    fn paths_count_in_the_box() {
        let lab = Lab::example("path").unwrap();
        let [min, max] = scene_bounds(&lab, SkinningMethod::Lbs);
        for p in lab.paths().iter().flat_map(|p| p.path.points().iter()) {
            assert!(p.cmpge(min).all() && p.cmple(max).all(), "{p}");
        }
    }

    #[test]
    fn an_unknown_view_is_refused_by_name() {
        let lab = Lab::example("two-bone").unwrap();
        let error = frame_scene_named(&lab, SkinningMethod::Lbs, "4d", 1.0).unwrap_err();
        assert!(error.to_string().contains("unknown view '4d'"), "{error}");
    }
}
