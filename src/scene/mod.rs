//! The scene: a skeleton, the meshes and how each follows it, the
//! influences, the pose, morph targets, clips, paths and limits, validated.
//! The layer between the skin and the file formats: [`doc::SceneDoc`] is
//! the raw document every reader and example fills in and validates once
//! into a [`Scene`] (as ozz-animation's `RawSkeleton` becomes a
//! `Skeleton`); `formats` reads and writes the documents, `lab` edits the
//! scene, and both validate values here ([`validate`]), never through a file
//! format.

pub mod clip_doc;
pub mod doc;
pub mod image_header;
pub mod pose_doc;
pub mod rig_edit;
pub mod validate;

use crate::rig::animation::Animation;
use crate::rig::limits::{JointLimit, LimitError};
use crate::rig::path::PathAnimation;
use crate::rig::pose::BoneTransform;
use crate::rig::skeleton::{Skeleton, SkeletonError};
use crate::skin::influences::VertexInfluences;
use crate::skin::mesh::Mesh;
use crate::skin::morph::MorphTarget;

/// The most vertices a scene may have: a million keeps painting and undo
/// interactive in a browser tab, far above lecture characters.
pub const MAX_VERTICES: usize = 1_000_000;

/// The most meshes a scene may hold.
pub const MAX_MESHES: usize = 4096;

/// Why a scene was refused. Each variant names where the problem is.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SceneError {
    /// The text is not JSON of the scene's shape.
    #[error("scene JSON: {path}: {message}")]
    Json {
        /// Where in the document, e.g. `bones[1].origin`.
        path: String,
        /// What serde found wrong there.
        message: String,
    },
    /// The bones do not form a skeleton.
    #[error(transparent)]
    Skeleton(#[from] SkeletonError),
    /// A rotation or orientation is the zero quaternion.
    #[error("{field}: the zero quaternion is not a rotation")]
    ZeroQuaternion {
        /// The field, e.g. `bones[2].orientation`.
        field: String,
    },
    /// A number is NaN or infinite.
    #[error("{field}: {value} is not a finite number")]
    NonFinite {
        /// The field and index, e.g. `mesh.positions[7]`.
        field: String,
        /// The value found.
        value: f32,
    },
    /// A skinned mesh gives weight to a bone marked as deforming nothing.
    #[error("influences[{vertex}]: bone {bone} is given weight but deforms nothing (bones[{bone}].deforms is false)")]
    WeightOnNonDeforming {
        /// The vertex.
        vertex: usize,
        /// The bone.
        bone: usize,
    },
    /// A bone's joint limit is malformed.
    #[error("bones[{bone}].limits: {error}")]
    Limit {
        /// The bone.
        bone: usize,
        /// What is wrong.
        error: LimitError,
    },
    /// More vertices than Skinlab edits interactively.
    #[error("mesh.positions: {count} vertices, at most {max} are supported")]
    TooManyVertices {
        /// Vertices in the mesh.
        count: usize,
        /// [`MAX_VERTICES`].
        max: usize,
    },
    /// An array has the wrong length.
    #[error("{field}: length {found}, expected {expected}")]
    WrongLength {
        /// The array.
        field: String,
        /// What it should be, e.g. `a multiple of 3`.
        expected: String,
        /// What it is.
        found: usize,
    },
    /// A bone index points past the last bone.
    #[error("{field}: bone {bone} is out of range (the scene has {bone_count} bones)")]
    BoneOutOfRange {
        /// Where the index is, e.g. `influences[4][1]`.
        field: String,
        /// The index.
        bone: usize,
        /// Bones in the scene.
        bone_count: usize,
    },
    /// A vertex index points past the last vertex.
    #[error("{field}: vertex {vertex} is out of range (the mesh has {vertex_count} vertices)")]
    VertexOutOfRange {
        /// Where the index is, e.g. `mesh.indices[12]`.
        field: String,
        /// The index.
        vertex: usize,
        /// Vertices in the mesh.
        vertex_count: usize,
    },
    /// A weight is below zero.
    #[error("influences[{vertex}][{slot}]: weight {weight} is negative")]
    NegativeWeight {
        /// The vertex.
        vertex: usize,
        /// The position of the pair in the vertex's list.
        slot: usize,
        /// The weight.
        weight: f32,
    },
    /// A name that is not one of the known ones.
    #[error("{field}: \"{found}\" is not one of {expected}")]
    UnknownName {
        /// The field, e.g. `animations[0].channels[2].path`.
        field: String,
        /// What it says.
        found: String,
        /// What it may say.
        expected: String,
    },
    /// Key times that go back in time (or start before 0).
    #[error("{field}: key times must not decrease or be negative")]
    KeysOutOfOrder {
        /// The first key out of order, e.g. `animations[0].channels[1].times[3]`.
        field: String,
    },
    /// A path's control points are malformed.
    #[error("{field}: {error}")]
    Path {
        /// The field.
        field: String,
        /// What is wrong.
        error: crate::rig::path::PathError,
    },
    /// A path's speed curve is malformed.
    #[error("{field}: {error}")]
    Speed {
        /// The field.
        field: String,
        /// What is wrong.
        error: crate::rig::speed_curve::SpeedCurveError,
    },
    /// A value that must be above zero is not.
    #[error("{field}: {value} must be above zero")]
    NotPositive {
        /// The field.
        field: String,
        /// The value found.
        value: f32,
    },
    /// A number outside the range its field allows.
    #[error("{field}: {value} is not within {range}")]
    OutOfRange {
        /// The field and index, e.g. `colours[4][0]`.
        field: String,
        /// The value found.
        value: f32,
        /// The range allowed, e.g. `0 to 1`.
        range: &'static str,
    },
    /// A vertex lists the same bone twice.
    #[error("influences[{vertex}][{slot}]: bone {bone} is listed twice for this vertex")]
    DuplicateBone {
        /// The vertex.
        vertex: usize,
        /// The position of the repeat.
        slot: usize,
        /// The bone.
        bone: usize,
    },
}

/// How one mesh of the scene follows the skeleton.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshBinding {
    /// By its vertices' influences (a glTF skin).
    Skinned,
    /// Rigidly, by one bone (a glTF mesh parented to a joint or to an
    /// animated node).
    Rigid {
        /// The bone.
        bone: usize,
    },
    /// Not at all: scenery.
    Static,
}

/// One mesh of the scene: a range of the scene's vertices.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshPart {
    /// A label.
    pub name: String,
    /// Its first vertex.
    pub first_vertex: usize,
    /// Its number of vertices.
    pub vertex_count: usize,
    /// How it moves.
    pub binding: MeshBinding,
    /// Which of the file's skins binds it, for a skinned mesh read from a
    /// file (0, 1, … in the order the meshes first use them): export
    /// writes each skin again. `None` for one of the page's own.
    pub skin: Option<usize>,
}

/// A validated scene: skeleton, mesh, influences and the current pose.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The skeleton with its rest frames.
    pub skeleton: Skeleton,
    /// The rest mesh.
    pub mesh: Mesh,
    /// One entry per vertex, normalised, at most four bones.
    pub influences: Vec<VertexInfluences>,
    /// One transform per bone.
    pub pose: Vec<BoneTransform>,
    /// Each bone's joint limit, if it has one.
    pub limits: Vec<Option<JointLimit>>,
    /// Whether each bone may take skin (see [`crate::scene::doc::BoneDoc::deforms`]).
    pub deforms: Vec<bool>,
    /// Morph targets, applied before skinning.
    pub morphs: Vec<MorphTarget>,
    /// One weight per morph target.
    pub morph_weights: Vec<f32>,
    /// Vertices that listed more than four bones and were pruned on load.
    pub pruned_vertices: usize,
    /// The rig and its keyframe clips.
    pub animation: Animation,
    /// Paths bones ride.
    pub paths: Vec<PathAnimation>,
    /// A glTF file's base colour; `None` for scene JSON, which does not
    /// carry one (the page then draws its own skin colour).
    pub base_colour: Option<BaseColour>,
    /// The meshes, each a range of vertices; one skinned mesh of every
    /// vertex when the scene does not say.
    pub meshes: Vec<MeshPart>,
    /// What the file held that is not drawn (a texture format, a
    /// material extension), said once on loading.
    pub not_drawn: Vec<String>,
    /// A linear RGB colour per vertex (glTF's `COLOR_0`, which multiplies
    /// the base colour), or empty when the skin has one colour.
    pub vertex_colours: Vec<glam::Vec3>,
    /// A glTF file's materials, as its primitives use them; empty for a
    /// scene drawn in the page's own colours.
    pub materials: Vec<Material>,
    /// The materials' texture images, each read once.
    pub images: Vec<BaseColourImage>,
    /// The triangles in runs of one material each, in the order of
    /// `mesh.indices`; empty when `materials` is.
    pub surfaces: Vec<Surface>,
}

/// How a material's alpha is used (glTF 2.0 §3.9.4 `alphaMode`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AlphaMode {
    /// Alpha ignored: fully opaque.
    Opaque,
    /// Opaque where alpha is at least `cutoff`, not drawn elsewhere.
    Mask {
        /// glTF's `alphaCutoff` (0.5 when not given).
        cutoff: f32,
    },
    /// Blended over what is behind, drawn after the opaque parts.
    Blend,
}

impl AlphaMode {
    /// glTF's name for it: `OPAQUE`, `MASK` or `BLEND`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Opaque => "OPAQUE",
            Self::Mask { .. } => "MASK",
            Self::Blend => "BLEND",
        }
    }

    /// MASK's cutoff; `None` for the others.
    pub fn cutoff(self) -> Option<f32> {
        match self {
            Self::Mask { cutoff } => Some(cutoff),
            _ => None,
        }
    }
}

/// A material as Skinlab draws it: glTF's base colour (factor × texture ×
/// `COLOR_0`), its alpha and its sides.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// The file's name for it, or empty.
    pub name: String,
    /// `baseColorFactor`, linear RGBA, each 0–1.
    pub base_colour: [f32; 4],
    /// The base colour texture: an index into [`Scene::images`], when its
    /// image could be read.
    pub texture: Option<usize>,
    /// `alphaMode` and `alphaCutoff`.
    pub alpha_mode: AlphaMode,
    /// `doubleSided`: both faces drawn; otherwise the back faces are culled.
    pub double_sided: bool,
    /// `KHR_materials_unlit`: drawn in its colour, without light.
    pub unlit: bool,
}

/// A run of the mesh's triangles in one material: glTF's primitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Surface {
    /// Its first index in `mesh.indices` (a multiple of 3).
    pub first_index: usize,
    /// How many indices it spans (a multiple of 3).
    pub index_count: usize,
    /// Its material, an index into [`Scene::materials`].
    pub material: usize,
}

/// A material's base colour, as glTF defines it: a factor, times a texture
/// where there is one.
#[derive(Clone, Debug, PartialEq)]
pub struct BaseColour {
    /// Linear RGBA, each 0–1.
    pub factor: [f32; 4],
    /// The texture's image, when the file has one that could be read.
    pub image: Option<BaseColourImage>,
    /// One texture coordinate per vertex (glTF's: `(0, 0)` is the image's
    /// top left), each primitive's own for its material's texture with
    /// `KHR_texture_transform` applied, when some material has a texture;
    /// empty otherwise.
    pub uvs: Vec<glam::Vec2>,
}

/// A texture image as its file stores it.
#[derive(Clone, Debug, PartialEq)]
pub struct BaseColourImage {
    /// `image/png` or `image/jpeg`.
    pub mime_type: String,
    /// The encoded image.
    pub bytes: Vec<u8>,
}

impl BaseColourImage {
    /// `(width, height)` from the image's header, before decoding; `None`
    /// when the bytes are not a PNG or JPEG whose header can be read.
    pub fn size(&self) -> Option<(u32, u32)> {
        image_header::encoded_size(&self.bytes)
    }
}
