//! The canvas: a WebGL2 context, the renderer, the camera and pointer drags.
//!
//! JavaScript owns the event listeners and the frame scheduling and calls in
//! with plain numbers (CSS pixels from the canvas' top-left corner); the
//! interaction math itself lives in the core.

use glam::{Quat, Vec2, Vec3};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, WebGl2RenderingContext, WebGlContextAttributes};

use super::{js_error, JsLab};
use crate::camera::{Camera, Projection};
use crate::interaction::{
    drag_angle, grab_point, pick_bone, rotate_about_axis, translate, ScreenBone,
};
use crate::lab::{index_from_f64, Lab, SkinningMethod};
use crate::paint::{Brush, Falloff, PaintMode};
use crate::pose::BoneTransform;
use crate::render::{FrameSettings, Overlays, Renderer, WeightView};

/// How far from a bone, in CSS pixels, a press still grabs it.
const PICK_RADIUS: f32 = 14.0;

enum Drag {
    Rotate {
        bone: usize,
        pivot: Vec2,
        from: Vec2,
        start: BoneTransform,
        frame_rotation: Quat,
        axis_model: Vec3,
    },
    Move {
        bone: usize,
        from: Vec2,
        start: BoneTransform,
        frame_rotation: Quat,
        anchor_model: Vec3,
    },
    Orbit {
        last: Vec2,
    },
    Pan {
        last: Vec2,
    },
    Paint {
        bone: usize,
        last: Vec2,
    },
    Reach {
        bone: usize,
        upper: usize,
        from: Vec2,
        start_bone: BoneTransform,
        start_upper: BoneTransform,
        tip_model: Vec3,
        axis_model: Vec3,
    },
}

/// What a press on the canvas does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tool {
    Pose,
    Paint,
}

/// The rendered view of a lab on one canvas.
#[wasm_bindgen]
pub struct Viewer {
    canvas: HtmlCanvasElement,
    gl: glow::Context,
    renderer: Renderer,
    camera: Camera,
    method: SkinningMethod,
    overlays: Overlays,
    selected: Option<usize>,
    flat: bool,
    drag: Option<Drag>,
    frames: u32,
    tool: Tool,
    brush: Brush,
    mirror: bool,
    weight_view: WeightView,
    selected_vertex: Option<usize>,
    stroke_pruned: usize,
    stroke_touched: usize,
    compare: bool,
}

fn screen_bones(lab: &mut Lab, camera: &Camera, viewport: Vec2) -> Vec<ScreenBone> {
    let lengths = lab.scene().skeleton.lengths();
    let frames = lab.model_from_bone_posed().to_vec();
    frames
        .iter()
        .zip(lengths)
        .map(|(frame, length)| {
            let project = |p: Vec3| {
                camera
                    .screen_from_model(frame.transform_point3(p), viewport)
                    .unwrap_or(Vec2::splat(-1e6))
            };
            ScreenBone {
                origin: project(Vec3::ZERO),
                tip: project(Vec3::new(0.0, length, 0.0)),
            }
        })
        .collect()
}

fn rotation_of(matrix: &glam::Mat4) -> Quat {
    let (_, rotation, _) = matrix.to_scale_rotation_translation();
    rotation.normalize()
}

#[wasm_bindgen]
impl Viewer {
    /// Opens a WebGL2 context on `canvas`; throws an `Error` saying so when
    /// the browser has no WebGL2.
    #[wasm_bindgen(constructor)]
    pub fn new(canvas: HtmlCanvasElement) -> Result<Viewer, JsError> {
        let attributes = WebGlContextAttributes::new();
        attributes.set_antialias(true);
        // Keeps the last frame readable for screenshots, PNG export and tests.
        attributes.set_preserve_drawing_buffer(true);
        let context = canvas
            .get_context_with_context_options("webgl2", &attributes)
            .map_err(|_| JsError::new("WebGL2 could not be started in this browser"))?
            .ok_or_else(|| JsError::new("WebGL2 is not available in this browser"))?
            .dyn_into::<WebGl2RenderingContext>()
            .map_err(|_| JsError::new("the canvas did not give a WebGL2 context"))?;
        let gl = glow::Context::from_webgl2_context(context);
        let renderer = Renderer::new(&gl).map_err(|e| js_error("Viewer", e))?;
        Ok(Viewer {
            canvas,
            gl,
            renderer,
            camera: Camera::framing(
                Vec3::splat(-1.0),
                Vec3::splat(1.0),
                Projection::Orthographic,
            ),
            method: SkinningMethod::Lbs,
            overlays: Overlays::default(),
            selected: None,
            flat: true,
            drag: None,
            frames: 0,
            tool: Tool::Pose,
            brush: Brush {
                radius: 40.0,
                strength: 0.5,
                falloff: Falloff::Smooth,
                mode: PaintMode::Add,
                value: 1.0,
            },
            mirror: false,
            weight_view: WeightView::Skin,
            selected_vertex: None,
            stroke_pruned: 0,
            stroke_touched: 0,
            compare: false,
        })
    }

    /// The size of one view in CSS pixels: the whole canvas, or its left
    /// half when comparing LBS and DQS side by side.
    fn viewport_css(&self) -> Vec2 {
        let width = self.canvas.client_width().max(1) as f32;
        let width = if self.compare {
            (width / 2.0).max(1.0)
        } else {
            width
        };
        Vec2::new(width, self.canvas.client_height().max(1) as f32)
    }

    /// A canvas point in the coordinates of the view under it: both halves
    /// of a side-by-side comparison show the same scene.
    fn local_point(&self, x: f32, y: f32) -> Vec2 {
        let half = self.viewport_css().x;
        if self.compare && x >= half {
            Vec2::new(x - half, y)
        } else {
            Vec2::new(x, y)
        }
    }

    /// Draws one frame.
    pub fn render(&mut self, lab: &mut JsLab) -> Result<(), JsError> {
        let pixels = (self.canvas.width() as i32, self.canvas.height() as i32);
        let pixel_ratio = pixels.1 as f32 / self.canvas.client_height().max(1) as f32;
        let half = pixels.0 / 2;
        // One view, or LBS on the left and DQS on the right.
        type View = ((i32, i32), (i32, i32), SkinningMethod);
        let views: Vec<View> = if self.compare {
            vec![
                ((0, 0), (half, pixels.1), SkinningMethod::Lbs),
                ((half, 0), (pixels.0 - half, pixels.1), SkinningMethod::Dqs),
            ]
        } else {
            vec![((0, 0), pixels, self.method)]
        };
        for (origin, size, method) in views {
            let settings = FrameSettings {
                camera: self.camera,
                viewport_pixels: size,
                viewport_origin: origin,
                pixel_ratio: pixel_ratio.max(0.5),
                method,
                overlays: self.overlays,
                selected: self.selected.filter(|&b| b < lab.inner.bone_count()),
                flat: self.flat,
                view: self.weight_view,
                selected_vertex: self
                    .selected_vertex
                    .filter(|&v| v < lab.inner.vertex_count()),
            };
            self.renderer
                .draw(&self.gl, &mut lab.inner, &settings)
                .map_err(|e| js_error("render", e))?;
        }
        self.frames += 1;
        Ok(())
    }

    /// Shows LBS (left) and DQS (right) side by side, or one view.
    #[wasm_bindgen(js_name = setCompare)]
    pub fn set_compare(&mut self, on: bool) {
        self.compare = on;
    }

    /// Whether LBS and DQS are shown side by side.
    pub fn compare(&self) -> bool {
        self.compare
    }

    /// Frames drawn so far.
    #[wasm_bindgen(js_name = framesRendered)]
    pub fn frames_rendered(&self) -> u32 {
        self.frames
    }

    /// Points the camera at the whole mesh: `"2d"` an orthographic front view,
    /// `"3d"` a perspective view from above the side, `"auto"` picks 2D for a
    /// mesh that lies in one plane facing the viewer.
    #[wasm_bindgen(js_name = frameScene)]
    pub fn frame_scene(&mut self, lab: &JsLab, view: &str) -> Result<(), JsError> {
        let positions = &lab.inner.scene().mesh.positions_model;
        let bones = lab.inner.scene().skeleton.model_from_bone_rest();
        let points = positions
            .iter()
            .copied()
            .chain(bones.iter().map(|m| m.transform_point3(Vec3::ZERO)));
        let (min, max) = points.fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(lo, hi), p| (lo.min(p), hi.max(p)),
        );
        let planar = (max.z - min.z).abs() < 1e-4;
        self.flat = match view {
            "2d" => true,
            "3d" => false,
            "auto" => planar,
            _ => {
                return Err(js_error(
                    "frameScene",
                    format!("unknown view '{view}'; use '2d', '3d' or 'auto'"),
                ))
            }
        };
        let projection = if self.flat {
            Projection::Orthographic
        } else {
            Projection::Perspective
        };
        self.camera = Camera::framing(min, max, projection);
        Ok(())
    }

    /// `"2d"` or `"3d"`.
    pub fn view(&self) -> String {
        if self.flat { "2d" } else { "3d" }.to_owned()
    }

    /// Chooses LBS (`"lbs"`) or DQS (`"dqs"`) for drawing.
    #[wasm_bindgen(js_name = setMethod)]
    pub fn set_method(&mut self, method: &str) -> Result<(), JsError> {
        self.method = method.parse().map_err(|e| js_error("setMethod", e))?;
        Ok(())
    }

    /// The drawing method, `"lbs"` or `"dqs"`.
    pub fn method(&self) -> String {
        match self.method {
            SkinningMethod::Lbs => "lbs",
            SkinningMethod::Dqs => "dqs",
        }
        .to_owned()
    }

    fn overlay_flag(&mut self, name: &str) -> Option<&mut bool> {
        let overlays = &mut self.overlays;
        Some(match name {
            "mesh" => &mut overlays.mesh,
            "wireframe" => &mut overlays.wireframe,
            "dots" => &mut overlays.dots,
            "bones" => &mut overlays.bones,
            "ownFrames" => &mut overlays.own_frames,
            "childFrames" => &mut overlays.child_frames,
            "ghost" => &mut overlays.ghost,
            _ => return None,
        })
    }

    /// Shows or hides a layer: `mesh`, `wireframe`, `dots`, `bones`,
    /// `ownFrames`, `childFrames`, `ghost`.
    #[wasm_bindgen(js_name = setOverlay)]
    pub fn set_overlay(&mut self, name: &str, on: bool) -> Result<(), JsError> {
        let flag = self
            .overlay_flag(name)
            .ok_or_else(|| js_error("setOverlay", format!("unknown overlay '{name}'")))?;
        *flag = on;
        Ok(())
    }

    /// Whether a layer is shown.
    pub fn overlay(&mut self, name: &str) -> Result<bool, JsError> {
        self.overlay_flag(name)
            .map(|flag| *flag)
            .ok_or_else(|| js_error("overlay", format!("unknown overlay '{name}'")))
    }

    /// Highlights bone `bone`; -1 selects none.
    #[wasm_bindgen(js_name = selectBone)]
    pub fn select_bone(&mut self, lab: &JsLab, bone: f64) -> Result<(), JsError> {
        if bone == -1.0 {
            self.selected = None;
            return Ok(());
        }
        let bone = index_from_f64("bone", bone).map_err(|e| js_error("selectBone", e))?;
        lab.inner
            .bone_pose(bone)
            .map_err(|e| js_error("selectBone", e))?;
        self.selected = Some(bone);
        Ok(())
    }

    /// The highlighted bone, or -1.
    #[wasm_bindgen(js_name = selectedBone)]
    pub fn selected_bone(&self) -> i32 {
        self.selected.map_or(-1, |b| b as i32)
    }

    /// A point where a press grabs bone `bone`: `[x, y]` in CSS pixels.
    #[wasm_bindgen(js_name = boneScreenPoint)]
    pub fn bone_screen_point(&self, lab: &mut JsLab, bone: f64) -> Result<Vec<f32>, JsError> {
        let bone = index_from_f64("bone", bone).map_err(|e| js_error("boneScreenPoint", e))?;
        lab.inner
            .bone_pose(bone)
            .map_err(|e| js_error("boneScreenPoint", e))?;
        let bones = screen_bones(&mut lab.inner, &self.camera, self.viewport_css());
        Ok(grab_point(&bones[bone]).to_array().to_vec())
    }

    /// Where vertex `vertex`, skinned as drawn, appears: `[x, y]` in CSS
    /// pixels.
    #[wasm_bindgen(js_name = vertexScreenPoint)]
    pub fn vertex_screen_point(&self, lab: &mut JsLab, vertex: f64) -> Result<Vec<f32>, JsError> {
        let vertex =
            index_from_f64("vertex", vertex).map_err(|e| js_error("vertexScreenPoint", e))?;
        lab.inner
            .influences(vertex)
            .map_err(|e| js_error("vertexScreenPoint", e))?;
        let position = lab.inner.skinned_positions(self.method)[vertex];
        let point = self
            .camera
            .screen_from_model(position, self.viewport_css())
            .ok_or_else(|| {
                js_error(
                    "vertexScreenPoint",
                    format!("vertex {vertex} is behind the camera"),
                )
            })?;
        Ok(point.to_array().to_vec())
    }

    /// The bone under `(x, y)`, or -1.
    #[wasm_bindgen(js_name = pickBone)]
    pub fn pick_bone(&self, lab: &mut JsLab, x: f32, y: f32) -> i32 {
        let bones = screen_bones(&mut lab.inner, &self.camera, self.viewport_css());
        pick_bone(&bones, self.local_point(x, y), PICK_RADIUS).map_or(-1, |b| b as i32)
    }

    /// Starts a drag at `(x, y)`. On a bone: selects it and turns it (with
    /// `shift`: moves the root; with `reach`: drags its tip by two-bone IK,
    /// turning it and its parent). Elsewhere: orbits (3D) or pans (2D); the
    /// secondary buttons always pan. Returns what began: `rotate`, `move`,
    /// `reach`, `orbit` or `pan`.
    #[wasm_bindgen(js_name = pointerDown)]
    pub fn pointer_down(
        &mut self,
        lab: &mut JsLab,
        x: f32,
        y: f32,
        button: i32,
        shift: bool,
        reach: bool,
    ) -> String {
        let point = self.local_point(x, y);
        let viewport = self.viewport_css();
        let lab = &mut lab.inner;
        if self.tool == Tool::Paint && button == 0 {
            let Some(bone) = self.selected.filter(|&b| b < lab.bone_count()) else {
                return "none".to_owned();
            };
            lab.checkpoint();
            self.stroke_pruned = 0;
            self.stroke_touched = 0;
            self.paint_at(lab, bone, point);
            self.drag = Some(Drag::Paint { bone, last: point });
            return "paint".to_owned();
        }
        let picked = if button == 0 {
            pick_bone(
                &screen_bones(lab, &self.camera, viewport),
                point,
                PICK_RADIUS,
            )
        } else {
            None
        };
        let parent_of = |bone: usize| lab.scene().skeleton.bones()[bone].parent.map(usize::from);
        let drag = match picked {
            Some(bone) if reach && parent_of(bone).is_some() => {
                self.selected = Some(bone);
                let upper = parent_of(bone).unwrap_or_default();
                let length = lab.scene().skeleton.bones()[bone].length;
                let tip_model =
                    lab.model_from_bone_posed()[bone].transform_point3(Vec3::new(0.0, length, 0.0));
                lab.checkpoint();
                Drag::Reach {
                    bone,
                    upper,
                    from: point,
                    start_bone: lab.bone_pose(bone).unwrap_or_default(),
                    start_upper: lab.bone_pose(upper).unwrap_or_default(),
                    tip_model,
                    axis_model: self.camera.toward_eye(),
                }
            }
            Some(bone) if shift => {
                self.selected = Some(bone);
                let root = 0;
                let frame = lab.model_from_bone_unanimated(root).unwrap_or_default();
                lab.checkpoint();
                Drag::Move {
                    bone: root,
                    from: point,
                    start: lab.bone_pose(root).unwrap_or_default(),
                    frame_rotation: rotation_of(&frame),
                    anchor_model: lab.model_from_bone_posed()[bone].transform_point3(Vec3::ZERO),
                }
            }
            Some(bone) => {
                self.selected = Some(bone);
                let frame = lab.model_from_bone_unanimated(bone).unwrap_or_default();
                let origin = lab.model_from_bone_posed()[bone].transform_point3(Vec3::ZERO);
                lab.checkpoint();
                Drag::Rotate {
                    bone,
                    pivot: self
                        .camera
                        .screen_from_model(origin, viewport)
                        .unwrap_or(point),
                    from: point,
                    start: lab.bone_pose(bone).unwrap_or_default(),
                    frame_rotation: rotation_of(&frame),
                    axis_model: self.camera.toward_eye(),
                }
            }
            None if button == 0 && !self.flat => Drag::Orbit { last: point },
            None => Drag::Pan { last: point },
        };
        let kind = match drag {
            Drag::Rotate { .. } => "rotate",
            Drag::Move { .. } => "move",
            Drag::Orbit { .. } => "orbit",
            Drag::Pan { .. } => "pan",
            Drag::Paint { .. } => "paint",
            Drag::Reach { .. } => "reach",
        };
        self.drag = Some(drag);
        kind.to_owned()
    }

    /// Continues the drag to `(x, y)`; true if anything changed.
    #[wasm_bindgen(js_name = pointerMove)]
    pub fn pointer_move(&mut self, lab: &mut JsLab, x: f32, y: f32) -> bool {
        let point = self.local_point(x, y);
        let viewport = self.viewport_css();
        let lab = &mut lab.inner;
        match self.drag.as_mut() {
            None => false,
            Some(Drag::Rotate {
                bone,
                pivot,
                from,
                start,
                frame_rotation,
                axis_model,
            }) => {
                let angle = drag_angle(*pivot, *from, point);
                let turned = rotate_about_axis(start, *frame_rotation, *axis_model, angle);
                lab.set_bone_transform(*bone, turned).is_ok()
            }
            Some(Drag::Move {
                bone,
                from,
                start,
                frame_rotation,
                anchor_model,
            }) => {
                let delta = self
                    .camera
                    .model_delta(point - *from, *anchor_model, viewport);
                lab.set_bone_transform(*bone, translate(start, *frame_rotation, delta))
                    .is_ok()
            }
            Some(Drag::Orbit { last }) => {
                self.camera.orbit(point - *last);
                *last = point;
                true
            }
            Some(Drag::Pan { last }) => {
                self.camera.pan(point - *last, viewport);
                *last = point;
                true
            }
            Some(Drag::Reach {
                bone,
                upper,
                from,
                start_bone,
                start_upper,
                tip_model,
                axis_model,
            }) => {
                // Solve from the pose the drag started in, so the chain does
                // not drift as the pointer wanders.
                let target =
                    *tip_model + self.camera.model_delta(point - *from, *tip_model, viewport);
                let (bone, upper, axis) = (*bone, *upper, *axis_model);
                let restored = lab
                    .set_bone_transform(upper, *start_upper)
                    .and_then(|()| lab.set_bone_transform(bone, *start_bone));
                restored
                    .and_then(|()| lab.reach(bone, target, axis))
                    .is_ok()
            }
            Some(Drag::Paint { bone, last }) => {
                let (bone, from) = (*bone, *last);
                // Dabs a quarter radius apart along the path, so fast moves
                // paint a continuous stroke.
                let spacing = (self.brush.radius * 0.25).max(1.0);
                let steps = ((point - from).length() / spacing).ceil().max(1.0) as usize;
                for step in 1..=steps {
                    self.paint_at(lab, bone, from.lerp(point, step as f32 / steps as f32));
                }
                if let Some(Drag::Paint { last, .. }) = self.drag.as_mut() {
                    *last = point;
                }
                true
            }
        }
    }

    fn paint_at(&mut self, lab: &mut Lab, bone: usize, centre: Vec2) {
        let viewport = self.viewport_css();
        let (positions, normals) = lab.skinned(self.method);
        let eye = self.camera.eye();
        let toward_eye = self.camera.toward_eye();
        let mut points = Vec::with_capacity(positions.len());
        let mut paintable = Vec::with_capacity(positions.len());
        for (position, normal) in positions.iter().zip(normals) {
            let screen = self.camera.screen_from_model(*position, viewport);
            points.push(screen.unwrap_or(Vec2::splat(-1e9)));
            // Flat meshes are painted from either side; solid ones on the
            // faces turned to the viewer, as a brush on real skin would.
            let facing = match self.camera.projection {
                Projection::Orthographic => normal.dot(toward_eye),
                Projection::Perspective => normal.dot(eye - *position),
            };
            paintable.push(screen.is_some() && (self.flat || facing > 0.0));
        }
        if let Ok(report) =
            lab.paint_dab(&points, &paintable, bone, centre, &self.brush, self.mirror)
        {
            self.stroke_pruned += report.pruned;
            self.stroke_touched += report.touched;
        }
    }

    /// Chooses what a press does: `pose` (turn bones) or `paint` (paint the
    /// selected bone's weight).
    #[wasm_bindgen(js_name = setTool)]
    pub fn set_tool(&mut self, tool: &str) -> Result<(), JsError> {
        self.tool = match tool {
            "pose" => Tool::Pose,
            "paint" => Tool::Paint,
            _ => {
                return Err(js_error(
                    "setTool",
                    format!("unknown tool '{tool}'; use 'pose' or 'paint'"),
                ))
            }
        };
        Ok(())
    }

    /// `pose` or `paint`.
    pub fn tool(&self) -> String {
        match self.tool {
            Tool::Pose => "pose",
            Tool::Paint => "paint",
        }
        .to_owned()
    }

    /// Sets the brush: radius in CSS pixels, strength 0..1, falloff
    /// (`smooth`, `linear`, `constant`), mode (`add`, `subtract`, `set`,
    /// `smooth`) and the target value of `set`.
    #[wasm_bindgen(js_name = setBrush)]
    pub fn set_brush(
        &mut self,
        radius: f32,
        strength: f32,
        falloff: &str,
        mode: &str,
        value: f32,
    ) -> Result<(), JsError> {
        self.brush = Brush::parse(radius, strength, falloff, mode, value)
            .map_err(|e| js_error("setBrush", e))?;
        Ok(())
    }

    /// The brush radius, CSS pixels.
    #[wasm_bindgen(js_name = brushRadius)]
    pub fn brush_radius(&self) -> f32 {
        self.brush.radius
    }

    /// Paints the mirror vertices with the mirror bone too.
    #[wasm_bindgen(js_name = setMirror)]
    pub fn set_mirror(&mut self, on: bool) {
        self.mirror = on;
    }

    /// Influences pruned during the last stroke (to keep four per vertex).
    #[wasm_bindgen(js_name = lastStrokePruned)]
    pub fn last_stroke_pruned(&self) -> u32 {
        self.stroke_pruned as u32
    }

    /// Vertices changed during the last stroke (counted once per dab).
    #[wasm_bindgen(js_name = lastStrokeTouched)]
    pub fn last_stroke_touched(&self) -> u32 {
        self.stroke_touched as u32
    }

    /// How the skin is coloured: `skin`, `weights` (heat map of the selected
    /// bone) or `bones` (all bones' colours mixed by weight).
    #[wasm_bindgen(js_name = setWeightView)]
    pub fn set_weight_view(&mut self, view: &str) -> Result<(), JsError> {
        self.weight_view = match view {
            "skin" => WeightView::Skin,
            "weights" => WeightView::Weights,
            "bones" => WeightView::AllBones,
            _ => {
                return Err(js_error(
                    "setWeightView",
                    format!("unknown view '{view}'; use skin, weights or bones"),
                ))
            }
        };
        Ok(())
    }

    /// `skin`, `weights` or `bones`.
    #[wasm_bindgen(js_name = weightView)]
    pub fn weight_view(&self) -> String {
        match self.weight_view {
            WeightView::Skin => "skin",
            WeightView::Weights => "weights",
            WeightView::AllBones => "bones",
        }
        .to_owned()
    }

    /// The vertex drawn nearest to `(x, y)` within 12 CSS pixels, or -1.
    #[wasm_bindgen(js_name = pickVertex)]
    pub fn pick_vertex(&self, lab: &mut JsLab, x: f32, y: f32) -> i32 {
        let viewport = self.viewport_css();
        let point = self.local_point(x, y);
        lab.inner
            .skinned_positions(self.method)
            .iter()
            .enumerate()
            .filter_map(|(v, &p)| {
                self.camera
                    .screen_from_model(p, viewport)
                    .map(|s| (v, s.distance(point)))
            })
            .filter(|&(_, d)| d <= 12.0)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(-1, |(v, _)| v as i32)
    }

    /// Marks vertex `vertex` (its list shows in the panel); -1 for none.
    #[wasm_bindgen(js_name = selectVertex)]
    pub fn select_vertex(&mut self, lab: &JsLab, vertex: f64) -> Result<(), JsError> {
        if vertex == -1.0 {
            self.selected_vertex = None;
            return Ok(());
        }
        let vertex = index_from_f64("vertex", vertex).map_err(|e| js_error("selectVertex", e))?;
        lab.inner
            .influences(vertex)
            .map_err(|e| js_error("selectVertex", e))?;
        self.selected_vertex = Some(vertex);
        Ok(())
    }

    /// The marked vertex, or -1.
    #[wasm_bindgen(js_name = selectedVertex)]
    pub fn selected_vertex(&self) -> i32 {
        self.selected_vertex.map_or(-1, |v| v as i32)
    }

    /// Turns the selected bone by `degrees` about the view axis
    /// (counter-clockwise as seen), as one undo step: the keyboard's way to
    /// pose. False when no bone is selected.
    #[wasm_bindgen(js_name = turnSelected)]
    pub fn turn_selected(&mut self, lab: &mut JsLab, degrees: f32) -> bool {
        let lab = &mut lab.inner;
        let Some(bone) = self.selected.filter(|&b| b < lab.bone_count()) else {
            return false;
        };
        let (Ok(frame), Ok(start)) = (lab.model_from_bone_unanimated(bone), lab.bone_pose(bone))
        else {
            return false;
        };
        lab.checkpoint();
        let turned = rotate_about_axis(
            &start,
            rotation_of(&frame),
            self.camera.toward_eye(),
            degrees.to_radians(),
        );
        lab.set_bone_transform(bone, turned).is_ok()
    }

    /// Ends the drag.
    #[wasm_bindgen(js_name = pointerUp)]
    pub fn pointer_up(&mut self) {
        self.drag = None;
    }

    /// Whether a drag is under way.
    pub fn dragging(&self) -> bool {
        self.drag.is_some()
    }

    /// Zooms by `factor` (< 1 closer).
    pub fn zoom(&mut self, factor: f32) {
        self.camera.zoom(factor);
    }

    /// The camera as `[targetX, targetY, targetZ, yaw, pitch, distance]`.
    #[wasm_bindgen(js_name = cameraState)]
    pub fn camera_state(&self) -> Vec<f32> {
        let c = &self.camera;
        vec![
            c.target.x, c.target.y, c.target.z, c.yaw, c.pitch, c.distance,
        ]
    }

    /// Restores a camera from [`Viewer::camera_state`]'s six numbers.
    #[wasm_bindgen(js_name = setCameraState)]
    pub fn set_camera_state(&mut self, state: &[f32]) -> Result<(), JsError> {
        if state.len() != 6 || state.iter().any(|v| !v.is_finite()) || state[5] <= 0.0 {
            return Err(js_error(
                "setCameraState",
                "expected six finite numbers with a positive distance",
            ));
        }
        self.camera.target = Vec3::new(state[0], state[1], state[2]);
        self.camera.yaw = state[3];
        self.camera.pitch = state[4].clamp(-1.55, 1.55);
        self.camera.distance = state[5];
        Ok(())
    }

    fn gpu_skinned(
        &mut self,
        lab: &mut JsLab,
        method: Option<String>,
        what: &str,
    ) -> Result<(Vec<f32>, Vec<f32>), JsError> {
        let method = match method {
            Some(name) => name.parse().map_err(|e| js_error(what, e))?,
            None => self.method,
        };
        self.renderer
            .gpu_skinned(&self.gl, &mut lab.inner, method)
            .map_err(|e| js_error(what, e))
    }

    /// GPU-skinned positions, read back from the vertex shader through
    /// transform feedback: `x, y, z` per vertex, for `method` or the drawing
    /// method when omitted.
    #[wasm_bindgen(js_name = gpuSkinnedPositions)]
    pub fn gpu_skinned_positions(
        &mut self,
        lab: &mut JsLab,
        method: Option<String>,
    ) -> Result<Vec<f32>, JsError> {
        self.gpu_skinned(lab, method, "gpuSkinnedPositions")
            .map(|(positions, _)| positions)
    }

    /// GPU-skinned unit normals, read back like
    /// [`Viewer::gpu_skinned_positions`].
    #[wasm_bindgen(js_name = gpuSkinnedNormals)]
    pub fn gpu_skinned_normals(
        &mut self,
        lab: &mut JsLab,
        method: Option<String>,
    ) -> Result<Vec<f32>, JsError> {
        self.gpu_skinned(lab, method, "gpuSkinnedNormals")
            .map(|(_, normals)| normals)
    }

    /// Forces the palette into a float texture even where uniforms would fit
    /// (for comparing both paths).
    #[wasm_bindgen(js_name = setPaletteTexture)]
    pub fn set_palette_texture(&mut self, on: bool) {
        self.renderer.force_palette_texture = on;
    }

    /// How the palette of `lab` travels to the shader: `uniforms` or
    /// `texture`.
    #[wasm_bindgen(js_name = paletteStorage)]
    pub fn palette_storage(&self, lab: &JsLab) -> String {
        if self
            .renderer
            .palette_fits_uniforms(self.method, lab.inner.bone_count())
        {
            "uniforms"
        } else {
            "texture"
        }
        .to_owned()
    }
}
