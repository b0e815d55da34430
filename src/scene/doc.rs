//! The scene's serialised form: [`SceneDoc`] is the raw document every
//! reader builds (the scene JSON exactly as serde reads and writes it, and
//! what the glTF and BVH readers and the examples fill in), validated once
//! into the runtime [`Scene`]. Validation names the field and the index of
//! the first problem, and a scene is built only when everything is valid:
//! nothing is partly loaded.

use glam::{Mat4, Quat, Vec3};
use serde::{Deserialize, Serialize};

use super::clip_doc::{
    clip_docs, path_docs, validate_animation, validate_paths, ClipDoc, PathDoc, RigDoc,
};
use super::pose_doc::{pose_doc, validate_bone_transform, PoseDoc};
use super::validate::{self, check_finite};
use super::{MeshBinding, MeshPart, Scene, SceneError, MAX_MESHES, MAX_VERTICES};
use crate::rig::limits::LimitDoc;
use crate::rig::pose::BoneTransform;
use crate::rig::skeleton::{Bone, Skeleton, SkeletonError};
use crate::skin::influences::VertexInfluences;
use crate::skin::mesh::Mesh;
use crate::skin::morph::MorphTarget;
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
    /// A glTF joint's rest scale `S_i` along its own axes; `[1, 1, 1]`
    /// when missing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<[f32; 3]>,
    /// A glTF joint's turn `U_i` from its own axes to the drawn bone's,
    /// `[x, y, z, w]`; the identity when missing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<[f32; 4]>,
    /// A glTF joint's inverse bind matrix `IBM_i` (model space to the
    /// joint's own axes), column-major; when missing the bone is bound
    /// where it rests (`R_i⁻¹`).
    #[serde(
        default,
        rename = "inverseBind",
        skip_serializing_if = "Option::is_none"
    )]
    pub inverse_bind: Option<[f32; 16]>,
    /// Whether the bone may take skin: automatic weights and the brush
    /// use deforming bones only, and a skinned mesh gives a bone that
    /// deforms nothing no weight. Written only when `false`.
    #[serde(default = "deforms_by_default", skip_serializing_if = "is_true")]
    pub deforms: bool,
}

fn deforms_by_default() -> bool {
    true
}

// serde's `skip_serializing_if` passes a reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_true(value: &bool) -> bool {
    *value
}

impl BoneDoc {
    /// A lecture bone: origin, orientation and length, nothing else.
    pub fn plain(name: &str, parent: Option<u32>, origin: [f32; 3], length: f32) -> Self {
        Self {
            name: name.to_owned(),
            parent,
            origin,
            orientation: [0.0, 0.0, 0.0, 1.0],
            length,
            limits: None,
            scale: None,
            turn: None,
            inverse_bind: None,
            deforms: true,
        }
    }
}

/// A mesh as written in the scene JSON's `meshes`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshPartDoc {
    /// A label.
    #[serde(default)]
    pub name: String,
    /// First vertex and count.
    pub vertices: [u32; 2],
    /// `"skinned"`, `"rigid"` or `"static"`.
    pub binding: String,
    /// The bone of a rigid mesh.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bone: Option<u32>,
    /// Which of the file's skins binds a skinned mesh (0, 1, … in the
    /// order the meshes first use them), so export writes each skin again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skin: Option<u32>,
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

/// The whole scene document: bones, mesh, influences, pose, morph targets,
/// clips, paths and the meshes' bindings.
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
    /// The meshes the vertices belong to; missing for one skinned mesh.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub meshes: Vec<MeshPartDoc>,
    /// A linear RGB colour per vertex, each 0–1 (glTF's `COLOR_0`); missing
    /// when the skin has one colour.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub colours: Vec<[f32; 3]>,
    /// How a file's scene was drawn: its materials, their runs of
    /// triangles, the texture coordinates and the texture images. Read and
    /// written by `formats::look_json` (images travel as base64 there);
    /// [`Scene::from_doc`] leaves it aside. Written last, so the autosave
    /// can keep it apart from the text it rewrites on every change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<LookText>,
}

/// A scene JSON's `"look"` as its JSON text, read only when it is put on
/// a scene.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct LookText(pub Box<serde_json::value::RawValue>);

impl PartialEq for LookText {
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get()
    }
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

impl Scene {
    /// The skeleton of `doc`'s bones, validated as [`Scene::from_doc`] does.
    pub(crate) fn skeleton_of_doc(doc: &SceneDoc) -> Result<Skeleton, SceneError> {
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
                    turn: bone.turn.map_or(Quat::IDENTITY, Quat::from_array),
                    rest_scale: bone.scale.map_or(Vec3::ONE, Vec3::from_array),
                })
            })
            .collect::<Result<Vec<_>, SceneError>>()?;
        let binds = doc
            .bones
            .iter()
            .map(|doc| doc.inverse_bind.map(|m| Mat4::from_cols_array(&m)))
            .collect();
        Ok(Skeleton::with_binds(bones, binds)?)
    }

    /// Validates a document and builds the runtime scene.
    pub fn from_doc(doc: &SceneDoc) -> Result<Self, SceneError> {
        let skeleton = Self::skeleton_of_doc(doc)?;
        let mesh = validate_mesh(&doc.mesh)?;
        let (influences, pruned_vertices) =
            validate_influences(&doc.influences, mesh.vertex_count(), skeleton.len())?;
        let deforms: Vec<bool> = doc.bones.iter().map(|bone| bone.deforms).collect();
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
        let meshes = validate_meshes(&doc.meshes, mesh.vertex_count(), skeleton.len())?;
        let vertex_colours = validate_colours(&doc.colours, mesh.vertex_count())?;
        check_deforming_weights(&meshes, &influences, &deforms)?;
        Ok(Self {
            deforms,
            vertex_colours,
            materials: Vec::new(),
            images: Vec::new(),
            surfaces: Vec::new(),
            meshes,
            not_drawn: Vec::new(),
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

    /// The mesh as the document writes it.
    pub(crate) fn to_doc_mesh(&self) -> MeshDoc {
        MeshDoc {
            positions: position_docs(&self.mesh.positions_model),
            indices: self.mesh.indices.clone(),
        }
    }

    /// The authoring document for this scene; `from_doc(to_doc())` gives the
    /// same scene back.
    pub fn to_doc(&self) -> SceneDoc {
        let mut doc = self.to_doc_with_mesh(self.to_doc_mesh());
        doc.influences = influence_docs(&self.influences);
        doc
    }

    /// The bones as the authoring document holds them.
    pub(crate) fn bone_docs(&self) -> Vec<BoneDoc> {
        self.skeleton
            .bones()
            .iter()
            .zip(&self.limits)
            .enumerate()
            .map(|(index, (bone, limit))| BoneDoc {
                name: bone.name.clone(),
                parent: bone.parent.map(u32::from),
                origin: bone.origin_in_parent.to_array(),
                orientation: bone.orientation.to_array(),
                length: bone.length,
                limits: limit.as_ref().map(LimitDoc::from_limit),
                scale: (bone.rest_scale != Vec3::ONE).then(|| bone.rest_scale.to_array()),
                turn: (bone.turn != Quat::IDENTITY).then(|| bone.turn.to_array()),
                inverse_bind: self.skeleton.inverse_bind(index).map(|m| m.to_cols_array()),
                deforms: self.deforms[index],
            })
            .collect()
    }

    /// [`Scene::to_doc`] with `mesh` in place of the scene's own and no
    /// influences (callers that want them add them).
    pub(crate) fn to_doc_with_mesh(&self, mesh: MeshDoc) -> SceneDoc {
        SceneDoc {
            bones: self.bone_docs(),
            mesh,
            influences: Vec::new(),
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
            rig: None,
            paths: path_docs(&self.paths),
            meshes: mesh_part_docs(&self.meshes, self.mesh.vertex_count()),
            colours: self.vertex_colours.iter().map(|c| c.to_array()).collect(),
            look: None,
        }
    }
}

/// Points as the document writes them: `x, y, z` after one another.
pub(crate) fn position_docs(points: &[Vec3]) -> Vec<f32> {
    points.iter().flat_map(|p| p.to_array()).collect()
}

/// Influences as the document writes them: each vertex's `(bone, weight)`
/// pairs.
pub(crate) fn influence_docs(influences: &[VertexInfluences]) -> Vec<Vec<(u32, f32)>> {
    influences
        .iter()
        .map(|vertex| {
            vertex
                .pairs()
                .map(|(bone, weight)| (u32::from(bone), weight))
                .collect()
        })
        .collect()
}

/// The meshes as written; nothing for the one unnamed skinned mesh of
/// every vertex (a named one keeps its name, which export writes).
fn mesh_part_docs(meshes: &[MeshPart], vertices: usize) -> Vec<MeshPartDoc> {
    if meshes.len() == 1
        && meshes[0].binding == MeshBinding::Skinned
        && meshes[0].vertex_count == vertices
        && meshes[0].name.is_empty()
    {
        return Vec::new();
    }
    meshes
        .iter()
        .map(|part| MeshPartDoc {
            name: part.name.clone(),
            vertices: [part.first_vertex as u32, part.vertex_count as u32],
            binding: match part.binding {
                MeshBinding::Skinned => "skinned",
                MeshBinding::Rigid { .. } => "rigid",
                MeshBinding::Static => "static",
            }
            .to_owned(),
            bone: match part.binding {
                MeshBinding::Rigid { bone } => Some(bone as u32),
                _ => None,
            },
            skin: part.skin.map(|s| s as u32),
        })
        .collect()
}

/// Each mesh a range inside the vertices, a rigid one on a bone that
/// exists; one skinned mesh of every vertex when none are written.
/// Per-vertex colours: none, or one RGB triple from 0 to 1 per vertex.
fn validate_colours(colours: &[[f32; 3]], vertices: usize) -> Result<Vec<Vec3>, SceneError> {
    if !colours.is_empty() && colours.len() != vertices {
        return Err(SceneError::WrongLength {
            field: "colours".to_owned(),
            expected: format!("one per vertex ({vertices})"),
            found: colours.len(),
        });
    }
    colours
        .iter()
        .enumerate()
        .map(|(vertex, rgb)| {
            for (channel, &value) in rgb.iter().enumerate() {
                let field = || format!("colours[{vertex}][{channel}]");
                check_finite(&field(), &[value])?;
                if !(0.0..=1.0).contains(&value) {
                    return Err(SceneError::OutOfRange {
                        field: field(),
                        value,
                        range: "0 to 1",
                    });
                }
            }
            Ok(Vec3::from_array(*rgb))
        })
        .collect()
}

fn validate_meshes(
    docs: &[MeshPartDoc],
    vertices: usize,
    bones: usize,
) -> Result<Vec<MeshPart>, SceneError> {
    if docs.is_empty() {
        return Ok(vec![MeshPart {
            name: String::new(),
            first_vertex: 0,
            vertex_count: vertices,
            binding: MeshBinding::Skinned,
            skin: None,
        }]);
    }
    if docs.len() > MAX_MESHES {
        return Err(SceneError::WrongLength {
            field: "meshes".to_owned(),
            expected: format!("at most {MAX_MESHES}"),
            found: docs.len(),
        });
    }
    docs.iter()
        .enumerate()
        .map(|(index, doc)| {
            let [first, count] = doc.vertices.map(|v| v as usize);
            if first.checked_add(count).is_none_or(|end| end > vertices) {
                return Err(SceneError::WrongLength {
                    field: format!("meshes[{index}].vertices"),
                    expected: format!("a range within the {vertices} vertices"),
                    found: first.saturating_add(count),
                });
            }
            let binding = match (doc.binding.as_str(), doc.bone) {
                ("skinned", _) => MeshBinding::Skinned,
                ("static", _) => MeshBinding::Static,
                ("rigid", Some(bone)) if (bone as usize) < bones => MeshBinding::Rigid {
                    bone: bone as usize,
                },
                ("rigid", bone) => {
                    return Err(SceneError::BoneOutOfRange {
                        field: format!("meshes[{index}].bone"),
                        bone: bone.map_or(usize::MAX, |b| b as usize),
                        bone_count: bones,
                    })
                }
                (other, _) => {
                    return Err(SceneError::UnknownName {
                        field: format!("meshes[{index}].binding"),
                        found: other.to_owned(),
                        expected: "skinned, rigid or static".to_owned(),
                    })
                }
            };
            // A skin is one of at most as many as there are meshes.
            let skin = match (binding, doc.skin) {
                (MeshBinding::Skinned, Some(skin)) if (skin as usize) < docs.len() => {
                    Some(skin as usize)
                }
                (MeshBinding::Skinned, Some(skin)) => {
                    return Err(SceneError::WrongLength {
                        field: format!("meshes[{index}].skin"),
                        expected: format!("a skin below {}", docs.len()),
                        found: skin as usize,
                    })
                }
                _ => None,
            };
            Ok(MeshPart {
                name: doc.name.clone(),
                first_vertex: first,
                vertex_count: count,
                binding,
                skin,
            })
        })
        .collect()
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

/// A skinned mesh gives no weight to a bone that deforms nothing.
fn check_deforming_weights(
    meshes: &[MeshPart],
    influences: &[VertexInfluences],
    deforms: &[bool],
) -> Result<(), SceneError> {
    for part in meshes.iter().filter(|p| p.binding == MeshBinding::Skinned) {
        let range = part.first_vertex..part.first_vertex + part.vertex_count;
        for (vertex, influence) in influences[range.clone()].iter().enumerate() {
            if let Some((bone, _)) = influence
                .pairs()
                .find(|&(bone, weight)| weight > 0.0 && !deforms[usize::from(bone)])
            {
                return Err(SceneError::WeightOnNonDeforming {
                    vertex: range.start + vertex,
                    bone: usize::from(bone),
                });
            }
        }
    }
    Ok(())
}

impl SceneDoc {
    /// Marks as deforming exactly the bones a skinned mesh gives weight to:
    /// what a file read from another tool says by its weights (end bones,
    /// IK controllers, a root at the floor and the nodes above the
    /// armature get none). A scene with no skinned mesh keeps every bone
    /// deforming, as the file says nothing.
    pub fn mark_deforming_from_weights(&mut self) {
        let skinned: Vec<std::ops::Range<usize>> = if self.meshes.is_empty() {
            std::iter::once(0..self.influences.len()).collect()
        } else {
            self.meshes
                .iter()
                .filter(|part| part.binding == "skinned")
                .map(|part| {
                    let [first, count] = part.vertices.map(|n| n as usize);
                    first..first + count
                })
                .collect()
        };
        if skinned.is_empty() {
            return;
        }
        let mut weighted = vec![false; self.bones.len()];
        for range in skinned {
            for pairs in self.influences.get(range).unwrap_or_default() {
                for &(bone, weight) in pairs {
                    if weight > 0.0 {
                        if let Some(flag) = weighted.get_mut(bone as usize) {
                            *flag = true;
                        }
                    }
                }
            }
        }
        for (bone, deforms) in self.bones.iter_mut().zip(weighted) {
            bone.deforms = deforms;
        }
    }
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
        let (fitted, fitting) = validate::vertex_influences(vertex, pairs, bone_count)?;
        pruned_vertices += usize::from(fitting.pruned > 0);
        influences.push(fitted);
    }
    Ok((influences, pruned_vertices))
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
