//! A scene's materials as glTF writes them (glTF 2.0 §3.9): every material
//! a file's primitives use, with its base colour texture among the images
//! in the binary chunk; or, for a scene with one base colour and no
//! materials, that one. Metallic 0 and roughness 1, because the lab draws a
//! matte skin and glTF's default metallic of 1 would show the model as
//! metal elsewhere.

use serde_json::{json, Value};

use crate::formats::gltf_write::Builder;
use crate::scene::{AlphaMode, Scene};

/// The material a primitive of surface `material` (or, without surfaces,
/// the whole mesh) uses in the written file, if any.
pub(super) fn material_of(scene: &Scene, surface_material: Option<usize>) -> Option<usize> {
    if scene.materials.is_empty() {
        scene.base_colour.as_ref().map(|_| 0)
    } else {
        surface_material
    }
}

/// Whether the written file samples a texture, so the primitives carry
/// their UVs as `TEXCOORD_0`.
pub(super) fn textured(scene: &Scene) -> bool {
    let uvs = scene
        .base_colour
        .as_ref()
        .is_some_and(|c| c.uvs.len() == scene.mesh.vertex_count());
    let image = if scene.materials.is_empty() {
        scene
            .base_colour
            .as_ref()
            .is_some_and(|c| c.image.is_some())
    } else {
        scene.materials.iter().any(|m| m.texture.is_some())
    };
    uvs && image
}

/// The document's `materials`, `textures`, `images` and `extensionsUsed`,
/// as keys to set on it (an empty object for a scene in the page's colours).
pub(super) fn materials_json(builder: &mut Builder, scene: &Scene) -> Value {
    let mut parts = json!({});
    let textured = textured(scene);
    if scene.materials.is_empty() {
        let Some(colour) = &scene.base_colour else {
            return parts;
        };
        let mut pbr = matte(colour.factor);
        if let Some(image) = colour.image.as_ref().filter(|_| textured) {
            let view = builder.view(&image.bytes, None);
            parts["images"] = json!([{"bufferView": view, "mimeType": image.mime_type}]);
            parts["textures"] = json!([{"source": 0}]);
            pbr["baseColorTexture"] = json!({"index": 0, "texCoord": 0});
        }
        parts["materials"] = json!([{"name": "skin", "pbrMetallicRoughness": pbr}]);
        return parts;
    }
    if textured && !scene.images.is_empty() {
        let images: Vec<Value> = scene
            .images
            .iter()
            .map(|image| {
                let view = builder.view(&image.bytes, None);
                json!({"bufferView": view, "mimeType": image.mime_type})
            })
            .collect();
        let textures: Vec<Value> = (0..images.len()).map(|k| json!({"source": k})).collect();
        parts["images"] = json!(images);
        parts["textures"] = json!(textures);
    }
    let materials: Vec<Value> = scene
        .materials
        .iter()
        .map(|material| {
            let mut pbr = matte(material.base_colour);
            if let Some(texture) = material.texture.filter(|_| textured) {
                pbr["baseColorTexture"] = json!({"index": texture, "texCoord": 0});
            }
            let mut written = json!({"pbrMetallicRoughness": pbr});
            if !material.name.is_empty() {
                written["name"] = json!(material.name);
            }
            match material.alpha_mode {
                AlphaMode::Opaque => {}
                AlphaMode::Mask { cutoff } => {
                    written["alphaMode"] = json!("MASK");
                    written["alphaCutoff"] = json!(cutoff);
                }
                AlphaMode::Blend => written["alphaMode"] = json!("BLEND"),
            }
            if material.double_sided {
                written["doubleSided"] = json!(true);
            }
            if material.unlit {
                written["extensions"] = json!({"KHR_materials_unlit": {}});
            }
            written
        })
        .collect();
    parts["materials"] = json!(materials);
    if scene.materials.iter().any(|m| m.unlit) {
        parts["extensionsUsed"] = json!(["KHR_materials_unlit"]);
    }
    parts
}

/// `pbrMetallicRoughness` of a matte surface of base colour `factor`.
fn matte(factor: [f32; 4]) -> Value {
    json!({"baseColorFactor": factor, "metallicFactor": 0.0, "roughnessFactor": 1.0})
}
