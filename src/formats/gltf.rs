//! Reading glTF 2.0 (`.gltf` with embedded or separate buffers, `.glb`,
//! `.vrm`) into a scene, by job: the document as serde reads it
//! (`document`), buffers and accessors (`accessors`), the node hierarchy
//! (`nodes`), the bones and their binds (`skins`), the vertices of every
//! mesh (`meshes`), clips (`animation`) and the base colour (`material`).
//!
//! glTF skins a vertex by `Σ w_j · G_j · IBM_j · v`, with `G_j` the joint's
//! global transform and `IBM_j` its inverse bind matrix (any affine matrix).
//! Each joint, and each node a joint hangs from, becomes a bone carrying
//! the node's rest transform (scale included) and a turn `U_j` so that the
//! drawn bone reaches its first child; its palette entry is
//! `M_j = R'_j · U_j⁻¹ · IBM_j = G_j · IBM_j`. Skinned vertices stay as
//! stored (the skin's bind space); rigid and static meshes are placed where
//! their node puts them. The scene opens in the file's default node pose,
//! which "Reset pose" returns to, with its clips, its morph targets and its
//! material's base colour.

mod accessors;
mod animation;
mod budget;
mod document;
pub mod glb;
mod material;
mod meshes;
mod nodes;
mod skins;

use accessors::Buffers;
pub use accessors::{decode_base64, Resources};
use animation::{read_clip, MorphedMeshes};
use document::{is_appearance_only, Document, SUPPORTED_EXTENSIONS};
use meshes::{read_meshes, Geometry};
use nodes::{first_on_a_cycle, node_globals, shown_mesh_nodes};
use skins::{inverse_binds, Bones};

use std::collections::HashMap;

use glam::Mat4;

use crate::rig::animation::{Animation, BindSpace, Clip};
use crate::scene::doc::{BoneDoc, MeshDoc, MorphDoc, SceneDoc};
use crate::scene::{Scene, SceneError, MAX_MESHES};

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
    /// Reading an accessor would take the scene past [`MAX_READ_BYTES`].
    #[error("glTF: accessors[{index}] would take {bytes} bytes to read, bringing the scene to {total} bytes or more; at most {max} (256 MiB) are read, each read of an accessor counted")]
    OverBudget {
        /// The accessor.
        index: usize,
        /// What this read would allocate.
        bytes: usize,
        /// What the scene's reads would have allocated with it.
        total: usize,
        /// [`MAX_READ_BYTES`].
        max: usize,
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

/// The memory budget of one file's reading: the bytes all accessor reads
/// allocate together, each read counted (an accessor shared by 250 clip
/// channels or 1000 morph targets costs 250 or 1000 times, as it does in
/// memory). Checked before each read allocates; a far larger scene than
/// any lecture model, and well inside a browser tab's wasm memory.
pub const MAX_READ_BYTES: usize = 256 << 20;

/// Reads every mesh of an embedded glTF document's default scene.
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
    let (json, bin) = glb::chunks(bytes)?;
    let text = std::str::from_utf8(json)
        .map_err(|_| GltfError::Glb("the JSON chunk is not UTF-8 text".to_owned()))?;
    read_document(text, Resources { bin, files: None })
}

/// Reads a glTF document built in memory by another reader (FBX, BVH):
/// its JSON and the binary chunk that is its buffer 0. The size of the
/// binary chunk is not limited here: the reader that built it bounded its
/// own input, and each accessor read is still counted against
/// [`MAX_READ_BYTES`].
pub(crate) fn read_built(json: &str, bin: &[u8]) -> Result<Scene, GltfError> {
    read_document(
        json,
        Resources {
            bin: Some(bin),
            files: None,
        },
    )
}

fn read_document(text: &str, resources: Resources) -> Result<Scene, GltfError> {
    let (document, mut not_drawn) = checked_document(text)?;
    let buffers = Buffers::load(&document, resources)?;
    let node_parent = node_parents(&document)?;
    let globals = node_globals(&document, &node_parent);
    // The meshes drawn: those of the default scene, as a viewer shows it.
    let shown = shown_mesh_nodes(&document, &node_parent);
    if shown.is_empty() {
        return Err(GltfError::Missing("a node with a mesh".to_owned()));
    }
    let skins = skins_used(&document, &buffers, &shown)?;
    let mut bones = Bones::of(&document, &node_parent, &shown, &skins)?;
    let mut geometry = read_meshes(&document, &buffers, &globals, &shown, &skins, &mut bones)?;
    if geometry.positions.is_empty() {
        return Err(GltfError::Missing("a mesh with vertices".to_owned()));
    }
    if geometry.parts.len() > MAX_MESHES {
        return Err(GltfError::Unsupported(format!(
            "{} meshes (at most {MAX_MESHES})",
            geometry.parts.len()
        )));
    }
    let colours = material::vertex_colours(&document, &buffers, &geometry.colours);
    not_drawn.append(&mut geometry.not_drawn);
    let mut doc = scene_doc(&mut geometry, std::mem::take(&mut bones.docs), colours);
    doc.mark_deforming_from_weights();
    let mut scene = Scene::from_doc(&doc)?;
    let drawn = material::drawn(&document, &buffers, resources, &geometry.colours);
    scene.base_colour = material::base_colour(&drawn, &geometry.colours);
    scene.materials = drawn.materials;
    scene.images = drawn.images;
    scene.surfaces = drawn.surfaces;
    scene.not_drawn = not_drawn;
    scene.not_drawn.extend(drawn.not_used);
    let morphed = MorphedMeshes {
        slots: &geometry.morph_slots,
        rest: &scene.morph_weights,
    };
    let (clips, unread) = read_clips(&document, &buffers, &bones, &scene.skeleton, &morphed)?;
    scene.not_drawn.extend(unread);
    scene.animation = Animation { clips };
    Ok(scene)
}

/// The document of `text`, checked before any buffer is decoded: its size,
/// what its reads would allocate, its required extensions (those that only
/// change its looks are returned, to be named as not drawn) and its number
/// of skins.
fn checked_document(text: &str) -> Result<(Document, Vec<String>), GltfError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(GltfError::TooLarge {
            bytes: text.len(),
            max: MAX_FILE_BYTES,
        });
    }
    let document: Document =
        serde_json::from_str(text).map_err(|e| GltfError::Json(e.to_string()))?;
    budget::check_declared_reads(&document)?;
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
    Ok((document, not_drawn))
}

/// Each node's parent; a cycle among the nodes is refused.
fn node_parents(document: &Document) -> Result<Vec<Option<usize>>, GltfError> {
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
    Ok(node_parent)
}

/// Every skin a shown mesh uses, with its inverse binds, checked once.
fn skins_used(
    document: &Document,
    buffers: &Buffers,
    shown: &[usize],
) -> Result<Vec<(usize, Vec<Mat4>)>, GltfError> {
    let mut skins: Vec<(usize, Vec<Mat4>)> = Vec::new();
    for &node in shown {
        let Some(skin_index) = document.nodes[node].skin else {
            continue;
        };
        if skins.iter().any(|(s, _)| *s == skin_index) {
            continue;
        }
        skins.push((skin_index, inverse_binds(document, buffers, skin_index)?));
    }
    Ok(skins)
}

/// The scene document of the meshes read and their bones, taking the
/// vertices, triangles, influences, morph targets and mesh parts out of
/// `geometry` (its surfaces and morph slots stay, for the materials and the
/// clips): every morph target's offsets (and normals) over all the
/// vertices, zero where a mesh lacks it.
fn scene_doc(geometry: &mut Geometry, bones: Vec<BoneDoc>, colours: Vec<[f32; 3]>) -> SceneDoc {
    let positions = std::mem::take(&mut geometry.positions);
    let count = positions.len();
    let morphs = std::mem::take(&mut geometry.morph_offsets)
        .into_iter()
        .zip(&geometry.morph_names)
        .map(|((mut offsets, normals), name)| {
            offsets.resize(count, 0.0);
            MorphDoc {
                name: name.clone(),
                positions: offsets,
                normals: normals.map(|mut n| {
                    n.resize(count, 0.0);
                    n
                }),
            }
        })
        .collect::<Vec<_>>();
    let mut morph_weights = std::mem::take(&mut geometry.morph_weights);
    morph_weights.resize(morphs.len(), 0.0);
    SceneDoc {
        bones,
        mesh: MeshDoc {
            positions,
            indices: std::mem::take(&mut geometry.indices),
        },
        influences: std::mem::take(&mut geometry.influences),
        pose: Vec::new(),
        morphs,
        morph_weights,
        animations: Vec::new(),
        rig: None,
        paths: Vec::new(),
        meshes: std::mem::take(&mut geometry.parts),
        colours,
        look: None,
    }
}

/// The clips, each joint channel converted once into the bone's animation,
/// and what could not be read or played, named: a clip that cannot be read
/// is left out and said (a file over the memory budget is refused whole);
/// of `KHR_animation_pointer` channels not played, the first few are named.
fn read_clips(
    document: &Document,
    buffers: &Buffers,
    bones: &Bones,
    skeleton: &crate::rig::skeleton::Skeleton,
    morphed: &MorphedMeshes,
) -> Result<(Vec<Clip>, Vec<String>), GltfError> {
    let spaces = BindSpace::of_skeleton(skeleton);
    let mut clips: Vec<Clip> = Vec::new();
    let mut unread: Vec<String> = Vec::new();
    let mut unplayed: Vec<String> = Vec::new();
    for (index, animation) in document.animations.iter().enumerate() {
        match read_clip(
            document,
            buffers,
            animation,
            index,
            &bones.bone_of_node,
            &spaces,
            morphed,
        ) {
            Ok((clip, notes)) => {
                unplayed.extend(notes);
                if !clip.channels.is_empty() || clip.weights.is_some() {
                    clips.push(clip);
                } else {
                    // A clip left out is named, never dropped in silence.
                    unread.push(format!(
                        "animations[{index}] ('{}': no channel drives a joint or a morph target)",
                        clip.name
                    ));
                }
            }
            // Over the memory budget the whole file is refused: leaving
            // clips out one by one would still fill the budget first.
            Err(error @ GltfError::OverBudget { .. }) => return Err(error),
            Err(error) => unread.push(format!("animations[{index}] ({error})")),
        }
    }
    // A file animating its materials by pointer names a few, not thousands.
    const NAMED: usize = 8;
    if unplayed.len() > NAMED {
        let more = unplayed.len() - NAMED;
        unplayed.truncate(NAMED);
        unplayed.push(format!(
            "{more} more KHR_animation_pointer channels not played"
        ));
    }
    unread.extend(unplayed);
    Ok((clips, unread))
}

/// The most skins a file may have.
pub const MAX_SKINS: usize = 1024;

#[cfg(test)]
mod tests {
    use super::accessors::percent_decoded;
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
