//! A scene's look in its scene JSON: the materials a file's primitives
//! wear, their runs of triangles, the texture coordinates and the texture
//! images (base64), under `"look"`. "Save scene" and the autosave then
//! bring a textured character back as it was drawn. The same parts travel
//! between the page's two cores in the handover, with the images as bytes.

use serde::{Deserialize, Serialize};

use super::gltf::decode_base64;
use super::handover::{
    base_colour, base_colour_doc, material, material_doc, surface_docs, surfaces, BaseColourDoc,
    MaterialDoc,
};
use crate::scene::doc::LookText;
use crate::scene::{BaseColourImage, Scene, SceneError};

/// The image types a texture may have.
const IMAGE_TYPES: [&str; 3] = ["image/png", "image/jpeg", "image/webp"];

/// The `"look"` of a scene JSON.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct LookDoc {
    /// The first material's colour and the texture coordinates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base_colour: Option<BaseColourDoc>,
    /// The base colour's image, base64, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base_image: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    materials: Vec<MaterialDoc>,
    /// `[first index, index count, material]` per run of triangles.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    surfaces: Vec<[usize; 3]>,
    /// The images the materials' `texture` indexes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    textures: Vec<TextureDoc>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TextureDoc {
    mime_type: String,
    /// The encoded image, base64.
    data: String,
}

/// The look of `scene` as its scene JSON writes it; `None` for a scene
/// drawn in the page's own colours.
pub fn look_value(scene: &Scene) -> Option<LookText> {
    if scene.base_colour.is_none() && scene.materials.is_empty() {
        return None;
    }
    let doc = LookDoc {
        base_colour: base_colour_doc(scene),
        base_image: scene
            .base_colour
            .as_ref()
            .and_then(|colour| colour.image.as_ref())
            .map(|image| encode_base64(&image.bytes)),
        materials: scene.materials.iter().map(material_doc).collect(),
        surfaces: surface_docs(scene),
        textures: scene
            .images
            .iter()
            .map(|image| TextureDoc {
                mime_type: image.mime_type.clone(),
                data: encode_base64(&image.bytes),
            })
            .collect(),
    };
    // A LookDoc holds only strings, numbers and arrays: it serialises, and
    // its text is taken as it is written, not parsed again.
    serde_json::value::to_raw_value(&doc).ok().map(LookText)
}

/// Puts the look `value` (a scene JSON's `"look"`) on `scene`, every part
/// checked first: a problem is named, and nothing is put on.
pub fn apply_look(scene: &mut Scene, look: &LookText) -> Result<(), SceneError> {
    let problem = |message: String| SceneError::Json {
        path: "look".to_owned(),
        message,
    };
    let doc: LookDoc = serde_json::from_str(look.0.get()).map_err(|e| problem(e.to_string()))?;
    let image = |mime_type: &str, data: &str, field: &str| -> Result<Vec<u8>, SceneError> {
        if !IMAGE_TYPES.contains(&mime_type) {
            return Err(problem(format!(
                "{field}: '{mime_type}' is not an image type Skinlab draws ({})",
                IMAGE_TYPES.join(", ")
            )));
        }
        decode_base64(data).ok_or_else(|| problem(format!("{field}: the image is not base64")))
    };
    let base_bytes = match (&doc.base_image, &doc.base_colour) {
        (Some(data), Some(colour)) => {
            let mime_type = colour.mime_type.as_deref().unwrap_or("");
            image(mime_type, data, "baseImage")?
        }
        _ => Vec::new(),
    };
    let mut images = Vec::with_capacity(doc.textures.len());
    for (k, texture) in doc.textures.iter().enumerate() {
        images.push(BaseColourImage {
            mime_type: texture.mime_type.clone(),
            bytes: image(&texture.mime_type, &texture.data, &format!("textures[{k}]"))?,
        });
    }
    let vertices = scene.mesh.vertex_count();
    let colour = doc
        .base_colour
        .map(|colour| base_colour(colour, &base_bytes, vertices))
        .transpose()
        .map_err(|e| problem(e.to_string()))?;
    let materials = doc
        .materials
        .into_iter()
        .enumerate()
        .map(|(k, m)| material(k, m, images.len()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| problem(e.to_string()))?;
    // The runs are checked against the materials they name; the scene
    // keeps its own when they are refused.
    let before = std::mem::replace(&mut scene.materials, materials);
    match surfaces(&doc.surfaces, scene) {
        Ok(runs) => {
            scene.surfaces = runs;
            scene.images = images;
            scene.base_colour = colour;
            Ok(())
        }
        Err(error) => {
            scene.materials = before;
            Err(problem(error.to_string()))
        }
    }
}

/// Standard base64 with padding.
pub fn encode_base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (k, &b)| n | u32::from(b) << (16 - 8 * k));
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * k) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_every_length() {
        for length in 0..40 {
            let bytes: Vec<u8> = (0..length).map(|k| (k * 37 + 11) as u8).collect();
            let text = encode_base64(&bytes);
            assert_eq!(text.len() % 4, 0);
            assert_eq!(decode_base64(&text).unwrap(), bytes);
        }
        assert_eq!(encode_base64(b"Man"), "TWFu");
        assert_eq!(encode_base64(b"Ma"), "TWE=");
    }
}
