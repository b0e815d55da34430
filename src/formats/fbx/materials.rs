//! An FBX file's materials as glTF materials: diffuse colour, opacity and
//! the diffuse texture, embedded or among the files chosen with it.

use std::collections::HashMap;

use serde_json::{json, Value};

use super::objects::{Object, Objects};
use super::tree::Value as FbxValue;
use crate::formats::gltf_write::Builder;

/// The glTF materials made so far, each FBX material once.
#[derive(Default)]
pub(super) struct Materials {
    pub(super) list: Vec<Value>,
    pub(super) textures: Vec<Value>,
    pub(super) images: Vec<Value>,
    of_id: HashMap<i64, usize>,
    default: Option<usize>,
}

impl Materials {
    /// The glTF material of FBX material `material`: its diffuse colour,
    /// opacity and embedded diffuse texture, as three.js reads them.
    pub(super) fn of(
        &mut self,
        material: &Object,
        objects: &Objects,
        files: &Files,
        builder: &mut Builder,
    ) -> Option<usize> {
        if let Some(&k) = self.of_id.get(&material.id) {
            return Some(k);
        }
        let colour = material
            .vector("Diffuse")
            .or_else(|| material.vector("DiffuseColor"))
            .unwrap_or([0.8, 0.8, 0.8]);
        let opacity = material.number("Opacity").unwrap_or(1.0).clamp(0.0, 1.0);
        let linear = |c: f64| c.clamp(0.0, 1.0) as f32;
        let mut pbr = json!({
            "baseColorFactor": [linear(colour[0]), linear(colour[1]), linear(colour[2]), opacity as f32],
            "metallicFactor": 0.0,
            "roughnessFactor": 1.0,
        });
        if let Some(image) = diffuse_image(material, objects, files) {
            let mime = if image.starts_with(b"\x89PNG") {
                "image/png"
            } else {
                "image/jpeg"
            };
            let view = builder.view(&image, None);
            self.images
                .push(json!({"bufferView": view, "mimeType": mime}));
            self.textures.push(json!({"source": self.images.len() - 1}));
            pbr["baseColorTexture"] = json!({"index": self.textures.len() - 1});
        }
        let mut gltf = json!({"name": material.name, "pbrMetallicRoughness": pbr});
        if opacity < 1.0 {
            gltf["alphaMode"] = json!("BLEND");
        }
        self.list.push(gltf);
        self.of_id.insert(material.id, self.list.len() - 1);
        Some(self.list.len() - 1)
    }

    /// A grey material for polygons without one.
    pub(super) fn fallback(&mut self) -> usize {
        if let Some(k) = self.default {
            return k;
        }
        {
            self.list.push(json!({"name": "default", "pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.8, 0.8, 1.0], "metallicFactor": 0.0, "roughnessFactor": 1.0}}));
            self.default = Some(self.list.len() - 1);
            self.list.len() - 1
        }
    }
}

/// The PNG or JPEG of `material`'s diffuse colour: a texture tied to its
/// `DiffuseColor`, whose video holds the file's bytes (embedded), or else
/// the file the texture names among `files` (chosen with the FBX), by its
/// name without folders, the case of Latin letters aside.
fn diffuse_image(material: &Object, objects: &Objects, files: &Files) -> Option<Vec<u8>> {
    let (texture, _) = objects
        .children_of_class(material.id, "Texture")
        .find(|(_, link)| {
            link.property
                .as_deref()
                .is_some_and(|p| p == "DiffuseColor" || p == "Diffuse")
        })?;
    let video = objects
        .children_of_class(texture.id, "Video")
        .next()
        .map(|(v, _)| v);
    let embedded = video
        .and_then(|v| v.node.child("Content"))
        .and_then(|content| {
            content
                .props
                .iter()
                .find(|v| !matches!(v, FbxValue::Text(t) if t.is_empty()))
        })
        .and_then(|value| match value {
            FbxValue::Raw(bytes) if !bytes.is_empty() => Some(bytes.clone()),
            FbxValue::Text(base64) => crate::formats::gltf::decode_base64(base64),
            _ => None,
        });
    let bytes = embedded.or_else(|| {
        let named = std::iter::once(texture)
            .chain(video)
            .flat_map(|o| ["RelativeFilename", "FileName", "Filename"].map(|n| o.node.child(n)))
            .flatten()
            .find_map(|n| n.text().filter(|t| !t.is_empty()).map(str::to_owned))?;
        let base = named
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(&named)
            .to_ascii_lowercase();
        files
            .iter()
            .find(|(name, _)| {
                name.rsplit(['/', '\\'])
                    .next()
                    .unwrap_or(name)
                    .to_ascii_lowercase()
                    == base
            })
            .map(|(_, bytes)| bytes.clone())
    })?;
    let known = bytes.starts_with(b"\x89PNG\r\n\x1a\n") || bytes.starts_with(&[0xFF, 0xD8, 0xFF]);
    known.then_some(bytes)
}

/// Files chosen together with an FBX file (its textures), by name.
pub type Files = HashMap<String, Vec<u8>>;
