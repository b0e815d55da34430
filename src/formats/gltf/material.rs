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
use super::document::{white, Document, ImageJson, TextureRef, TextureTransformJson};
use crate::scene::{AlphaMode, BaseColour, BaseColourImage, Material, Surface};
use glam::Vec2;

/// One primitive of the joined mesh: its material, its attributes, its
/// vertex count (0 where it shares an earlier primitive's vertices, the
/// entry `shares` names) and its run of triangle indices.
pub(super) struct PrimitiveColour<'a> {
    pub(super) material: Option<usize>,
    pub(super) attributes: &'a HashMap<String, usize>,
    pub(super) vertices: usize,
    pub(super) shares: Option<usize>,
    pub(super) first_index: usize,
    pub(super) index_count: usize,
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
    // An empty file, or bytes that are no image of their type, are no
    // texture: the model is drawn without it, as three.js draws it.
    let readable = match mime_type.as_str() {
        "image/webp" => bytes.get(..4) == Some(b"RIFF") && bytes.get(8..12) == Some(b"WEBP"),
        _ => crate::scene::image_header::encoded_size(&bytes).is_some(),
    };
    (IMAGE_TYPES.contains(&mime_type.as_str()) && readable)
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

/// The materials of the joined mesh of `primitives` as drawn: each
/// material a primitive uses (in order of first use; a primitive without
/// one gets glTF's default material, white, opaque and single-sided), the
/// images their base colour textures show (each read once), a run of
/// triangles per primitive, and one UV per vertex.
pub(super) struct Drawn {
    /// The textures that could not be used (missing, empty, not an image),
    /// named for the notice.
    pub(super) not_used: Vec<String>,
    pub(super) materials: Vec<Material>,
    pub(super) images: Vec<BaseColourImage>,
    pub(super) surfaces: Vec<Surface>,
    /// Each primitive's UVs for its own material's texture, with
    /// `KHR_texture_transform` applied; empty when no material has a
    /// texture.
    pub(super) uvs: Vec<Vec2>,
}

/// `KHR_texture_transform` applied to one UV: `T(offset) · R(rotation) ·
/// S(scale) · uv`, where `R` turns the UVs counter-clockwise in glTF's
/// V-down texture space (the image turns clockwise): `u' = sx·c·u + sy·s·v
/// + ox`, `v' = −sx·s·u + sy·c·v + oy` (as three.js does for a uniform scale).
fn transformed(uv: Vec2, transform: Option<&TextureTransformJson>) -> Vec2 {
    let Some(t) = transform else {
        return uv;
    };
    let (s, c) = t.rotation.sin_cos();
    let scaled = uv * Vec2::from(t.scale);
    Vec2::new(c * scaled.x + s * scaled.y, -s * scaled.x + c * scaled.y) + Vec2::from(t.offset)
}

/// A number read from a file made safe: NaN becomes `default`, the rest is
/// clamped into `0..=1` (a file's 1e39, read as infinity, or -2 would not
/// survive a save).
fn unit(value: f32, default: f32) -> f32 {
    if value.is_nan() {
        default
    } else {
        value.clamp(0.0, 1.0)
    }
}

/// Longer than a screen: one pass over the primitives fills tables that point
/// into each other (our materials, our images, the file's material and image
/// indices to ours, the texture each material reads its UVs by); split, each
/// part would take and return them all.
pub(super) fn drawn(
    document: &Document,
    buffers: &Buffers,
    resources: Resources,
    primitives: &[PrimitiveColour],
) -> Drawn {
    let mut materials: Vec<Material> = Vec::new();
    let mut images: Vec<BaseColourImage> = Vec::new();
    // A file without any material is drawn in the page's own colour.
    if primitives.iter().all(|p| p.material.is_none()) {
        return Drawn {
            not_used: Vec::new(),
            materials,
            images,
            surfaces: Vec::new(),
            uvs: Vec::new(),
        };
    }
    // The file's material (None: the default) and image indices, to ours.
    let mut material_of: HashMap<Option<usize>, usize> = HashMap::new();
    let mut image_of: HashMap<usize, Option<usize>> = HashMap::new();
    let mut not_used: Vec<String> = Vec::new();
    // Per material of ours: the texture reference it reads its UVs by.
    let mut texture_refs: Vec<Option<&TextureRef>> = Vec::new();
    let mut surfaces = Vec::with_capacity(primitives.len());
    for primitive in primitives {
        let key = primitive.material.filter(|&m| m < document.materials.len());
        let material = *material_of.entry(key).or_insert_with(|| {
            let json = key.map(|m| &document.materials[m]);
            let pbr = json.and_then(|m| m.pbr.as_ref());
            let reference = pbr.and_then(|pbr| pbr.base_color_texture.as_ref());
            let source = reference
                .and_then(|r| document.textures.get(r.index))
                .and_then(|t| t.source);
            let texture = source.and_then(|source| {
                *image_of.entry(source).or_insert_with(|| {
                    let json = document.images.get(source);
                    let Some(read) = json.and_then(|i| image(document, buffers, resources, i))
                    else {
                        let name = json
                            .and_then(|i| i.uri.as_deref())
                            .filter(|u| !u.starts_with("data:"));
                        not_used.push(format!(
                            "images[{source}]{} (missing, empty or not an image: drawn without it)",
                            name.map(|n| format!(" '{n}'")).unwrap_or_default()
                        ));
                        return None;
                    };
                    images.push(read);
                    Some(images.len() - 1)
                })
            });
            let alpha_mode = match json.and_then(|m| m.alpha_mode.as_deref()) {
                Some("MASK") => AlphaMode::Mask {
                    cutoff: unit(json.and_then(|m| m.alpha_cutoff).unwrap_or(0.5), 0.5),
                },
                Some("BLEND") => AlphaMode::Blend,
                _ => AlphaMode::Opaque,
            };
            materials.push(Material {
                name: json.and_then(|m| m.name.clone()).unwrap_or_default(),
                base_colour: pbr
                    .map_or(white(), |pbr| pbr.base_color_factor)
                    .map(|c| unit(c, 1.0)),
                texture,
                alpha_mode,
                double_sided: json.is_some_and(|m| m.double_sided),
                unlit: json.is_some_and(|m| m.extensions.contains_key("KHR_materials_unlit")),
            });
            texture_refs.push(reference.filter(|_| texture.is_some()));
            materials.len() - 1
        });
        surfaces.push(Surface {
            first_index: primitive.first_index,
            index_count: primitive.index_count,
            material,
        });
    }
    let uvs = if texture_refs.iter().any(Option::is_some) {
        primitives
            .iter()
            .zip(&surfaces)
            .enumerate()
            .flat_map(|(k, (p, surface))| {
                // Vertices shared by later primitives take their UVs by
                // the first of them whose material is textured.
                let sharers = primitives
                    .iter()
                    .zip(&surfaces)
                    .filter(|(q, _)| q.shares == Some(k))
                    .map(|(_, s)| s.material);
                let textured = std::iter::once(surface.material)
                    .chain(sharers)
                    .find_map(|m| texture_refs[m]);
                let Some(reference) = textured else {
                    return vec![Vec2::ZERO; p.vertices];
                };
                let transform = reference.extensions.transform.as_ref();
                let set = transform
                    .and_then(|t| t.tex_coord)
                    .unwrap_or(reference.tex_coord);
                let read = p
                    .attributes
                    .get(&format!("TEXCOORD_{set}"))
                    .and_then(|&index| buffers.floats(document, index, 2).ok())
                    .filter(|uv| uv.len() == 2 * p.vertices);
                match read {
                    Some(uv) => uv
                        .chunks_exact(2)
                        .map(|uv| transformed(Vec2::from_slice(uv), transform))
                        .collect(),
                    None => vec![Vec2::ZERO; p.vertices],
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    Drawn {
        not_used,
        materials,
        images,
        surfaces,
        uvs,
    }
}

/// The base colour of the joined mesh: the first material's factor and
/// image, with every primitive's UVs, or `None` when no primitive has a
/// material.
pub(super) fn base_colour(drawn: &Drawn, primitives: &[PrimitiveColour]) -> Option<BaseColour> {
    let first = primitives
        .iter()
        .zip(&drawn.surfaces)
        .find(|(p, _)| p.material.is_some())
        .map(|(_, surface)| &drawn.materials[surface.material])?;
    Some(BaseColour {
        factor: first.base_colour,
        image: first
            .texture
            .map(|k| drawn.images[k].clone())
            .filter(|_| !drawn.uvs.is_empty()),
        uvs: drawn.uvs.clone(),
    })
}
