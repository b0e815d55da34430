//! The vertices of a glTF scene, mesh after mesh: skinned meshes in their
//! skin's bind space with up to eight influences, rigid and static meshes
//! placed where their node puts them at rest; morph targets; the
//! primitives' materials.

use std::collections::HashMap;

use glam::{Mat4, Vec3};

use super::accessors::Buffers;
use super::document::{Document, MeshJson, Primitive};
use super::material;
use super::skins::Bones;
use super::GltfError;
use crate::scene::doc::MeshPartDoc;
use crate::scene::SceneError;

/// What the meshes of a scene hold, concatenated.
#[derive(Default)]
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
    let mut geometry = Geometry::default();
    for &node in shown {
        let this = &document.nodes[node];
        let Some(mesh_index) = this.mesh else {
            continue;
        };
        let mesh = document
            .meshes
            .get(mesh_index)
            .ok_or_else(|| GltfError::Missing(format!("meshes[{mesh_index}]")))?;
        let skin = this
            .skin
            .and_then(|s| skins.iter().find(|(index, _)| *index == s));
        // Skinned vertices stay in the skin's bind space; the others are
        // placed where the node puts them at rest.
        let placement = if skin.is_some() {
            Mat4::IDENTITY
        } else {
            globals[node]
        };
        let reading = MeshReading {
            document,
            buffers,
            mesh_index,
            placement,
            slots: geometry.morph_slots_of(mesh_index, mesh),
            skin,
            rigid_bone: (skin.is_none() && rigid[node]).then(|| bones.bone_of_node[&node]),
            rest: globals[node],
        };
        let first_vertex = geometry.positions.len() / 3;
        geometry.read_primitives(&reading, &mesh.primitives, bones)?;
        let vertex_count = geometry.positions.len() / 3 - first_vertex;
        let binding = match (skin, reading.rigid_bone) {
            (Some(_), _) => "skinned",
            (None, Some(_)) => "rigid",
            (None, None) => "static",
        };
        geometry.parts.push(MeshPartDoc {
            name: this
                .name
                .clone()
                .or_else(|| mesh.name.clone())
                .unwrap_or_else(|| format!("mesh {mesh_index}")),
            vertices: [first_vertex as u32, vertex_count as u32],
            binding: binding.to_owned(),
            bone: reading.rigid_bone.map(|b| b as u32),
            skin: skin
                .and_then(|(s, _)| skins.iter().position(|(index, _)| index == s))
                .map(|k| k as u32),
        });
    }
    Ok(geometry)
}

/// One shown mesh as its primitives are read: where its node places it,
/// its targets' slots among the scene's, and how it is bound.
struct MeshReading<'d> {
    document: &'d Document,
    buffers: &'d Buffers,
    mesh_index: usize,
    /// The identity for a skinned mesh (its skin's bind space), else the
    /// node's rest transform.
    placement: Mat4,
    slots: Vec<usize>,
    /// The skin and its inverse binds, for a skinned mesh.
    skin: Option<&'d (usize, Vec<Mat4>)>,
    /// The bone of a rigid mesh: its node, moved by the skeleton.
    rigid_bone: Option<usize>,
    /// The node's rest transform.
    rest: Mat4,
}

impl MeshReading<'_> {
    /// Whether the node mirrors the mesh: its triangles are wound the other way.
    fn mirrored(&self) -> bool {
        self.placement.determinant() < 0.0
    }

    /// Where a primitive's attribute is named in errors.
    fn place(&self, primitive: usize) -> String {
        format!("meshes[{}].primitives[{primitive}]", self.mesh_index)
    }
}

impl<'a> Geometry<'a> {
    /// The scene's target for each of mesh `mesh_index`'s targets, each by
    /// its name: new names are added with the mesh's weight for them.
    fn morph_slots_of(&mut self, mesh_index: usize, mesh: &MeshJson) -> Vec<usize> {
        let targets = mesh
            .primitives
            .iter()
            .map(|p| p.targets.len())
            .max()
            .unwrap_or(0);
        if targets > 0 && !self.morph_slots.contains_key(&mesh_index) {
            let names = mesh.extras.as_ref().map(|e| &e.target_names);
            let slots = (0..targets)
                .map(|k| {
                    // An empty name is no name: merged by index.
                    let name = names
                        .and_then(|names| names.get(k))
                        .filter(|name| !name.is_empty())
                        .cloned()
                        .unwrap_or_else(|| format!("target {k}"));
                    self.morph_names
                        .iter()
                        .position(|n| *n == name)
                        .unwrap_or_else(|| {
                            self.morph_names.push(name);
                            self.morph_weights
                                .push(mesh.weights.get(k).copied().unwrap_or(0.0));
                            self.morph_names.len() - 1
                        })
                })
                .collect();
            self.morph_slots.insert(mesh_index, slots);
        }
        self.morph_slots
            .get(&mesh_index)
            .cloned()
            .unwrap_or_default()
    }

    /// Reads a mesh's primitives: points and lines are noted and left out;
    /// a primitive with the same vertex attributes and targets as one read
    /// before shares its vertices.
    fn read_primitives(
        &mut self,
        reading: &MeshReading<'_>,
        primitives: &'a [Primitive],
        bones: &mut Bones,
    ) -> Result<(), GltfError> {
        // The primitives read so far: (index, first vertex, vertex count,
        // colour entry).
        let mut read_so_far: Vec<(usize, u32, usize, usize)> = Vec::new();
        for (index, primitive) in primitives.iter().enumerate() {
            match primitive.mode {
                // Points and lines: not a surface to skin; said once.
                0..=3 => {
                    if !self.not_drawn.iter().any(|n| n == POINTS_AND_LINES) {
                        self.not_drawn.push(POINTS_AND_LINES.to_owned());
                    }
                    continue;
                }
                TRIANGLES | TRIANGLE_STRIP | TRIANGLE_FAN => {}
                other => {
                    return Err(GltfError::Unsupported(format!(
                        "{}'s mode {other}",
                        reading.place(index)
                    )))
                }
            }
            let owner = read_so_far
                .iter()
                .find(|&&(earlier, ..)| same_vertices(&primitives[earlier], primitive));
            if let Some(&(_, base, count, colour)) = owner {
                self.colours.push(material::PrimitiveColour {
                    material: primitive.material,
                    attributes: &primitive.attributes,
                    vertices: 0,
                    shares: Some(colour),
                    first_index: self.indices.len(),
                    index_count: 0,
                });
                self.triangles(reading, primitive, base, count)?;
                continue;
            }
            let base = (self.positions.len() / 3) as u32;
            let colour = self.colours.len();
            let count = self.read_vertices(reading, primitive, index, bones)?;
            read_so_far.push((index, base, count, colour));
            self.triangles(reading, primitive, base, count)?;
        }
        Ok(())
    }

    /// Adds a primitive's triangles, its `count` vertices from `base`, to
    /// the last colour entry's run.
    fn triangles(
        &mut self,
        reading: &MeshReading,
        primitive: &Primitive,
        base: u32,
        count: usize,
    ) -> Result<(), GltfError> {
        let (document, buffers) = (reading.document, reading.buffers);
        let triangles = triangles_read(document, buffers, primitive, count, reading.mirrored())?;
        self.indices.extend(triangles.into_iter().map(|i| base + i));
        if let Some(last) = self.colours.last_mut() {
            last.index_count = self.indices.len() - last.first_index;
        }
        Ok(())
    }

    /// Reads a primitive's own vertices (positions placed, morph offsets,
    /// influences) and opens its colour entry; returns their count.
    fn read_vertices(
        &mut self,
        reading: &MeshReading<'_>,
        primitive: &'a Primitive,
        index: usize,
        bones: &mut Bones,
    ) -> Result<usize, GltfError> {
        let (document, buffers) = (reading.document, reading.buffers);
        let base = self.positions.len() / 3;
        let position = primitive
            .attributes
            .get("POSITION")
            .copied()
            .ok_or_else(|| GltfError::Missing(format!("{}.POSITION", reading.place(index))))?;
        // The vertex limit holds before a byte is read: the count is the
        // accessor's declaration.
        let declared = document.accessors.get(position).map_or(0, |a| a.count);
        within_vertex_limit(base.saturating_add(declared))?;
        let points: Vec<f32> = buffers
            .floats(document, position, 3)?
            .chunks_exact(3)
            .flat_map(|p| {
                reading
                    .placement
                    .transform_point3(Vec3::from_slice(p))
                    .to_array()
            })
            .collect();
        let count = points.len() / 3;
        within_vertex_limit(base + count)?;
        // The triangles' run is known once they are read.
        self.colours.push(material::PrimitiveColour {
            material: primitive.material,
            attributes: &primitive.attributes,
            vertices: count,
            shares: None,
            first_index: self.indices.len(),
            index_count: 0,
        });
        self.read_targets(reading, primitive, count)?;
        self.positions.extend_from_slice(&points);
        match (reading.skin, reading.rigid_bone) {
            (Some(skin), _) => {
                let place = reading.place(index);
                let per_vertex =
                    skinned_influences(document, buffers, primitive, skin, count, bones, &place)?;
                self.influences.extend(per_vertex);
            }
            (None, Some(bone)) => {
                let entry = bones.entry(bone, reading.rest.inverse());
                self.influences
                    .extend(std::iter::repeat_n(vec![(entry as u32, 1.0)], count));
            }
            (None, None) => self
                .influences
                .extend(std::iter::repeat_n(Vec::new(), count)),
        }
        Ok(count)
    }

    /// Morph targets of a primitive of `count` vertices: its target k goes
    /// to the scene's target of its name (zero offsets where it has none).
    fn read_targets(
        &mut self,
        reading: &MeshReading,
        primitive: &Primitive,
        count: usize,
    ) -> Result<(), GltfError> {
        let (document, buffers) = (reading.document, reading.buffers);
        let before = self.positions.len();
        for (target, &k) in primitive.targets.iter().zip(&reading.slots) {
            while k >= self.morph_offsets.len() {
                self.morph_offsets.push((vec![0.0; before], None));
            }
            let read = |name: &str| -> Result<Option<Vec<f32>>, GltfError> {
                target
                    .get(name)
                    .map(|&index| {
                        buffers.floats(document, index, 3).map(|values| {
                            values
                                .chunks_exact(3)
                                .flat_map(|d| {
                                    let d = Vec3::from_slice(d);
                                    reading.placement.transform_vector3(d).to_array()
                                })
                                .collect()
                        })
                    })
                    .transpose()
            };
            let (offsets, normals) = &mut self.morph_offsets[k];
            offsets.resize(before, 0.0);
            match read("POSITION")? {
                Some(values) if values.len() == 3 * count => offsets.extend(values),
                _ => offsets.extend(std::iter::repeat_n(0.0, 3 * count)),
            }
            if let Some(values) = read("NORMAL")?.filter(|v| v.len() == 3 * count) {
                let normals = normals.get_or_insert_with(Vec::new);
                normals.resize(before, 0.0);
                normals.extend(values);
            }
        }
        Ok(())
    }
}

/// Refuses a scene past the vertex limit.
fn within_vertex_limit(count: usize) -> Result<(), GltfError> {
    if count > crate::scene::MAX_VERTICES {
        return Err(SceneError::TooManyVertices {
            count,
            max: crate::scene::MAX_VERTICES,
        }
        .into());
    }
    Ok(())
}

/// The influences of a skinned primitive's `count` vertices, from every
/// `JOINTS_n`/`WEIGHTS_n` set (a joint named twice summed), as palette
/// entries of `bones`; every joint of the skin is bound, weighted or not.
/// `place` names the primitive in errors.
fn skinned_influences(
    document: &Document,
    buffers: &Buffers,
    primitive: &Primitive,
    (skin_index, inverse_binds): &(usize, Vec<Mat4>),
    count: usize,
    bones: &mut Bones,
    place: &str,
) -> Result<Vec<Vec<(u32, f32)>>, GltfError> {
    let joints_of_skin = &document.skins[*skin_index].joints;
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
                let missing = if primitive.attributes.contains_key("JOINTS_0") {
                    "WEIGHTS_0"
                } else {
                    "JOINTS_0"
                };
                return Err(GltfError::Missing(format!("{place}.{missing}")));
            }
            break;
        };
        let joints = buffers.integers(document, joints, 4)?;
        let weights = buffers.floats(document, weights, 4)?;
        if joints.len() != count * 4 || weights.len() != count * 4 {
            return Err(GltfError::Missing(format!(
                "one JOINTS_{set} and WEIGHTS_{set} per vertex in {place}"
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
                        "joint {joint} named by vertex {vertex} of {place}"
                    )));
                };
                let bone = bones.entry(bones.bone_of_node[&joint_node], *inverse_bind) as u32;
                match pairs.iter_mut().find(|(b, _)| *b == bone) {
                    Some(pair) => pair.1 += weight,
                    None => pairs.push((bone, weight)),
                }
            }
        }
    }
    Ok(per_vertex)
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
