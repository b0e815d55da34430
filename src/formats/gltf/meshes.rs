//! The vertices of a glTF scene, mesh after mesh: skinned meshes in their
//! skin's bind space with up to eight influences, rigid and static meshes
//! placed where their node puts them at rest; morph targets; the
//! primitives' materials.

use std::collections::HashMap;

use glam::{Mat4, Vec3};

use super::accessors::Buffers;
use super::document::{Document, Primitive};
use super::material;
use super::skins::Bones;
use super::GltfError;
use crate::scene::doc::MeshPartDoc;
use crate::scene::SceneError;

/// What the meshes of a scene hold, concatenated.
pub(super) struct Geometry<'a> {
    pub(super) positions: Vec<f32>,
    pub(super) indices: Vec<u32>,
    pub(super) influences: Vec<Vec<(u32, f32)>>,
    /// Per morph target, its position offsets and normal offsets.
    pub(super) morph_offsets: Vec<(Vec<f32>, Option<Vec<f32>>)>,
    /// The morph targets' names: every shown mesh's targets, one target per
    /// name (a head's and its teeth's `viseme_aa` are one), in order of
    /// first appearance; unnamed targets are `target k`, merged by index.
    pub(super) morph_names: Vec<String>,
    /// Per morphed mesh, the scene's target for each of its targets.
    pub(super) morph_slots: HashMap<usize, Vec<usize>>,
    /// Each target's weight as the first mesh that has it says.
    pub(super) morph_weights: Vec<f32>,
    pub(super) colours: Vec<material::PrimitiveColour<'a>>,
    pub(super) parts: Vec<MeshPartDoc>,
    /// What the meshes hold that is not drawn.
    pub(super) not_drawn: Vec<String>,
}

/// Reads the meshes `shown` (nodes, in scene order); `globals` are the
/// nodes' rest transforms and `skins` the skins in use with their inverse
/// binds. Binds palette entries in `bones` as it goes.
pub(super) fn read_meshes<'a>(
    document: &'a Document,
    buffers: &Buffers,
    globals: &[Mat4],
    shown: &[usize],
    skins: &[(usize, Vec<Mat4>)],
    bones: &mut Bones,
) -> Result<Geometry<'a>, GltfError> {
    let rigid = bones.rigid.clone();
    let mut not_drawn = Vec::new();
    // The vertices, mesh after mesh.
    let mut positions: Vec<f32> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    let mut influences: Vec<Vec<(u32, f32)>> = Vec::new();
    let mut morph_offsets: Vec<(Vec<f32>, Option<Vec<f32>>)> = Vec::new();
    let mut colours = Vec::new();
    let mut parts: Vec<MeshPartDoc> = Vec::new();
    let mut morph_names: Vec<String> = Vec::new();
    let mut morph_weights: Vec<f32> = Vec::new();
    let mut morph_slots: HashMap<usize, Vec<usize>> = HashMap::new();
    for &node in shown {
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
        // This mesh's targets, each the scene's target of its name.
        let targets = mesh
            .primitives
            .iter()
            .map(|p| p.targets.len())
            .max()
            .unwrap_or(0);
        if targets > 0 && !morph_slots.contains_key(&mesh_index) {
            let names = mesh.extras.as_ref().map(|e| &e.target_names);
            let slots = (0..targets)
                .map(|k| {
                    // An empty name is no name: merged by index.
                    let name = names
                        .and_then(|names| names.get(k))
                        .filter(|name| !name.is_empty())
                        .cloned()
                        .unwrap_or_else(|| format!("target {k}"));
                    morph_names
                        .iter()
                        .position(|n| *n == name)
                        .unwrap_or_else(|| {
                            morph_names.push(name);
                            morph_weights.push(mesh.weights.get(k).copied().unwrap_or(0.0));
                            morph_names.len() - 1
                        })
                })
                .collect();
            morph_slots.insert(mesh_index, slots);
        }
        let slots = morph_slots.get(&mesh_index).cloned().unwrap_or_default();
        let rigid_bone = (skin.is_none() && rigid[node]).then(|| bones.bone_of_node[&node]);
        let first_vertex = positions.len() / 3;
        // The primitives of this mesh read so far: (index, first vertex,
        // vertex count, colour entry). A primitive with the same vertex
        // attributes and targets as one of them shares its vertices.
        let mut read_so_far: Vec<(usize, u32, usize, usize)> = Vec::new();
        for (primitive_index, primitive) in mesh.primitives.iter().enumerate() {
            match primitive.mode {
                // Points and lines: not a surface to skin; said once.
                0..=3 => {
                    if !not_drawn.iter().any(|n| n == POINTS_AND_LINES) {
                        not_drawn.push(POINTS_AND_LINES.to_owned());
                    }
                    continue;
                }
                TRIANGLES | TRIANGLE_STRIP | TRIANGLE_FAN => {}
                other => {
                    return Err(GltfError::Unsupported(format!(
                        "meshes[{mesh_index}].primitives[{primitive_index}]'s mode {other}"
                    )))
                }
            }
            let attribute = |name: &str| {
                primitive.attributes.get(name).copied().ok_or_else(|| {
                    GltfError::Missing(format!(
                        "meshes[{mesh_index}].primitives[{primitive_index}].{name}"
                    ))
                })
            };
            let owner = read_so_far
                .iter()
                .find(|&&(earlier, ..)| same_vertices(&mesh.primitives[earlier], primitive));
            if let Some(&(_, base, count, colour)) = owner {
                colours.push(material::PrimitiveColour {
                    material: primitive.material,
                    attributes: &primitive.attributes,
                    vertices: 0,
                    shares: Some(colour),
                    first_index: indices.len(),
                    index_count: 0,
                });
                let triangles = triangles_read(document, buffers, primitive, count, mirrored)?;
                indices.extend(triangles.into_iter().map(|i| base + i));
                if let Some(last) = colours.last_mut() {
                    last.index_count = indices.len() - last.first_index;
                }
                continue;
            }
            let base = (positions.len() / 3) as u32;
            // The vertex limit holds before a byte is read: the count is the
            // accessor's declaration.
            let position = attribute("POSITION")?;
            let declared = document.accessors.get(position).map_or(0, |a| a.count);
            if (base as usize).saturating_add(declared) > crate::scene::MAX_VERTICES {
                return Err(SceneError::TooManyVertices {
                    count: (base as usize).saturating_add(declared),
                    max: crate::scene::MAX_VERTICES,
                }
                .into());
            }
            let points: Vec<f32> = buffers
                .floats(document, position, 3)?
                .chunks_exact(3)
                .flat_map(|p| placement.transform_point3(Vec3::from_slice(p)).to_array())
                .collect();
            let count = points.len() / 3;
            if base as usize + count > crate::scene::MAX_VERTICES {
                return Err(SceneError::TooManyVertices {
                    count: base as usize + count,
                    max: crate::scene::MAX_VERTICES,
                }
                .into());
            }
            // The triangles' run is known once they are read, below.
            read_so_far.push((primitive_index, base, count, colours.len()));
            colours.push(material::PrimitiveColour {
                material: primitive.material,
                attributes: &primitive.attributes,
                vertices: count,
                shares: None,
                first_index: indices.len(),
                index_count: 0,
            });
            // Morph targets: this primitive's target k goes to the scene's
            // target of its name.
            for (target, &k) in primitive.targets.iter().zip(&slots) {
                while k >= morph_offsets.len() {
                    morph_offsets.push((vec![0.0; positions.len()], None));
                }
                let read = |name: &str| -> Result<Option<Vec<f32>>, GltfError> {
                    target
                        .get(name)
                        .map(|&index| {
                            buffers.floats(document, index, 3).map(|values| {
                                values
                                    .chunks_exact(3)
                                    .flat_map(|d| {
                                        placement.transform_vector3(Vec3::from_slice(d)).to_array()
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
            match (skin, rigid_bone) {
                (Some((skin_index, inverse_binds)), _) => {
                    let joints_of_skin = &document.skins[*skin_index].joints;
                    // Every joint of the skin is bound, weighted or not.
                    for (joint_node, inverse_bind) in joints_of_skin.iter().zip(inverse_binds) {
                        let bone = bones.bone_of_node[joint_node];
                        bones.entry(bone, *inverse_bind);
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
                        let joints = buffers.integers(document, joints, 4)?;
                        let weights = buffers.floats(document, weights, 4)?;
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
                                let bone = bones
                                    .entry(bones.bone_of_node[&joint_node], *inverse_bind)
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
                    let entry = bones.entry(bone, globals[node].inverse());
                    influences.extend(std::iter::repeat_n(vec![(entry as u32, 1.0)], count));
                }
                (None, None) => influences.extend(std::iter::repeat_n(Vec::new(), count)),
            }
            let triangles = triangles_read(document, buffers, primitive, count, mirrored)?;
            indices.extend(triangles.into_iter().map(|i| base + i));
            if let Some(last) = colours.last_mut() {
                last.index_count = indices.len() - last.first_index;
            }
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
            skin: skin
                .and_then(|(s, _)| skins.iter().position(|(index, _)| index == s))
                .map(|k| k as u32),
        });
    }
    Ok(Geometry {
        positions,
        indices,
        influences,
        morph_offsets,
        morph_names,
        morph_slots,
        morph_weights,
        colours,
        parts,
        not_drawn,
    })
}

/// Whether two primitives of a mesh draw from the same vertices: the same
/// attribute accessors and the same morph targets (as a file that splits
/// one mesh by material writes them, Skinlab's export among them). Their
/// vertices are read once.
pub(super) fn same_vertices(a: &Primitive, b: &Primitive) -> bool {
    a.attributes == b.attributes && a.targets == b.targets
}

/// A primitive's triangles as indices into its `count` vertices, wound the
/// other way when its node mirrors it.
fn triangles_read(
    document: &Document,
    buffers: &Buffers,
    primitive: &Primitive,
    count: usize,
    mirrored: bool,
) -> Result<Vec<u32>, GltfError> {
    let listed = match primitive.indices {
        Some(index) => buffers.integers(document, index, 1)?,
        None => (0..count as u32).collect(),
    };
    let mut triangles = triangles_of(primitive.mode, listed);
    if mirrored {
        for triangle in triangles.chunks_exact_mut(3) {
            triangle.swap(1, 2);
        }
    }
    Ok(triangles)
}

const TRIANGLES: u32 = 4;
const TRIANGLE_STRIP: u32 = 5;
const TRIANGLE_FAN: u32 = 6;
const POINTS_AND_LINES: &str = "points and lines";

/// A primitive's vertex list as triangles: as it is for `TRIANGLES`; for a
/// strip, triangle `k` is `(k, k+1, k+2)`, every other one turned round to
/// keep the winding; for a fan, `(0, k+1, k+2)`.
fn triangles_of(mode: u32, listed: Vec<u32>) -> Vec<u32> {
    let n = listed.len();
    match mode {
        TRIANGLE_STRIP => (0..n.saturating_sub(2))
            .flat_map(|k| {
                if k % 2 == 0 {
                    [listed[k], listed[k + 1], listed[k + 2]]
                } else {
                    [listed[k + 1], listed[k], listed[k + 2]]
                }
            })
            .collect(),
        TRIANGLE_FAN => (1..n.saturating_sub(1))
            .flat_map(|k| [listed[0], listed[k], listed[k + 1]])
            .collect(),
        _ => listed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_and_fans_become_triangles_with_one_winding() {
        assert_eq!(
            triangles_of(TRIANGLE_STRIP, vec![0, 1, 2, 3, 4]),
            vec![0, 1, 2, 2, 1, 3, 2, 3, 4]
        );
        assert_eq!(
            triangles_of(TRIANGLE_FAN, vec![0, 1, 2, 3, 4]),
            vec![0, 1, 2, 0, 2, 3, 0, 3, 4]
        );
        assert_eq!(triangles_of(TRIANGLE_STRIP, vec![0, 1]), Vec::<u32>::new());
        assert_eq!(triangles_of(TRIANGLES, vec![0, 1, 2]), vec![0, 1, 2]);
    }
}
