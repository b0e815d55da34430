//! The viewer's input: pointer presses, moves and releases as the
//! controller takes them, the selected bone and vertex, the tool, the
//! brush and the weight view.

use super::*;

#[wasm_bindgen]
impl Viewer {
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
}
