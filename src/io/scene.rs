//! The scene JSON: the interchange format for a whole scene.
//!
//! [`SceneDoc`] is the authoring form, exactly as serde reads and writes it;
//! [`Scene`] is the validated runtime form. Validation names the field and
//! the index of the first problem, and a scene is built only when everything
//! is valid: nothing is partly loaded.

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use super::clips::{
    clip_docs, path_docs, rig_doc, validate_animation, validate_paths, ClipDoc, PathDoc, RigDoc,
};
use crate::rig::animation::Animation;
use crate::rig::limits::{JointLimit, LimitDoc, LimitError};
use crate::rig::path::PathAnimation;
use crate::rig::pose::BoneTransform;
use crate::rig::skeleton::{first_non_finite, Bone, Skeleton, SkeletonError};
use crate::skin::influences::{Fitting, VertexInfluences};
use crate::skin::mesh::Mesh;
use crate::skin::morph::MorphTarget;

/// Refuses NaN and infinity, naming the first bad component as `field[k]`.
fn check_finite(field: &str, values: &[f32]) -> Result<(), SceneError> {
    match first_non_finite(field, values) {
        None => Ok(()),
        Some((field, value)) => Err(SceneError::NonFinite { field, value }),
    }
}

/// The most vertices a scene may have: a million keeps painting and undo
/// interactive in a browser tab, far above lecture characters.
pub const MAX_VERTICES: usize = 1_000_000;

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
    /// A value that must be above zero is not.
    #[error("{field}: {value} must be above zero")]
    NotPositive {
        /// The field.
        field: String,
        /// The value found.
        value: f32,
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

/// One bone as written in the scene JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoneDoc {
    /// A label.
    #[serde(default)]
    pub name: String,
    /// An earlier bone's index, or `null` for the root.
    pub parent: Option<u32>,
    /// The origin in the frame the parent hands on.
    pub origin: [f32; 3],
    /// The rest orientation `[x, y, z, w]`.
    pub orientation: [f32; 4],
    /// Length along the bone's +Y.
    pub length: f32,
    /// The limit on its rotation, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<LimitDoc>,
}

/// The mesh as written in the scene JSON: flat arrays.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshDoc {
    /// `x, y, z` per vertex, model space, rest pose.
    pub positions: Vec<f32>,
    /// `a, b, c` per triangle.
    #[serde(default)]
    pub indices: Vec<u32>,
}

/// One bone's animation as written; missing fields are the identity.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoseDoc {
    /// `[x, y, z, w]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<[f32; 4]>,
    /// `[x, y, z]`, in the bone's own frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub translation: Option<[f32; 3]>,
    /// `[x, y, z]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<[f32; 3]>,
}

/// The whole scene document, as DESIGN.md §2 describes it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneDoc {
    /// Bones, parents first.
    pub bones: Vec<BoneDoc>,
    /// The skin.
    pub mesh: MeshDoc,
    /// `[[bone, weight], ...]` per vertex.
    pub influences: Vec<Vec<(u32, f32)>>,
    /// Per-bone animation; may be shorter than `bones` or missing.
    #[serde(default)]
    pub pose: Vec<PoseDoc>,
    /// Morph targets: per-vertex offsets from the mesh.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub morphs: Vec<MorphDoc>,
    /// One weight per morph target; missing ones are 0.
    #[serde(
        default,
        rename = "morphWeights",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub morph_weights: Vec<f32>,
    /// Keyframe clips (glTF's channels and samplers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub animations: Vec<ClipDoc>,
    /// The joints the clips drive, for a scene read from glTF; missing when
    /// they drive the bones' own animations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rig: Option<RigDoc>,
    /// Bézier paths for bones to ride.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<PathDoc>,
}

/// A morph target as the scene JSON writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MorphDoc {
    /// A label.
    #[serde(default)]
    pub name: String,
    /// `dx, dy, dz` per vertex: the offset `S_k − B`.
    pub positions: Vec<f32>,
    /// Normal offsets, `dx, dy, dz` per vertex, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normals: Option<Vec<f32>>,
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
    /// top left), when there is an image; empty otherwise.
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

impl Scene {
    /// Parses and validates scene JSON.
    pub fn from_json(text: &str) -> Result<Self, SceneError> {
        let deserializer = &mut serde_json::Deserializer::from_str(text);
        let doc: SceneDoc = serde_path_to_error::deserialize(deserializer).map_err(|error| {
            let path = error.path().to_string();
            SceneError::Json {
                path: if path == "." {
                    "document".to_owned()
                } else {
                    path
                },
                message: error.into_inner().to_string(),
            }
        })?;
        Self::from_doc(&doc)
    }

    /// Validates a document and builds the runtime scene.
    pub fn from_doc(doc: &SceneDoc) -> Result<Self, SceneError> {
        let bones = doc
            .bones
            .iter()
            .enumerate()
            .map(|(index, bone)| {
                let parent = match bone.parent {
                    None => None,
                    Some(parent) if (parent as usize) < doc.bones.len() => Some(parent as u16),
                    Some(parent) => {
                        return Err(SkeletonError::UnknownParent {
                            bone: index,
                            parent: parent as usize,
                        }
                        .into())
                    }
                };
                Ok(Bone {
                    name: bone.name.clone(),
                    parent,
                    origin_in_parent: Vec3::from_array(bone.origin),
                    orientation: Quat::from_array(bone.orientation),
                    length: bone.length,
                })
            })
            .collect::<Result<Vec<_>, SceneError>>()?;
        let skeleton = Skeleton::new(bones)?;
        let mesh = validate_mesh(&doc.mesh)?;
        let (influences, pruned_vertices) =
            validate_influences(&doc.influences, mesh.vertex_count(), skeleton.len())?;
        let pose = validate_pose(&doc.pose, skeleton.len())?;
        let limits = doc
            .bones
            .iter()
            .enumerate()
            .map(|(bone, doc)| {
                doc.limits
                    .as_ref()
                    .map(|limit| {
                        limit
                            .to_limit()
                            .map_err(|error| SceneError::Limit { bone, error })
                    })
                    .transpose()
            })
            .collect::<Result<Vec<_>, _>>()?;
        let (morphs, morph_weights) = validate_morphs(doc, mesh.vertex_count())?;
        let animation =
            validate_animation(&doc.animations, doc.rig.as_ref(), &skeleton, morphs.len())?;
        let paths = validate_paths(&doc.paths, skeleton.len())?;
        Ok(Self {
            animation,
            paths,
            skeleton,
            mesh,
            influences,
            pose,
            limits,
            morphs,
            morph_weights,
            pruned_vertices,
            base_colour: None,
        })
    }

    /// The authoring document for this scene; `from_doc(to_doc())` gives the
    /// same scene back.
    pub fn to_doc(&self) -> SceneDoc {
        SceneDoc {
            bones: self
                .skeleton
                .bones()
                .iter()
                .zip(&self.limits)
                .map(|(bone, limit)| BoneDoc {
                    name: bone.name.clone(),
                    parent: bone.parent.map(u32::from),
                    origin: bone.origin_in_parent.to_array(),
                    orientation: bone.orientation.to_array(),
                    length: bone.length,
                    limits: limit.as_ref().map(LimitDoc::from_limit),
                })
                .collect(),
            mesh: MeshDoc {
                positions: self
                    .mesh
                    .positions_model
                    .iter()
                    .flat_map(|p| p.to_array())
                    .collect(),
                indices: self.mesh.indices.clone(),
            },
            influences: self
                .influences
                .iter()
                .map(|vertex| {
                    vertex
                        .pairs()
                        .map(|(bone, weight)| (u32::from(bone), weight))
                        .collect()
                })
                .collect(),
            pose: self.pose.iter().map(pose_doc).collect(),
            morphs: self
                .morphs
                .iter()
                .map(|target| MorphDoc {
                    name: target.name.clone(),
                    positions: target.positions.iter().flat_map(|d| d.to_array()).collect(),
                    normals: target
                        .normals
                        .as_ref()
                        .map(|normals| normals.iter().flat_map(|d| d.to_array()).collect()),
                })
                .collect(),
            morph_weights: if self.morphs.is_empty() {
                Vec::new()
            } else {
                self.morph_weights.clone()
            },
            animations: clip_docs(&self.animation),
            rig: if self.animation.clips.is_empty() {
                None
            } else {
                rig_doc(&self.animation, &self.skeleton)
            },
            paths: path_docs(&self.paths),
        }
    }

    /// The scene as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        // A SceneDoc holds only strings, numbers and arrays: serialising it
        // cannot fail.
        serde_json::to_string_pretty(&self.to_doc()).unwrap_or_default()
    }
}

fn pose_doc(transform: &BoneTransform) -> PoseDoc {
    PoseDoc {
        rotation: Some(transform.rotation.to_array()),
        translation: Some(transform.translation.to_array()),
        scale: Some(transform.scale.to_array()),
    }
}

/// Offsets in triples, one per vertex, all finite.
fn offsets(field: String, values: &[f32], vertices: usize) -> Result<Vec<Vec3>, SceneError> {
    if values.len() != 3 * vertices {
        return Err(SceneError::WrongLength {
            field,
            expected: format!("{} (x, y, z for each of {vertices} vertices)", 3 * vertices),
            found: values.len(),
        });
    }
    check_finite(&field, values)?;
    Ok(values.chunks_exact(3).map(Vec3::from_slice).collect())
}

fn validate_morphs(
    doc: &SceneDoc,
    vertices: usize,
) -> Result<(Vec<MorphTarget>, Vec<f32>), SceneError> {
    let morphs = doc
        .morphs
        .iter()
        .enumerate()
        .map(|(k, morph)| {
            Ok(MorphTarget {
                name: morph.name.clone(),
                positions: offsets(format!("morphs[{k}].positions"), &morph.positions, vertices)?,
                normals: morph
                    .normals
                    .as_ref()
                    .map(|n| offsets(format!("morphs[{k}].normals"), n, vertices))
                    .transpose()?,
            })
        })
        .collect::<Result<Vec<_>, SceneError>>()?;
    if doc.morph_weights.len() > morphs.len() {
        return Err(SceneError::WrongLength {
            field: "morphWeights".to_owned(),
            expected: format!("at most {} (one per morph target)", morphs.len()),
            found: doc.morph_weights.len(),
        });
    }
    check_finite("morphWeights", &doc.morph_weights)?;
    let mut weights = doc.morph_weights.clone();
    weights.resize(morphs.len(), 0.0);
    Ok((morphs, weights))
}

fn validate_mesh(doc: &MeshDoc) -> Result<Mesh, SceneError> {
    let vertices = doc.positions.len() / 3;
    if vertices > MAX_VERTICES {
        return Err(SceneError::TooManyVertices {
            count: vertices,
            max: MAX_VERTICES,
        });
    }
    if doc.positions.len() % 3 != 0 {
        return Err(SceneError::WrongLength {
            field: "mesh.positions".to_owned(),
            expected: "a multiple of 3 (x, y, z per vertex)".to_owned(),
            found: doc.positions.len(),
        });
    }
    if doc.indices.len() % 3 != 0 {
        return Err(SceneError::WrongLength {
            field: "mesh.indices".to_owned(),
            expected: "a multiple of 3 (three vertices per triangle)".to_owned(),
            found: doc.indices.len(),
        });
    }
    check_finite("mesh.positions", &doc.positions)?;
    let vertex_count = doc.positions.len() / 3;
    if let Some((k, &vertex)) = doc
        .indices
        .iter()
        .enumerate()
        .find(|(_, &v)| v as usize >= vertex_count)
    {
        return Err(SceneError::VertexOutOfRange {
            field: format!("mesh.indices[{k}]"),
            vertex: vertex as usize,
            vertex_count,
        });
    }
    let positions = doc
        .positions
        .chunks_exact(3)
        .map(Vec3::from_slice)
        .collect();
    Ok(Mesh::new(positions, doc.indices.clone()))
}

/// Checks one vertex's `[bone, weight]` list and fits it to four influences.
pub fn validate_vertex_influences(
    vertex: usize,
    pairs: &[(u32, f32)],
    bone_count: usize,
) -> Result<(VertexInfluences, Fitting), SceneError> {
    let mut fitted = Vec::with_capacity(pairs.len());
    for (slot, &(bone, weight)) in pairs.iter().enumerate() {
        let bone = bone as usize;
        if bone >= bone_count {
            return Err(SceneError::BoneOutOfRange {
                field: format!("influences[{vertex}][{slot}]"),
                bone,
                bone_count,
            });
        }
        check_finite(&format!("influences[{vertex}][{slot}] weight"), &[weight])?;
        if weight < 0.0 {
            return Err(SceneError::NegativeWeight {
                vertex,
                slot,
                weight,
            });
        }
        if pairs[..slot]
            .iter()
            .any(|&(earlier, _)| earlier as usize == bone)
        {
            return Err(SceneError::DuplicateBone { vertex, slot, bone });
        }
        fitted.push((bone as u16, weight));
    }
    Ok(VertexInfluences::from_pairs(&fitted))
}

fn validate_influences(
    lists: &[Vec<(u32, f32)>],
    vertex_count: usize,
    bone_count: usize,
) -> Result<(Vec<VertexInfluences>, usize), SceneError> {
    if lists.len() != vertex_count {
        return Err(SceneError::WrongLength {
            field: "influences".to_owned(),
            expected: format!("one list per vertex ({vertex_count})"),
            found: lists.len(),
        });
    }
    let mut pruned_vertices = 0;
    let mut influences = Vec::with_capacity(vertex_count);
    for (vertex, pairs) in lists.iter().enumerate() {
        let (fitted, fitting) = validate_vertex_influences(vertex, pairs, bone_count)?;
        pruned_vertices += usize::from(fitting.pruned > 0);
        influences.push(fitted);
    }
    Ok((influences, pruned_vertices))
}

/// Checks one bone's animation and fills missing fields with the identity.
/// A rotation is normalised; the zero quaternion is refused.
pub fn validate_bone_transform(field: &str, doc: &PoseDoc) -> Result<BoneTransform, SceneError> {
    let mut transform = BoneTransform::IDENTITY;
    if let Some(rotation) = doc.rotation {
        check_finite(&format!("{field}.rotation"), &rotation)?;
        let rotation = Quat::from_array(rotation);
        let norm = rotation.length();
        if norm < 1e-6 {
            return Err(SceneError::ZeroQuaternion {
                field: format!("{field}.rotation"),
            });
        }
        // A rotation that is unit to float rounding is kept bit for bit, so
        // poses survive a save and a reload exactly.
        transform.rotation = if (norm - 1.0).abs() <= 1e-6 {
            rotation
        } else {
            rotation / norm
        };
    }
    if let Some(translation) = doc.translation {
        check_finite(&format!("{field}.translation"), &translation)?;
        transform.translation = Vec3::from_array(translation);
    }
    if let Some(scale) = doc.scale {
        check_finite(&format!("{field}.scale"), &scale)?;
        transform.scale = Vec3::from_array(scale);
    }
    Ok(transform)
}

fn validate_pose(docs: &[PoseDoc], bone_count: usize) -> Result<Vec<BoneTransform>, SceneError> {
    if docs.len() > bone_count {
        return Err(SceneError::WrongLength {
            field: "pose".to_owned(),
            expected: format!("at most one entry per bone ({bone_count})"),
            found: docs.len(),
        });
    }
    let mut pose = vec![BoneTransform::IDENTITY; bone_count];
    for (bone, doc) in docs.iter().enumerate() {
        pose[bone] = validate_bone_transform(&format!("pose[{bone}]"), doc)?;
    }
    Ok(pose)
}
