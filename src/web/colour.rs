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
        let factor: js_sys::Array = colour.factor.iter().map(|&v| JsValue::from(v)).collect();
        set(&view, "factor", factor.into(), METHOD)?;
        let uvs: Vec<f32> = colour.uvs.iter().flat_map(|uv| uv.to_array()).collect();
        set(
            &view,
            "uvs",
            js_sys::Float32Array::from(uvs.as_slice()).into(),
            METHOD,
        )?;
        if let Some(image) = &colour.image {
            set_image(&view, image, METHOD)?;
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

#[wasm_bindgen(js_class = Lab)]
impl JsLab {
    /// The materials' texture images, as the file stores them: `[{mimeType,
    /// width?, height?, image: Uint8Array}]` (the size read from the
    /// header, when it can be), for the browser to decode; a material's
    /// `texture` is an index into it.
    #[wasm_bindgen(js_name = textureImages)]
    pub fn texture_images(&self) -> Result<js_sys::Array, JsError> {
        const METHOD: &str = "textureImages";
        self.inner
            .scene()
            .images
            .iter()
            .map(|image| {
                let view = js_sys::Object::new();
                let set = |key: &str, value: JsValue| {
                    js_sys::Reflect::set(&view, &key.into(), &value)
                        .map(|_| ())
                        .map_err(|_| js_error(METHOD, "could not build the result"))
                };
                set("mimeType", image.mime_type.as_str().into())?;
                if let Some((width, height)) = image.size() {
                    set("width", width.into())?;
                    set("height", height.into())?;
                }
                set(
                    "image",
                    js_sys::Uint8Array::from(image.bytes.as_slice()).into(),
                )?;
                Ok::<JsValue, JsError>(view.into())
            })
            .collect()
    }

    /// The file's materials as drawn: `[{name, baseColour: [r, g, b, a],
    /// texture: index into textureImages() or null, alphaMode: "OPAQUE" |
    /// "MASK" | "BLEND", alphaCutoff, doubleSided, unlit}]`; empty for a
    /// scene in the page's own colours.
    pub fn materials(&self) -> Result<JsValue, JsError> {
        let list: Vec<MaterialView> = self
            .inner
            .scene()
            .materials
            .iter()
            .map(MaterialView::of)
            .collect();
        serde_wasm_bindgen::to_value(&list).map_err(|e| js_error("materials", e))
    }

    /// The material mesh `mesh` is drawn in (its first surface's), an index
    /// into `materials()`, or `null` when it has none.
    #[wasm_bindgen(js_name = meshMaterial)]
    pub fn mesh_material(&self, mesh: usize) -> Result<JsValue, JsError> {
        let scene = self.inner.scene();
        let part = scene.meshes.get(mesh).ok_or_else(|| {
            js_error(
                "meshMaterial",
                format!("mesh {mesh}: the scene has {}", scene.meshes.len()),
            )
        })?;
        let range = part.first_vertex..part.first_vertex + part.vertex_count;
        Ok(super::nullable(
            scene
                .surfaces
                .iter()
                .find(|s| {
                    scene.mesh.indices[s.first_index..s.first_index + s.index_count]
                        .first()
                        .is_some_and(|&v| range.contains(&(v as usize)))
                })
                .map(|s| s.material as u32),
        ))
    }
}

/// Sets `view[key] = value`, for `method`'s result.
fn set(view: &js_sys::Object, key: &str, value: JsValue, method: &str) -> Result<(), JsError> {
    js_sys::Reflect::set(view, &key.into(), &value)
        .map(|_| ())
        .map_err(|_| js_error(method, "could not build the result"))
}

/// An encoded image's `mimeType`, `image` and, measured from its header
/// (so the page can refuse an image too large before it decodes a pixel),
/// `width` and `height`, set on `view`.
fn set_image(
    view: &js_sys::Object,
    image: &crate::scene::BaseColourImage,
    method: &str,
) -> Result<(), JsError> {
    set(view, "mimeType", image.mime_type.as_str().into(), method)?;
    if let Some((width, height)) = image.size() {
        set(view, "width", width.into(), method)?;
        set(view, "height", height.into(), method)?;
    }
    set(
        view,
        "image",
        js_sys::Uint8Array::from(image.bytes.as_slice()).into(),
        method,
    )
}

/// A material as `lab.materials()` hands it over.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct MaterialView {
    name: String,
    base_colour: [f32; 4],
    texture: Option<usize>,
    alpha_mode: &'static str,
    alpha_cutoff: f32,
    double_sided: bool,
    unlit: bool,
}

impl MaterialView {
    fn of(material: &crate::scene::Material) -> Self {
        Self {
            name: material.name.clone(),
            base_colour: material.base_colour,
            texture: material.texture,
            alpha_mode: material.alpha_mode.name(),
            alpha_cutoff: material.alpha_mode.cutoff().unwrap_or(0.5),
            double_sided: material.double_sided,
            unlit: material.unlit,
        }
    }
}

#[wasm_bindgen]
impl Viewer {
    /// Uploads `{width, height, pixels, texture?}` (RGBA, rows from the top,
    /// as an `ImageData` holds them) as `lab`'s texture image `texture` (an
    /// index into `lab.textureImages()`; 0 when not given, also for a scene
    /// whose only image is `lab.baseColour()`'s); the skin is drawn with it
    /// (times the material's factor) in the plain skin view.
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
        let index = match js_sys::Reflect::get(&image, &"texture".into()) {
            Ok(v) if v.is_undefined() || v.is_null() => 0,
            _ => number("texture")? as usize,
        };
        let pixels = js_sys::Reflect::get(&image, &"pixels".into())
            .ok()
            .filter(|p| {
                p.is_instance_of::<js_sys::Uint8Array>()
                    || p.is_instance_of::<js_sys::Uint8ClampedArray>()
            })
            .map(|p| js_sys::Uint8Array::new(&p))
            .ok_or_else(|| js_error(METHOD, "pixels: a Uint8Array or Uint8ClampedArray"))?;
        self.upload_base_colour(lab.inner.id(), index, (width, height), &pixels.to_vec())
            .map_err(|e| js_error(METHOD, e))
    }

    /// The size of `lab`'s texture image `texture` (0 when not given) on
    /// the GPU, `[width, height]` pixels, or `null` before one is set.
    #[wasm_bindgen(js_name = baseColourPixelsSize)]
    pub fn base_colour_pixels_size(&self, lab: &JsLab, texture: Option<u32>) -> JsValue {
        super::nullable(
            self.base_colour_size(lab.inner.id(), texture.unwrap_or(0) as usize)
                .map(|size| js_sys::Uint32Array::from(&size[..])),
        )
    }
}
