//! Reading FBX 7.x (binary 7.0–7.7 and ASCII), as Autodesk's tools,
//! Mixamo, Blender and Unity write it, into a scene.
//!
//! The file's node tree ([`tree`], from [`binary`] or [`ascii`]) gives
//! objects and their connections ([`objects`]). Each model becomes a glTF
//! node with its rest transform (`models`, with [`transform`]: FBX's
//! pivots, offsets, pre- and post-rotations and rotation order), each mesh
//! a glTF mesh ([`geometry`]: polygons cut into triangles, a primitive per
//! material, skins from the clusters' bind transforms with the four
//! largest influences per vertex, blend shapes as morph targets; `materials`
//! their colours and textures), each take a clip ([`animation`] reads the
//! curves, `clips` samples them); `build` puts the document together in
//! the `basis` of metres and Y up. The document is read by the one glTF
//! reader, so an FBX character gets the same bones, binds and clip
//! conversion as a glTF one.
//!
//! Units and axes: the scene is in metres, the file's `UnitScaleFactor`
//! (centimetres per unit, 1 when absent) divided by 100; a Z-up file is
//! turned −90° about X to stand Y-up, as three.js's `FBXLoader` turns it.
//! Both are applied as one change of basis `C` to every point (`C p`) and
//! every transform (`C M C⁻¹`), so bones keep unit scale.
//!
//! A file without meshes (an animation downloaded without its character)
//! is its skeleton with a body of capsules, as a BVH capture is.

pub mod animation;
pub mod ascii;
mod basis;
pub mod binary;
mod build;
mod clips;
pub mod geometry;
mod materials;
mod models;

pub use materials::Files;
pub mod objects;
pub mod transform;
pub mod tree;

use crate::formats::gltf::GltfError;
use crate::scene::Scene;

/// The largest FBX file read, in bytes.
pub const MAX_FILE_BYTES: usize = 256 << 20;

/// The memory a file's values may take once decoded (inflated arrays and
/// numbers kept as 8 bytes each), checked before each is allocated.
pub const MAX_DECODED_BYTES: usize = 512 << 20;

/// The deepest nesting of nodes read (real files nest about 6 deep).
pub const MAX_DEPTH: usize = 32;

/// The oldest FBX version read (7.0); FBX 6 keeps properties differently.
pub const OLDEST_VERSION: u32 = 7000;

/// Why an FBX file could not be read. A `path` names the node, as
/// `Objects/Geometry[3]/Vertices`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FbxError {
    /// Neither encoding's header.
    #[error("FBX: the file is neither binary FBX (Kaydara FBX Binary) nor ASCII FBX")]
    NotFbx,
    /// Larger than [`MAX_FILE_BYTES`].
    #[error("FBX: the file has {bytes} bytes; at most {max} are read")]
    TooLarge {
        /// The file's size.
        bytes: usize,
        /// [`MAX_FILE_BYTES`].
        max: usize,
    },
    /// Older than FBX 7.
    #[error("FBX: version {version} (FBX {major}.{minor}) is not read; save the file as FBX 7.x (2011 or later)")]
    OldVersion {
        /// The version number (6100 for FBX 6.1).
        version: u32,
        /// Its major number.
        major: u32,
        /// Its minor number.
        minor: u32,
    },
    /// The file ends inside a record.
    #[error("FBX: {path}: the file ends inside it (byte {offset})")]
    Truncated {
        /// Where.
        path: String,
        /// The byte the read stopped at.
        offset: usize,
    },
    /// A record or value that does not add up.
    #[error("FBX: {path}: {problem}")]
    Malformed {
        /// Where.
        path: String,
        /// What is wrong.
        problem: String,
    },
    /// Something a part needs is absent.
    #[error("FBX: {path}: {what} is missing")]
    Missing {
        /// Where it was expected.
        path: String,
        /// What.
        what: String,
    },
    /// Nodes nested deeper than [`MAX_DEPTH`].
    #[error("FBX: {path}: nested deeper than {max} nodes")]
    TooDeep {
        /// The node too deep.
        path: String,
        /// [`MAX_DEPTH`].
        max: usize,
    },
    /// Decoding would take the file past [`MAX_DECODED_BYTES`].
    #[error("FBX: {path}: decoding it would take more than {max} bytes (it asks for {bytes})")]
    OverBudget {
        /// The node whose value would not fit.
        path: String,
        /// What it asks for.
        bytes: usize,
        /// [`MAX_DECODED_BYTES`].
        max: usize,
    },
    /// A compressed array that does not inflate to its declared size.
    #[error("FBX: {path}: the compressed array does not inflate ({problem})")]
    Inflate {
        /// Where.
        path: String,
        /// What went wrong.
        problem: String,
    },
    /// A take whose models follow their parents' uneven scales through
    /// more steps than [`clips::MAX_INHERIT_STEPS`].
    #[error("FBX: the take '{take}': following its parents' uneven scales (InheritType 0 or 2) would take more than {max} steps")]
    InheritanceTooDeep {
        /// The take's name.
        take: String,
        /// [`clips::MAX_INHERIT_STEPS`].
        max: usize,
    },
    /// The converted scene was refused.
    #[error("FBX: {0}")]
    Scene(String),
}

impl From<GltfError> for FbxError {
    fn from(error: GltfError) -> Self {
        FbxError::Scene(error.to_string().trim_start_matches("glTF: ").to_owned())
    }
}

/// The bytes decoded so far against [`MAX_DECODED_BYTES`].
#[derive(Default)]
pub struct Budget {
    spent: usize,
}

impl Budget {
    /// Counts `bytes` for the value at `path`, or refuses it.
    pub fn charge(&mut self, bytes: usize, path: &tree::NodePath) -> Result<(), FbxError> {
        match self.spent.checked_add(bytes) {
            Some(total) if total <= MAX_DECODED_BYTES => {
                self.spent = total;
                Ok(())
            }
            _ => Err(FbxError::OverBudget {
                path: path.to_string(),
                bytes,
                max: MAX_DECODED_BYTES,
            }),
        }
    }
}

/// The node tree of an FBX file, either encoding; refuses FBX 6 and older.
pub fn parse_tree(bytes: &[u8]) -> Result<Vec<tree::Node>, FbxError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(FbxError::TooLarge {
            bytes: bytes.len(),
            max: MAX_FILE_BYTES,
        });
    }
    let mut budget = Budget::default();
    if bytes.starts_with(binary::MAGIC) {
        let version = binary::version(bytes).unwrap_or(0);
        check_version(version)?;
        return binary::parse(bytes, &mut budget);
    }
    // ASCII files are UTF-8, but some exporters write names in a local
    // code page: such bytes become U+FFFD, the structure reads the same.
    let text = String::from_utf8_lossy(bytes);
    let head = text.trim_start_matches('\u{feff}').trim_start();
    if let Some(version) = ascii_header_version(head) {
        check_version(version)?;
    } else if !head.starts_with(';') && !head.starts_with("FBXHeaderExtension") {
        return Err(FbxError::NotFbx);
    }
    let nodes = ascii::parse(head, &mut budget)?;
    let version = nodes
        .iter()
        .find(|n| n.name == "FBXHeaderExtension")
        .and_then(|h| h.child("FBXVersion"))
        .and_then(|v| v.props.first())
        .and_then(tree::Value::integer);
    match version {
        Some(v) => check_version(u32::try_from(v).unwrap_or(0))?,
        None if nodes.iter().any(|n| n.name == "Objects") => {}
        None => return Err(FbxError::NotFbx),
    }
    Ok(nodes)
}

/// `; FBX 7.5.0 project file` → 7500.
fn ascii_header_version(head: &str) -> Option<u32> {
    let line = head.lines().next()?.strip_prefix(';')?.trim();
    let rest = line.strip_prefix("FBX ")?;
    let number = rest.split_whitespace().next()?;
    let mut parts = number.split('.').map(|p| p.parse::<u32>().ok());
    let major = parts.next()??;
    let minor = parts.next().flatten().unwrap_or(0);
    Some(major * 1000 + minor * 100)
}

fn check_version(version: u32) -> Result<(), FbxError> {
    if version < OLDEST_VERSION {
        return Err(FbxError::OldVersion {
            version,
            major: version / 1000,
            minor: version % 1000 / 100,
        });
    }
    Ok(())
}

/// Reads an FBX file (binary or ASCII) as a scene; see the module
/// documentation.
pub fn scene_from_fbx(bytes: &[u8]) -> Result<Scene, FbxError> {
    scene_from_fbx_files(bytes, &Files::new())
}

/// [`scene_from_fbx`] with the files chosen together with it: a texture
/// the file names but does not embed is taken from `files` (name → bytes;
/// PNG or JPEG), found by its name without folders.
pub fn scene_from_fbx_files(bytes: &[u8], files: &Files) -> Result<Scene, FbxError> {
    let nodes = parse_tree(bytes)?;
    let objects = objects::Objects::of(&nodes)?;
    let (json, bin) = build::gltf_of(&nodes, &objects, files)?;
    Ok(crate::formats::gltf::read_built(&json, &bin)?)
}
