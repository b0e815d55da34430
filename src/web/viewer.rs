//! The canvas: a WebGL2 context, the renderer, the camera and pointer drags.
//!
//! JavaScript owns the event listeners and the frame scheduling and calls in
//! with plain numbers (CSS pixels from the canvas' top-left corner); the
//! interaction math itself lives in the core. This file makes the viewer and
//! draws; `points.rs` maps between the view and the model, `input.rs` takes
//! the pointer, the tool and the brush, `gpu.rs` the GPU choices and readback.

mod gpu;
mod input;
mod points;

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
