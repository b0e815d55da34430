//! The JS API of a scene's own colours: `lab.vertexColours()` the colour
//! per vertex, `lab.baseColour()` hands the page a glTF file's factor, the
//! UVs and the encoded image, which the browser
//! decodes; `viewer.setBaseColourPixels` takes the decoded pixels back to
//! the GPU.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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

    /// The scene's own colour per vertex, linear `r, g, b` after one another
    /// (glTF's `COLOR_0`, or a scene's `colours`), or `null` when the skin
    /// has one colour.
    #[wasm_bindgen(js_name = vertexColours)]
    pub fn vertex_colours(&self) -> JsValue {
        let colours = &self.inner.scene().vertex_colours;
        if colours.is_empty() {
            return JsValue::NULL;
        }
        let flat: Vec<f32> = colours.iter().flat_map(|c| c.to_array()).collect();
        js_sys::Float32Array::from(flat.as_slice()).into()
    }
}

#[wasm_bindgen]
impl Viewer {
    /// Uploads `{width, height, pixels}` (RGBA, rows from the top, as an
    /// `ImageData` holds them) as `lab`'s base colour texture; the skin is
    /// drawn with it (times the factor) in the plain skin view.
    #[wasm_bindgen(js_name = setBaseColourPixels)]
    pub fn set_base_colour_pixels(&mut self, lab: &JsLab, image: JsValue) -> Result<(), JsError> {
        const METHOD: &str = "setBaseColourPixels";
        let number = |key: &str| {
            js_sys::Reflect::get(&image, &key.into())
                .ok()
                .and_then(|v| v.as_f64())
                .filter(|v| v.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(v))
                .map(|v| v as u32)
                .ok_or_else(|| js_error(METHOD, format!("{key}: a whole number of pixels")))
        };
        let (width, height) = (number("width")?, number("height")?);
        let pixels = js_sys::Reflect::get(&image, &"pixels".into())
            .ok()
            .filter(|p| {
                p.is_instance_of::<js_sys::Uint8Array>()
                    || p.is_instance_of::<js_sys::Uint8ClampedArray>()
            })
            .map(|p| js_sys::Uint8Array::new(&p))
            .ok_or_else(|| js_error(METHOD, "pixels: a Uint8Array or Uint8ClampedArray"))?;
        self.upload_base_colour(lab.inner.id(), width, height, &pixels.to_vec())
            .map_err(|e| js_error(METHOD, e))
    }

    /// The size of `lab`'s base colour texture on the GPU, `[width,
    /// height]` pixels, or `null` before one is set.
    #[wasm_bindgen(js_name = baseColourPixelsSize)]
    pub fn base_colour_pixels_size(&self, lab: &JsLab) -> JsValue {
        super::nullable(
            self.base_colour_size(lab.inner.id())
                .map(|size| js_sys::Uint32Array::from(&size[..])),
        )
    }
}
