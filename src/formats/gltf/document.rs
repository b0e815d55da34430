//! The glTF document as serde reads it: the JSON objects Skinlab uses, and
//! which required extensions it can read past.

use std::collections::HashMap;

use glam::{Mat4, Quat, Vec3};
use serde::Deserialize;

use crate::rig::pose::BoneTransform;

#[derive(Deserialize)]
pub(super) struct Document {
    #[serde(default)]
    pub(super) nodes: Vec<Node>,
    #[serde(default)]
    pub(super) scenes: Vec<SceneJson>,
    pub(super) scene: Option<usize>,
    #[serde(default)]
    pub(super) meshes: Vec<MeshJson>,
    #[serde(default)]
    pub(super) skins: Vec<SkinJson>,
    #[serde(default)]
    pub(super) accessors: Vec<Accessor>,
    #[serde(default, rename = "bufferViews")]
    pub(super) buffer_views: Vec<BufferView>,
    #[serde(default)]
    pub(super) buffers: Vec<Buffer>,
    #[serde(default)]
    pub(super) animations: Vec<AnimationJson>,
    #[serde(default, rename = "extensionsRequired")]
    pub(super) extensions_required: Vec<String>,
    #[serde(default)]
    pub(super) materials: Vec<MaterialJson>,
    #[serde(default)]
    pub(super) textures: Vec<TextureJson>,
    #[serde(default)]
    pub(super) images: Vec<ImageJson>,
}

/// Extensions a file may require and still be read: quantized attributes
/// are dequantized by [`Buffers::floats`]; animation pointers to a node's
/// transform or weights are played, others named as not played.
pub(super) const SUPPORTED_EXTENSIONS: [&str; 2] =
    ["KHR_mesh_quantization", "KHR_animation_pointer"];

#[derive(Deserialize)]
pub(super) struct SceneJson {
    #[serde(default)]
    pub(super) nodes: Vec<usize>,
}

#[derive(Deserialize)]
pub(super) struct AnimationJson {
    #[serde(default)]
    pub(super) name: Option<String>,
    pub(super) channels: Vec<ChannelJson>,
    pub(super) samplers: Vec<SamplerJson>,
}

#[derive(Deserialize)]
pub(super) struct ChannelJson {
    pub(super) sampler: usize,
    pub(super) target: ChannelTarget,
}

#[derive(Deserialize)]
pub(super) struct ChannelTarget {
    #[serde(default)]
    pub(super) node: Option<usize>,
    pub(super) path: String,
    #[serde(default)]
    pub(super) extensions: Option<ChannelTargetExtensions>,
}

#[derive(Deserialize)]
pub(super) struct ChannelTargetExtensions {
    #[serde(default, rename = "KHR_animation_pointer")]
    pub(super) animation_pointer: Option<AnimationPointer>,
}

#[derive(Deserialize)]
pub(super) struct AnimationPointer {
    pub(super) pointer: String,
}

impl ChannelTarget {
    /// The node and the property the channel drives: its own `node` and
    /// `path`, or what a `KHR_animation_pointer` of the form
    /// `/nodes/{n}/translation|rotation|scale|weights` names. A pointer to
    /// anything else (a material, a camera, a light) is `Err(pointer)`.
    pub(super) fn node_and_path(&self) -> Result<(Option<usize>, &str), &str> {
        if self.path != "pointer" {
            return Ok((self.node, self.path.as_str()));
        }
        let pointer = self
            .extensions
            .as_ref()
            .and_then(|e| e.animation_pointer.as_ref())
            .map_or("", |p| p.pointer.as_str());
        let mut parts = pointer.strip_prefix("/nodes/").unwrap_or("").split('/');
        match (
            parts.next().map(str::parse::<usize>),
            parts.next(),
            parts.next(),
        ) {
            (
                Some(Ok(node)),
                Some(path @ ("translation" | "rotation" | "scale" | "weights")),
                None,
            ) => Ok((Some(node), path)),
            _ => Err(pointer),
        }
    }
}

#[derive(Deserialize)]
pub(super) struct SamplerJson {
    pub(super) input: usize,
    pub(super) output: usize,
    #[serde(default = "linear")]
    pub(super) interpolation: String,
}

pub(super) fn linear() -> String {
    "LINEAR".to_owned()
}

#[derive(Deserialize)]
pub(super) struct Node {
    #[serde(default)]
    pub(super) name: Option<String>,
    #[serde(default)]
    pub(super) children: Vec<usize>,
    pub(super) mesh: Option<usize>,
    pub(super) skin: Option<usize>,
    pub(super) matrix: Option<[f32; 16]>,
    pub(super) translation: Option<[f32; 3]>,
    pub(super) rotation: Option<[f32; 4]>,
    pub(super) scale: Option<[f32; 3]>,
}

impl Node {
    /// The node's local transform as `T · R · S` (a `matrix` decomposed).
    pub(super) fn local_transform(&self) -> BoneTransform {
        match self.matrix {
            Some(matrix) => {
                let (scale, rotation, translation) =
                    Mat4::from_cols_array(&matrix).to_scale_rotation_translation();
                BoneTransform {
                    translation,
                    rotation,
                    scale,
                }
            }
            None => BoneTransform {
                translation: Vec3::from_array(self.translation.unwrap_or([0.0; 3])),
                rotation: Quat::from_array(self.rotation.unwrap_or([0.0, 0.0, 0.0, 1.0]))
                    .normalize(),
                scale: Vec3::from_array(self.scale.unwrap_or([1.0; 3])),
            },
        }
    }

    /// The node's transform relative to its parent: `matrix`, or `T · R · S`.
    pub(super) fn local(&self) -> Mat4 {
        match self.matrix {
            Some(matrix) => Mat4::from_cols_array(&matrix),
            None => Mat4::from_scale_rotation_translation(
                Vec3::from_array(self.scale.unwrap_or([1.0; 3])),
                Quat::from_array(self.rotation.unwrap_or([0.0, 0.0, 0.0, 1.0])).normalize(),
                Vec3::from_array(self.translation.unwrap_or([0.0; 3])),
            ),
        }
    }
}

#[derive(Deserialize)]
pub(super) struct MeshJson {
    #[serde(default)]
    pub(super) name: Option<String>,
    pub(super) primitives: Vec<Primitive>,
    /// Default morph weights.
    #[serde(default)]
    pub(super) weights: Vec<f32>,
    #[serde(default)]
    pub(super) extras: Option<MeshExtras>,
}

#[derive(Deserialize)]
pub(super) struct MeshExtras {
    /// The exporters' convention for naming morph targets.
    #[serde(default, rename = "targetNames")]
    pub(super) target_names: Vec<String>,
}

#[derive(Deserialize)]
pub(super) struct Primitive {
    pub(super) attributes: HashMap<String, usize>,
    pub(super) indices: Option<usize>,
    #[serde(default = "triangles")]
    pub(super) mode: u32,
    /// Morph targets: `POSITION` (and `NORMAL`) offsets.
    #[serde(default)]
    pub(super) targets: Vec<HashMap<String, usize>>,
    pub(super) material: Option<usize>,
}

pub(super) fn triangles() -> u32 {
    4
}

#[derive(Deserialize)]
pub(super) struct SkinJson {
    pub(super) joints: Vec<usize>,
    #[serde(rename = "inverseBindMatrices")]
    pub(super) inverse_bind_matrices: Option<usize>,
}

#[derive(Deserialize)]
pub(super) struct Accessor {
    #[serde(rename = "bufferView")]
    pub(super) buffer_view: Option<usize>,
    #[serde(default, rename = "byteOffset")]
    pub(super) byte_offset: usize,
    #[serde(rename = "componentType")]
    pub(super) component_type: u32,
    #[serde(default)]
    pub(super) normalized: bool,
    pub(super) count: usize,
    #[serde(rename = "type")]
    pub(super) kind: String,
    /// Values that differ from the base (the buffer view, or zeros).
    #[serde(default)]
    pub(super) sparse: Option<Sparse>,
}

/// A sparse accessor's substitutions: `count` element indices and values.
#[derive(Deserialize)]
pub(super) struct Sparse {
    pub(super) count: usize,
    pub(super) indices: SparseIndices,
    pub(super) values: SparseValues,
}

#[derive(Deserialize)]
pub(super) struct SparseIndices {
    #[serde(rename = "bufferView")]
    pub(super) buffer_view: usize,
    #[serde(default, rename = "byteOffset")]
    pub(super) byte_offset: usize,
    #[serde(rename = "componentType")]
    pub(super) component_type: u32,
}

#[derive(Deserialize)]
pub(super) struct SparseValues {
    #[serde(rename = "bufferView")]
    pub(super) buffer_view: usize,
    #[serde(default, rename = "byteOffset")]
    pub(super) byte_offset: usize,
}

#[derive(Deserialize)]
pub(super) struct BufferView {
    pub(super) buffer: usize,
    #[serde(default, rename = "byteOffset")]
    pub(super) byte_offset: usize,
    #[serde(rename = "byteLength")]
    pub(super) byte_length: usize,
    #[serde(rename = "byteStride")]
    pub(super) byte_stride: Option<usize>,
}

#[derive(Deserialize)]
pub(super) struct Buffer {
    pub(super) uri: Option<String>,
    #[serde(rename = "byteLength")]
    pub(super) byte_length: usize,
}

/// Required extensions that change only how a model looks (textures,
/// materials, lights), never its geometry: the model loads without them.
pub(super) fn is_appearance_only(extension: &str) -> bool {
    extension.starts_with("KHR_materials_")
        || matches!(
            extension,
            "EXT_texture_webp"
                | "EXT_texture_avif"
                | "KHR_texture_basisu"
                | "KHR_texture_transform"
                | "KHR_lights_punctual"
                | "KHR_materials_variants"
        )
}

/// A material: its base colour (glTF 2.0 §3.9.2), alpha mode (§3.9.4),
/// sides and whether it is unlit (`KHR_materials_unlit`).
#[derive(Deserialize)]
pub(super) struct MaterialJson {
    #[serde(default)]
    pub(super) name: Option<String>,
    #[serde(default, rename = "pbrMetallicRoughness")]
    pub(super) pbr: Option<PbrJson>,
    #[serde(default, rename = "alphaMode")]
    pub(super) alpha_mode: Option<String>,
    #[serde(default, rename = "alphaCutoff")]
    pub(super) alpha_cutoff: Option<f32>,
    #[serde(default, rename = "doubleSided")]
    pub(super) double_sided: bool,
    #[serde(default)]
    pub(super) extensions: HashMap<String, serde_json::Value>,
}

#[derive(Deserialize)]
pub(super) struct PbrJson {
    #[serde(default = "white", rename = "baseColorFactor")]
    pub(super) base_color_factor: [f32; 4],
    #[serde(rename = "baseColorTexture")]
    pub(super) base_color_texture: Option<TextureRef>,
}

/// glTF's default base colour factor.
pub(super) fn white() -> [f32; 4] {
    [1.0; 4]
}

#[derive(Deserialize)]
pub(super) struct TextureRef {
    pub(super) index: usize,
    #[serde(default, rename = "texCoord")]
    pub(super) tex_coord: usize,
    #[serde(default)]
    pub(super) extensions: TextureRefExtensions,
}

#[derive(Default, Deserialize)]
pub(super) struct TextureRefExtensions {
    #[serde(rename = "KHR_texture_transform")]
    pub(super) transform: Option<TextureTransformJson>,
}

/// `KHR_texture_transform`: the UVs scaled, turned, then offset, and
/// possibly read from another set.
#[derive(Deserialize)]
pub(super) struct TextureTransformJson {
    #[serde(default)]
    pub(super) offset: [f32; 2],
    #[serde(default)]
    pub(super) rotation: f32,
    #[serde(default = "unit_scale")]
    pub(super) scale: [f32; 2],
    #[serde(default, rename = "texCoord")]
    pub(super) tex_coord: Option<usize>,
}

fn unit_scale() -> [f32; 2] {
    [1.0; 2]
}

#[derive(Deserialize)]
pub(super) struct TextureJson {
    pub(super) source: Option<usize>,
}

#[derive(Deserialize)]
pub(super) struct ImageJson {
    pub(super) uri: Option<String>,
    #[serde(rename = "mimeType")]
    pub(super) mime_type: Option<String>,
    #[serde(rename = "bufferView")]
    pub(super) buffer_view: Option<usize>,
}
