//! The viewer's GPU choices and readback: the palette's format and
//! storage, 8-bit joints, the draw-call split, and the skinned mesh read
//! back by transform feedback.

use super::*;

#[wasm_bindgen]
impl Viewer {
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
            name => Some(crate::web::batches::palette_format(
                "setPaletteFormat",
                name,
            )?),
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
