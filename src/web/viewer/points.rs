//! The viewer's points: where a model point or a bone or vertex is on the
//! view, and what model point, bone or vertex is under a point of it (in
//! the volume, in the view plane).

use super::*;

#[wasm_bindgen]
impl Viewer {
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
}
