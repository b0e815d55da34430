//! The glTF document of an FBX file's objects (see the module
//! documentation of [`super`]): nodes, meshes, skins, materials and clips,
//! every point and transform in metres and Y up.

use std::collections::HashMap;

use glam::{DMat4, Vec3};
use serde_json::{json, Value};

use super::animation::takes;
use super::basis::Basis;
use super::clips::clip;
use super::geometry::{mesh_data, shapes_of, skin_of, ReadMesh, Skin};
use super::materials::{Files, Materials};
use super::models::Models;
use super::objects::Objects;
use super::transform::{as_trs, TransformParts};
use super::tree::Node;
use super::FbxError;
use crate::formats::capsules::capsule_body;
use crate::formats::gltf_write::{
    floats, vec3s, Builder, ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, UNSIGNED_INT, UNSIGNED_SHORT,
};

/// The glTF JSON and binary chunk of the file.
pub(super) fn gltf_of(
    top: &[Node],
    objects: &Objects,
    files: &Files,
) -> Result<(String, Vec<u8>), FbxError> {
    let basis = Basis::of(top);
    let takes = takes(objects)?;
    let models = Models::of(objects, &takes)?;
    let mut builder = Builder::default();
    let mut nodes = model_nodes(&models, &basis);
    let mut roots: Vec<usize> = (0..models.list.len())
        .filter(|&n| models.parent[n].is_none())
        .collect();
    let read = read_meshes(&models, objects)?;
    let mut materials = Materials::default();
    let mut meshes = Vec::new();
    let mut skins = Vec::new();
    for mesh in &read {
        let slots: Vec<Option<usize>> = objects
            .children_of_class(mesh.model.id, "Material")
            .map(|(m, _)| materials.of(m, objects, files, &mut builder))
            .collect();
        if let Some(skin) = &mesh.skin {
            skins.push(skin_json(skin, mesh, &models, &basis, &mut builder)?);
            nodes[mesh.node]["skin"] = json!(skins.len() - 1);
        }
        let primitives = primitives(mesh, &slots, &basis, &mut builder, &mut materials);
        let mut gltf_mesh = json!({"name": mesh.model.name, "primitives": primitives});
        if !mesh.shapes.is_empty() {
            let weights: Vec<f32> = mesh.shapes.iter().map(|s| s.weight as f32).collect();
            let names: Vec<&str> = mesh.shapes.iter().map(|s| s.name.as_str()).collect();
            gltf_mesh["weights"] = json!(weights);
            gltf_mesh["extras"] = json!({ "targetNames": names });
        }
        meshes.push(gltf_mesh);
        nodes[mesh.node]["mesh"] = json!(meshes.len() - 1);
    }
    if meshes.is_empty() {
        // A skeleton without a mesh: capsules between its joints.
        let (mesh, skin) = capsules_of(&models, &basis, &mut builder)?;
        skins.push(skin);
        meshes.push(mesh);
        nodes.push(json!({"name": "body", "mesh": 0, "skin": 0}));
        roots.push(nodes.len() - 1);
    }
    let mut animations: Vec<Value> = Vec::with_capacity(takes.len());
    for take in &takes {
        let animation = clip(take, &models, &read, &basis, &mut builder)?;
        if animation["channels"]
            .as_array()
            .is_some_and(|c| !c.is_empty())
        {
            animations.push(animation);
        }
    }
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

/// The models as nodes, with their local transforms in glTF's basis and
/// their children, then the frame nodes some models hang from (see
/// [`Models::frames`]).
fn model_nodes(models: &Models, basis: &Basis) -> Vec<Value> {
    let count = models.list.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); count + models.frames.len()];
    for (c, parent) in models.parent.iter().enumerate() {
        if let Some(p) = parent {
            children[models.frame_node(c).unwrap_or(*p)].push(c);
        }
    }
    for (k, &(p, _)) in models.frames.iter().enumerate() {
        children[p].push(count + k);
    }
    let mut children = children.into_iter();
    let node = |name: &str, local: DMat4, children: Vec<usize>| {
        let (t, r, s) = as_trs(basis.transform(local));
        let mut node = json!({
            "name": name,
            "translation": t.as_vec3().to_array(),
            "rotation": r.as_quat().normalize().to_array(),
            "scale": s.as_vec3().to_array(),
        });
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        node
    };
    let mut nodes: Vec<Value> = (0..count)
        .map(|n| {
            node(
                &models.list[n].name,
                models.local[n],
                children.next().unwrap_or_default(),
            )
        })
        .collect();
    for &(p, frame) in &models.frames {
        let local = models.frame_of(p, frame, models.world[p]);
        let name = format!("{} {}", models.list[p].name, frame.name());
        nodes.push(node(&name, local, children.next().unwrap_or_default()));
    }
    nodes
}

/// The mesh models' geometry, skin and shapes, those with triangles.
fn read_meshes<'o, 'a>(
    models: &Models<'o, 'a>,
    objects: &'o Objects<'a>,
) -> Result<Vec<ReadMesh<'o, 'a>>, FbxError> {
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
        // A mesh of no points or no polygons (an empty object, a curve's
        // edges) draws nothing: left out, as three.js leaves it out.
        if ["Vertices", "PolygonVertexIndex"]
            .iter()
            .any(|name| geometry.node.child(name).is_none())
        {
            continue;
        }
        let geometric = TransformParts::geometric(model);
        let data = mesh_data(geometry, geometric)?;
        let skin = skin_of(objects, geometry, data.point_count)?;
        let shapes = shapes_of(objects, geometry, data.point_count, geometric)?;
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
    Ok(read)
}

/// A mesh's skin as a glTF skin: its bones' nodes as joints, and inverse
/// binds such that glTF's `G_j · IBM_j` is FBX's bone global over its bind:
/// `IBM_j` is the mesh in the bone's frame at bind where [`Skin`] keeps it
/// (the cluster's `Transform`), else `TransformLink⁻¹ · mesh world`, the
/// bone's rest standing for a `TransformLink` the cluster lacks.
fn skin_json(
    skin: &Skin,
    mesh: &ReadMesh,
    models: &Models,
    basis: &Basis,
    builder: &mut Builder,
) -> Result<Value, FbxError> {
    let mut joints = Vec::new();
    let mut binds = Vec::new();
    for (bone, link, mesh_to_bone) in &skin.joints {
        let node = *models.node_of.get(bone).ok_or_else(|| FbxError::Missing {
            path: mesh.model.path.to_string(),
            what: format!("the bone model {bone} of its skin"),
        })?;
        joints.push(node);
        let link = link.unwrap_or(models.world[node]);
        let ibm = basis
            .transform(mesh_to_bone.unwrap_or_else(|| link.inverse() * models.world[mesh.node]));
        binds.extend(ibm.as_mat4().to_cols_array());
    }
    let count = joints.len();
    let ibm = builder.accessor(
        &floats(binds),
        None,
        json!({"componentType": FLOAT, "count": count, "type": "MAT4"}),
    );
    Ok(json!({"joints": joints, "inverseBindMatrices": ibm}))
}

/// A skeleton without a mesh drawn as capsules between its joints: the mesh
/// and its skin, every model a joint bound where it rests.
fn capsules_of(
    models: &Models,
    basis: &Basis,
    builder: &mut Builder,
) -> Result<(Value, Value), FbxError> {
    let rest: Vec<Vec3> = models
        .world
        .iter()
        .map(|w| basis.point(w.w_axis.truncate()))
        .collect();
    let body = capsule_body(&models.parent, &rest);
    let primitive = body.primitive(builder).ok_or_else(|| FbxError::Missing {
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
    let joints: Vec<usize> = (0..models.list.len()).collect();
    let skin = json!({"joints": joints, "inverseBindMatrices": ibm});
    Ok((json!({"name": "body", "primitives": [primitive]}), skin))
}

/// One glTF primitive per material slot of `mesh`, each with its own
/// vertices (a vertex two materials share is written for both).
///
/// Longer than a screen: each primitive's attributes (positions, UVs, normals,
/// skin, morph targets) are written through one map from the mesh's points to
/// the primitive's own vertices; each attribute is a few lines on that map.
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
        let points: Vec<Vec3> = used
            .iter()
            .map(|&v| basis.point(data.positions[v]))
            .collect();
        let count = points.len();
        let mut attributes = serde_json::Map::new();
        attributes.insert("POSITION".into(), vec3s(builder, &points, true).into());
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
                    let offsets: Vec<Vec3> = used
                        .iter()
                        .map(|&v| {
                            shape
                                .offsets
                                .get(&data.source[v])
                                .map_or(Vec3::ZERO, |d| basis.vector(*d))
                        })
                        .collect();
                    json!({"POSITION": vec3s(builder, &offsets, true)})
                })
                .collect();
            primitive["targets"] = json!(targets);
        }
        out.push(primitive);
    }
    out
}
