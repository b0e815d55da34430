//! The canvas: a WebGL2 context, the renderer, the camera and pointer drags.
//!
//! JavaScript owns the event listeners and the frame scheduling and calls in
//! with plain numbers (CSS pixels from the canvas' top-left corner); the
//! interaction math itself lives in the core.

use glam::{Vec2, Vec3};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, WebGl2RenderingContext, WebGlContextAttributes};

use super::{js_error, nullable, options, point_array, refuse_unknown_keys, BrushOptions, JsLab};
use crate::lab::{index_from_f64, SkinningMethod};
use crate::render::{FrameSettings, Renderer, WeightView};
use crate::view::camera::Projection;
use crate::view::controller::{Button, Modifiers, Tool, ViewPort};
use crate::view::framing::frame_scene_named;
use crate::view::state::ViewState;
use crate::view::svg::{figure_of, svg_elements, SvgView};

/// `viewer.pointerDown`'s press.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PressOptions {
    x: f32,
    y: f32,
    button: i32,
    #[serde(default)]
    shift: bool,
    #[serde(default)]
    reach: bool,
}

/// The rendered view of a lab on one canvas.
#[wasm_bindgen]
pub struct Viewer {
    canvas: HtmlCanvasElement,
    gl: glow::Context,
    renderer: Renderer,
    frames: u32,
    /// What is shown and how; survives the surface (see [`Viewer::rebuilt`]).
    state: ViewState,
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
            frames: 0,
            state: ViewState::default(),
        })
    }

    /// A viewer on a fresh `canvas` (after the browser took the old one's
    /// WebGL context) that takes over everything this one showed: camera,
    /// layers, colouring, selection, tool, brush and GPU switches. This one
    /// is left with a default state; throws like the constructor when no
    /// context can be opened, leaving this one as it was.
    pub fn rebuilt(&mut self, canvas: HtmlCanvasElement) -> Result<Viewer, JsError> {
        let mut next = Viewer::new(canvas)?;
        next.state = std::mem::take(&mut self.state);
        next.renderer.switches = self.renderer.switches;
        Ok(next)
    }

    /// The size of one view in CSS pixels: the whole canvas, or its left
    /// half when comparing LBS and DQS side by side.
    fn viewport_css(&self) -> Vec2 {
        let width = self.canvas.client_width().max(1) as f32;
        let width = if self.state.compare {
            (width / 2.0).max(1.0)
        } else {
            width
        };
        Vec2::new(width, self.canvas.client_height().max(1) as f32)
    }

    /// A flat (2D) view: orthographic, from the front.
    fn flat(&self) -> bool {
        self.state.camera.projection == Projection::Orthographic
    }

    /// A canvas point in the coordinates of the view under it: both halves
    /// of a side-by-side comparison show the same scene.
    fn local_point(&self, x: f32, y: f32) -> Vec2 {
        let half = self.viewport_css().x;
        if self.state.compare && x >= half {
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
        // One view, or the pair's two methods on the left and the right.
        type View = ((i32, i32), (i32, i32), SkinningMethod);
        let [left, right] = self.state.compare_pair;
        let views: Vec<View> = if self.state.compare {
            vec![
                ((0, 0), (half, pixels.1), left),
                ((half, 0), (pixels.0 - half, pixels.1), right),
            ]
        } else {
            vec![((0, 0), pixels, self.state.controller.method)]
        };
        for (origin, size, method) in views {
            let settings = FrameSettings {
                camera: self.state.camera,
                viewport_pixels: size,
                viewport_origin: origin,
                pixel_ratio: pixel_ratio.max(0.5),
                mark_scale: self.state.mark_scale,
                method,
                overlays: self.state.overlays,
                selected: self
                    .state
                    .controller
                    .selected()
                    .filter(|&b| b < lab.inner.bone_count()),
                flat: self.flat(),
                view: self.state.weight_view,
                selected_vertex: self
                    .state
                    .selected_vertex
                    .filter(|&v| v < lab.inner.vertex_count()),
            };
            self.renderer
                .draw(&self.gl, &lab.inner, &settings)
                .map_err(|e| js_error("render", e))?;
        }
        self.frames += 1;
        Ok(())
    }

    /// Draws vertex dots and frame sticks `scale` times their size (the
    /// projector view: 1.6); clamped to 1–3.
    #[wasm_bindgen(js_name = setMarkScale)]
    pub fn set_mark_scale(&mut self, scale: f32) {
        self.state.mark_scale = if scale.is_finite() {
            scale.clamp(1.0, 3.0)
        } else {
            1.0
        };
    }

    /// The size factor of points and lines (1 to 3).
    #[wasm_bindgen(js_name = markScale)]
    pub fn mark_scale(&self) -> f32 {
        self.state.mark_scale
    }

    /// Shows the compared pair (`comparePair()`, LBS and DQS at first) side
    /// by side, or one view.
    #[wasm_bindgen(js_name = setCompare)]
    pub fn set_compare(&mut self, on: bool) {
        self.state.compare = on;
    }

    /// Whether two methods are shown side by side.
    pub fn compare(&self) -> bool {
        self.state.compare
    }

    /// Which two methods side by side shows, `left` and `right`: any two of
    /// `"lbs"`, `"dqs"` and `"cor"`; throws for one method twice.
    #[wasm_bindgen(js_name = setComparePair)]
    pub fn set_compare_pair(&mut self, left: &str, right: &str) -> Result<(), JsError> {
        const METHOD: &str = "setComparePair";
        let left: SkinningMethod = left.parse().map_err(|e| js_error(METHOD, e))?;
        let right: SkinningMethod = right.parse().map_err(|e| js_error(METHOD, e))?;
        if left == right {
            return Err(js_error(METHOD, "side by side needs two different methods"));
        }
        self.state.compare_pair = [left, right];
        Ok(())
    }

    /// The two methods side by side shows, `[left, right]`.
    #[wasm_bindgen(js_name = comparePair)]
    pub fn compare_pair(&self) -> Vec<String> {
        self.state.compare_pair.map(method_name).to_vec()
    }

    /// Frames drawn so far.
    #[wasm_bindgen(js_name = framesRendered)]
    pub fn frames_rendered(&self) -> u32 {
        self.frames
    }

    /// Points the camera at the whole mesh (and any path a bone rides):
    /// `"2d"` an orthographic front view,
    /// `"3d"` a perspective view from above the side, `"front"` one from in
    /// front (a face), `"auto"` picks 2D for a mesh that lies in one plane
    /// facing the viewer and the front for a scene with morph targets.
    #[wasm_bindgen(js_name = frameScene)]
    pub fn frame_scene(&mut self, lab: &JsLab, view: &str) -> Result<(), JsError> {
        let size = self.viewport_css();
        // A canvas not laid out yet (an element before its first layout) has no aspect of its own.
        let aspect = if size.min_element() < 16.0 {
            4.0 / 3.0
        } else {
            size.x / size.y
        };
        self.state.camera =
            frame_scene_named(&lab.inner, self.state.controller.method, view, aspect)
                .map_err(|e| js_error("frameScene", e))?;
        Ok(())
    }

    /// `"2d"` or `"3d"`.
    pub fn view(&self) -> String {
        if self.flat() { "2d" } else { "3d" }.to_owned()
    }

    /// Chooses LBS (`"lbs"`), DQS (`"dqs"`) or CoR (`"cor"`) for drawing.
    #[wasm_bindgen(js_name = setMethod)]
    pub fn set_method(&mut self, method: &str) -> Result<(), JsError> {
        self.state.controller.method = method.parse().map_err(|e| js_error("setMethod", e))?;
        Ok(())
    }

    /// The drawing method, `"lbs"`, `"dqs"` or `"cor"`.
    pub fn method(&self) -> String {
        method_name(self.state.controller.method)
    }

    fn overlay_flag(&mut self, name: &str) -> Option<&mut bool> {
        let overlays = &mut self.state.overlays;
        Some(match name {
            "mesh" => &mut overlays.mesh,
            "wireframe" => &mut overlays.wireframe,
            "dots" => &mut overlays.dots,
            "bones" => &mut overlays.bones,
            "ownFrames" => &mut overlays.own_frames,
            "childFrames" => &mut overlays.child_frames,
            "ghost" => &mut overlays.ghost,
            "centres" => &mut overlays.centres,
            _ => return None,
        })
    }

    /// Shows or hides a layer: `mesh`, `wireframe`, `dots`, `bones`,
    /// `ownFrames`, `childFrames`, `ghost`, `centres` (each vertex's centre
    /// of rotation, posed).
    #[wasm_bindgen(js_name = setOverlay)]
    pub fn set_overlay(&mut self, name: &str, on: bool) -> Result<(), JsError> {
        let flag = self
            .overlay_flag(name)
            .ok_or_else(|| js_error("setOverlay", format!("unknown overlay '{name}'")))?;
        *flag = on;
        Ok(())
    }

    /// Whether a layer is shown.
    pub fn overlay(&self, name: &str) -> Result<bool, JsError> {
        let overlays = &self.state.overlays;
        Ok(match name {
            "mesh" => overlays.mesh,
            "wireframe" => overlays.wireframe,
            "dots" => overlays.dots,
            "bones" => overlays.bones,
            "ownFrames" => overlays.own_frames,
            "childFrames" => overlays.child_frames,
            "ghost" => overlays.ghost,
            "centres" => overlays.centres,
            _ => return Err(js_error("overlay", format!("unknown overlay '{name}'"))),
        })
    }

    /// Highlights bone `bone`; `null` selects none.
    #[wasm_bindgen(js_name = selectBone)]
    pub fn select_bone(&mut self, lab: &JsLab, bone: Option<f64>) -> Result<(), JsError> {
        let Some(bone) = bone else {
            self.state.controller.select(None);
            return Ok(());
        };
        let bone = index_from_f64("bone", bone).map_err(|e| js_error("selectBone", e))?;
        lab.inner
            .bone_pose(bone)
            .map_err(|e| js_error("selectBone", e))?;
        self.state.controller.select(Some(bone));
        Ok(())
    }

    /// The highlighted bone, or `null`.
    #[wasm_bindgen(js_name = selectedBone)]
    pub fn selected_bone(&self) -> JsValue {
        nullable(self.state.controller.selected().map(|b| b as u32))
    }

    /// A point where a press grabs bone `bone`: `[x, y]` in CSS pixels.
    #[wasm_bindgen(js_name = boneScreenPoint)]
    pub fn bone_screen_point(
        &mut self,
        lab: &mut JsLab,
        bone: f64,
    ) -> Result<js_sys::Array, JsError> {
        let bone = index_from_f64("bone", bone).map_err(|e| js_error("boneScreenPoint", e))?;
        lab.inner
            .bone_pose(bone)
            .map_err(|e| js_error("boneScreenPoint", e))?;
        let size = self.viewport_css();
        let point = self
            .state
            .controller
            .bone_grab_point(&mut lab.inner, &self.state.camera, size, bone)
            .unwrap_or(Vec2::splat(-1.0));
        Ok(point_array(&point.to_array()))
    }

    /// Where vertex `vertex`, skinned as drawn, appears: `[x, y]` in CSS
    /// pixels.
    #[wasm_bindgen(js_name = vertexScreenPoint)]
    pub fn vertex_screen_point(
        &self,
        lab: &mut JsLab,
        vertex: f64,
    ) -> Result<js_sys::Array, JsError> {
        let vertex =
            index_from_f64("vertex", vertex).map_err(|e| js_error("vertexScreenPoint", e))?;
        let position = lab
            .inner
            .skinned_vertex(self.state.controller.method, vertex)
            .map_err(|e| js_error("vertexScreenPoint", e))?;
        let point = self
            .state
            .camera
            .screen_from_model(position, self.viewport_css())
            .ok_or_else(|| {
                js_error(
                    "vertexScreenPoint",
                    format!("vertex {vertex} is behind the camera"),
                )
            })?;
        Ok(point_array(&point.to_array()))
    }

    /// Where the model-space point `point` (`[x, y, z]`) appears: `[x, y]`
    /// in CSS pixels, or an error behind the camera.
    #[wasm_bindgen(js_name = screenPointOf)]
    pub fn screen_point_of(&self, point: &[f32]) -> Result<js_sys::Array, JsError> {
        let point = model_point("screenPointOf", point)?;
        self.state
            .camera
            .screen_from_model(point, self.viewport_css())
            .map(|p| point_array(&p.to_array()))
            .ok_or_else(|| js_error("screenPointOf", "the point is behind the camera"))
    }

    /// The view as SVG elements (no `<svg>` wrapper) in the canvas's CSS
    /// pixels: one filled `<path>` per front-facing triangle of the skin,
    /// far to near, stroked when the wireframe is shown, then the bones.
    /// The page wraps it and adds its own layers (labels as text). `method`
    /// (`"lbs"`, `"dqs"`, `"cor"`) draws the skin that way instead of the
    /// chosen method: each half of a side-by-side comparison, whose view is
    /// half the canvas wide.
    #[wasm_bindgen(js_name = svgElements)]
    pub fn svg_elements(&self, lab: &mut JsLab, method: Option<String>) -> Result<String, JsError> {
        let method = match method {
            Some(name) => name.parse().map_err(|e| js_error("svgElements", e))?,
            None => self.state.controller.method,
        };
        let view = SvgView {
            camera: self.state.camera,
            viewport: self.viewport_css(),
            overlays: self.state.overlays,
            weight_view: self.state.weight_view,
            selected: self
                .state
                .controller
                .selected()
                .filter(|&b| b < lab.inner.bone_count()),
            method,
            flat: self.flat(),
        };
        Ok(svg_elements(&figure_of(&mut lab.inner, &view)))
    }

    /// The model-space point under `(x, y)` on the plane through `anchor`
    /// (`[x, y, z]`) facing the viewer: where a dragged handle goes.
    #[wasm_bindgen(js_name = modelPointAt)]
    pub fn model_point_at(&self, x: f32, y: f32, anchor: &[f32]) -> Result<js_sys::Array, JsError> {
        let anchor = model_point("modelPointAt", anchor)?;
        let size = self.viewport_css();
        let at = self
            .state
            .camera
            .screen_from_model(anchor, size)
            .ok_or_else(|| js_error("modelPointAt", "the anchor is behind the camera"))?;
        let delta = self.local_point(x, y) - at;
        Ok(point_array(
            &(anchor + self.state.camera.model_delta(delta, anchor, size)).to_array(),
        ))
    }

    /// The bone under `(x, y)`, or `null`.
    #[wasm_bindgen(js_name = pickBone)]
    pub fn pick_bone(&mut self, lab: &mut JsLab, x: f32, y: f32) -> JsValue {
        let (size, point) = (self.viewport_css(), self.local_point(x, y));
        nullable(
            self.state
                .controller
                .bone_at(&mut lab.inner, &self.state.camera, size, point)
                .map(|b| b as u32),
        )
    }

    /// Starts a drag as `{x, y, button, shift?, reach?}` says: at `(x, y)`
    /// with DOM button `button` (see [`Controller::pointer_down`]); `reach`
    /// is Alt or Ctrl. Returns what began: `none`, `rotate`, `move`,
    /// `reach`, `orbit`, `pan` or `paint`.
    #[wasm_bindgen(js_name = pointerDown)]
    pub fn pointer_down(&mut self, lab: &mut JsLab, press: JsValue) -> Result<String, JsError> {
        let PressOptions {
            x,
            y,
            button,
            shift,
            reach,
        } = options("pointerDown", press)?;
        let point = self.local_point(x, y);
        let view = ViewPort {
            size: self.viewport_css(),
            camera: &mut self.state.camera,
        };
        Ok(self
            .state
            .controller
            .pointer_down(
                &mut lab.inner,
                view,
                point,
                Button::from_dom(button),
                Modifiers { shift, reach },
            )
            .name()
            .to_owned())
    }

    /// Continues the drag to `(x, y)`; true if anything changed.
    #[wasm_bindgen(js_name = pointerMove)]
    pub fn pointer_move(&mut self, lab: &mut JsLab, x: f32, y: f32) -> bool {
        let point = self.local_point(x, y);
        let view = ViewPort {
            size: self.viewport_css(),
            camera: &mut self.state.camera,
        };
        self.state
            .controller
            .pointer_move(&mut lab.inner, view, point)
    }

    /// Chooses what a press does: `pose` (turn bones) or `paint` (paint the
    /// selected bone's weight).
    #[wasm_bindgen(js_name = setTool)]
    pub fn set_tool(&mut self, tool: &str) -> Result<(), JsError> {
        self.state.controller.tool = match tool {
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
        match self.state.controller.tool {
            Tool::Pose => "pose",
            Tool::Paint => "paint",
        }
        .to_owned()
    }

    /// Sets the brush from `{radius, strength, falloff?, mode?, value?}`:
    /// radius in CSS pixels, strength 0..1, falloff (`smooth` by default,
    /// `linear`, `constant`), mode (`add` by default, `subtract`, `set`,
    /// `smooth`) and the target value of `set`; `brush()` gives it back.
    #[wasm_bindgen(js_name = setBrush)]
    pub fn set_brush(&mut self, brush: JsValue) -> Result<(), JsError> {
        refuse_unknown_keys("setBrush", &brush, BrushOptions::KEYS)?;
        let brush: BrushOptions = options("setBrush", brush)?;
        self.state.controller.brush = brush.brush("setBrush")?;
        Ok(())
    }

    /// The brush radius, CSS pixels.
    #[wasm_bindgen(js_name = brushRadius)]
    pub fn brush_radius(&self) -> f32 {
        self.state.controller.brush.radius
    }

    /// Paints the mirror vertices with the mirror bone too.
    #[wasm_bindgen(js_name = setMirror)]
    pub fn set_mirror(&mut self, on: bool) {
        self.state.controller.mirror = on;
    }

    /// Whether strokes paint the X-mirror too.
    pub fn mirror(&self) -> bool {
        self.state.controller.mirror
    }

    /// The brush: `{radius, strength, falloff, mode, value}`, as
    /// [`Viewer::set_brush`] takes it.
    pub fn brush(&self) -> JsValue {
        let brush = &self.state.controller.brush;
        let view = js_sys::Object::new();
        for (key, value) in [
            ("radius", JsValue::from(brush.radius)),
            ("strength", JsValue::from(brush.strength)),
            ("falloff", JsValue::from(brush.falloff.name())),
            ("mode", JsValue::from(brush.mode.name())),
            ("value", JsValue::from(brush.value)),
        ] {
            // Setting a key on a fresh plain object cannot fail.
            let _ = js_sys::Reflect::set(&view, &key.into(), &value);
        }
        view.into()
    }

    /// Influences pruned during the last stroke (to keep four per vertex).
    #[wasm_bindgen(js_name = lastStrokePruned)]
    pub fn last_stroke_pruned(&self) -> u32 {
        self.state.controller.stroke().pruned as u32
    }

    /// Vertices changed during the last stroke (counted once per dab).
    #[wasm_bindgen(js_name = lastStrokeTouched)]
    pub fn last_stroke_touched(&self) -> u32 {
        self.state.controller.stroke().touched as u32
    }

    /// How the skin is coloured: `skin`, `weights` (heat map of the selected
    /// bone) or `bones` (all bones' colours mixed by weight).
    #[wasm_bindgen(js_name = setWeightView)]
    pub fn set_weight_view(&mut self, view: &str) -> Result<(), JsError> {
        self.state.weight_view = match view {
            "skin" => WeightView::Skin,
            "weights" => WeightView::Weights,
            "bones" => WeightView::AllBones,
            "error" => WeightView::Error,
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
        match self.state.weight_view {
            WeightView::Skin => "skin",
            WeightView::Weights => "weights",
            WeightView::AllBones => "bones",
            WeightView::Error => "error",
        }
        .to_owned()
    }

    /// Where model-space point `[x, y, z]` appears on the canvas: `[x, y]`
    /// in CSS pixels (the left view when comparing), or `null` behind the
    /// eye.
    #[wasm_bindgen(js_name = screenPoint)]
    pub fn screen_point(&self, point: Vec<f32>) -> Result<JsValue, JsError> {
        let point = <[f32; 3]>::try_from(point.as_slice()).map_err(|_| {
            js_error(
                "screenPoint",
                format!("the point is [x, y, z], got {} numbers", point.len()),
            )
        })?;
        let size = self.viewport_css();
        Ok(self
            .state
            .camera
            .screen_from_model(Vec3::from_array(point), size)
            .map_or(JsValue::NULL, |p| point_array(&p.to_array()).into()))
    }

    /// Model-space point `[x, y, z]` moved in the view plane, at its own
    /// depth, by a pointer motion of `[dx, dy]` CSS pixels.
    #[wasm_bindgen(js_name = planePoint)]
    pub fn plane_point(&self, point: Vec<f32>, delta: Vec<f32>) -> Result<js_sys::Array, JsError> {
        const METHOD: &str = "planePoint";
        let point = <[f32; 3]>::try_from(point.as_slice()).map_err(|_| {
            js_error(
                METHOD,
                format!("the point is [x, y, z], got {} numbers", point.len()),
            )
        })?;
        let [dx, dy] = <[f32; 2]>::try_from(delta.as_slice()).map_err(|_| {
            js_error(
                METHOD,
                format!("the motion is [dx, dy], got {} numbers", delta.len()),
            )
        })?;
        let point = Vec3::from_array(point);
        let moved = point
            + self
                .state
                .camera
                .model_delta(Vec2::new(dx, dy), point, self.viewport_css());
        Ok(point_array(&moved.to_array()))
    }

    /// The point inside the drawn mesh under `[x, y]` (CSS pixels in the
    /// canvas): midway between where the ray through it first enters the
    /// surface and last leaves it, as `[x, y, z]` in model space; `null`
    /// off the mesh.
    #[wasm_bindgen(js_name = volumePointAt)]
    pub fn volume_point_at(&self, lab: &mut JsLab, at: Vec<f32>) -> Result<JsValue, JsError> {
        const METHOD: &str = "volumePointAt";
        let [x, y] = <[f32; 2]>::try_from(at.as_slice()).map_err(|_| {
            js_error(
                METHOD,
                format!("the point is [x, y], got {} numbers", at.len()),
            )
        })?;
        let (size, point) = (self.viewport_css(), self.local_point(x, y));
        let Some((origin, direction)) =
            crate::view::volume::ray_at(&self.state.camera, point, size)
        else {
            return Ok(JsValue::NULL);
        };
        let method = self.state.controller.method;
        lab.inner.skin(method);
        let hit = crate::view::volume::volume_point(
            &lab.inner.skinned_positions(method),
            &lab.inner.scene().mesh.indices,
            origin,
            direction,
        );
        Ok(hit.map_or(JsValue::NULL, |p| point_array(&p.to_array()).into()))
    }

    /// The vertex drawn nearest to `(x, y)` within 12 CSS pixels, or `null`.
    #[wasm_bindgen(js_name = pickVertex)]
    pub fn pick_vertex(&self, lab: &mut JsLab, x: f32, y: f32) -> JsValue {
        let (size, point) = (self.viewport_css(), self.local_point(x, y));
        nullable(
            self.state
                .controller
                .vertex_at(&mut lab.inner, &self.state.camera, size, point)
                .map(|v| v as u32),
        )
    }

    /// Marks vertex `vertex` (its list shows in the panel); `null` for none.
    #[wasm_bindgen(js_name = selectVertex)]
    pub fn select_vertex(&mut self, lab: &JsLab, vertex: Option<f64>) -> Result<(), JsError> {
        let Some(vertex) = vertex else {
            self.state.selected_vertex = None;
            return Ok(());
        };
        let vertex = index_from_f64("vertex", vertex).map_err(|e| js_error("selectVertex", e))?;
        lab.inner
            .influences(vertex)
            .map_err(|e| js_error("selectVertex", e))?;
        self.state.selected_vertex = Some(vertex);
        Ok(())
    }

    /// The marked vertex, or `null`.
    #[wasm_bindgen(js_name = selectedVertex)]
    pub fn selected_vertex(&self) -> JsValue {
        nullable(self.state.selected_vertex.map(|v| v as u32))
    }

    /// Turns the selected bone by `radians` about the view axis
    /// (counter-clockwise as seen), as one undo step: the keyboard's way to
    /// pose. False when no bone is selected.
    #[wasm_bindgen(js_name = turnSelected)]
    pub fn turn_selected(&mut self, lab: &mut JsLab, radians: f32) -> bool {
        self.state
            .controller
            .turn_selected(&mut lab.inner, &self.state.camera, radians)
    }

    /// Ends the drag.
    #[wasm_bindgen(js_name = pointerUp)]
    pub fn pointer_up(&mut self) {
        self.state.controller.pointer_up();
    }

    /// Whether a drag is under way.
    pub fn dragging(&self) -> bool {
        self.state.controller.dragging()
    }

    /// Zooms by `factor` (< 1 closer).
    pub fn zoom(&mut self, factor: f32) {
        self.state.camera.zoom(factor);
    }

    /// Moves the view as a drag of `(dx, dy)` CSS pixels over empty space
    /// does: orbits a 3D view, pans a 2D one (the keyboard's way to both).
    #[wasm_bindgen(js_name = moveView)]
    pub fn move_view(&mut self, dx: f32, dy: f32) {
        let delta = Vec2::new(dx, dy);
        if !delta.is_finite() {
            return;
        }
        if self.flat() {
            let size = self.viewport_css();
            self.state.camera.pan(delta, size);
        } else {
            self.state.camera.orbit(delta);
        }
    }

    /// The camera as `[targetX, targetY, targetZ, yaw, pitch, distance]`.
    #[wasm_bindgen(js_name = cameraState)]
    pub fn camera_state(&self) -> Vec<f32> {
        let c = &self.state.camera;
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
        self.state.camera.target = Vec3::new(state[0], state[1], state[2]);
        self.state.camera.yaw = state[3];
        self.state.camera.pitch = state[4].clamp(-1.55, 1.55);
        self.state.camera.distance = state[5];
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
            None => self.state.controller.method,
        };
        self.renderer
            .gpu_skinned(&self.gl, &lab.inner, method)
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
        self.renderer.switches.force_palette_texture = on;
    }

    /// Whether the palette goes by texture even where uniforms would do.
    #[wasm_bindgen(js_name = paletteTexture)]
    pub fn palette_texture(&self) -> bool {
        self.renderer.switches.force_palette_texture
    }

    /// Whether joint indices go as `uint8` where the skeleton allows.
    #[wasm_bindgen(js_name = jointBytes)]
    pub fn joint_bytes(&self) -> bool {
        self.renderer.switches.joint_bytes
    }

    /// The most bones per draw call, or 0 when the skin is drawn in one.
    #[wasm_bindgen(js_name = batchLimit)]
    pub fn batch_limit(&self) -> usize {
        self.renderer.switches.batch_limit.unwrap_or(0)
    }

    /// Sends joint indices as `uint8` (`true`, up to 256 bones; more fall
    /// back to `uint16`) or `uint16`.
    #[wasm_bindgen(js_name = setJointBytes)]
    pub fn set_joint_bytes(&mut self, on: bool) {
        self.renderer.switches.joint_bytes = on;
        self.renderer.forget_weights();
    }

    /// Draws the skin batch by batch, each with at most `bones` bones
    /// (the engine note's split); 0 draws it in one call.
    #[wasm_bindgen(js_name = setBatchLimit)]
    pub fn set_batch_limit(&mut self, bones: f64) -> Result<(), JsError> {
        let bones =
            crate::lab::index_from_f64("bones", bones).map_err(|e| js_error("setBatchLimit", e))?;
        self.renderer.switches.batch_limit = (bones > 0).then_some(bones);
        Ok(())
    }

    /// Draw calls the skin took in the last frame.
    #[wasm_bindgen(js_name = drawCalls)]
    pub fn draw_calls(&self) -> usize {
        self.renderer.draw_calls()
    }

    /// The engine note's palette format the shader receives: `"mat4"`, `"mat4x3"`,
    /// `"quat-translation"`, `"dual-quat"`, or `""` for the skinning
    /// method's own layout (`mat4x3` rows for LBS, dual quaternion and scale
    /// for DQS).
    #[wasm_bindgen(js_name = setPaletteFormat)]
    pub fn set_palette_format(&mut self, name: &str) -> Result<(), JsError> {
        self.renderer.switches.palette_format = match name {
            "" => None,
            name => Some(super::batches::palette_format("setPaletteFormat", name)?),
        };
        Ok(())
    }

    /// The palette format set, or `""`.
    #[wasm_bindgen(js_name = paletteFormat)]
    pub fn palette_format(&self) -> String {
        self.renderer
            .switches
            .palette_format
            .map_or("", |f| f.name())
            .to_owned()
    }

    /// Morph targets with a weight the last frame could not draw on the GPU
    /// (more than its largest texture holds on this mesh); 0 normally.
    #[wasm_bindgen(js_name = morphsDropped)]
    pub fn morphs_dropped(&self) -> usize {
        self.renderer.morphs_dropped()
    }

    /// `MAX_VERTEX_UNIFORM_VECTORS` of this device.
    #[wasm_bindgen(js_name = maxUniformVectors)]
    pub fn max_uniform_vectors(&self) -> usize {
        self.renderer.device_uniform_vectors()
    }

    /// How the palette of `lab` travels to the shader: `uniforms` or
    /// `texture`.
    #[wasm_bindgen(js_name = paletteStorage)]
    pub fn palette_storage(&self, lab: &JsLab) -> String {
        if self
            .renderer
            .palette_fits_uniforms(self.state.controller.method, lab.inner.bone_count())
        {
            "uniforms"
        } else {
            "texture"
        }
        .to_owned()
    }
}

/// Three finite numbers as a model-space point.
fn model_point(method: &str, values: &[f32]) -> Result<Vec3, JsError> {
    match values {
        [x, y, z] if values.iter().all(|v| v.is_finite()) => Ok(Vec3::new(*x, *y, *z)),
        _ => Err(js_error(method, "expected a point of three finite numbers")),
    }
}

impl Viewer {
    /// The size of image `index` of lab `lab_id` on the GPU (see `colour.rs`).
    pub(super) fn base_colour_size(&self, lab_id: u64, index: usize) -> Option<[u32; 2]> {
        self.renderer.base_colour_size(lab_id, index)
    }

    /// Uploads image `index` of lab `lab_id`, decoded (see `colour.rs`).
    pub(super) fn upload_base_colour(
        &mut self,
        lab_id: u64,
        index: usize,
        size: (u32, u32),
        pixels: &[u8],
    ) -> Result<(), String> {
        self.renderer
            .set_base_colour_pixels(&self.gl, lab_id, index, size, pixels)
    }
}

/// A method's name in the API: `"lbs"`, `"dqs"` or `"cor"`.
fn method_name(method: SkinningMethod) -> String {
    match method {
        SkinningMethod::Lbs => "lbs",
        SkinningMethod::Dqs => "dqs",
        SkinningMethod::Cor => "cor",
    }
    .to_owned()
}
