//! Writing a scene as binary glTF 2.0 (`.glb`): the rest mesh, a skin whose
//! joints are the bones, the painted weights, and the current pose as the
//! joints' node transforms, so any glTF viewer shows what Skinlab shows.
//!
//! A bone's node carries its local transform in its parent's frame:
//! `L_i = T(0, length_p, 0) · T(origin_i) · O_i · A_i`, which is exactly a
//! glTF `T · R · S` with `t = (0, length_p, 0) + origin_i + O_i t_A`,
//! `r = O_i q_A`, `s = s_A`. The inverse bind matrix of joint `i` is
//! `R_i⁻¹`, so glTF's `G_j · IBM_j` is Skinlab's `M_i = R'_i · R_i⁻¹`.
//! Vertices no bone moves are bound to an extra joint that never moves.
//!
//! Clips are written per bone, resampled at every key time of the clip
//! (LINEAR): a bone's local rotation is its joint's turned by constants on
//! both sides, and slerp commutes with that, so between the keys the written
//! clip follows the original's linear and slerp keys exactly. A clip with
//! STEP or CUBICSPLINE channels is also sampled at 30 keys per second, so
//! its curves are followed to within what moves in a thirtieth of a second.
//!
//! A base colour read from a glTF file goes back out as its material: the
//! factor, and the texture image (embedded in the binary chunk) with its
//! UVs as `TEXCOORD_0`.

use glam::{Mat4, Quat, Vec3};
use serde_json::{json, Value};

use super::gltf::glb::write_glb;
use super::gltf::GltfError;
use super::gltf_write::{
    floats, Builder, ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, UNSIGNED_INT, UNSIGNED_SHORT,
};
use crate::rig::animation::{Animation, Interpolation, WeightsChannel};
use crate::rig::pose::BoneTransform;
use crate::rig::skeleton::Skeleton;
use crate::scene::{BaseColour, Scene};

/// The mesh entry: its primitive, and the morph weights and target names
/// when it has targets.
fn mesh_json(scene: &Scene, primitive: Value) -> Value {
    let mut mesh = json!({"name": "skin", "primitives": [primitive]});
    if !scene.morphs.is_empty() {
        mesh["weights"] = json!(scene.morph_weights);
        let names: Vec<&str> = scene.morphs.iter().map(|m| m.name.as_str()).collect();
        mesh["extras"] = json!({ "targetNames": names });
    }
    mesh
}

/// The document's `materials`, and `textures` and `images` when there is a
/// texture, for the scene's base colour; sets the primitive's `material`
/// and, with a texture, its `TEXCOORD_0` (the UVs as read). Metallic 0 and
/// roughness 1 because the lab draws a matte skin, and glTF's default
/// metallic of 1 would show the model as metal elsewhere.
fn base_colour_json(
    builder: &mut Builder,
    colour: &BaseColour,
    vertex_count: usize,
    primitive: &mut Value,
) -> Value {
    let mut pbr = json!({
        "baseColorFactor": colour.factor,
        "metallicFactor": 0.0,
        "roughnessFactor": 1.0,
    });
    let mut parts = json!({});
    let textured = colour
        .image
        .as_ref()
        .filter(|_| colour.uvs.len() == vertex_count);
    if let Some(image) = textured {
        let uvs = builder.accessor(
            &floats(colour.uvs.iter().flat_map(|uv| uv.to_array())),
            Some(ARRAY_BUFFER),
            json!({"componentType": FLOAT, "count": colour.uvs.len(), "type": "VEC2"}),
        );
        primitive["attributes"]["TEXCOORD_0"] = uvs.into();
        let view = builder.view(&image.bytes, None);
        parts["images"] = json!([{"bufferView": view, "mimeType": image.mime_type}]);
        parts["textures"] = json!([{"source": 0}]);
        pbr["baseColorTexture"] = json!({"index": 0, "texCoord": 0});
    }
    parts["materials"] = json!([{"name": "skin", "pbrMetallicRoughness": pbr}]);
    primitive["material"] = 0.into();
    parts
}

/// A bone's node transform `(t, r, s)` in its parent joint's frame, for
/// pose `A`: the node is the joint (its frame `R'_i · U_i⁻¹`), so
/// `t = U_p · (ℓ_p·Y + o + O · t_A)`, `r = U_p · O · q_A · U⁻¹` and
/// `s = S ⊙ s_A` (for a lecture bone `U = I`, `S = 1`).
fn node_trs(skeleton: &Skeleton, bone: usize, pose: &BoneTransform) -> (Vec3, Quat, Vec3) {
    let bones = skeleton.bones();
    let this = &bones[bone];
    let (parent_tip, parent_turn) = this.parent.map_or((Vec3::ZERO, Quat::IDENTITY), |parent| {
        let parent = &bones[usize::from(parent)];
        (Vec3::Y * parent.length, parent.turn)
    });
    (
        parent_turn * (parent_tip + this.origin_in_parent + this.orientation * pose.translation),
        (parent_turn * this.orientation * pose.rotation * this.turn.inverse()).normalize(),
        this.rest_scale * pose.scale,
    )
}

/// Keys per second for a clip whose channels are not all LINEAR.
const RESAMPLED_PER_SECOND: f32 = 30.0;

/// The most resampled keys per clip (ten minutes at 30 per second).
const MAX_RESAMPLED_KEYS: usize = 18_000;

/// The morph weights' keys as glTF's `weights` channel of the mesh's node,
/// with their own interpolation (glTF keys weights as Skinlab does).
fn weights_channel(
    builder: &mut Builder,
    weights: &WeightsChannel,
    mesh_node: usize,
    channels: &mut Vec<Value>,
    samplers: &mut Vec<Value>,
) {
    let times = &weights.times;
    if times.is_empty() {
        return;
    }
    let n = weights.targets();
    let cubic = weights.interpolation == Interpolation::CubicSpline
        && weights.tangents.len() == 2 * weights.values.len();
    let values: Vec<f32> = if cubic {
        (0..times.len())
            .flat_map(|k| {
                let tangents = &weights.tangents[2 * n * k..2 * n * (k + 1)];
                let mut key = tangents[..n].to_vec();
                key.extend_from_slice(&weights.values[n * k..n * (k + 1)]);
                key.extend_from_slice(&tangents[n..]);
                key
            })
            .collect()
    } else {
        weights.values.clone()
    };
    let interpolation = match weights.interpolation {
        Interpolation::Step => "STEP",
        Interpolation::CubicSpline if cubic => "CUBICSPLINE",
        _ => "LINEAR",
    };
    let input = builder.accessor(
        &floats(times.iter().copied()),
        None,
        json!({"componentType": FLOAT, "count": times.len(), "type": "SCALAR",
               "min": [times[0]], "max": [times[times.len() - 1]]}),
    );
    let output = builder.accessor(
        &floats(values.iter().copied()),
        None,
        json!({"componentType": FLOAT, "count": values.len(), "type": "SCALAR"}),
    );
    channels
        .push(json!({"sampler": samplers.len(), "target": {"node": mesh_node, "path": "weights"}}));
    samplers.push(json!({"input": input, "output": output, "interpolation": interpolation}));
}

/// Every clip as glTF animations of the bone nodes (and the morph weights
/// of the mesh's node, `mesh_node`).
fn animations(
    builder: &mut Builder,
    skeleton: &Skeleton,
    animation: &Animation,
    mesh_node: usize,
) -> Vec<Value> {
    let bone_count = skeleton.len();
    let mut pose = vec![BoneTransform::IDENTITY; bone_count];
    let mut out = Vec::new();
    for (index, clip) in animation.clips.iter().enumerate() {
        let mut times: Vec<f32> = clip
            .channels
            .iter()
            .flat_map(|channel| channel.times.iter().copied())
            .filter(|t| t.is_finite())
            .collect();
        let curved = clip
            .channels
            .iter()
            .any(|channel| channel.interpolation != Interpolation::Linear);
        if curved {
            let frames = (clip.duration * RESAMPLED_PER_SECOND).ceil() as usize;
            times.extend(
                (0..frames.min(MAX_RESAMPLED_KEYS)).map(|k| k as f32 / RESAMPLED_PER_SECOND),
            );
        }
        crate::rig::sorting::sort_floats(&mut times);
        times.dedup_by(|a, b| (*a - *b).abs() < 1e-5);
        let mut samplers = Vec::new();
        let mut channels = Vec::new();
        if let Some(weights) = &clip.weights {
            weights_channel(builder, weights, mesh_node, &mut channels, &mut samplers);
        }
        if times.is_empty() {
            if !channels.is_empty() {
                out.push(json!({"name": clip.name, "channels": channels, "samplers": samplers}));
            }
            continue;
        }
        // trs[bone][key]
        let mut trs = vec![Vec::with_capacity(times.len()); bone_count];
        for &time in &times {
            animation.pose_at(index, time, &mut pose);
            for (bone, keys) in trs.iter_mut().enumerate() {
                keys.push(node_trs(skeleton, bone, &pose[bone]));
            }
        }
        let input = builder.accessor(
            &floats(times.iter().copied()),
            None,
            json!({"componentType": FLOAT, "count": times.len(), "type": "SCALAR",
                   "min": [times[0]], "max": [times[times.len() - 1]]}),
        );
        for (bone, keys) in trs.iter().enumerate() {
            let outputs = [
                (
                    "translation",
                    "VEC3",
                    floats(keys.iter().flat_map(|k| k.0.to_array())),
                ),
                (
                    "rotation",
                    "VEC4",
                    floats(keys.iter().flat_map(|k| k.1.to_array())),
                ),
                (
                    "scale",
                    "VEC3",
                    floats(keys.iter().flat_map(|k| k.2.to_array())),
                ),
            ];
            for (path, kind, bytes) in outputs {
                let output = builder.accessor(
                    &bytes,
                    None,
                    json!({"componentType": FLOAT, "count": times.len(), "type": kind}),
                );
                channels.push(
                    json!({"sampler": samplers.len(), "target": {"node": bone, "path": path}}),
                );
                samplers.push(json!({"input": input, "output": output, "interpolation": "LINEAR"}));
            }
        }
        out.push(json!({"name": clip.name, "channels": channels, "samplers": samplers}));
    }
    out
}

/// The scene (and its clips) as a `.glb`: see the module documentation for
/// what it holds.
pub fn glb_from_scene(scene: &Scene) -> Result<Vec<u8>, GltfError> {
    let skeleton = &scene.skeleton;
    let bones = skeleton.bones();
    let mut builder = Builder::default();

    // Nodes 0..n are the bones, in the skeleton's order.
    let mut children = vec![Vec::new(); bones.len()];
    for (bone, this) in bones.iter().enumerate() {
        if let Some(parent) = this.parent {
            children[usize::from(parent)].push(bone);
        }
    }
    let mut nodes: Vec<Value> = bones
        .iter()
        .enumerate()
        .map(|(index, bone)| {
            let (translation, rotation, scale) = node_trs(skeleton, index, &scene.pose[index]);
            let mut node = json!({
                "name": bone.name,
                "translation": translation.to_array(),
                "rotation": rotation.to_array(),
                "scale": scale.to_array(),
            });
            if !children[index].is_empty() {
                node["children"] = json!(children[index]);
            }
            node
        })
        .collect();
    let mut roots: Vec<usize> = (0..bones.len())
        .filter(|&bone| bones[bone].parent.is_none())
        .collect();

    // A joint that never moves, for vertices no bone moves.
    let unmoved = scene.influences.iter().any(|v| v.total_weight() <= 0.0);
    let mut joints: Vec<usize> = (0..bones.len()).collect();
    // IBM_i = U_i · bind_i: the node is the joint, not the turned bone.
    let mut inverse_binds: Vec<Mat4> = skeleton
        .bone_from_model_bind()
        .iter()
        .zip(bones)
        .enumerate()
        .map(|(index, (bind, bone))| {
            skeleton
                .inverse_bind(index)
                .unwrap_or_else(|| Mat4::from_quat(bone.turn) * *bind)
        })
        .collect();
    let still_joint = bones.len();
    if unmoved {
        // The joint that never moves is the common root of the others: the
        // validator asks a skin's joints for one, and a node above the
        // skeleton moves nothing when nothing animates it.
        nodes.push(json!({"name": "unmoved", "children": roots}));
        roots = vec![nodes.len() - 1];
        joints.push(nodes.len() - 1);
        inverse_binds.push(Mat4::IDENTITY);
    }

    let positions = &scene.mesh.positions_model;
    let (min, max) = positions.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let count = positions.len();
    let position = builder.accessor(
        &floats(positions.iter().flat_map(|p| p.to_array())),
        Some(ARRAY_BUFFER),
        json!({"componentType": FLOAT, "count": count, "type": "VEC3",
               "min": min.to_array(), "max": max.to_array()}),
    );
    let normal = builder.accessor(
        &floats(scene.mesh.normals_model.iter().flat_map(|n| n.to_array())),
        Some(ARRAY_BUFFER),
        json!({"componentType": FLOAT, "count": count, "type": "VEC3"}),
    );
    let mut joint_bytes = Vec::with_capacity(count * 8);
    let mut weight_values = Vec::with_capacity(count * 4);
    for influences in &scene.influences {
        let total = influences.total_weight();
        let mut slots = [(0u16, 0.0f32); 4];
        if total > 0.0 {
            for (slot, (bone, weight)) in influences.pairs().take(4).enumerate() {
                slots[slot] = (bone, weight / total);
            }
        } else {
            slots[0] = (still_joint as u16, 1.0);
        }
        for (bone, weight) in slots {
            joint_bytes.extend_from_slice(&bone.to_le_bytes());
            weight_values.push(weight);
        }
    }
    let joints_0 = builder.accessor(
        &joint_bytes,
        Some(ARRAY_BUFFER),
        json!({"componentType": UNSIGNED_SHORT, "count": count, "type": "VEC4"}),
    );
    let weights_0 = builder.accessor(
        &floats(weight_values),
        Some(ARRAY_BUFFER),
        json!({"componentType": FLOAT, "count": count, "type": "VEC4"}),
    );
    let mut primitive = json!({
        "attributes": {"POSITION": position, "NORMAL": normal, "JOINTS_0": joints_0, "WEIGHTS_0": weights_0},
    });
    let indices = &scene.mesh.indices;
    if indices.is_empty() {
        primitive["mode"] = 0.into(); // points: a mesh without triangles
    } else {
        primitive["indices"] = builder
            .accessor(
                &indices
                    .iter()
                    .flat_map(|i| i.to_le_bytes())
                    .collect::<Vec<u8>>(),
                Some(ELEMENT_ARRAY_BUFFER),
                json!({"componentType": UNSIGNED_INT, "count": indices.len(), "type": "SCALAR"}),
            )
            .into();
    }
    // Morph targets: offsets as glTF stores them (POSITION with its bounds).
    if !scene.morphs.is_empty() {
        let vec3s = |builder: &mut Builder, values: &[Vec3], bounded: bool| {
            let mut accessor =
                json!({"componentType": FLOAT, "count": values.len(), "type": "VEC3"});
            if bounded {
                let (lo, hi) = values.iter().fold(
                    (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
                    |(lo, hi), v| (lo.min(*v), hi.max(*v)),
                );
                accessor["min"] = json!(lo.to_array());
                accessor["max"] = json!(hi.to_array());
            }
            builder.accessor(
                &floats(values.iter().flat_map(|v| v.to_array())),
                Some(ARRAY_BUFFER),
                accessor,
            )
        };
        let targets: Vec<Value> = scene
            .morphs
            .iter()
            .map(|morph| {
                let mut target = json!({"POSITION": vec3s(&mut builder, &morph.positions, true)});
                if let Some(normals) = &morph.normals {
                    target["NORMAL"] = vec3s(&mut builder, normals, false).into();
                }
                target
            })
            .collect();
        primitive["targets"] = json!(targets);
    }
    if scene.vertex_colours.len() == count {
        // glTF's COLOR_0: linear RGB floats, multiplying the base colour.
        let colours = builder.accessor(
            &floats(scene.vertex_colours.iter().flat_map(|c| c.to_array())),
            Some(ARRAY_BUFFER),
            json!({"componentType": FLOAT, "count": count, "type": "VEC3"}),
        );
        primitive["attributes"]["COLOR_0"] = colours.into();
    }
    let material = scene
        .base_colour
        .as_ref()
        .map(|colour| base_colour_json(&mut builder, colour, count, &mut primitive));
    let inverse_bind_matrices = builder.accessor(
        // glTF requires an affine inverse bind matrix with a last row of
        // exactly 0 0 0 1; an inverse computed in floats may miss it by an
        // ulp.
        &floats(inverse_binds.iter().flat_map(|m| {
            let mut columns = m.to_cols_array();
            for (k, value) in [0.0, 0.0, 0.0, 1.0].into_iter().enumerate() {
                columns[4 * k + 3] = value;
            }
            columns
        })),
        None,
        json!({"componentType": FLOAT, "count": inverse_binds.len(), "type": "MAT4"}),
    );

    let clips = animations(&mut builder, skeleton, &scene.animation, nodes.len());
    nodes.push(json!({"name": "skin", "mesh": 0, "skin": 0}));
    roots.push(nodes.len() - 1);
    builder.bin.resize(builder.bin.len().next_multiple_of(4), 0);
    let mut document = json!({
        "asset": {"version": "2.0", "generator": "Skinlab"},
        "scene": 0,
        "scenes": [{"nodes": roots}],
        "nodes": nodes,
        "meshes": [mesh_json(scene, primitive)],
        "skins": [{"joints": joints, "inverseBindMatrices": inverse_bind_matrices}],
        "accessors": builder.accessors,
        "bufferViews": builder.views,
        "buffers": [{"byteLength": builder.bin.len()}],
    });
    if !clips.is_empty() {
        document["animations"] = json!(clips);
    }
    if let Some(Value::Object(parts)) = material {
        for (key, value) in parts {
            document[key] = value;
        }
    }
    let json = serde_json::to_vec(&document).map_err(|e| GltfError::Json(e.to_string()))?;
    write_glb(&json, &builder.bin)
}
