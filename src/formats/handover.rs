//! How the file readers' wasm module and the page's hand a scene to each
//! other (`converters/`, `www/converters.js`): its compact scene JSON with
//! what scene JSON does not carry (the glTF base colour and texture, what
//! the file held that is not drawn, how many vertices were pruned to four
//! bones), in one byte string both sides read and write with this module.
//!
//! The bytes: `json ‖ 0x00 ‖ image`, where `json` is a [`HandoverDoc`] and
//! `image` the base colour texture's encoded bytes (empty without one). JSON
//! text never holds a raw NUL (control characters are escaped), so the
//! first zero byte ends it; the image crosses as it is, not as base64.

use serde::{Deserialize, Serialize};

use crate::scene::doc::SceneDoc;
use crate::scene::{BaseColour, BaseColourImage, Scene, SceneError};

/// The handover's JSON part.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HandoverDoc {
    /// The scene as scene JSON writes it.
    pub scene: SceneDoc,
    /// What the file held that is not drawn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_drawn: Vec<String>,
    /// Vertices that listed more than four bones in the file.
    #[serde(default)]
    pub pruned_vertices: usize,
    /// The base colour; its image is the bytes after the JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_colour: Option<BaseColourDoc>,
}

/// A base colour without its image's bytes.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BaseColourDoc {
    /// Linear RGBA.
    pub factor: [f32; 4],
    /// `u, v` per vertex; empty without an image.
    #[serde(default)]
    pub uvs: Vec<f32>,
    /// The image's type, when there is one.
    #[serde(default)]
    pub mime_type: Option<String>,
}

/// Why handover bytes were refused.
#[derive(Debug, thiserror::Error)]
pub enum HandoverError {
    /// No zero byte ends the JSON part.
    #[error("the handover has no end to its JSON part")]
    Unterminated,
    /// The JSON part does not parse.
    #[error("the handover's JSON does not parse: {message}")]
    Json {
        /// serde_json's message.
        message: String,
    },
    /// The scene in it is not valid.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// The texture coordinates do not match the vertices.
    #[error("the base colour has {uvs} texture coordinates for {vertices} vertices")]
    Uvs {
        /// `u, v` pairs given.
        uvs: usize,
        /// The mesh's vertices.
        vertices: usize,
    },
    /// An image came without its type, or a type without an image.
    #[error("the base colour's image and its type do not come together")]
    ImageType,
    /// A factor is not a number from 0 to 1.
    #[error("the base colour's factor {factor:?} is not four numbers from 0 to 1")]
    Factor {
        /// The factor given.
        factor: [f32; 4],
    },
}

/// `scene` as handover bytes.
pub fn handover_bytes(scene: &Scene) -> Vec<u8> {
    let doc = HandoverDoc {
        scene: scene.to_doc(),
        not_drawn: scene.not_drawn.clone(),
        pruned_vertices: scene.pruned_vertices,
        base_colour: scene.base_colour.as_ref().map(|colour| BaseColourDoc {
            factor: colour.factor,
            uvs: colour.uvs.iter().flat_map(|uv| uv.to_array()).collect(),
            mime_type: colour.image.as_ref().map(|image| image.mime_type.clone()),
        }),
    };
    // The document holds only strings, numbers and arrays: it always serialises.
    let mut bytes = serde_json::to_vec(&doc).unwrap_or_default();
    bytes.push(0);
    if let Some(image) = scene.base_colour.as_ref().and_then(|c| c.image.as_ref()) {
        bytes.extend_from_slice(&image.bytes);
    }
    bytes
}

/// The scene in handover bytes, validated as scene JSON is.
pub fn scene_from_handover(bytes: &[u8]) -> Result<Scene, HandoverError> {
    let end = bytes
        .iter()
        .position(|&b| b == 0)
        .ok_or(HandoverError::Unterminated)?;
    // Read as text, as scene JSON is: serde_json's reader of bytes would be
    // a second copy of the whole scene reader in the wasm.
    let json = |message: String| HandoverError::Json { message };
    let text = std::str::from_utf8(&bytes[..end]).map_err(|error| json(error.to_string()))?;
    let doc: HandoverDoc = serde_json::from_str(text).map_err(|error| json(error.to_string()))?;
    let image = &bytes[end + 1..];
    let mut scene = Scene::from_doc(&doc.scene)?;
    scene.not_drawn = doc.not_drawn;
    scene.pruned_vertices = doc.pruned_vertices;
    scene.base_colour = doc
        .base_colour
        .map(|colour| base_colour(colour, image, scene.mesh.vertex_count()))
        .transpose()?;
    Ok(scene)
}

/// The base colour of a mesh of `vertices` vertices, `image` its texture's bytes.
fn base_colour(
    doc: BaseColourDoc,
    image: &[u8],
    vertices: usize,
) -> Result<BaseColour, HandoverError> {
    if !doc.factor.iter().all(|f| (0.0..=1.0).contains(f)) {
        return Err(HandoverError::Factor { factor: doc.factor });
    }
    let image = match (doc.mime_type, image.is_empty()) {
        (Some(mime_type), false) => Some(BaseColourImage {
            mime_type,
            bytes: image.to_vec(),
        }),
        (None, true) => None,
        _ => return Err(HandoverError::ImageType),
    };
    let pairs = doc.uvs.len() / 2;
    let expected = if image.is_some() { vertices } else { 0 };
    if doc.uvs.len() % 2 != 0 || pairs != expected {
        return Err(HandoverError::Uvs {
            uvs: pairs,
            vertices,
        });
    }
    Ok(BaseColour {
        factor: doc.factor,
        image,
        uvs: doc
            .uvs
            .chunks_exact(2)
            .map(|uv| glam::Vec2::new(uv[0], uv[1]))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two bones along X and a strip of four vertices, two on each.
    fn two_bone() -> Scene {
        Scene::from_json(
            r#"{"bones": [
                {"name": "bone 1", "origin": [0, 0, 0], "orientation": [0, 0, -0.70710677, 0.70710677], "length": 2},
                {"name": "bone 2", "parent": 0, "origin": [0, 0, 0], "orientation": [0, 0, 0, 1], "length": 2}],
              "mesh": {"positions": [0, -0.5, 0, 0, 0.5, 0, 4, -0.5, 0, 4, 0.5, 0], "indices": [0, 2, 3, 0, 3, 1]},
              "influences": [[[0, 1]], [[0, 1]], [[1, 1]], [[1, 1]]]}"#,
        )
        .expect("a valid two-bone scene")
    }

    #[test]
    fn a_scene_without_a_base_colour_comes_back_the_same() {
        let scene = two_bone();
        let back = scene_from_handover(&handover_bytes(&scene)).expect("valid handover");
        assert_eq!(back.to_json_compact(), scene.to_json_compact());
        assert!(back.base_colour.is_none());
    }

    #[test]
    fn the_image_and_extras_come_back_byte_for_byte() {
        let mut scene = two_bone();
        let vertices = scene.mesh.vertex_count();
        scene.base_colour = Some(BaseColour {
            factor: [1.0, 0.5, 0.25, 1.0],
            // A zero inside the image must not end anything.
            image: Some(BaseColourImage {
                mime_type: "image/png".to_owned(),
                bytes: vec![137, 80, 78, 71, 0, 0, 1, 2],
            }),
            uvs: (0..vertices)
                .map(|v| glam::Vec2::new(v as f32, 0.5))
                .collect(),
        });
        scene.not_drawn = vec!["EXT_texture_webp".to_owned()];
        scene.pruned_vertices = 3;
        let back = scene_from_handover(&handover_bytes(&scene)).expect("valid handover");
        assert_eq!(back.base_colour, scene.base_colour);
        assert_eq!(back.not_drawn, scene.not_drawn);
        assert_eq!(back.pruned_vertices, 3);
    }

    #[test]
    fn broken_handovers_are_refused_by_name() {
        let bytes = handover_bytes(&two_bone());
        let json = &bytes[..bytes.len() - 1];
        assert!(matches!(
            scene_from_handover(json),
            Err(HandoverError::Unterminated)
        ));
        assert!(matches!(
            scene_from_handover(b"{\0"),
            Err(HandoverError::Json { .. })
        ));
        // An image without a type.
        let text = String::from_utf8(json.to_vec()).expect("UTF-8");
        let coloured = text.replacen(
            "{\"scene\"",
            "{\"baseColour\":{\"factor\":[1,1,1,1]},\"scene\"",
            1,
        );
        let mut coloured = coloured.into_bytes();
        coloured.push(0);
        coloured.extend_from_slice(b"PNG");
        assert!(matches!(
            scene_from_handover(&coloured),
            Err(HandoverError::ImageType)
        ));
    }
}
