//! How the file readers' wasm module and the page's hand a scene to each
//! other (`converters/`, `www/converters.js`): its compact scene JSON with
//! what scene JSON does not carry (the glTF base colour and texture, what
//! the file held that is not drawn, how many vertices were pruned to four
//! bones), in one byte string both sides read and write with this module.
//!
//! The bytes: `json ‖ 0x00 ‖ image ‖ images…`, where `json` is a
//! [`HandoverDoc`], `image` the base colour texture's encoded bytes (empty
//! without one) and `images` the materials' texture images one after
//! another, each as long as the JSON says. JSON text never holds a raw NUL
//! (control characters are escaped), so the first zero byte ends it; the
//! images cross as they are, not as base64.

use serde::{Deserialize, Serialize};

use crate::scene::doc::SceneDoc;
use crate::scene::{AlphaMode, BaseColour, BaseColourImage, Material, Scene, SceneError, Surface};

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
    /// The materials, as [`Material`] holds them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub materials: Vec<MaterialDoc>,
    /// The runs of triangles: `[first index, index count, material]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub surfaces: Vec<[usize; 3]>,
    /// The materials' images: their types and lengths, the bytes after the
    /// base colour's image.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ImageDoc>,
}

/// A material in the handover.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MaterialDoc {
    /// Its name.
    #[serde(default)]
    pub name: String,
    /// Linear RGBA.
    pub base_colour: [f32; 4],
    /// Its image, an index into the handover's images.
    #[serde(default)]
    pub texture: Option<usize>,
    /// `OPAQUE`, `MASK` or `BLEND`.
    pub alpha_mode: String,
    /// MASK's cutoff.
    #[serde(default)]
    pub alpha_cutoff: f32,
    /// Both faces drawn.
    #[serde(default)]
    pub double_sided: bool,
    /// Drawn without light.
    #[serde(default)]
    pub unlit: bool,
}

/// An image's type and length in the handover's bytes.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImageDoc {
    /// `image/png` or `image/jpeg`.
    pub mime_type: String,
    /// Its bytes.
    pub length: usize,
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
    /// The images' lengths do not add up to the bytes after the JSON.
    #[error("the handover's images take {declared} bytes, {found} are there")]
    ImageBytes {
        /// What the image lengths add up to.
        declared: usize,
        /// The bytes after the base colour's image.
        found: usize,
    },
    /// A material names an image, or a surface a material or triangles,
    /// that is not there.
    #[error("{field}: {index} is out of range")]
    OutOfRange {
        /// Which, e.g. `materials[2].texture`.
        field: String,
        /// The index given.
        index: usize,
    },
}

/// `scene` as handover bytes.
pub fn handover_bytes(scene: &Scene) -> Vec<u8> {
    let doc = HandoverDoc {
        scene: scene.to_doc(),
        not_drawn: scene.not_drawn.clone(),
        pruned_vertices: scene.pruned_vertices,
        base_colour: base_colour_doc(scene),
        materials: scene.materials.iter().map(material_doc).collect(),
        surfaces: surface_docs(scene),
        images: scene
            .images
            .iter()
            .map(|image| ImageDoc {
                mime_type: image.mime_type.clone(),
                length: image.bytes.len(),
            })
            .collect(),
    };
    // The document holds only strings, numbers and arrays: it always serialises.
    let mut bytes = serde_json::to_vec(&doc).unwrap_or_default();
    bytes.push(0);
    if let Some(image) = scene.base_colour.as_ref().and_then(|c| c.image.as_ref()) {
        bytes.extend_from_slice(&image.bytes);
    }
    for image in &scene.images {
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
    let after = &bytes[end + 1..];
    let declared = doc
        .images
        .iter()
        .try_fold(0usize, |sum, image| sum.checked_add(image.length))
        .unwrap_or(usize::MAX);
    let split = after
        .len()
        .checked_sub(declared)
        .ok_or(HandoverError::ImageBytes {
            declared,
            found: after.len(),
        })?;
    let (image, mut rest) = after.split_at(split);
    let mut scene = Scene::from_doc(&doc.scene)?;
    scene.not_drawn = doc.not_drawn;
    scene.pruned_vertices = doc.pruned_vertices;
    scene.base_colour = doc
        .base_colour
        .map(|colour| base_colour(colour, image, scene.mesh.vertex_count()))
        .transpose()?;
    scene.images = doc
        .images
        .iter()
        .map(|image| {
            let (bytes, next) = rest.split_at(image.length);
            rest = next;
            BaseColourImage {
                mime_type: image.mime_type.clone(),
                bytes: bytes.to_vec(),
            }
        })
        .collect();
    scene.materials = doc
        .materials
        .into_iter()
        .enumerate()
        .map(|(k, m)| material(k, m, scene.images.len()))
        .collect::<Result<_, _>>()?;
    scene.surfaces = surfaces(&doc.surfaces, &scene)?;
    Ok(scene)
}

/// The base colour's factor, texture coordinates and image type, as the
/// handover and the scene JSON's look write them.
pub(crate) fn base_colour_doc(scene: &Scene) -> Option<BaseColourDoc> {
    scene.base_colour.as_ref().map(|colour| BaseColourDoc {
        factor: colour.factor,
        uvs: colour.uvs.iter().flat_map(|uv| uv.to_array()).collect(),
        mime_type: colour.image.as_ref().map(|image| image.mime_type.clone()),
    })
}

/// The runs of triangles as `[first index, index count, material]`.
pub(crate) fn surface_docs(scene: &Scene) -> Vec<[usize; 3]> {
    scene
        .surfaces
        .iter()
        .map(|s| [s.first_index, s.index_count, s.material])
        .collect()
}

pub(crate) fn material_doc(material: &Material) -> MaterialDoc {
    MaterialDoc {
        name: material.name.clone(),
        base_colour: material.base_colour,
        texture: material.texture,
        alpha_mode: material.alpha_mode.name().to_owned(),
        alpha_cutoff: material.alpha_mode.cutoff().unwrap_or(0.0),
        double_sided: material.double_sided,
        unlit: material.unlit,
    }
}

/// Material `index` of the handover, whose images number `images`.
pub(crate) fn material(
    index: usize,
    doc: MaterialDoc,
    images: usize,
) -> Result<Material, HandoverError> {
    let in_unit = |x: f32| (0.0..=1.0).contains(&x);
    if !doc.base_colour.iter().copied().all(in_unit) || !in_unit(doc.alpha_cutoff) {
        return Err(HandoverError::Factor {
            factor: doc.base_colour,
        });
    }
    if let Some(texture) = doc.texture.filter(|&t| t >= images) {
        return Err(HandoverError::OutOfRange {
            field: format!("materials[{index}].texture"),
            index: texture,
        });
    }
    Ok(Material {
        name: doc.name,
        base_colour: doc.base_colour,
        texture: doc.texture,
        alpha_mode: match doc.alpha_mode.as_str() {
            "MASK" => AlphaMode::Mask {
                cutoff: doc.alpha_cutoff,
            },
            "BLEND" => AlphaMode::Blend,
            _ => AlphaMode::Opaque,
        },
        double_sided: doc.double_sided,
        unlit: doc.unlit,
    })
}

/// The surfaces, each a run of whole triangles inside the mesh's indices
/// with a material that is there.
pub(crate) fn surfaces(docs: &[[usize; 3]], scene: &Scene) -> Result<Vec<Surface>, HandoverError> {
    let indices = scene.mesh.indices.len();
    docs.iter()
        .enumerate()
        .map(|(k, &[first_index, index_count, material])| {
            let end = first_index.checked_add(index_count);
            if first_index % 3 != 0 || index_count % 3 != 0 || end.is_none_or(|e| e > indices) {
                return Err(HandoverError::OutOfRange {
                    field: format!("surfaces[{k}]"),
                    index: first_index,
                });
            }
            if material >= scene.materials.len() {
                return Err(HandoverError::OutOfRange {
                    field: format!("surfaces[{k}].material"),
                    index: material,
                });
            }
            Ok(Surface {
                first_index,
                index_count,
                material,
            })
        })
        .collect()
}

/// The base colour of a mesh of `vertices` vertices, `image` its texture's bytes.
pub(crate) fn base_colour(
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
    // UVs come with an image, and may come without one (another
    // material's texture reads them).
    let pairs = doc.uvs.len() / 2;
    if doc.uvs.len() % 2 != 0 || (pairs != vertices && (pairs != 0 || image.is_some())) {
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
    fn materials_surfaces_and_their_images_come_back() {
        let mut scene = two_bone();
        scene.images = vec![
            BaseColourImage {
                mime_type: "image/png".to_owned(),
                bytes: vec![137, 80, 0, 1],
            },
            BaseColourImage {
                mime_type: "image/jpeg".to_owned(),
                bytes: vec![255, 216, 0, 0, 7],
            },
        ];
        scene.materials = vec![
            Material {
                name: "skin".to_owned(),
                base_colour: [1.0, 0.8, 0.6, 1.0],
                texture: Some(1),
                alpha_mode: AlphaMode::Mask { cutoff: 0.25 },
                double_sided: true,
                unlit: false,
            },
            Material {
                name: "glass".to_owned(),
                base_colour: [0.2, 0.3, 0.9, 0.5],
                texture: None,
                alpha_mode: AlphaMode::Blend,
                double_sided: false,
                unlit: true,
            },
        ];
        scene.surfaces = vec![
            Surface {
                first_index: 0,
                index_count: 3,
                material: 1,
            },
            Surface {
                first_index: 3,
                index_count: 3,
                material: 0,
            },
        ];
        let back = scene_from_handover(&handover_bytes(&scene)).expect("valid handover");
        assert_eq!(back.images, scene.images);
        assert_eq!(back.materials, scene.materials);
        assert_eq!(back.surfaces, scene.surfaces);
        // A surface past the triangles is refused by name.
        scene.surfaces[1].index_count = 6;
        assert!(matches!(
            scene_from_handover(&handover_bytes(&scene)),
            Err(HandoverError::OutOfRange { field, .. }) if field == "surfaces[1]"
        ));
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
