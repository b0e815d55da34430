//! The view as a vector figure, for print (LaTeX, PDF handouts): the skin's
//! triangles as filled paths (back faces culled, drawn far to near, the
//! painter's order), their edges when the wireframe is shown, and the bones
//! as kites from origin to tip. Screen coordinates are the canvas's CSS
//! pixels, `y` down, as the page's own overlay layers use, so the page can
//! put those (labels as real text) on top.

use std::fmt::Write;

use glam::{Vec2, Vec3};

use super::camera::{screen_with_depth, Camera};
use super::colours::{blended_vertex_colours, heat_colours, FLAT_FILL, LIT_FILL};
use super::state::{Overlays, WeightView};
use crate::lab::{Lab, SkinningMethod};

/// One triangle of the skin on screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SvgTriangle {
    /// Its corners, CSS pixels.
    pub corners: [Vec2; 3],
    /// Its mean depth (normalised device `z`: larger is farther).
    pub depth: f32,
    /// Its fill, RGB 0–1.
    pub fill: [f32; 3],
}

/// What the figure shows.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SvgFigure {
    /// CSS pixels.
    pub width: f32,
    /// CSS pixels.
    pub height: f32,
    /// The skin, in any order.
    pub triangles: Vec<SvgTriangle>,
    /// Whether to stroke the triangles' edges.
    pub wireframe: bool,
    /// Bones, each from origin to tip on screen.
    pub bones: Vec<[Vec2; 2]>,
}

/// A triangle's corners from `(x, y, depth)` screen points, or `None`
/// where a corner is behind the camera or the triangle faces away
/// (clockwise on screen with `y` down means counter-clockwise in the
/// model's view: the signed area `(b − a) × (c − a)` is negative for a
/// front face).
pub fn front_facing(corners: [Option<Vec3>; 3]) -> Option<([Vec2; 3], f32)> {
    let [Some(a), Some(b), Some(c)] = corners else {
        return None;
    };
    let (p, q, r) = (a.truncate(), b.truncate(), c.truncate());
    let area = (q - p).perp_dot(r - p);
    (area < 0.0).then_some(([p, q, r], (a.z + b.z + c.z) / 3.0))
}

fn colour(rgb: [f32; 3]) -> String {
    let [r, g, b] = rgb.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The figure's SVG elements (no `<svg>` wrapper): a group of one `<path>`
/// per triangle, far to near, then a group of bone kites.
pub fn svg_elements(figure: &SvgFigure) -> String {
    // Far to near; equal depths as listed.
    let mut by_depth: Vec<(f32, u32)> = figure
        .triangles
        .iter()
        .enumerate()
        .map(|(k, triangle)| (-triangle.depth, k as u32))
        .collect();
    crate::rig::sorting::sort_keyed(&mut by_depth);
    let order = by_depth.iter().map(|&(_, k)| &figure.triangles[k as usize]);
    let mut out = String::with_capacity(80 * by_depth.len() + 256);
    let stroke = if figure.wireframe {
        r##" stroke="#3d4752" stroke-width="0.75" stroke-linejoin="round""##
    } else {
        ""
    };
    let _ = write!(out, r#"<g class="skin"{stroke}>"#);
    for triangle in order {
        let [a, b, c] = triangle.corners;
        let fill = colour(triangle.fill);
        // Without a wireframe each triangle is outlined in its own fill, so
        // neighbours meet without the hairline gaps of anti-aliasing.
        let edge = if figure.wireframe {
            String::new()
        } else {
            format!(r#" stroke="{fill}" stroke-width="0.5""#)
        };
        let _ = write!(
            out,
            r#"<path d="M{:.2} {:.2}L{:.2} {:.2}L{:.2} {:.2}Z" fill="{fill}"{edge}/>"#,
            a.x, a.y, b.x, b.y, c.x, c.y
        );
    }
    out.push_str("</g>");
    out.push_str(r##"<g class="bones" fill="#5f6b7a" fill-opacity="0.85" stroke="#1a1a1a" stroke-width="1">"##);
    for [origin, tip] in &figure.bones {
        let along = *tip - *origin;
        let side = along.perp() * 0.1;
        let waist = *origin + along * 0.2;
        let _ = write!(
            out,
            r#"<path d="M{:.2} {:.2}L{:.2} {:.2}L{:.2} {:.2}L{:.2} {:.2}Z"/>"#,
            origin.x,
            origin.y,
            (waist + side).x,
            (waist + side).y,
            tip.x,
            tip.y,
            (waist - side).x,
            (waist - side).y
        );
    }
    out.push_str("</g>");
    out
}

/// What the view shows, for [`figure_of`].
#[derive(Clone, Copy, Debug)]
pub struct SvgView {
    /// The camera.
    pub camera: Camera,
    /// The canvas, CSS pixels.
    pub viewport: Vec2,
    /// The layers shown.
    pub overlays: Overlays,
    /// How the skin is coloured.
    pub weight_view: WeightView,
    /// The bone whose weights a heat map shows.
    pub selected: Option<usize>,
    /// The skinning method.
    pub method: SkinningMethod,
    /// A flat (2D) view: the flat fill; else the lit one.
    pub flat: bool,
}

/// The figure of `lab` as `view` shows it: the skinned triangles with the
/// page's fills (one colour, or the weight colours averaged per
/// triangle), the wireframe if shown, the bones if shown.
pub fn figure_of(lab: &mut Lab, view: &SvgView) -> SvgFigure {
    let clip_from_model = view.camera.clip_from_model(view.viewport);
    let screen = |p: Vec3| screen_with_depth(&clip_from_model, p, view.viewport);
    let positions: Vec<Option<Vec3>> = lab
        .skinned_positions(view.method)
        .iter()
        .map(|&p| screen(p))
        .collect();
    let colours: Option<Vec<f32>> = match view.weight_view {
        WeightView::Skin | WeightView::Error => None,
        WeightView::Weights => Some(heat_colours(
            lab.all_influences(),
            view.selected.map_or(u16::MAX, |b| b as u16),
        )),
        WeightView::AllBones => Some(blended_vertex_colours(lab.all_influences())),
    };
    let own = lab.scene().base_colour.as_ref().map(|c| c.factor);
    let plain = match (own, view.flat) {
        (Some([r, g, b, _]), _) => [r, g, b],
        (None, true) => [FLAT_FILL[0], FLAT_FILL[1], FLAT_FILL[2]],
        (None, false) => [LIT_FILL[0], LIT_FILL[1], LIT_FILL[2]],
    };
    let mut triangles = Vec::new();
    if view.overlays.mesh || view.overlays.wireframe {
        for corner in lab.scene().mesh.indices.chunks_exact(3) {
            let [a, b, c] = [corner[0], corner[1], corner[2]].map(|v| v as usize);
            let Some((corners, depth)) = front_facing([positions[a], positions[b], positions[c]])
            else {
                continue;
            };
            let fill = colours.as_ref().map_or(plain, |rgb| {
                std::array::from_fn(|k| (rgb[3 * a + k] + rgb[3 * b + k] + rgb[3 * c + k]) / 3.0)
            });
            triangles.push(SvgTriangle {
                corners,
                depth,
                fill,
            });
        }
    }
    let mut bones = Vec::new();
    if view.overlays.bones {
        let frames = lab.model_from_bone_posed().to_vec();
        for (bone, frame) in lab.scene().skeleton.bones().iter().zip(&frames) {
            let origin = screen(frame.transform_point3(Vec3::ZERO));
            let tip = screen(frame.transform_point3(Vec3::new(0.0, bone.length, 0.0)));
            if let (Some(origin), Some(tip)) = (origin, tip) {
                bones.push([origin.truncate(), tip.truncate()]);
            }
        }
    }
    SvgFigure {
        width: view.viewport.x,
        height: view.viewport.y,
        triangles,
        // Edges alone (no fill) are not a figure of the notes: a hidden skin
        // with a wireframe shows its triangles outlined in the paper colour.
        wireframe: view.overlays.wireframe,
        bones,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn triangle(depth: f32, fill: [f32; 3]) -> SvgTriangle {
        SvgTriangle {
            corners: [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(0.0, 10.0)],
            depth,
            fill,
        }
    }

    #[test]
    fn triangles_come_far_to_near_one_path_each() {
        let figure = SvgFigure {
            width: 100.0,
            height: 100.0,
            triangles: vec![
                triangle(0.1, [1.0, 0.0, 0.0]),
                triangle(0.9, [0.0, 0.0, 1.0]),
            ],
            wireframe: true,
            bones: vec![[Vec2::ZERO, Vec2::new(0.0, 50.0)]],
        };
        let svg = svg_elements(&figure);
        assert_eq!(svg.matches("<path").count(), 3);
        // The far (blue) one first.
        assert!(svg.find("#0000ff").unwrap() < svg.find("#ff0000").unwrap());
    }

    #[test]
    fn back_faces_and_points_behind_the_camera_are_left_out() {
        let a = Some(Vec3::new(0.0, 0.0, 0.5));
        let b = Some(Vec3::new(10.0, 0.0, 0.5));
        let c = Some(Vec3::new(0.0, -10.0, 0.5));
        // On screen (y down) a → b → c turning up is counter-clockwise in
        // the view: front facing.
        assert!(front_facing([a, b, c]).is_some());
        assert!(front_facing([a, c, b]).is_none());
        assert!(front_facing([a, b, None]).is_none());
    }
}
