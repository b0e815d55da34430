//! The JS API of a glTF file's base colour: `lab.baseColour()` hands the
//! page the factor, the UVs and the encoded image, which the browser
//! decodes; `viewer.setBaseColourPixels` takes the decoded pixels back to
//! the GPU.

use wasm_bindgen::prelude::*;

use super::viewer::Viewer;
use super::{js_error, JsLab};

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// The file's base colour: `{factor: [r, g, b, a], mimeType?, image?:
    /// Uint8Array, uvs: Float32Array}` (`image` and `mimeType` when the file
    /// has a texture that could be read, `uvs` then two per vertex), or
    /// `null` for a scene without a material.
    #[wasm_bindgen(js_name = baseColour)]
    pub fn base_colour(&self) -> Result<JsValue, JsError> {
        const METHOD: &str = "baseColour";
        let Some(colour) = self.inner.scene().base_colour.as_ref() else {
            return Ok(JsValue::NULL);
        };
        let view = js_sys::Object::new();
        let set = |key: &str, value: JsValue| {
            js_sys::Reflect::set(&view, &key.into(), &value)
                .map(|_| ())
                .map_err(|_| js_error(METHOD, "could not build the result"))
        };
        let factor: js_sys::Array = colour.factor.iter().map(|&v| JsValue::from(v)).collect();
        set("factor", factor.into())?;
        let uvs: Vec<f32> = colour.uvs.iter().flat_map(|uv| uv.to_array()).collect();
        set("uvs", js_sys::Float32Array::from(uvs.as_slice()).into())?;
        if let Some(image) = &colour.image {
            set("mimeType", image.mime_type.as_str().into())?;
            // Measured from the header, so the page can refuse an image
            // too large before it decodes a pixel.
            if let Some((width, height)) = image.size() {
                set("width", width.into())?;
                set("height", height.into())?;
            }
            set(
                "image",
                js_sys::Uint8Array::from(image.bytes.as_slice()).into(),
            )?;
        }
        Ok(view.into())
    }
}

#[wasm_bindgen]
impl Viewer {
    /// Uploads `width × height` RGBA pixels (rows from the top, as an
    /// `ImageData` holds them) as `lab`'s base colour texture; the skin is
    /// drawn with it (times the factor) in the plain skin view.
    #[wasm_bindgen(js_name = setBaseColourPixels)]
    pub fn set_base_colour_pixels(
        &mut self,
        lab: &JsLab,
        width: u32,
        height: u32,
        pixels: &[u8],
    ) -> Result<(), JsError> {
        self.upload_base_colour(lab.inner.id(), width, height, pixels)
            .map_err(|e| js_error("setBaseColourPixels", e))
    }
}
