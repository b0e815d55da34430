//! Reading a skinned mesh from glTF 2.0 (embedded `.gltf`, buffers as base64
//! data URIs) into a scene.
//!
//! glTF skins a vertex by `Σ w_j · G_j · IBM_j · v`, with `G_j` the joint's
//! global transform and `IBM_j` its inverse bind matrix. Skinlab's rest frame
//! of a bone is therefore `R_j = IBM_j⁻¹`, the joint's frame at bind time,
//! (turned so its +Y reaches the first child joint, as Skinlab's bones point
//! along +Y), and its vertices are the mesh's positions as stored. Each joint
//! becomes a bone whose origin and orientation are that frame expressed in
//! the frame its parent hands on, and whose length reaches the first child.
//! The scene opens in the file's default node pose, with its clips, its
//! morph targets and its material's base colour (`material`).

mod material;

use std::collections::HashMap;

use glam::{Mat4, Quat, Vec3};
use serde::Deserialize;

use crate::io::scene::{
    BoneDoc, MeshDoc, MeshPartDoc, MorphDoc, Scene, SceneDoc, SceneError, MAX_MESHES,
};
use crate::rig::animation::{
    Animation, BindSpace, Channel, Clip, Interpolation, Target, WeightsChannel,
};
use crate::rig::pose::BoneTransform;
use crate::rig::skeleton::{SkeletonError, MAX_BONES};

/// Why a glTF file could not be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GltfError {
    /// The text is not glTF JSON.
    #[error("glTF: {0}")]
    Json(String),
    /// The file uses something this reader does not support.
    #[error("glTF: {0} is not supported")]
    Unsupported(String),
    /// Something the skin needs is absent.
    #[error("glTF: {0} is missing")]
    Missing(String),
    /// An accessor, buffer view or buffer does not hold what it says.
    #[error("glTF: accessors[{index}]: {problem}")]
    Accessor {
        /// The accessor.
        index: usize,
        /// What is wrong.
        problem: String,
    },
    /// The file is larger than Skinlab reads.
    #[error("glTF: the file has {bytes} bytes; at most {max} are read")]
    TooLarge {
        /// The file's size.
        bytes: usize,
        /// [`MAX_FILE_BYTES`].
        max: usize,
    },
    /// A buffer holds fewer bytes than it declares.
    #[error("glTF: buffers[{buffer}] declares {declared} bytes but holds {found} bytes")]
    BufferTooShort {
        /// The buffer.
        buffer: usize,
        /// Its `byteLength`.
        declared: usize,
        /// What its data holds.
        found: usize,
    },
    /// Following the nodes' parents from `node` leads back to it.
    #[error("glTF: nodes[{node}] is its own ancestor (the node hierarchy has a cycle)")]
    NodeCycle {
        /// A node on the loop.
        node: usize,
    },
    /// An inverse bind matrix cannot be a joint's bind frame.
    #[error("glTF: the inverse bind matrix of joint {joint} {problem}")]
    BadInverseBind {
        /// The joint, as an index into the skin's joint list.
        joint: usize,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// A binary `.glb` container whose header or chunks do not add up.
    #[error("glb: {0}")]
    Glb(String),
    /// A buffer lives in a file that was not given with the `.gltf`.
    #[error("glTF: buffers[{buffer}] is in the file '{uri}', which was not given; choose it together with the .gltf")]
    MissingFile {
        /// The buffer.
        buffer: usize,
        /// The file it names.
        uri: String,
    },
    /// A buffer's data URI is not valid base64.
    #[error("glTF: buffers[{0}]: the data URI is not valid base64")]
    Base64(usize),
    /// The converted scene failed validation.
    #[error(transparent)]
    Scene(#[from] SceneError),
}

/// The largest glTF file read, in bytes: far above the sample models and
/// typical lecture characters, and small enough for a browser tab.
pub const MAX_FILE_BYTES: usize = 64 << 20;

#[derive(Deserialize)]
struct Document {
    #[serde(default)]
    nodes: Vec<Node>,
    #[serde(default)]
    scenes: Vec<SceneJson>,
    scene: Option<usize>,
    #[serde(default)]
    meshes: Vec<MeshJson>,
    #[serde(default)]
    skins: Vec<SkinJson>,
    #[serde(default)]
    accessors: Vec<Accessor>,
    #[serde(default, rename = "bufferViews")]
    buffer_views: Vec<BufferView>,
    #[serde(default)]
    buffers: Vec<Buffer>,
    #[serde(default)]
    animations: Vec<AnimationJson>,
    #[serde(default, rename = "extensionsRequired")]
    extensions_required: Vec<String>,
    #[serde(default)]
    materials: Vec<material::MaterialJson>,
    #[serde(default)]
    textures: Vec<material::TextureJson>,
    #[serde(default)]
    images: Vec<material::ImageJson>,
}

/// Extensions a file may require and still be read: quantized attributes
/// are dequantized by [`Buffers::floats`].
const SUPPORTED_EXTENSIONS: [&str; 1] = ["KHR_mesh_quantization"];

#[derive(Deserialize)]
struct SceneJson {
    #[serde(default)]
    nodes: Vec<usize>,
}

#[derive(Deserialize)]
struct AnimationJson {
    #[serde(default)]
    name: Option<String>,
    channels: Vec<ChannelJson>,
    samplers: Vec<SamplerJson>,
}

#[derive(Deserialize)]
struct ChannelJson {
    sampler: usize,
    target: ChannelTarget,
}

#[derive(Deserialize)]
struct ChannelTarget {
    node: Option<usize>,
    path: String,
}

#[derive(Deserialize)]
struct SamplerJson {
    input: usize,
    output: usize,
    #[serde(default = "linear")]
    interpolation: String,
}

fn linear() -> String {
    "LINEAR".to_owned()
}

#[derive(Deserialize)]
struct Node {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    children: Vec<usize>,
    mesh: Option<usize>,
    skin: Option<usize>,
    matrix: Option<[f32; 16]>,
    translation: Option<[f32; 3]>,
    rotation: Option<[f32; 4]>,
    scale: Option<[f32; 3]>,
}

impl Node {
    /// The node's local transform as `T · R · S` (a `matrix` decomposed).
    fn local_transform(&self) -> BoneTransform {
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
    fn local(&self) -> Mat4 {
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
struct MeshJson {
    #[serde(default)]
    name: Option<String>,
    primitives: Vec<Primitive>,
    /// Default morph weights.
    #[serde(default)]
    weights: Vec<f32>,
    #[serde(default)]
    extras: Option<MeshExtras>,
}

#[derive(Deserialize)]
struct MeshExtras {
    /// The exporters' convention for naming morph targets.
    #[serde(default, rename = "targetNames")]
    target_names: Vec<String>,
}

#[derive(Deserialize)]
struct Primitive {
    attributes: HashMap<String, usize>,
    indices: Option<usize>,
    #[serde(default = "triangles")]
    mode: u32,
    /// Morph targets: `POSITION` (and `NORMAL`) offsets.
    #[serde(default)]
    targets: Vec<HashMap<String, usize>>,
    material: Option<usize>,
}

fn triangles() -> u32 {
    4
}

#[derive(Deserialize)]
struct SkinJson {
    joints: Vec<usize>,
    #[serde(rename = "inverseBindMatrices")]
    inverse_bind_matrices: Option<usize>,
}

#[derive(Deserialize)]
struct Accessor {
    #[serde(rename = "bufferView")]
    buffer_view: Option<usize>,
    #[serde(default, rename = "byteOffset")]
    byte_offset: usize,
    #[serde(rename = "componentType")]
    component_type: u32,
    #[serde(default)]
    normalized: bool,
    count: usize,
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Deserialize)]
struct BufferView {
    buffer: usize,
    #[serde(default, rename = "byteOffset")]
    byte_offset: usize,
    #[serde(rename = "byteLength")]
    byte_length: usize,
    #[serde(rename = "byteStride")]
    byte_stride: Option<usize>,
}

#[derive(Deserialize)]
struct Buffer {
    uri: Option<String>,
    #[serde(rename = "byteLength")]
    byte_length: usize,
}

/// Decodes standard base64 (with or without padding).
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        } as u32)
    };
    let symbols: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    let symbols = symbols
        .strip_suffix(b"==")
        .or_else(|| symbols.strip_suffix(b"="))
        .unwrap_or(&symbols);
    if symbols.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(symbols.len() * 3 / 4);
    for chunk in symbols.chunks(4) {
        let mut bits = 0_u32;
        for (k, &c) in chunk.iter().enumerate() {
            bits |= value(c)? << (18 - 6 * k);
        }
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    Some(out)
}

struct Buffers {
    data: Vec<Vec<u8>>,
}

/// Where a document's buffers come from besides data URIs.
#[derive(Clone, Copy, Default)]
pub struct Resources<'a> {
    /// A `.glb`'s binary chunk: buffer 0 when that has no URI.
    pub bin: Option<&'a [u8]>,
    /// Files chosen together with a `.gltf`, by file name.
    pub files: Option<&'a HashMap<String, Vec<u8>>>,
}

/// `%20` and friends decoded; anything malformed is kept as it is.
fn percent_decoded(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut k = 0;
    while k < bytes.len() {
        let hex = bytes
            .get(k + 1..k + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[k], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                k += 3;
            }
            (byte, _) => {
                out.push(byte);
                k += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| uri.to_owned())
}

impl Resources<'_> {
    /// The file a relative URI names: matched as written, decoded, or by its
    /// last path segment (a file picker gives names, not folders).
    fn file(&self, uri: &str) -> Option<&[u8]> {
        let files = self.files?;
        let decoded = percent_decoded(uri);
        let name = decoded.rsplit(['/', '\\']).next().unwrap_or(&decoded);
        [uri, decoded.as_str(), name]
            .iter()
            .find_map(|key| files.get(*key))
            .map(Vec::as_slice)
    }
}

impl Buffers {
    /// Decodes every buffer: data URIs, external files from `resources`, and
    /// buffer 0 without a URI from a `.glb`'s binary chunk.
    fn load(document: &Document, resources: Resources) -> Result<Self, GltfError> {
        let data = document
            .buffers
            .iter()
            .enumerate()
            .map(|(index, buffer)| {
                let bytes = match buffer.uri.as_deref() {
                    None => resources
                        .bin
                        .filter(|_| index == 0)
                        .ok_or_else(|| {
                            GltfError::Missing(format!(
                                "buffers[{index}]'s data (no URI, and not a .glb's first buffer)"
                            ))
                        })?
                        .to_vec(),
                    Some(uri) if uri.starts_with("data:") => {
                        let payload = uri
                            .split_once(";base64,")
                            .map(|(_, payload)| payload)
                            .ok_or(GltfError::Base64(index))?;
                        decode_base64(payload).ok_or(GltfError::Base64(index))?
                    }
                    Some(uri) => resources
                        .file(uri)
                        .ok_or_else(|| GltfError::MissingFile {
                            buffer: index,
                            uri: uri.to_owned(),
                        })?
                        .to_vec(),
                };
                if bytes.len() < buffer.byte_length {
                    return Err(GltfError::BufferTooShort {
                        buffer: index,
                        declared: buffer.byte_length,
                        found: bytes.len(),
                    });
                }
                Ok(bytes)
            })
            .collect::<Result<_, _>>()?;
        Ok(Self { data })
    }

    /// Reads accessor `index` as `f32` components, `width` per element;
    /// normalised integers are mapped to 0..1.
    fn floats(
        &self,
        document: &Document,
        index: usize,
        width: usize,
    ) -> Result<Vec<f32>, GltfError> {
        self.read(document, index, width, |bytes, kind, normalized| {
            // glTF's dequantization: unsigned c / (2ⁿ − 1), signed
            // max(c / (2ⁿ⁻¹ − 1), −1); unnormalized integers as they are
            // (KHR_mesh_quantization).
            let scaled = |value: f32, max: f32| {
                if normalized {
                    (value / max).max(-1.0)
                } else {
                    value
                }
            };
            match kind {
                5126 => Some(f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
                5120 => Some(scaled(f32::from(bytes[0] as i8), 127.0)),
                5121 => Some(scaled(f32::from(bytes[0]), 255.0)),
                5122 => Some(scaled(
                    f32::from(i16::from_le_bytes([bytes[0], bytes[1]])),
                    32767.0,
                )),
                5123 => Some(scaled(
                    f32::from(u16::from_le_bytes([bytes[0], bytes[1]])),
                    65535.0,
                )),
                _ => None,
            }
        })
    }

    /// Reads accessor `index` as unsigned integers, `width` per element.
    fn integers(
        &self,
        document: &Document,
        index: usize,
        width: usize,
    ) -> Result<Vec<u32>, GltfError> {
        self.read(document, index, width, |bytes, kind, _| match kind {
            5121 => Some(u32::from(bytes[0])),
            5123 => Some(u32::from(u16::from_le_bytes([bytes[0], bytes[1]]))),
            5125 => Some(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
            _ => None,
        })
    }

    fn read<T>(
        &self,
        document: &Document,
        index: usize,
        width: usize,
        convert: impl Fn(&[u8], u32, bool) -> Option<T>,
    ) -> Result<Vec<T>, GltfError> {
        let problem = |problem: String| GltfError::Accessor { index, problem };
        let accessor = document
            .accessors
            .get(index)
            .ok_or_else(|| problem("does not exist".to_owned()))?;
        let expected_width = match accessor.kind.as_str() {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "VEC4" => 4,
            "MAT4" => 16,
            other => return Err(problem(format!("type {other} is not supported"))),
        };
        if expected_width != width {
            return Err(problem(format!(
                "has type {}, expected {width} components",
                accessor.kind
            )));
        }
        let component_size = match accessor.component_type {
            5120 | 5121 => 1,
            5122 | 5123 => 2,
            5125 | 5126 => 4,
            other => return Err(problem(format!("component type {other} is unknown"))),
        };
        let view_index = accessor
            .buffer_view
            .ok_or_else(|| problem("has no buffer view (sparse data)".to_owned()))?;
        let view = document
            .buffer_views
            .get(view_index)
            .ok_or_else(|| problem(format!("buffer view {view_index} does not exist")))?;
        let buffer = self
            .data
            .get(view.buffer)
            .ok_or_else(|| problem(format!("buffer {} does not exist", view.buffer)))?;
        let element_size = component_size * width;
        let stride = view.byte_stride.unwrap_or(element_size);
        // Checked arithmetic: a damaged file may hold any numbers here.
        let past_end = || problem("reaches past the end of its buffer view".to_owned());
        let start = view
            .byte_offset
            .checked_add(accessor.byte_offset)
            .ok_or_else(past_end)?;
        let view_end = view
            .byte_offset
            .checked_add(view.byte_length)
            .ok_or_else(past_end)?;
        let needed = match accessor.count.checked_sub(1) {
            None => 0,
            Some(last) => last
                .checked_mul(stride)
                .and_then(|offset| offset.checked_add(element_size))
                .ok_or_else(past_end)?,
        };
        if start.checked_add(needed).is_none_or(|end| end > view_end) || view_end > buffer.len() {
            return Err(past_end());
        }
        let mut out = Vec::with_capacity(accessor.count * width);
        for element in 0..accessor.count {
            for component in 0..width {
                let at = start + element * stride + component * component_size;
                let value = convert(
                    &buffer[at..at + component_size],
                    accessor.component_type,
                    accessor.normalized,
                )
                .ok_or_else(|| {
                    problem(format!(
                        "component type {} cannot be read here",
                        accessor.component_type
                    ))
                })?;
                out.push(value);
            }
        }
        Ok(out)
    }
}

/// Reads the first skinned mesh of an embedded glTF document as a scene.
pub fn scene_from_gltf(text: &str) -> Result<Scene, GltfError> {
    read_gltf(text)
}

/// Reads the skinned meshes of an embedded glTF document as a scene, with
/// its animations (in [`Scene::animation`]). A clip that cannot be read (an
/// unsupported key format) is left out.
pub fn read_gltf(text: &str) -> Result<Scene, GltfError> {
    read_document(text, Resources::default())
}

/// Reads a `.gltf` whose buffers are separate files: `files` maps each
/// file's name to its bytes; a buffer whose file is missing is named in the
/// error.
pub fn read_gltf_files(text: &str, files: &HashMap<String, Vec<u8>>) -> Result<Scene, GltfError> {
    read_document(
        text,
        Resources {
            bin: None,
            files: Some(files),
        },
    )
}

/// Reads a binary glTF (`.glb`): a 12-byte header (`glTF`, version 2, total
/// length), a JSON chunk, then an optional binary chunk that is buffer 0.
/// Every length is checked against the bytes actually there.
pub fn read_glb(bytes: &[u8]) -> Result<Scene, GltfError> {
    let (json, bin) = super::glb::chunks(bytes)?;
    let text = std::str::from_utf8(json)
        .map_err(|_| GltfError::Glb("the JSON chunk is not UTF-8 text".to_owned()))?;
    read_document(text, Resources { bin, files: None })
}

fn read_document(text: &str, resources: Resources) -> Result<Scene, GltfError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(GltfError::TooLarge {
            bytes: text.len(),
            max: MAX_FILE_BYTES,
        });
    }
    let document: Document =
        serde_json::from_str(text).map_err(|e| GltfError::Json(e.to_string()))?;
    let mut not_drawn = Vec::new();
    for extension in &document.extensions_required {
        if SUPPORTED_EXTENSIONS.contains(&extension.as_str()) {
            continue;
        }
        if is_appearance_only(extension) {
            not_drawn.push(extension.clone());
            continue;
        }
        return Err(GltfError::Unsupported(format!(
            "the required extension {extension}"
        )));
    }
    if document.skins.len() > MAX_SKINS {
        return Err(GltfError::Unsupported(format!(
            "{} skins (at most {MAX_SKINS})",
            document.skins.len()
        )));
    }
    let buffers = Buffers::load(&document, resources)?;
    let node_count = document.nodes.len();
    let mut node_parent = vec![None; node_count];
    for (index, node) in document.nodes.iter().enumerate() {
        for &child in &node.children {
            if let Some(slot) = node_parent.get_mut(child) {
                *slot = Some(index);
            }
        }
    }
    if let Some(node) = first_on_a_cycle(&node_parent) {
        return Err(GltfError::NodeCycle { node });
    }
    let globals = node_globals(&document, &node_parent);

    // The meshes drawn: those of the default scene, as a viewer shows it.
    let shown = shown_mesh_nodes(&document, &node_parent);
    if shown.is_empty() {
        return Err(GltfError::Missing("a node with a mesh".to_owned()));
    }
    // Every skin a shown mesh uses, checked once.
    let mut skins: Vec<(usize, Vec<Mat4>)> = Vec::new();
    for &node in &shown {
        let Some(skin_index) = document.nodes[node].skin else {
            continue;
        };
        if skins.iter().any(|(s, _)| *s == skin_index) {
            continue;
        }
        skins.push((skin_index, inverse_binds(&document, &buffers, skin_index)?));
    }
    let is_joint: Vec<bool> = (0..node_count)
        .map(|node| {
            skins
                .iter()
                .any(|(s, _)| document.skins[*s].joints.contains(&node))
        })
        .collect();
    let mut animated = vec![false; node_count];
    for animation in &document.animations {
        for channel in &animation.channels {
            if let Some(slot) = channel.target.node.and_then(|n| animated.get_mut(n)) {
                *slot |= channel.target.path != "weights";
            }
        }
    }

    // The bones: every joint, every node a joint hangs from, and every
    // mesh that moves rigidly (on a joint or an animated node).
    let mut is_bone = is_joint.clone();
    let mut rigid = vec![false; node_count];
    for &node in &shown {
        if document.nodes[node].skin.is_some() {
            continue;
        }
        let mut current = Some(node);
        while let Some(n) = current {
            if is_joint[n] || animated[n] {
                rigid[node] = true;
                break;
            }
            current = node_parent[n];
        }
        is_bone[node] |= rigid[node];
    }
    for node in 0..node_count {
        if is_bone[node] {
            let mut current = node_parent[node];
            while let Some(n) = current {
                if is_bone[n] {
                    break;
                }
                is_bone[n] = true;
                current = node_parent[n];
            }
        }
    }
    // Parents first, in the file's own order where it already lists
    // parents first, as exporters do.
    let mut bone_nodes: Vec<usize> = Vec::new();
    let mut placed = vec![false; node_count];
    loop {
        let before = bone_nodes.len();
        for node in 0..node_count {
            if is_bone[node] && !placed[node] && node_parent[node].is_none_or(|p| placed[p]) {
                placed[node] = true;
                bone_nodes.push(node);
            }
        }
        if bone_nodes.len() == before {
            break;
        }
    }
    let roots = bone_nodes
        .iter()
        .filter(|&&n| node_parent[n].is_none())
        .count();
    let synthetic_root = roots != 1;
    let offset = usize::from(synthetic_root);
    let mut bone_of_node: HashMap<usize, usize> = HashMap::new();
    for (position, &node) in bone_nodes.iter().enumerate() {
        bone_of_node.insert(node, position + offset);
    }
    if bone_nodes.len() + offset > MAX_BONES {
        return Err(SceneError::Skeleton(SkeletonError::TooManyBones {
            count: bone_nodes.len() + offset,
            max: MAX_BONES,
        })
        .into());
    }

    // Each joint's local transform, and the turn U that points the drawn
    // bone at its first child joint (a leaf keeps its parent's direction).
    let locals: Vec<BoneTransform> = bone_nodes
        .iter()
        .map(|&n| document.nodes[n].local_transform())
        .collect();
    let bone_count = bone_nodes.len() + offset;
    let mut parents: Vec<Option<usize>> = vec![None; bone_count];
    let mut turns = vec![Quat::IDENTITY; bone_count];
    let mut lengths = vec![0.0_f32; bone_count];
    for (k, &node) in bone_nodes.iter().enumerate() {
        parents[k + offset] = node_parent[node]
            .and_then(|p| bone_of_node.get(&p).copied())
            .or(synthetic_root.then_some(0));
    }
    let mut first_child = vec![None; bone_count];
    for (k, &node) in bone_nodes.iter().enumerate().rev() {
        let reaches = locals[k].translation.length() > 1e-6
            && !(rigid[node] && !is_joint[node] && !animated[node]);
        if let (Some(parent), true) = (parents[k + offset], reaches) {
            first_child[parent] = Some(k);
        }
    }
    for (k, &node) in bone_nodes.iter().enumerate() {
        let bone = k + offset;
        let parent_turn = parents[bone].map_or(Quat::IDENTITY, |p| turns[p]);
        if let Some(child) = first_child[bone] {
            let toward = locals[child].translation;
            turns[bone] = Quat::from_rotation_arc(Vec3::Y, toward.normalize());
            lengths[bone] = toward.length();
        } else if rigid[node] && !is_joint[node] {
            // A rigid mesh's own node: drawn as a point.
            turns[bone] = locals[k].rotation.inverse() * parent_turn;
        } else if let Some(parent) = parents[bone] {
            turns[bone] = (locals[k].rotation.inverse() * parent_turn).normalize();
            lengths[bone] = 0.5 * lengths[parent];
        }
    }
    let mut bones: Vec<BoneDoc> = Vec::with_capacity(bone_count);
    if synthetic_root {
        bones.push(BoneDoc::plain("root", None, [0.0; 3], 0.0));
    }
    for (k, &node) in bone_nodes.iter().enumerate() {
        let bone = k + offset;
        let (parent_turn, parent_length) =
            parents[bone].map_or((Quat::IDENTITY, 0.0), |p| (turns[p], lengths[p]));
        let local = &locals[k];
        let origin = parent_turn.inverse() * local.translation - Vec3::Y * parent_length;
        let orientation = (parent_turn.inverse() * local.rotation * turns[bone]).normalize();
        bones.push(BoneDoc {
            orientation: orientation.to_array(),
            scale: (local.scale != Vec3::ONE).then(|| local.scale.to_array()),
            turn: (turns[bone] != Quat::IDENTITY).then(|| turns[bone].to_array()),
            ..BoneDoc::plain(
                &document.nodes[node]
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("node {node}")),
                parents[bone].map(|p| p as u32),
                origin.to_array(),
                lengths[bone],
            )
        })
    }

    // One palette entry per (joint, inverse bind): the first skin to bind a
    // joint sets its bone's bind; another skin binding it elsewhere gets a
    // twin bone that follows the joint exactly.
    let mut binds: Vec<Vec<(Mat4, usize)>> = vec![Vec::new(); bone_count];
    let mut entry_for = |bones: &mut Vec<BoneDoc>, bone: usize, inverse_bind: Mat4| -> usize {
        let tolerance = 1e-5
            * inverse_bind
                .abs()
                .to_cols_array()
                .iter()
                .fold(1.0_f32, |m, v| m.max(*v));
        if let Some(&(_, entry)) = binds[bone]
            .iter()
            .find(|(m, _)| m.abs_diff_eq(inverse_bind, tolerance))
        {
            return entry;
        }
        if binds[bone].is_empty() {
            bones[bone].inverse_bind = Some(inverse_bind.to_cols_array());
            binds[bone].push((inverse_bind, bone));
            return bone;
        }
        let turn = bones[bone].turn.map_or(Quat::IDENTITY, Quat::from_array);
        let twin = bones.len();
        bones.push(BoneDoc {
            inverse_bind: Some((Mat4::from_quat(turn.inverse()) * inverse_bind).to_cols_array()),
            ..BoneDoc::plain(
                &format!("{} (bind {})", bones[bone].name, binds[bone].len() + 1),
                Some(bone as u32),
                [0.0, -bones[bone].length, 0.0],
                0.0,
            )
        });
        binds.push(Vec::new());
        binds[bone].push((inverse_bind, twin));
        twin
    };

    // The vertices, mesh after mesh.
    let mut positions: Vec<f32> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    let mut influences: Vec<Vec<(u32, f32)>> = Vec::new();
    let mut morph_offsets: Vec<(Vec<f32>, Option<Vec<f32>>)> = Vec::new();
    let mut colours = Vec::new();
    let mut parts: Vec<MeshPartDoc> = Vec::new();
    let morphed_mesh = shown
        .iter()
        .filter_map(|&n| document.nodes[n].mesh)
        .find(|&m| {
            document
                .meshes
                .get(m)
                .is_some_and(|mesh| mesh.primitives.iter().any(|p| !p.targets.is_empty()))
        });
    for &node in &shown {
        let this = &document.nodes[node];
        let Some(mesh_index) = this.mesh else {
            continue;
        };
        let mesh = document
            .meshes
            .get(mesh_index)
            .ok_or_else(|| GltfError::Missing(format!("meshes[{mesh_index}]")))?;
        // Skinned vertices stay in the skin's bind space; the others are
        // placed where the node puts them at rest.
        let skin = this
            .skin
            .and_then(|s| skins.iter().find(|(index, _)| *index == s));
        let placement = if skin.is_some() {
            Mat4::IDENTITY
        } else {
            globals[node]
        };
        let mirrored = placement.determinant() < 0.0;
        let rigid_bone = (skin.is_none() && rigid[node]).then(|| bone_of_node[&node]);
        let first_vertex = positions.len() / 3;
        for (primitive_index, primitive) in mesh.primitives.iter().enumerate() {
            if primitive.mode != 4 {
                return Err(GltfError::Unsupported(format!(
                    "meshes[{mesh_index}].primitives[{primitive_index}]'s mode {} (only triangles)",
                    primitive.mode
                )));
            }
            let attribute = |name: &str| {
                primitive.attributes.get(name).copied().ok_or_else(|| {
                    GltfError::Missing(format!(
                        "meshes[{mesh_index}].primitives[{primitive_index}].{name}"
                    ))
                })
            };
            let base = (positions.len() / 3) as u32;
            let points: Vec<f32> = buffers
                .floats(&document, attribute("POSITION")?, 3)?
                .chunks_exact(3)
                .flat_map(|p| placement.transform_point3(Vec3::from_slice(p)).to_array())
                .collect();
            let count = points.len() / 3;
            if base as usize + count > crate::io::scene::MAX_VERTICES {
                return Err(SceneError::TooManyVertices {
                    count: base as usize + count,
                    max: crate::io::scene::MAX_VERTICES,
                }
                .into());
            }
            colours.push(material::PrimitiveColour {
                material: primitive.material,
                attributes: &primitive.attributes,
                vertices: count,
            });
            // Morph targets: this primitive's offsets go to target k.
            if Some(mesh_index) == morphed_mesh || skin.is_some() || !primitive.targets.is_empty() {
                for (k, target) in primitive.targets.iter().enumerate() {
                    if k >= morph_offsets.len() {
                        morph_offsets.push((vec![0.0; positions.len()], None));
                    }
                    let read = |name: &str| -> Result<Option<Vec<f32>>, GltfError> {
                        target
                            .get(name)
                            .map(|&index| {
                                buffers.floats(&document, index, 3).map(|values| {
                                    values
                                        .chunks_exact(3)
                                        .flat_map(|d| {
                                            placement
                                                .transform_vector3(Vec3::from_slice(d))
                                                .to_array()
                                        })
                                        .collect()
                                })
                            })
                            .transpose()
                    };
                    let (offsets, normals) = &mut morph_offsets[k];
                    offsets.resize(positions.len(), 0.0);
                    match read("POSITION")? {
                        Some(values) if values.len() == points.len() => offsets.extend(values),
                        _ => offsets.extend(std::iter::repeat_n(0.0, points.len())),
                    }
                    if let Some(values) = read("NORMAL")?.filter(|v| v.len() == points.len()) {
                        let normals = normals.get_or_insert_with(Vec::new);
                        normals.resize(positions.len(), 0.0);
                        normals.extend(values);
                    }
                }
            }
            positions.extend_from_slice(&points);
            match (skin, rigid_bone) {
                (Some((skin_index, inverse_binds)), _) => {
                    let joints_of_skin = &document.skins[*skin_index].joints;
                    // Every joint of the skin is bound, weighted or not.
                    for (joint_node, inverse_bind) in joints_of_skin.iter().zip(inverse_binds) {
                        entry_for(&mut bones, bone_of_node[joint_node], *inverse_bind);
                    }
                    let mut per_vertex: Vec<Vec<(u32, f32)>> = vec![Vec::new(); count];
                    for set in 0.. {
                        let (Some(&joints), Some(&weights)) = (
                            primitive.attributes.get(&format!("JOINTS_{set}")),
                            primitive.attributes.get(&format!("WEIGHTS_{set}")),
                        ) else {
                            if set == 0 {
                                attribute("JOINTS_0")?;
                                attribute("WEIGHTS_0")?;
                            }
                            break;
                        };
                        let joints = buffers.integers(&document, joints, 4)?;
                        let weights = buffers.floats(&document, weights, 4)?;
                        if joints.len() != count * 4 || weights.len() != count * 4 {
                            return Err(GltfError::Missing(format!(
                                "one JOINTS_{set} and WEIGHTS_{set} per vertex in meshes[{mesh_index}].primitives[{primitive_index}]"
                            )));
                        }
                        for (vertex, pairs) in per_vertex.iter_mut().enumerate() {
                            for slot in 0..4 {
                                let weight = weights[vertex * 4 + slot];
                                if weight <= 0.0 {
                                    continue;
                                }
                                let joint = joints[vertex * 4 + slot] as usize;
                                let (Some(&joint_node), Some(inverse_bind)) =
                                    (joints_of_skin.get(joint), inverse_binds.get(joint))
                                else {
                                    return Err(GltfError::Missing(format!(
                                        "joint {joint} named by vertex {vertex} of meshes[{mesh_index}].primitives[{primitive_index}]"
                                    )));
                                };
                                let bone =
                                    entry_for(&mut bones, bone_of_node[&joint_node], *inverse_bind)
                                        as u32;
                                match pairs.iter_mut().find(|(b, _)| *b == bone) {
                                    Some(pair) => pair.1 += weight,
                                    None => pairs.push((bone, weight)),
                                }
                            }
                        }
                    }
                    influences.extend(per_vertex);
                }
                (None, Some(bone)) => {
                    let entry = entry_for(&mut bones, bone, globals[node].inverse());
                    influences.extend(std::iter::repeat_n(vec![(entry as u32, 1.0)], count));
                }
                (None, None) => influences.extend(std::iter::repeat_n(Vec::new(), count)),
            }
            let mut triangle_indices = match primitive.indices {
                Some(index) => buffers.integers(&document, index, 1)?,
                None => (0..count as u32).collect(),
            };
            if mirrored {
                for triangle in triangle_indices.chunks_exact_mut(3) {
                    triangle.swap(1, 2);
                }
            }
            indices.extend(triangle_indices.into_iter().map(|i| base + i));
        }
        let vertex_count = positions.len() / 3 - first_vertex;
        parts.push(MeshPartDoc {
            name: this
                .name
                .clone()
                .or_else(|| mesh.name.clone())
                .unwrap_or_else(|| format!("mesh {mesh_index}")),
            vertices: [first_vertex as u32, vertex_count as u32],
            binding: match (skin, rigid_bone) {
                (Some(_), _) => "skinned",
                (None, Some(_)) => "rigid",
                (None, None) => "static",
            }
            .to_owned(),
            bone: rigid_bone.map(|b| b as u32),
        });
    }
    if positions.is_empty() {
        return Err(GltfError::Missing("a mesh with vertices".to_owned()));
    }
    if parts.len() > MAX_MESHES {
        return Err(GltfError::Unsupported(format!(
            "{} meshes (at most {MAX_MESHES})",
            parts.len()
        )));
    }
    let first_mesh = morphed_mesh.and_then(|mesh| document.meshes.get(mesh));
    let target_names = first_mesh
        .and_then(|mesh| mesh.extras.as_ref())
        .map(|extras| extras.target_names.clone())
        .unwrap_or_default();
    let morphs = morph_offsets
        .into_iter()
        .enumerate()
        .map(|(k, (mut offsets, normals))| {
            offsets.resize(positions.len(), 0.0);
            MorphDoc {
                name: target_names
                    .get(k)
                    .cloned()
                    .unwrap_or_else(|| format!("target {k}")),
                positions: offsets,
                normals: normals.map(|mut n| {
                    n.resize(positions.len(), 0.0);
                    n
                }),
            }
        })
        .collect::<Vec<_>>();
    let mut morph_weights = first_mesh
        .map(|mesh| mesh.weights.clone())
        .unwrap_or_default();
    morph_weights.resize(morphs.len(), 0.0);
    let doc = SceneDoc {
        bones,
        mesh: MeshDoc { positions, indices },
        influences,
        pose: Vec::new(),
        morphs,
        morph_weights,
        animations: Vec::new(),
        rig: None,
        paths: Vec::new(),
        meshes: parts,
    };
    let mut scene = Scene::from_doc(&doc)?;
    scene.base_colour = material::base_colour(&document, &buffers, resources, &colours);
    scene.not_drawn = not_drawn;

    // Clips: each joint channel converted once into the bone's animation.
    let spaces: Vec<BindSpace> = scene
        .skeleton
        .bones()
        .iter()
        .map(|bone| {
            let (length, turn) = bone.parent.map_or((0.0, Quat::IDENTITY), |p| {
                let parent = &scene.skeleton.bones()[usize::from(p)];
                (parent.length, parent.turn)
            });
            BindSpace::of_bone(bone, length, turn)
        })
        .collect();
    let morphed = MorphedMesh {
        mesh: morphed_mesh,
        targets: scene.morphs.len(),
    };
    let clips: Vec<Clip> = document
        .animations
        .iter()
        .enumerate()
        .filter_map(|(index, animation)| {
            read_clip(
                &document,
                &buffers,
                animation,
                index,
                &bone_of_node,
                &spaces,
                morphed,
            )
            .ok()
        })
        .filter(|clip| !clip.channels.is_empty() || clip.weights.is_some())
        .collect();
    scene.animation = Animation { clips };
    Ok(scene)
}

/// The most skins a file may have.
pub const MAX_SKINS: usize = 1024;

/// Required extensions that change only how a model looks (textures,
/// materials, lights), never its geometry: the model loads without them.
fn is_appearance_only(extension: &str) -> bool {
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

/// Skin `skin_index`'s inverse bind matrices (identity where the file has
/// none), each finite and invertible; any affine matrix is allowed.
fn inverse_binds(
    document: &Document,
    buffers: &Buffers,
    skin_index: usize,
) -> Result<Vec<Mat4>, GltfError> {
    let skin = document
        .skins
        .get(skin_index)
        .ok_or_else(|| GltfError::Missing(format!("skins[{skin_index}]")))?;
    if skin.joints.is_empty() {
        return Err(GltfError::Missing("the skin's joints".to_owned()));
    }
    if skin.joints.len() > MAX_BONES {
        return Err(GltfError::Unsupported(format!(
            "a skin of {} joints (at most {MAX_BONES})",
            skin.joints.len()
        )));
    }
    if let Some(&node) = skin
        .joints
        .iter()
        .find(|&&node| node >= document.nodes.len())
    {
        return Err(GltfError::Missing(format!(
            "nodes[{node}], named as a joint"
        )));
    }
    let inverse_binds: Vec<Mat4> = match skin.inverse_bind_matrices {
        Some(index) => buffers
            .floats(document, index, 16)?
            .chunks_exact(16)
            .map(Mat4::from_cols_slice)
            .collect(),
        None => vec![Mat4::IDENTITY; skin.joints.len()],
    };
    if inverse_binds.len() != skin.joints.len() {
        return Err(GltfError::Missing(
            "one inverse bind matrix per joint".to_owned(),
        ));
    }
    for (joint, inverse_bind) in inverse_binds.iter().enumerate() {
        let problem = if !inverse_bind.is_finite() {
            Some("holds a number that is not finite")
        } else if inverse_bind.determinant().abs() < 1e-18 {
            Some("is not invertible")
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(GltfError::BadInverseBind { joint, problem });
        }
    }
    Ok(inverse_binds)
}

/// Each node's global transform at rest, `G_n = G_parent · L_n`.
fn node_globals(document: &Document, node_parent: &[Option<usize>]) -> Vec<Mat4> {
    let mut globals: Vec<Option<Mat4>> = vec![None; document.nodes.len()];
    let mut path = Vec::new();
    for start in 0..document.nodes.len() {
        let mut current = Some(start);
        while let Some(node) = current {
            if globals[node].is_some() {
                break;
            }
            path.push(node);
            current = node_parent[node];
        }
        while let Some(node) = path.pop() {
            let parent = node_parent[node]
                .and_then(|p| globals[p])
                .unwrap_or(Mat4::IDENTITY);
            globals[node] = Some(parent * document.nodes[node].local());
        }
    }
    globals
        .into_iter()
        .map(|g| g.unwrap_or(Mat4::IDENTITY))
        .collect()
}

/// The nodes with a mesh in the file's default scene (its `scene`, else
/// its first), parents before children; every node with a mesh when the
/// file has no scenes.
fn shown_mesh_nodes(document: &Document, node_parent: &[Option<usize>]) -> Vec<usize> {
    let roots: Vec<usize> = match document.scenes.get(document.scene.unwrap_or(0)) {
        Some(scene) => scene.nodes.clone(),
        None => (0..document.nodes.len())
            .filter(|&n| node_parent[n].is_none())
            .collect(),
    };
    let mut seen = vec![false; document.nodes.len()];
    let mut out = Vec::new();
    let mut stack: Vec<usize> = roots.into_iter().rev().collect();
    while let Some(node) = stack.pop() {
        let Some(slot) = seen.get_mut(node) else {
            continue;
        };
        if std::mem::replace(slot, true) {
            continue;
        }
        let this = &document.nodes[node];
        if this.mesh.is_some() {
            out.push(node);
        }
        stack.extend(this.children.iter().rev());
    }
    out
}

/// The mesh whose morph targets the scene holds, and how many.
#[derive(Clone, Copy)]
struct MorphedMesh {
    mesh: Option<usize>,
    targets: usize,
}

/// One glTF animation as a clip of the channels that drive joints, and of
/// the `weights` channel of the node that shows the morphed mesh.
fn read_clip(
    document: &Document,
    buffers: &Buffers,
    animation: &AnimationJson,
    index: usize,
    bone_of_node: &HashMap<usize, usize>,
    spaces: &[BindSpace],
    morphed: MorphedMesh,
) -> Result<Clip, GltfError> {
    let mut channels = Vec::new();
    let mut weights = None;
    let mut duration = 0.0_f32;
    for channel in &animation.channels {
        let shows_morphs = channel
            .target
            .node
            .and_then(|node| document.nodes.get(node))
            .is_some_and(|node| node.mesh.is_some() && node.mesh == morphed.mesh);
        if channel.target.path == "weights" && shows_morphs && morphed.targets > 0 {
            let sampler = animation.samplers.get(channel.sampler).ok_or_else(|| {
                GltfError::Missing(format!("animations[{index}].samplers[{}]", channel.sampler))
            })?;
            let times = buffers.floats(document, sampler.input, 1)?;
            let raw = buffers.floats(document, sampler.output, 1)?;
            let n = morphed.targets;
            let cubic = sampler.interpolation == "CUBICSPLINE";
            let per_key = if cubic { 3 * n } else { n };
            if times.is_empty()
                || raw.len() != per_key * times.len()
                || times.windows(2).any(|w| w[1] < w[0])
            {
                return Err(GltfError::Accessor {
                    index: sampler.output,
                    problem: format!("expected {per_key} weights per key"),
                });
            }
            let (values, tangents) = if cubic {
                let mut values = Vec::with_capacity(n * times.len());
                let mut tangents = Vec::with_capacity(2 * n * times.len());
                for key in raw.chunks_exact(3 * n) {
                    tangents.extend_from_slice(&key[..n]);
                    values.extend_from_slice(&key[n..2 * n]);
                    tangents.extend_from_slice(&key[2 * n..]);
                }
                (values, tangents)
            } else {
                (raw, Vec::new())
            };
            duration = duration.max(times[times.len() - 1]);
            weights = Some(WeightsChannel {
                times,
                values,
                tangents,
                interpolation: match sampler.interpolation.as_str() {
                    "STEP" => Interpolation::Step,
                    "CUBICSPLINE" => Interpolation::CubicSpline,
                    _ => Interpolation::Linear,
                },
            });
            continue;
        }
        let Some(&bone) = channel.target.node.and_then(|node| bone_of_node.get(&node)) else {
            continue;
        };
        let (target, width) = match channel.target.path.as_str() {
            "translation" => (Target::Translation, 3),
            "rotation" => (Target::Rotation, 4),
            "scale" => (Target::Scale, 3),
            _ => continue,
        };
        let sampler = animation.samplers.get(channel.sampler).ok_or_else(|| {
            GltfError::Missing(format!("animations[{index}].samplers[{}]", channel.sampler))
        })?;
        let times = buffers.floats(document, sampler.input, 1)?;
        let raw = buffers.floats(document, sampler.output, width)?;
        let mut values: Vec<[f32; 4]> = raw
            .chunks_exact(width)
            .map(|v| std::array::from_fn(|k| v.get(k).copied().unwrap_or(0.0)))
            .collect();
        let mut tangents = Vec::new();
        let interpolation = match sampler.interpolation.as_str() {
            "STEP" => Interpolation::Step,
            // Cubic splines store in-tangent, value, out-tangent per key.
            "CUBICSPLINE" => {
                tangents = values.chunks_exact(3).map(|key| [key[0], key[2]]).collect();
                values = values.chunks_exact(3).map(|key| key[1]).collect();
                Interpolation::CubicSpline
            }
            _ => Interpolation::Linear,
        };
        if times.is_empty() || values.len() != times.len() || times.windows(2).any(|w| w[1] < w[0])
        {
            return Err(GltfError::Accessor {
                index: sampler.input,
                problem: "key times and values do not match".to_owned(),
            });
        }
        duration = duration.max(times[times.len() - 1]);
        let mut channel = Channel {
            bone,
            target,
            times,
            values,
            tangents,
            interpolation,
        };
        spaces[bone].convert_channel(&mut channel);
        channels.push(channel);
    }
    Ok(Clip {
        name: animation
            .name
            .clone()
            .unwrap_or_else(|| format!("animation {}", index + 1)),
        duration,
        channels,
        weights,
    })
}

/// A node that is its own ancestor, if the parent links have a loop; each
/// node is walked once, so ten thousand nested nodes cost ten thousand
/// steps.
fn first_on_a_cycle(node_parent: &[Option<usize>]) -> Option<usize> {
    const UNSEEN: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![UNSEEN; node_parent.len()];
    let mut path = Vec::new();
    for start in 0..node_parent.len() {
        let mut current = Some(start);
        while let Some(node) = current {
            match state[node] {
                DONE => break,
                ON_PATH => return Some(node),
                _ => {}
            }
            state[node] = ON_PATH;
            path.push(node);
            current = node_parent[node];
        }
        for node in path.drain(..) {
            state[node] = DONE;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(decode_base64("TWFu").unwrap(), b"Man");
        assert_eq!(decode_base64("TWE=").unwrap(), b"Ma");
        assert_eq!(decode_base64("TQ").unwrap(), b"M");
        assert!(decode_base64("T").is_none());
        assert!(decode_base64("T*==").is_none());
    }

    #[test]
    fn clear_errors_for_what_is_not_a_skinned_gltf() {
        assert!(matches!(scene_from_gltf("{"), Err(GltfError::Json(_))));
        let no_vertices = r#"{"asset": {"version": "2.0"}, "nodes": [{"mesh": 0}], "meshes": [{"primitives": []}]}"#;
        assert_eq!(
            scene_from_gltf(no_vertices).unwrap_err().to_string(),
            "glTF: a mesh with vertices is missing"
        );
        let external = r#"{"buffers": [{"uri": "model.bin", "byteLength": 4}]}"#;
        assert_eq!(
            scene_from_gltf(external).unwrap_err(),
            GltfError::MissingFile {
                buffer: 0,
                uri: "model.bin".to_owned()
            }
        );
        assert!(scene_from_gltf(external)
            .unwrap_err()
            .to_string()
            .contains("'model.bin', which was not given"));
    }

    #[test]
    fn external_files_are_found_by_uri_decoded_uri_or_file_name() {
        let files: HashMap<String, Vec<u8>> = [("my model.bin".to_owned(), vec![1, 2, 3])]
            .into_iter()
            .collect();
        let resources = Resources {
            bin: None,
            files: Some(&files),
        };
        assert_eq!(resources.file("my%20model.bin"), Some(&[1, 2, 3][..]));
        assert_eq!(
            resources.file("buffers/my%20model.bin"),
            Some(&[1, 2, 3][..])
        );
        assert_eq!(resources.file("other.bin"), None);
        assert_eq!(percent_decoded("a%2"), "a%2");
    }

    #[test]
    fn quantized_attributes_are_dequantized_as_gltf_says() {
        // Two VEC2 elements each of i8, u8, i16 and u16, normalized or not.
        let bytes: Vec<u8> = [
            vec![127u8, 0x81], // i8: 127, −127
            vec![255, 51],     // u8
            [32767i16, -32768]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect(),
            [65535u16, 13107]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect(),
        ]
        .concat();
        let uri = format!(
            "data:application/octet-stream;base64,{}",
            encode_base64_for_tests(&bytes)
        );
        let accessor = |offset: usize, kind: u32, normalized: bool| {
            serde_json::json!({"bufferView": 0, "byteOffset": offset, "componentType": kind,
                               "normalized": normalized, "count": 1, "type": "VEC2"})
        };
        let doc = serde_json::json!({
            "buffers": [{"uri": uri, "byteLength": bytes.len()}],
            "bufferViews": [{"buffer": 0, "byteLength": bytes.len()}],
            "accessors": [accessor(0, 5120, true), accessor(2, 5121, true), accessor(4, 5122, true),
                          accessor(8, 5123, true), accessor(0, 5120, false), accessor(8, 5123, false)],
        });
        let document: Document = serde_json::from_value(doc).unwrap();
        let buffers = Buffers::load(&document, Resources::default()).unwrap();
        let read = |index| buffers.floats(&document, index, 2).unwrap();
        assert_eq!(read(0), vec![1.0, -1.0]);
        assert_eq!(read(1), vec![1.0, 0.2]);
        assert_eq!(read(2), vec![1.0, -1.0], "−32768 clamps to −1");
        assert_eq!(read(3), vec![1.0, 0.2]);
        assert_eq!(read(4), vec![127.0, -127.0]);
        assert_eq!(read(5), vec![65535.0, 13107.0]);
    }

    fn encode_base64_for_tests(bytes: &[u8]) -> String {
        const ALPHABET: &[u8; 64] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        bytes
            .chunks(3)
            .flat_map(|chunk| {
                let n = chunk
                    .iter()
                    .enumerate()
                    .fold(0u32, |n, (k, &b)| n | u32::from(b) << (16 - 8 * k));
                (0..4).map(move |k| {
                    if k <= chunk.len() {
                        ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char
                    } else {
                        '='
                    }
                })
            })
            .collect()
    }
}
