//! A glTF material's base colour (glTF 2.0 §3.9.2, `pbrMetallicRoughness`):
//! its `baseColorFactor` and, where the file has one, the `baseColorTexture`'s
//! image as the file stores it (PNG or JPEG, decoded by the browser, not
//! here) with one UV per vertex from the texture's `TEXCOORD_n`.
//!
//! The mesh joins every skinned primitive; the first primitive with a
//! material gives the colour. A texture that cannot be found (a missing
//! file, a bad data URI, another image type) leaves the model in its
//! factor's colour rather than refusing it.

use std::collections::HashMap;

use super::accessors::{decode_base64, Buffers, Resources};
use super::document::{white, Document, ImageJson};
use crate::scene::{BaseColour, BaseColourImage};
use glam::Vec2;

/// One primitive of the joined mesh: its material, its attributes and its
/// vertex count.
pub(super) struct PrimitiveColour<'a> {
    pub(super) material: Option<usize>,
    pub(super) attributes: &'a HashMap<String, usize>,
    pub(super) vertices: usize,
}

/// The image types browsers decode and glTF allows.
const IMAGE_TYPES: [&str; 2] = ["image/png", "image/jpeg"];

/// The image's bytes and type, or `None` when it cannot be had.
fn image(
    document: &Document,
    buffers: &Buffers,
    resources: Resources,
    image: &ImageJson,
) -> Option<BaseColourImage> {
    let (bytes, named_type) = match (&image.uri, image.buffer_view) {
        (Some(uri), _) if uri.starts_with("data:") => {
            let (head, payload) = uri.split_once(";base64,")?;
            (
                decode_base64(payload)?,
                head.strip_prefix("data:").map(str::to_owned),
            )
        }
        (Some(uri), _) => {
            let lower = uri.to_ascii_lowercase();
            let by_name = if lower.ends_with(".png") {
                Some("image/png")
            } else if lower.ends_with(".jpg") || lower.ends_with(".jpeg") {
                Some("image/jpeg")
            } else {
                None
            };
            (resources.file(uri)?.to_vec(), by_name.map(str::to_owned))
        }
        (None, Some(view)) => {
            let view = document.buffer_views.get(view)?;
            let data = buffers.data.get(view.buffer)?;
            let end = view.byte_offset.checked_add(view.byte_length)?;
            (data.get(view.byte_offset..end)?.to_vec(), None)
        }
        (None, None) => return None,
    };
    let mime_type = image.mime_type.clone().or(named_type)?;
    IMAGE_TYPES
        .contains(&mime_type.as_str())
        .then_some(BaseColourImage { mime_type, bytes })
}

/// The joined mesh's `COLOR_0` (glTF 2.0 §3.7.2.1: RGB or RGBA, floats or
/// normalised integers, multiplying the base colour) as linear RGB per
/// vertex, white for a primitive without one; empty when no primitive has
/// one. A colour that cannot be read leaves its primitive white, as a
/// missing texture leaves a model in its factor's colour.
pub(super) fn vertex_colours(
    document: &Document,
    buffers: &Buffers,
    primitives: &[PrimitiveColour],
) -> Vec<[f32; 3]> {
    if !primitives
        .iter()
        .any(|p| p.attributes.contains_key("COLOR_0"))
    {
        return Vec::new();
    }
    primitives
        .iter()
        .flat_map(|p| {
            let read = p.attributes.get("COLOR_0").and_then(|&index| {
                [4, 3].into_iter().find_map(|width| {
                    buffers
                        .floats(document, index, width)
                        .ok()
                        .filter(|c| c.len() == width * p.vertices)
                        .map(|c| (width, c))
                })
            });
            match read {
                Some((width, channels)) => channels
                    .chunks_exact(width)
                    .map(|c| {
                        [c[0], c[1], c[2]].map(|x| if x.is_nan() { 1.0 } else { x.clamp(0.0, 1.0) })
                    })
                    .collect(),
                None => vec![[1.0; 3]; p.vertices],
            }
        })
        .collect()
}

/// The base colour of the joined mesh of `primitives`, or `None` when no
/// primitive has a material.
pub(super) fn base_colour(
    document: &Document,
    buffers: &Buffers,
    resources: Resources,
    primitives: &[PrimitiveColour],
) -> Option<BaseColour> {
    let material = primitives.iter().find_map(|p| p.material)?;
    let pbr = document.materials.get(material)?.pbr.as_ref();
    // glTF's factors lie in 0–1; a file's 1e39 (read as infinity) or -2
    // would not survive a save, so each is clamped into range.
    let factor = pbr.map_or(white(), |pbr| pbr.base_color_factor).map(|c| {
        if c.is_nan() {
            1.0
        } else {
            c.clamp(0.0, 1.0)
        }
    });
    let texture = pbr.and_then(|pbr| pbr.base_color_texture.as_ref());
    let picture = texture
        .and_then(|t| document.textures.get(t.index))
        .and_then(|t| document.images.get(t.source?))
        .and_then(|i| image(document, buffers, resources, i));
    let uvs = match (&picture, texture) {
        (Some(_), Some(texture)) => {
            let name = format!("TEXCOORD_{}", texture.tex_coord);
            primitives
                .iter()
                .flat_map(|p| {
                    let read = p
                        .attributes
                        .get(&name)
                        .and_then(|&index| buffers.floats(document, index, 2).ok())
                        .filter(|uv| uv.len() == 2 * p.vertices);
                    match read {
                        Some(uv) => uv.chunks_exact(2).map(Vec2::from_slice).collect(),
                        None => vec![Vec2::ZERO; p.vertices],
                    }
                })
                .collect()
        }
        _ => Vec::new(),
    };
    Some(BaseColour {
        factor,
        image: picture.filter(|_| !uvs.is_empty()),
        uvs,
    })
}
