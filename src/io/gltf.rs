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

use glam::{Mat3, Mat4, Quat, Vec3};
use serde::Deserialize;

use crate::io::scene::{BoneDoc, MeshDoc, MorphDoc, Scene, SceneDoc, SceneError};
use crate::rig::animation::{
    Animation, Channel, Clip, Interpolation, LocalTransform, Rig, Target, WeightsChannel,
};
use crate::rig::pose::BoneTransform;

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
    /// The joint matrices are not rigid (a scaled or sheared bind pose).
    #[error("glTF: joint {joint}'s bind matrix has scale or shear, which bones cannot express")]
    NonRigidBind {
        /// The joint, as an index into the skin's joint list.
        joint: usize,
    },
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
    fn local_transform(&self) -> LocalTransform {
        match self.matrix {
            Some(matrix) => {
                let (scale, rotation, translation) =
                    Mat4::from_cols_array(&matrix).to_scale_rotation_translation();
                LocalTransform {
                    translation,
                    rotation,
                    scale,
                }
            }
            None => LocalTransform {
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
    if let Some(extension) = document
        .extensions_required
        .iter()
        .find(|name| !SUPPORTED_EXTENSIONS.contains(&name.as_str()))
    {
        return Err(GltfError::Unsupported(format!(
            "the required extension {extension}"
        )));
    }
    let buffers = Buffers::load(&document, resources)?;
    let (_, skin_index) = document
        .nodes
        .iter()
        .find_map(|node| Some((node.mesh?, node.skin?)))
        .ok_or_else(|| GltfError::Missing("a node with both a mesh and a skin".to_owned()))?;
    let skin = document
        .skins
        .get(skin_index)
        .ok_or_else(|| GltfError::Missing(format!("skins[{skin_index}]")))?;
    if skin.joints.is_empty() {
        return Err(GltfError::Missing("the skin's joints".to_owned()));
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

    // Bind frames R_j = IBM_j⁻¹, which must be rigid.
    let inverse_binds: Vec<Mat4> = match skin.inverse_bind_matrices {
        Some(index) => buffers
            .floats(&document, index, 16)?
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
        } else if inverse_bind.determinant().abs() < 1e-12 {
            Some("is not invertible")
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(GltfError::BadInverseBind { joint, problem });
        }
    }
    let model_from_joint: Vec<Mat4> = inverse_binds.iter().map(Mat4::inverse).collect();
    for (joint, frame) in model_from_joint.iter().enumerate() {
        let linear = Mat3::from_mat4(*frame);
        let orthonormal = (linear.transpose() * linear).abs_diff_eq(Mat3::IDENTITY, 1e-3)
            && linear.determinant() > 0.0;
        if !orthonormal {
            return Err(GltfError::NonRigidBind { joint });
        }
    }

    // Each joint's parent joint: its nearest ancestor node that is a joint.
    let mut node_parent = vec![None; document.nodes.len()];
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
    let joint_of_node: HashMap<usize, usize> = skin
        .joints
        .iter()
        .enumerate()
        .map(|(j, &node)| (node, j))
        .collect();
    let parent_joint: Vec<Option<usize>> = skin
        .joints
        .iter()
        .map(|&node| {
            let mut current = node_parent.get(node).copied().flatten();
            let mut steps = 0;
            while let Some(ancestor) = current {
                if let Some(&joint) = joint_of_node.get(&ancestor) {
                    return Some(joint);
                }
                current = node_parent[ancestor];
                steps += 1;
                if steps > document.nodes.len() {
                    break;
                }
            }
            None
        })
        .collect();

    // Order parent before child; several roots hang from one added root.
    let synthetic_root = parent_joint
        .iter()
        .filter(|parent| parent.is_none())
        .count()
        > 1;
    // The skeleton's place in the scene: the transform of the nodes above
    // its root joint (often an "armature" turning a Z-up rig upright). It is
    // applied to the mesh and the bind frames, so the model stands as in any
    // glTF viewer; a non-uniform scale there is left out.
    let armature = (0..skin.joints.len())
        .find(|&joint| parent_joint[joint].is_none())
        .and_then(|root| node_parent[skin.joints[root]])
        .map_or(Mat4::IDENTITY, |parent| {
            let mut global = Mat4::IDENTITY;
            let mut current = Some(parent);
            let mut steps = 0;
            while let (Some(node), true) = (current, steps <= document.nodes.len()) {
                global = document.nodes[node].local() * global;
                current = node_parent[node];
                steps += 1;
            }
            global
        });
    let (armature_scale, armature_rotation, _) = armature.to_scale_rotation_translation();
    let armature = if (armature_scale - Vec3::splat(armature_scale.x))
        .abs()
        .max_element()
        < 1e-3 * armature_scale.x.abs()
        && armature_scale.x > 0.0
    {
        armature
    } else {
        Mat4::IDENTITY
    };
    let armature_turn = if armature == Mat4::IDENTITY {
        Quat::IDENTITY
    } else {
        armature_rotation
    };
    let model_from_joint: Vec<Mat4> = model_from_joint
        .iter()
        .map(|frame| {
            let origin = armature.transform_point3(frame.w_axis.truncate());
            Mat4::from_rotation_translation(
                armature_turn * Quat::from_mat3(&orthonormalize(Mat3::from_mat4(*frame))),
                origin,
            )
        })
        .collect();

    // A stable topological order: the file's own order when it already
    // lists parents first, as exporters do.
    let mut order: Vec<usize> = Vec::with_capacity(skin.joints.len());
    let mut placed = vec![false; skin.joints.len()];
    loop {
        let before = order.len();
        for joint in 0..skin.joints.len() {
            if !placed[joint] && parent_joint[joint].is_none_or(|parent| placed[parent]) {
                placed[joint] = true;
                order.push(joint);
            }
        }
        if order.len() == before {
            break;
        }
    }
    if order.len() != skin.joints.len() {
        return Err(GltfError::Unsupported(
            "a joint hierarchy with a cycle".to_owned(),
        ));
    }
    let offset = usize::from(synthetic_root);
    let mut bone_of_joint = vec![0; skin.joints.len()];
    for (position, &joint) in order.iter().enumerate() {
        bone_of_joint[joint] = position + offset;
    }

    // Bone frames in Skinlab's terms: lengths reach the first child along +Y.
    let mut frames: Vec<Mat4> = Vec::new();
    let mut parents: Vec<Option<usize>> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    if synthetic_root {
        frames.push(Mat4::IDENTITY);
        parents.push(None);
        names.push("root".to_owned());
    }
    for &joint in &order {
        frames.push(model_from_joint[joint]);
        parents.push(
            parent_joint[joint]
                .map(|p| bone_of_joint[p])
                .or(synthetic_root.then_some(0)),
        );
        let node = &document.nodes[skin.joints[joint]];
        names.push(
            node.name
                .clone()
                .unwrap_or_else(|| format!("joint {joint}")),
        );
    }
    // Skinlab's bones point along +Y; glTF joints may point along any axis.
    // Each bone frame is the joint frame turned (by a constant rotation) so
    // that +Y reaches the first child joint, and its length is that
    // distance. A leaf turns like its parent and is drawn half as long.
    // Skinning is unchanged: M = R' · R⁻¹ is the identity at bind time
    // whatever constant turn R carries.
    let mut lengths = vec![0.0_f32; frames.len()];
    let mut turns = vec![Quat::IDENTITY; frames.len()];
    let mut first_children = vec![None; frames.len()];
    for (child, parent) in parents.iter().enumerate().rev() {
        if let Some(parent) = *parent {
            first_children[parent] = Some(child);
        }
    }
    for bone in 0..frames.len() {
        let first_child = first_children[bone];
        let toward_child = first_child
            .map(|child| {
                frames[bone]
                    .inverse()
                    .transform_point3(frames[child].transform_point3(Vec3::ZERO))
            })
            .filter(|offset| offset.length() > 1e-6);
        match (toward_child, parents[bone]) {
            (Some(offset), _) => {
                turns[bone] = Quat::from_rotation_arc(Vec3::Y, offset.normalize());
                lengths[bone] = offset.length();
            }
            (None, Some(parent)) if first_child.is_none() => {
                turns[bone] = turns[parent];
                lengths[bone] = 0.5 * lengths[parent];
            }
            _ => {}
        }
    }
    for (frame, turn) in frames.iter_mut().zip(&turns) {
        *frame *= Mat4::from_quat(*turn);
    }
    let bones = (0..frames.len())
        .map(|bone| {
            let parent_tip = match parents[bone] {
                Some(parent) => frames[parent] * Mat4::from_translation(Vec3::Y * lengths[parent]),
                None => Mat4::IDENTITY,
            };
            let local = parent_tip.inverse() * frames[bone];
            let rotation = Quat::from_mat3(&orthonormalize(Mat3::from_mat4(local))).normalize();
            BoneDoc {
                name: names[bone].clone(),
                parent: parents[bone].map(|p| p as u32),
                origin: local.w_axis.truncate().to_array(),
                orientation: rotation.to_array(),
                length: lengths[bone],
                limits: None,
            }
        })
        .collect();

    // The mesh: every triangle primitive of every skinned mesh whose joints
    // the first skin has, concatenated; each mesh's joint numbers are
    // translated to the first skin's.
    let mut skinned_meshes: Vec<(usize, Vec<Option<usize>>)> = Vec::new();
    for node in &document.nodes {
        let (Some(mesh_index), Some(other)) = (node.mesh, node.skin) else {
            continue;
        };
        let Some(other) = document.skins.get(other) else {
            continue;
        };
        let remap: Vec<Option<usize>> = other
            .joints
            .iter()
            .map(|node| joint_of_node.get(node).copied())
            .collect();
        let known = remap.iter().all(Option::is_some);
        let seen = skinned_meshes.iter().any(|(m, _)| *m == mesh_index);
        if known && !seen {
            skinned_meshes.push((mesh_index, remap));
        }
    }
    let mut positions = Vec::new();
    let mut indices = Vec::new();
    let mut influences = Vec::new();
    let mut morph_offsets: Vec<(Vec<f32>, Option<Vec<f32>>)> = Vec::new();
    let mut colours = Vec::new();
    let primitives = skinned_meshes.iter().flat_map(|(mesh_index, remap)| {
        document
            .meshes
            .get(*mesh_index)
            .into_iter()
            .flat_map(|mesh| mesh.primitives.iter().enumerate())
            .map(move |(primitive_index, primitive)| {
                (*mesh_index, remap, primitive_index, primitive)
            })
    });
    for (mesh_index, remap, primitive_index, primitive) in primitives {
        if primitive.mode != 4 {
            return Err(GltfError::Unsupported(format!(
                "primitive {primitive_index}'s mode {} (only triangles)",
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
            .flat_map(|p| armature.transform_point3(Vec3::from_slice(p)).to_array())
            .collect();
        let count = points.len() / 3;
        colours.push(material::PrimitiveColour {
            material: primitive.material,
            attributes: &primitive.attributes,
            vertices: count,
        });
        let joints = buffers.integers(&document, attribute("JOINTS_0")?, 4)?;
        let weights = buffers.floats(&document, attribute("WEIGHTS_0")?, 4)?;
        if joints.len() != count * 4 || weights.len() != count * 4 {
            return Err(GltfError::Missing(format!(
                "one JOINTS_0 and WEIGHTS_0 per vertex in primitive {primitive_index}"
            )));
        }
        // Morph targets: this primitive's offsets go to target k; the
        // targets of the first skinned mesh name the scene's targets.
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
                                    armature.transform_vector3(Vec3::from_slice(d)).to_array()
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
        positions.extend_from_slice(&points);
        for vertex in 0..count {
            let mut pairs: Vec<(u32, f32)> = Vec::new();
            for slot in 0..4 {
                let weight = weights[vertex * 4 + slot];
                if weight <= 0.0 {
                    continue;
                }
                let joint = joints[vertex * 4 + slot] as usize;
                let bone = *remap
                    .get(joint)
                    .copied()
                    .flatten()
                    .and_then(|joint| bone_of_joint.get(joint))
                    .ok_or_else(|| {
                        GltfError::Missing(format!(
                            "joint {joint} named by vertex {vertex} of primitive {primitive_index}"
                        ))
                    })? as u32;
                match pairs.iter_mut().find(|(b, _)| *b == bone) {
                    Some(pair) => pair.1 += weight,
                    None => pairs.push((bone, weight)),
                }
            }
            influences.push(pairs);
        }
        match primitive.indices {
            Some(index) => indices.extend(
                buffers
                    .integers(&document, index, 1)?
                    .into_iter()
                    .map(|i| base + i),
            ),
            None => indices.extend((0..count as u32).map(|i| base + i)),
        }
    }
    let first_mesh = skinned_meshes
        .first()
        .and_then(|(mesh, _)| document.meshes.get(*mesh));
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
    };
    let mut scene = Scene::from_doc(&doc)?;
    scene.base_colour = material::base_colour(&document, &buffers, resources, &colours);

    // The rig for the default pose and the clips, bone by bone.
    let bone_count = frames.len();
    let mut rig = Rig {
        parents: parents.clone(),
        between: vec![Mat4::IDENTITY; bone_count],
        rest: vec![
            LocalTransform {
                translation: Vec3::ZERO,
                rotation: Quat::IDENTITY,
                scale: Vec3::ONE
            };
            bone_count
        ],
        turns: turns.clone(),
        fixed: vec![false; bone_count],
    };
    if synthetic_root {
        rig.fixed[0] = true;
    }
    for (joint, &node) in skin.joints.iter().enumerate() {
        let bone = bone_of_joint[joint];
        rig.rest[bone] = document.nodes[node].local_transform();
        rig.between[bone] = match parent_joint[joint] {
            // The root carries the armature above it, as the bind frames do.
            None => armature,
            Some(parent) => {
                let parent_node = skin.joints[parent];
                let mut between = Mat4::IDENTITY;
                let mut current = node_parent[node];
                let mut steps = 0;
                while let (Some(ancestor), true) = (current, steps <= document.nodes.len()) {
                    if ancestor == parent_node {
                        break;
                    }
                    between = document.nodes[ancestor].local() * between;
                    current = node_parent[ancestor];
                    steps += 1;
                }
                between
            }
        };
    }
    let morphed = MorphedMesh {
        mesh: skinned_meshes.first().map(|(mesh, _)| *mesh),
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
                &joint_of_node,
                &bone_of_joint,
                morphed,
            )
            .ok()
        })
        .filter(|clip| !clip.channels.is_empty() || clip.weights.is_some())
        .collect();
    // The file's default pose (its nodes' own transforms) is the opening
    // pose; the bind pose is a "Reset pose" away.
    let mut frames = vec![Mat4::IDENTITY; bone_count];
    rig.rest_frames(&mut frames);
    crate::rig::animation::pose_from_frames(&scene.skeleton, &frames, &mut scene.pose);
    for transform in &mut scene.pose {
        if transform.abs_diff_eq(&BoneTransform::IDENTITY, 1e-5) {
            *transform = BoneTransform::IDENTITY;
        }
    }
    scene.animation = Animation { rig, clips };
    Ok(scene)
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
    joint_of_node: &HashMap<usize, usize>,
    bone_of_joint: &[usize],
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
        let Some(&joint) = channel
            .target
            .node
            .and_then(|node| joint_of_node.get(&node))
        else {
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
        channels.push(Channel {
            bone: bone_of_joint[joint],
            target,
            times,
            values,
            tangents,
            interpolation,
        });
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

/// The rotation nearest to an almost-orthonormal `m` (Gram–Schmidt on its
/// columns), so rounding in the file cannot skew a bone's orientation.
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

fn orthonormalize(m: Mat3) -> Mat3 {
    let x = m.x_axis.normalize_or(Vec3::X);
    let y = (m.y_axis - x * x.dot(m.y_axis)).normalize_or(Vec3::Y);
    Mat3::from_cols(x, y, x.cross(y))
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
        let no_skin = r#"{"asset": {"version": "2.0"}, "nodes": [{"mesh": 0}], "meshes": [{"primitives": []}]}"#;
        assert_eq!(
            scene_from_gltf(no_skin).unwrap_err().to_string(),
            "glTF: a node with both a mesh and a skin is missing"
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
