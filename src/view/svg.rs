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
use super::overlay::posed_bone_glyphs;
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
    /// A piece of a shaded triangle: never outlined as a triangle of the
    /// mesh (the whole triangle's outline follows its pieces, unfilled).
    pub piece: bool,
    /// The outline of a shaded triangle, drawn over its pieces: no fill.
    pub outline: bool,
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
    /// The selected bone, among `bones`, drawn in the page's orange.
    pub selected: Option<usize>,
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
        if triangle.outline && !figure.wireframe {
            continue;
        }
        let fill = if triangle.outline {
            "none".to_owned()
        } else {
            colour(triangle.fill)
        };
        // Without a wireframe each triangle (and every piece of a shaded
        // one) is outlined in its own fill, so neighbours meet without the
        // hairline gaps of anti-aliasing.
        let edge = if figure.wireframe && !triangle.piece {
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
    for (bone, [origin, tip]) in figure.bones.iter().enumerate() {
        let along = *tip - *origin;
        let side = along.perp() * 0.1;
        let waist = *origin + along * 0.2;
        let fill = if figure.selected == Some(bone) {
            r##" class="selected" fill="#f7940d""##
        } else {
            ""
        };
        let _ = write!(
            out,
            r#"<path d="M{:.2} {:.2}L{:.2} {:.2}L{:.2} {:.2}L{:.2} {:.2}Z"{fill}/>"#,
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
            match colours.as_ref() {
                None => triangles.push(SvgTriangle {
                    corners,
                    depth,
                    fill: plain,
                    piece: false,
                    outline: false,
                }),
                Some(rgb) => {
                    let at = |v: usize| [rgb[3 * v], rgb[3 * v + 1], rgb[3 * v + 2]];
                    shaded(&mut triangles, corners, depth, [at(a), at(b), at(c)]);
                }
            }
        }
    }
    // The glyphs as the view draws them (none shorter than it draws).
    let mut bones = Vec::new();
    let mut selected = None;
    if view.overlays.bones {
        for (bone, corners) in posed_bone_glyphs(lab, &view.camera, view.viewport)
            .iter()
            .enumerate()
        {
            if let (Some(origin), Some(tip)) = (screen(corners[0]), screen(corners[1])) {
                if view.selected == Some(bone) {
                    selected = Some(bones.len());
                }
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
        selected,
    }
}

/// The most pieces a side of a shaded triangle is cut into.
const MOST_PIECES: usize = 6;

/// Triangle `corners` with corner colours `rgb` as the page shades it (the
/// colours blended across it), pushed onto `out`: cut into `n²` triangles,
/// `n` growing with how far its corners' colours lie apart (one where they
/// are alike), each filled with the colour at its centre.
fn shaded(out: &mut Vec<SvgTriangle>, corners: [Vec2; 3], depth: f32, rgb: [[f32; 3]; 3]) {
    let spread = (0..3)
        .flat_map(|k| {
            [
                (rgb[0][k] - rgb[1][k]).abs(),
                (rgb[1][k] - rgb[2][k]).abs(),
                (rgb[0][k] - rgb[2][k]).abs(),
            ]
        })
        .fold(0.0_f32, f32::max);
    let n = ((spread * 12.0).ceil() as usize).clamp(1, MOST_PIECES);
    if n == 1 {
        let fill = std::array::from_fn(|k| (rgb[0][k] + rgb[1][k] + rgb[2][k]) / 3.0);
        out.push(SvgTriangle {
            corners,
            depth,
            fill,
            piece: false,
            outline: false,
        });
        return;
    }
    // The point and the colour at barycentric (i, j) of n steps.
    let at = |i: f32, j: f32| {
        let (u, v) = (i / n as f32, j / n as f32);
        let w = 1.0 - u - v;
        let point = corners[0] * w + corners[1] * u + corners[2] * v;
        let colour: [f32; 3] =
            std::array::from_fn(|k| rgb[0][k] * w + rgb[1][k] * u + rgb[2][k] * v);
        (point, colour)
    };
    let mut piece = |a: (f32, f32), b: (f32, f32), c: (f32, f32)| {
        let centre = ((a.0 + b.0 + c.0) / 3.0, (a.1 + b.1 + c.1) / 3.0);
        out.push(SvgTriangle {
            corners: [at(a.0, a.1).0, at(b.0, b.1).0, at(c.0, c.1).0],
            depth,
            fill: at(centre.0, centre.1).1,
            piece: true,
            outline: false,
        });
    };
    for i in 0..n {
        for j in 0..n - i {
            let (i, j) = (i as f32, j as f32);
            piece((i, j), (i + 1.0, j), (i, j + 1.0));
            if (i + j) as usize + 2 <= n {
                piece((i + 1.0, j), (i + 1.0, j + 1.0), (i, j + 1.0));
            }
        }
    }
    // The mesh's own edge, where the wireframe is drawn: a hair nearer, so
    // that the pieces of a neighbour at the same depth do not cover it.
    out.push(SvgTriangle {
        corners,
        depth: depth - 1e-5,
        fill: [0.0; 3],
        piece: false,
        outline: true,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn triangle(depth: f32, fill: [f32; 3]) -> SvgTriangle {
        SvgTriangle {
            corners: [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(0.0, 10.0)],
            depth,
            fill,
            piece: false,
            outline: false,
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
            selected: None,
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

    #[test]
    fn a_shaded_triangle_is_cut_into_pieces_that_cover_it_with_its_blend() {
        let corners = [Vec2::ZERO, Vec2::new(60.0, 0.0), Vec2::new(0.0, 60.0)];
        let area = |c: [Vec2; 3]| (c[1] - c[0]).perp_dot(c[2] - c[0]).abs() / 2.0;
        let mut alike = Vec::new();
        shaded(&mut alike, corners, 0.5, [[0.2, 0.3, 0.4]; 3]);
        assert_eq!(alike.len(), 1, "alike corners: one piece");
        let mut blended = Vec::new();
        shaded(
            &mut blended,
            corners,
            0.5,
            [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        );
        // The pieces, then the whole triangle's outline.
        assert_eq!(blended.len(), MOST_PIECES * MOST_PIECES + 1);
        assert!(blended.last().unwrap().outline);
        blended.pop();
        let total: f32 = blended.iter().map(|t| area(t.corners)).sum();
        assert!((total - area(corners)).abs() < 1e-2, "{total}");
        // The piece at corner 0 is nearly its colour; every fill sums to 1 (a blend).
        let first = blended.iter().find(|t| t.corners[0] == Vec2::ZERO).unwrap();
        assert!(first.fill[0] > 0.8, "{:?}", first.fill);
        for t in &blended {
            assert!((t.fill.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        }
    }

    #[test]
    fn the_selected_bone_is_drawn_in_the_pages_orange() {
        let figure = SvgFigure {
            width: 100.0,
            height: 100.0,
            bones: vec![
                [Vec2::ZERO, Vec2::new(0.0, 50.0)],
                [Vec2::ZERO, Vec2::new(50.0, 0.0)],
            ],
            selected: Some(1),
            ..SvgFigure::default()
        };
        let svg = svg_elements(&figure);
        assert_eq!(svg.matches("#f7940d").count(), 1);
        assert!(
            svg.rfind("#f7940d").unwrap() > svg.find("L0.00 50.00").unwrap(),
            "on the second bone"
        );
    }
}
