//! The glTF document of an FBX file's objects (see the module
//! documentation of [`super`]): nodes, meshes, skins, materials and clips,
//! every point and transform in metres and Y up.

use std::collections::{HashMap, HashSet};

use glam::{DMat4, DQuat, DVec3, Vec3};
use serde_json::{json, Value};

use super::animation::{sample, takes, Take};
use super::geometry::{mesh_data, shapes_of, skin_of, MeshData, Shape, Skin};
use super::objects::{property, Object, Objects};
use super::transform::{as_trs, from_trs, TransformParts};
use super::tree::{Node, Value as FbxValue};
use super::FbxError;
use crate::formats::capsules::capsule_body;
use crate::formats::gltf_write::{
    floats, Builder, ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, UNSIGNED_INT, UNSIGNED_SHORT,
};

/// The change of basis `C` from the file's units and axes to metres, Y up.
struct Basis {
    c: DMat4,
    c_inverse: DMat4,
    /// `C`'s turn: the identity, or −90° about X for a Z-up file.
    turn: DQuat,
}

impl Basis {
    fn of(top: &[Node]) -> Basis {
        let settings = top.iter().find(|n| n.name == "GlobalSettings");
        let number = |name: &str| {
            settings
                .and_then(|s| property(s, name))
                .and_then(|v| v.first())
                .and_then(FbxValue::number)
        };
        // Centimetres per unit; FBX's own default unit is the centimetre.
        let unit = number("UnitScaleFactor")
            .filter(|u| u.is_finite() && *u > 0.0)
            .unwrap_or(1.0);
        let turn = if number("UpAxis") == Some(2.0) {
            DQuat::from_rotation_x(-std::f64::consts::FRAC_PI_2)
        } else {
            DQuat::IDENTITY
        };
        let c = DMat4::from_quat(turn) * DMat4::from_scale(DVec3::splat(unit / 100.0));
        Basis {
            c,
            c_inverse: c.inverse(),
            turn,
        }
    }

    /// A model's local transform `L = T' · R · S` (FBX's pivots and
    /// offsets all translations, so its linear part is exactly `R · S`) in
    /// this basis, as translation, rotation and scale without taking a
    /// matrix apart: `C L C⁻¹ = T(C t') · (U R U⁻¹) · (U S U⁻¹)`, and
    /// `U S U⁻¹` is `S` with its axes permuted, `U` turning axes onto axes.
    /// A scale through zero or below stays as written.
    fn local_trs(&self, local: DMat4, rotation: DQuat, scale: DVec3) -> (DVec3, DQuat, DVec3) {
        let translation = self.c.transform_point3(local.w_axis.truncate());
        let turn = glam::DMat3::from_quat(self.turn);
        let permuted = DVec3::new(
            turn.row(0).abs().dot(scale),
            turn.row(1).abs().dot(scale),
            turn.row(2).abs().dot(scale),
        );
        (
            translation,
            (self.turn * rotation * self.turn.inverse()).normalize(),
            permuted,
        )
    }

    fn point(&self, p: DVec3) -> [f32; 3] {
        self.c.transform_point3(p).as_vec3().to_array()
    }

    fn vector(&self, v: DVec3) -> [f32; 3] {
        self.c.transform_vector3(v).as_vec3().to_array()
    }

    fn transform(&self, m: DMat4) -> DMat4 {
        self.c * m * self.c_inverse
    }
}

/// The models as a hierarchy: parents before children.
struct Models<'o, 'a> {
    list: Vec<&'o Object<'a>>,
    parent: Vec<Option<usize>>,
    node_of: HashMap<i64, usize>,
    /// Rest transforms relative to the parent, file units.
    local: Vec<DMat4>,
    /// Rest transforms in the file's world, file units.
    world: Vec<DMat4>,
}

impl<'o, 'a> Models<'o, 'a> {
    fn of(objects: &'o Objects<'a>) -> Result<Self, FbxError> {
        let all: Vec<&Object> = objects.list.iter().filter(|o| o.class == "Model").collect();
        let index: HashMap<i64, usize> = all.iter().enumerate().map(|(k, o)| (o.id, k)).collect();
        let parent_of: Vec<Option<usize>> = all
            .iter()
            .map(|o| {
                objects
                    .parents(o.id)
                    .iter()
                    .find_map(|l| index.get(&l.id).copied())
            })
            .collect();
        // Parents first: depth-first from the roots; a model not reached
        // is on a loop of parents.
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); all.len()];
        for (k, p) in parent_of.iter().enumerate() {
            if let Some(p) = p {
                children[*p].push(k);
            }
        }
        let mut order = Vec::with_capacity(all.len());
        let mut stack: Vec<usize> = (0..all.len())
            .filter(|&k| parent_of[k].is_none())
            .rev()
            .collect();
        while let Some(k) = stack.pop() {
            order.push(k);
            stack.extend(children[k].iter().rev());
        }
        if order.len() != all.len() {
            let mut reached = vec![false; all.len()];
            for &k in &order {
                reached[k] = true;
            }
            let stray = reached.iter().position(|r| !r).unwrap_or(0);
            return Err(FbxError::Malformed {
                path: all[stray].path.to_string(),
                problem: format!(
                    "the model '{}' is its own ancestor (Connections loop)",
                    all[stray].name
                ),
            });
        }
        let position: HashMap<usize, usize> =
            order.iter().enumerate().map(|(n, &k)| (k, n)).collect();
        let list: Vec<&Object> = order.iter().map(|&k| all[k]).collect();
        let parent: Vec<Option<usize>> = order
            .iter()
            .map(|&k| parent_of[k].map(|p| position[&p]))
            .collect();
        let node_of = list.iter().enumerate().map(|(n, o)| (o.id, n)).collect();

        // Rest transforms as three.js's FBXLoader composes them.
        let mut local = vec![DMat4::IDENTITY; list.len()];
        let mut world = vec![DMat4::IDENTITY; list.len()];
        for n in 0..list.len() {
            let parts = TransformParts::of(list[n]);
            let m = parts.rest_local(parent[n].map(|p| (local[p], world[p])));
            local[n] = from_trs(as_trs(m));
            world[n] = parent[n].map_or(DMat4::IDENTITY, |p| world[p]) * local[n];
        }
        let mut models = Models {
            list,
            parent,
            node_of,
            local,
            world,
        };
        models.bind_unskinned_bones(objects);
        Ok(models)
    }

    /// A bone no cluster binds rests where the bind pose puts it, if the
    /// file has one for it (its `Lcl` values may be an animation's frame).
    fn bind_unskinned_bones(&mut self, objects: &Objects) {
        let clustered: HashSet<i64> = objects
            .list
            .iter()
            .filter(|o| o.class == "Deformer" && o.kind == "Cluster")
            .flat_map(|c| objects.children_of_class(c.id, "Model").map(|(m, _)| m.id))
            .collect();
        let mut bind: HashMap<i64, DMat4> = HashMap::new();
        for pose in objects
            .list
            .iter()
            .filter(|o| o.class == "Pose" && o.kind == "BindPose")
        {
            for pose_node in pose.node.children_named("PoseNode") {
                let id = pose_node
                    .child("Node")
                    .and_then(|n| n.props.first())
                    .and_then(FbxValue::integer);
                let matrix = pose_node
                    .child("Matrix")
                    .and_then(Node::reals)
                    .filter(|m| m.len() == 16);
                if let (Some(id), Some(m)) = (id, matrix) {
                    let mut cols = [0.0; 16];
                    cols.copy_from_slice(&m);
                    bind.insert(id, DMat4::from_cols_array(&cols));
                }
            }
        }
        let mut held: Vec<Option<DMat4>> = vec![None; self.list.len()];
        let mut changed = false;
        for n in 0..self.list.len() {
            let model = self.list[n];
            let is_bone = matches!(model.kind.as_str(), "LimbNode" | "Root");
            let Some(&pose) = bind
                .get(&model.id)
                .filter(|_| is_bone && !clustered.contains(&model.id))
            else {
                continue;
            };
            if pose.determinant().abs() < 1e-300 || !pose.is_finite() {
                continue;
            }
            let parent_world =
                self.parent[n].map_or(DMat4::IDENTITY, |p| held[p].unwrap_or(self.world[p]));
            self.local[n] = from_trs(as_trs(parent_world.inverse() * pose));
            held[n] = Some(pose);
            changed = true;
        }
        if changed {
            for n in 0..self.list.len() {
                self.world[n] =
                    self.parent[n].map_or(DMat4::IDENTITY, |p| self.world[p]) * self.local[n];
            }
        }
    }
}

/// A mesh model read: its node, data, skin and shapes.
struct ReadMesh<'o, 'a> {
    node: usize,
    model: &'o Object<'a>,
    data: MeshData,
    skin: Option<Skin>,
    shapes: Vec<Shape>,
}

/// The glTF JSON and binary chunk of the file.
pub(super) fn gltf_of(
    top: &[Node],
    objects: &Objects,
    files: &Files,
) -> Result<(String, Vec<u8>), FbxError> {
    let basis = Basis::of(top);
    let models = Models::of(objects)?;
    let mut builder = Builder::default();

    let mut nodes: Vec<Value> = models
        .list
        .iter()
        .enumerate()
        .map(|(n, model)| {
            let (t, r, s) = as_trs(basis.transform(models.local[n]));
            json!({
                "name": model.name,
                "translation": t.as_vec3().to_array(),
                "rotation": r.as_quat().normalize().to_array(),
                "scale": s.as_vec3().to_array(),
            })
        })
        .collect();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); models.list.len()];
    for (c, parent) in models.parent.iter().enumerate() {
        if let Some(p) = parent {
            children[*p].push(c);
        }
    }
    for (node, children) in nodes.iter_mut().zip(children) {
        if !children.is_empty() {
            node["children"] = json!(children);
        }
    }
    let mut roots: Vec<usize> = (0..models.list.len())
        .filter(|&n| models.parent[n].is_none())
        .collect();

    // Meshes.
    let mut read = Vec::new();
    for (n, model) in models.list.iter().enumerate() {
        if model.kind != "Mesh" {
            continue;
        }
        let Some((geometry, _)) = objects
            .children_of_class(model.id, "Geometry")
            .find(|(g, _)| g.kind == "Mesh")
        else {
            continue;
        };
        let geometric = TransformParts::geometric(model);
        let data = mesh_data(geometry, geometric)?;
        let point_count = geometry
            .node
            .child("Vertices")
            .and_then(Node::reals)
            .map_or(0, |v| v.len() / 3);
        let skin = skin_of(objects, geometry, point_count)?;
        let shapes = shapes_of(objects, geometry, point_count, geometric)?;
        if data.triangles.iter().all(|(_, t)| t.is_empty()) {
            continue;
        }
        read.push(ReadMesh {
            node: n,
            model,
            data,
            skin,
            shapes,
        });
    }

    let mut materials = Materials::default();
    let mut meshes = Vec::new();
    let mut skins = Vec::new();
    for mesh in &read {
        let slots: Vec<Option<usize>> = objects
            .children_of_class(mesh.model.id, "Material")
            .map(|(m, _)| materials.of(m, objects, files, &mut builder))
            .collect();
        let skin_joints = match &mesh.skin {
            Some(skin) => {
                let mut joints = Vec::new();
                let mut binds = Vec::new();
                for (bone, link) in &skin.joints {
                    let node = *models.node_of.get(bone).ok_or_else(|| FbxError::Missing {
                        path: mesh.model.path.to_string(),
                        what: format!("the bone model {bone} of its skin"),
                    })?;
                    joints.push(node);
                    // glTF skins by G_j · IBM_j; FBX by the bone's global
                    // over its bind (TransformLink), from where the mesh
                    // sits: IBM_j = TransformLink⁻¹ · mesh world.
                    let ibm = basis.transform(link.inverse() * models.world[mesh.node]);
                    binds.extend(ibm.as_mat4().to_cols_array());
                }
                let count = joints.len();
                let ibm = builder.accessor(
                    &floats(binds),
                    None,
                    json!({"componentType": FLOAT, "count": count, "type": "MAT4"}),
                );
                skins.push(json!({"joints": joints, "inverseBindMatrices": ibm}));
                Some(skins.len() - 1)
            }
            None => None,
        };
        let primitives = primitives(mesh, &slots, &basis, &mut builder, &mut materials);
        let mut gltf_mesh = json!({"name": mesh.model.name, "primitives": primitives});
        if !mesh.shapes.is_empty() {
            gltf_mesh["weights"] = json!(mesh
                .shapes
                .iter()
                .map(|s| s.weight as f32)
                .collect::<Vec<_>>());
            gltf_mesh["extras"] = json!({"targetNames": mesh.shapes.iter().map(|s| s.name.clone()).collect::<Vec<_>>()});
        }
        meshes.push(gltf_mesh);
        nodes[mesh.node]["mesh"] = json!(meshes.len() - 1);
        if let Some(skin) = skin_joints {
            nodes[mesh.node]["skin"] = json!(skin);
        }
    }

    if meshes.is_empty() {
        // A skeleton without a mesh: capsules between its joints.
        let rest: Vec<Vec3> = models
            .world
            .iter()
            .map(|w| Vec3::from_array(basis.point(w.w_axis.truncate())))
            .collect();
        let body = capsule_body(&models.parent, &rest);
        let primitive = body
            .primitive(&mut builder)
            .ok_or_else(|| FbxError::Missing {
                path: "Objects".to_owned(),
                what: "a mesh or a skeleton of two joints apart".to_owned(),
            })?;
        let binds: Vec<f32> = models
            .world
            .iter()
            .flat_map(|w| basis.transform(*w).inverse().as_mat4().to_cols_array())
            .collect();
        let ibm = builder.accessor(
            &floats(binds),
            None,
            json!({"componentType": FLOAT, "count": models.list.len(), "type": "MAT4"}),
        );
        skins.push(json!({"joints": (0..models.list.len()).collect::<Vec<_>>(), "inverseBindMatrices": ibm}));
        meshes.push(json!({"name": "body", "primitives": [primitive]}));
        nodes.push(json!({"name": "body", "mesh": 0, "skin": 0}));
        roots.push(nodes.len() - 1);
    }

    let animations: Vec<Value> = takes(objects)?
        .iter()
        .map(|take| clip(take, &models, &read, &basis, &mut builder))
        .filter(|a| a["channels"].as_array().is_some_and(|c| !c.is_empty()))
        .collect();

    let mut document = json!({
        "asset": {"version": "2.0", "generator": "Skinlab FBX reader"},
        "scene": 0,
        "scenes": [{"nodes": roots}],
        "nodes": nodes,
        "meshes": meshes,
    });
    if !skins.is_empty() {
        document["skins"] = json!(skins);
    }
    if !animations.is_empty() {
        document["animations"] = json!(animations);
    }
    if !materials.list.is_empty() {
        document["materials"] = json!(materials.list);
    }
    if !materials.images.is_empty() {
        document["images"] = json!(materials.images);
        document["textures"] = json!(materials.textures);
    }
    document["buffers"] = json!([{"byteLength": builder.bin.len()}]);
    document["bufferViews"] = json!(builder.views);
    document["accessors"] = json!(builder.accessors);
    let json = serde_json::to_string(&document).map_err(|e| FbxError::Scene(e.to_string()))?;
    Ok((json, builder.bin))
}

/// One glTF primitive per material slot of `mesh`, each with its own
/// vertices (a vertex two materials share is written for both).
fn primitives(
    mesh: &ReadMesh,
    slots: &[Option<usize>],
    basis: &Basis,
    builder: &mut Builder,
    materials: &mut Materials,
) -> Vec<Value> {
    let data = &mesh.data;
    let mut out = Vec::new();
    for (slot, triangles) in &data.triangles {
        if triangles.is_empty() {
            continue;
        }
        // This primitive's vertices, in first use.
        let mut local: HashMap<u32, u32> = HashMap::new();
        let mut used: Vec<usize> = Vec::new();
        let indices: Vec<u32> = triangles
            .iter()
            .map(|&v| {
                *local.entry(v).or_insert_with(|| {
                    used.push(v as usize);
                    (used.len() - 1) as u32
                })
            })
            .collect();
        let points: Vec<[f32; 3]> = used
            .iter()
            .map(|&v| basis.point(data.positions[v]))
            .collect();
        let (min, max) = points
            .iter()
            .fold(([f32::MAX; 3], [f32::MIN; 3]), |(lo, hi), p| {
                (
                    [lo[0].min(p[0]), lo[1].min(p[1]), lo[2].min(p[2])],
                    [hi[0].max(p[0]), hi[1].max(p[1]), hi[2].max(p[2])],
                )
            });
        let count = points.len();
        let mut attributes = serde_json::Map::new();
        attributes.insert(
            "POSITION".into(),
            builder
                .accessor(
                    &floats(points.iter().flatten().copied()),
                    Some(ARRAY_BUFFER),
                    json!({"componentType": FLOAT, "count": count, "type": "VEC3", "min": min, "max": max}),
                )
                .into(),
        );
        if let Some(uvs) = &data.uvs {
            attributes.insert(
                "TEXCOORD_0".into(),
                builder
                    .accessor(
                        &floats(used.iter().flat_map(|&v| uvs[v])),
                        Some(ARRAY_BUFFER),
                        json!({"componentType": FLOAT, "count": count, "type": "VEC2"}),
                    )
                    .into(),
            );
        }
        if let Some(skin) = &mesh.skin {
            let mut joints: Vec<u8> = Vec::with_capacity(count * 8);
            let mut weights: Vec<f32> = Vec::with_capacity(count * 4);
            for &v in &used {
                let list = &skin.influences[data.source[v]];
                for k in 0..4 {
                    // A point no cluster weights follows joint 0 (three.js
                    // sets such a vertex's first weight to 1).
                    let (joint, weight) = match list.get(k) {
                        Some(&(j, w)) => (j, w),
                        None if k == 0 && list.is_empty() => (0, 1.0),
                        None => (0, 0.0),
                    };
                    joints.extend((joint as u16).to_le_bytes());
                    weights.push(weight);
                }
            }
            attributes.insert(
                "JOINTS_0".into(),
                builder
                    .accessor(
                        &joints,
                        Some(ARRAY_BUFFER),
                        json!({"componentType": UNSIGNED_SHORT, "count": count, "type": "VEC4"}),
                    )
                    .into(),
            );
            attributes.insert(
                "WEIGHTS_0".into(),
                builder
                    .accessor(
                        &floats(weights),
                        Some(ARRAY_BUFFER),
                        json!({"componentType": FLOAT, "count": count, "type": "VEC4"}),
                    )
                    .into(),
            );
        }
        let index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let index_accessor = builder.accessor(
            &index_bytes,
            Some(ELEMENT_ARRAY_BUFFER),
            json!({"componentType": UNSIGNED_INT, "count": indices.len(), "type": "SCALAR"}),
        );
        let mut primitive = json!({"attributes": attributes, "indices": index_accessor});
        let material = slots
            .get(*slot)
            .copied()
            .flatten()
            .or_else(|| Some(materials.fallback()));
        if let Some(material) = material {
            primitive["material"] = json!(material);
        }
        if !mesh.shapes.is_empty() {
            let targets: Vec<Value> = mesh
                .shapes
                .iter()
                .map(|shape| {
                    let offsets: Vec<[f32; 3]> = used
                        .iter()
                        .map(|&v| shape.offsets.get(&data.source[v]).map_or([0.0; 3], |d| basis.vector(*d)))
                        .collect();
                    let (min, max) = offsets.iter().fold(([f32::MAX; 3], [f32::MIN; 3]), |(lo, hi), p| {
                        (
                            [lo[0].min(p[0]), lo[1].min(p[1]), lo[2].min(p[2])],
                            [hi[0].max(p[0]), hi[1].max(p[1]), hi[2].max(p[2])],
                        )
                    });
                    let accessor = builder.accessor(
                        &floats(offsets.iter().flatten().copied()),
                        Some(ARRAY_BUFFER),
                        json!({"componentType": FLOAT, "count": count, "type": "VEC3", "min": min, "max": max}),
                    );
                    json!({"POSITION": accessor})
                })
                .collect();
            primitive["targets"] = json!(targets);
        }
        out.push(primitive);
    }
    out
}

/// The glTF materials made so far, each FBX material once.
#[derive(Default)]
struct Materials {
    list: Vec<Value>,
    textures: Vec<Value>,
    images: Vec<Value>,
    of_id: HashMap<i64, usize>,
    default: Option<usize>,
}

impl Materials {
    /// The glTF material of FBX material `material`: its diffuse colour,
    /// opacity and embedded diffuse texture, as three.js reads them.
    fn of(
        &mut self,
        material: &Object,
        objects: &Objects,
        files: &Files,
        builder: &mut Builder,
    ) -> Option<usize> {
        if let Some(&k) = self.of_id.get(&material.id) {
            return Some(k);
        }
        let colour = material
            .vector("Diffuse")
            .or_else(|| material.vector("DiffuseColor"))
            .unwrap_or([0.8, 0.8, 0.8]);
        let opacity = material.number("Opacity").unwrap_or(1.0).clamp(0.0, 1.0);
        let linear = |c: f64| c.clamp(0.0, 1.0) as f32;
        let mut pbr = json!({
            "baseColorFactor": [linear(colour[0]), linear(colour[1]), linear(colour[2]), opacity as f32],
            "metallicFactor": 0.0,
            "roughnessFactor": 1.0,
        });
        if let Some(image) = diffuse_image(material, objects, files) {
            let mime = if image.starts_with(b"\x89PNG") {
                "image/png"
            } else {
                "image/jpeg"
            };
            let view = builder.view(&image, None);
            self.images
                .push(json!({"bufferView": view, "mimeType": mime}));
            self.textures.push(json!({"source": self.images.len() - 1}));
            pbr["baseColorTexture"] = json!({"index": self.textures.len() - 1});
        }
        let mut gltf = json!({"name": material.name, "pbrMetallicRoughness": pbr});
        if opacity < 1.0 {
            gltf["alphaMode"] = json!("BLEND");
        }
        self.list.push(gltf);
        self.of_id.insert(material.id, self.list.len() - 1);
        Some(self.list.len() - 1)
    }

    /// A grey material for polygons without one.
    fn fallback(&mut self) -> usize {
        if let Some(k) = self.default {
            return k;
        }
        {
            self.list.push(json!({"name": "default", "pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.8, 0.8, 1.0], "metallicFactor": 0.0, "roughnessFactor": 1.0}}));
            self.default = Some(self.list.len() - 1);
            self.list.len() - 1
        }
    }
}

/// The PNG or JPEG of `material`'s diffuse colour: a texture tied to its
/// `DiffuseColor`, whose video holds the file's bytes (embedded), or else
/// the file the texture names among `files` (chosen with the FBX), by its
/// name without folders, case aside.
fn diffuse_image(material: &Object, objects: &Objects, files: &Files) -> Option<Vec<u8>> {
    let (texture, _) = objects
        .children_of_class(material.id, "Texture")
        .find(|(_, link)| {
            link.property
                .as_deref()
                .is_some_and(|p| p == "DiffuseColor" || p == "Diffuse")
        })?;
    let video = objects
        .children_of_class(texture.id, "Video")
        .next()
        .map(|(v, _)| v);
    let embedded = video
        .and_then(|v| v.node.child("Content"))
        .and_then(|content| {
            content
                .props
                .iter()
                .find(|v| !matches!(v, FbxValue::Text(t) if t.is_empty()))
        })
        .and_then(|value| match value {
            FbxValue::Raw(bytes) if !bytes.is_empty() => Some(bytes.clone()),
            FbxValue::Text(base64) => crate::formats::gltf::decode_base64(base64),
            _ => None,
        });
    let bytes = embedded.or_else(|| {
        let named = std::iter::once(texture)
            .chain(video)
            .flat_map(|o| ["RelativeFilename", "FileName", "Filename"].map(|n| o.node.child(n)))
            .flatten()
            .find_map(|n| n.text().filter(|t| !t.is_empty()).map(str::to_owned))?;
        let base = named
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(&named)
            .to_lowercase();
        files
            .iter()
            .find(|(name, _)| {
                name.rsplit(['/', '\\'])
                    .next()
                    .unwrap_or(name)
                    .to_lowercase()
                    == base
            })
            .map(|(_, bytes)| bytes.clone())
    })?;
    let known = bytes.starts_with(b"\x89PNG\r\n\x1a\n") || bytes.starts_with(&[0xFF, 0xD8, 0xFF]);
    known.then_some(bytes)
}

/// Files chosen together with an FBX file (its textures), by name.
pub type Files = HashMap<String, Vec<u8>>;

/// One take as a glTF animation: per animated model a translation,
/// rotation and scale channel for what its curves move (all three where
/// pivots or offsets tie them), per mesh with animated shapes a weights
/// channel.
fn clip(
    take: &Take,
    models: &Models,
    meshes: &[ReadMesh],
    basis: &Basis,
    builder: &mut Builder,
) -> Value {
    let mut samplers = Vec::new();
    let mut channels = Vec::new();
    let mut add = |builder: &mut Builder,
                   node: usize,
                   path: &str,
                   times: &[f32],
                   values: Vec<f32>,
                   kind: &str| {
        let input = builder.accessor(
            &floats(times.iter().copied()),
            None,
            json!({"componentType": FLOAT, "count": times.len(), "type": "SCALAR",
                   "min": [times[0]], "max": [times[times.len() - 1]]}),
        );
        let count = values.len()
            / match kind {
                "VEC3" => 3,
                "VEC4" => 4,
                _ => 1,
            };
        let output = builder.accessor(
            &floats(values),
            None,
            json!({"componentType": FLOAT, "count": count, "type": kind}),
        );
        samplers.push(json!({"input": input, "output": output, "interpolation": "LINEAR"}));
        channels
            .push(json!({"sampler": samplers.len() - 1, "target": {"node": node, "path": path}}));
    };
    for (id, curves) in &take.models {
        let Some(&node) = models.node_of.get(id) else {
            continue;
        };
        let parts = TransformParts::of(models.list[node]);
        let pivoted = [
            parts.rotation_offset,
            parts.rotation_pivot,
            parts.scaling_offset,
            parts.scaling_pivot,
        ]
        .iter()
        .any(|v| *v != DVec3::ZERO);
        let turns_or_scales = curves[1].iter().chain(&curves[2]).any(Option::is_some);
        // Where glTF's interpolation of the keys' translation, rotation and
        // scale would leave FBX's path between two keys, more samples are
        // taken (see `refined`).
        let leaves_path = |t0: f64, t1: f64| {
            let (s0, s1) = (
                sample(&curves[2], t0, parts.scale),
                sample(&curves[2], t1, parts.scale),
            );
            (pivoted && turns_or_scales) || (0..3).any(|k| s0[k] * s1[k] <= 0.0 && s0[k] != s1[k])
        };
        let keys = refined(&Take::times(curves.iter().flatten().flatten()), leaves_path);
        let (times, keys) = key_times_of(keys);
        if times.is_empty() {
            continue;
        }
        let mut translations = Vec::new();
        let mut rotations = Vec::new();
        let mut scales = Vec::new();
        let mut previous: Option<DQuat> = None;
        for &time in &keys {
            let (translation, euler, scale) = (
                sample(&curves[0], time, parts.translation),
                sample(&curves[1], time, parts.rotation),
                sample(&curves[2], time, parts.scale),
            );
            let local = parts.local_with(translation, euler, scale);
            let (t, mut r, s) = basis.local_trs(local, parts.rotation_with(euler), scale);
            if previous.is_some_and(|p| p.dot(r) < 0.0) {
                r = -r;
            }
            previous = Some(r);
            translations.extend(t.as_vec3().to_array());
            rotations.extend(r.as_quat().to_array());
            scales.extend(s.as_vec3().to_array());
        }
        let moves = |k: usize| pivoted || curves[k].iter().any(Option::is_some);
        if moves(0) {
            add(builder, node, "translation", &times, translations, "VEC3");
        }
        if moves(1) {
            add(builder, node, "rotation", &times, rotations, "VEC4");
        }
        if moves(2) {
            add(builder, node, "scale", &times, scales, "VEC3");
        }
    }
    for mesh in meshes {
        let animated: Vec<_> = mesh
            .shapes
            .iter()
            .filter_map(|s| take.channels.get(&s.channel))
            .collect();
        if animated.is_empty() {
            continue;
        }
        let (times, keys) = key_times(animated.iter().copied());
        let mut values = Vec::with_capacity(keys.len() * mesh.shapes.len());
        for &time in &keys {
            for shape in &mesh.shapes {
                let w = take
                    .channels
                    .get(&shape.channel)
                    .map_or(shape.weight, |c| c.at(time) / 100.0);
                values.push(w as f32);
            }
        }
        add(builder, mesh.node, "weights", &times, values, "SCALAR");
    }
    json!({"name": take.name, "samplers": samplers, "channels": channels})
}

/// Samples a second where a model's keys alone would not follow FBX's
/// path: glTF interpolates each key's translation, rotation (slerp) and
/// scale, FBX each Euler angle and scale curve and composes them. The two
/// are close between keys unless pivots or offsets tie translation to the
/// turn, or a scale changes sign (a mirror cannot be slerped). Between two
/// keys an angle apart by 180° or more, the turn takes the short way, as
/// three.js's `FBXLoader` turns it, not the Euler curve's long way.
const DENSE_SAMPLES_PER_SECOND: f64 = 60.0;

/// The most samples [`refined`] adds for one model.
const MAX_ADDED_SAMPLES: usize = 1 << 20;

/// `keys` with samples between two keys where `leaves_path` says glTF's
/// interpolation would leave FBX's path (at most 240 a span, and at most
/// [`MAX_ADDED_SAMPLES`] in all: past that the keys alone are kept).
fn refined(keys: &[f64], leaves_path: impl Fn(f64, f64) -> bool) -> Vec<f64> {
    let mut out = Vec::with_capacity(keys.len());
    for pair in keys.windows(2) {
        let (t0, t1) = (pair[0], pair[1]);
        out.push(t0);
        if out.len() < keys.len() + MAX_ADDED_SAMPLES && leaves_path(t0, t1) {
            let steps = ((t1 - t0) * DENSE_SAMPLES_PER_SECOND)
                .ceil()
                .clamp(2.0, 240.0) as usize;
            out.extend((1..steps).map(|k| t0 + (t1 - t0) * k as f64 / steps as f64));
        }
    }
    out.extend(keys.last());
    out
}

/// The key times of `curves` as glTF wants them (seconds as `f32`,
/// strictly increasing), and the same times in `f64` to sample at.
fn key_times<'c>(
    curves: impl IntoIterator<Item = &'c super::animation::Curve>,
) -> (Vec<f32>, Vec<f64>) {
    key_times_of(Take::times(curves))
}

/// `all` (sorted seconds) as glTF's strictly increasing `f32` times, and
/// the `f64` times kept.
fn key_times_of(all: Vec<f64>) -> (Vec<f32>, Vec<f64>) {
    let mut times: Vec<f32> = Vec::with_capacity(all.len());
    let mut keys = Vec::with_capacity(all.len());
    for t in all {
        let t32 = t as f32;
        if times.last().is_some_and(|&last| t32 <= last) {
            continue;
        }
        times.push(t32);
        keys.push(t);
    }
    (times, keys)
}
