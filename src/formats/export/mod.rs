//! Writing a scene as binary glTF 2.0 (`.glb`): each of the scene's meshes
//! as a mesh of its own (its name, a primitive per surface in its material,
//! its morph targets), skinned by the skin it was read with (one per skin
//! of the file, each listing every bone as its joints) with the painted
//! weights, or static; and the current pose as the joints' node
//! transforms, so any glTF viewer shows what Skinlab shows. A mesh that
//! rides one joint rigidly is a child node of that joint, its points in the
//! joint's frame (`IBM_j · p`), so it follows the joint as it did; read
//! back, it rests where the file was posed (glTF has no bind pose for a
//! rigid child). Without a skinned mesh in the scene (the robot) rigid
//! parts go out skinned with weight 1, so the skin keeps the skeleton.
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
//! A file's materials go back out as its primitives used them
//! ([`materials`]), the texture images embedded in the binary chunk and the
//! UVs as `TEXCOORD_0`.

use glam::{Mat4, Quat, Vec3};
use serde_json::{json, Value};

use super::gltf::glb::write_glb;
use super::gltf::GltfError;
use super::gltf_write::{
    floats, vec3s, Builder, ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, UNSIGNED_INT, UNSIGNED_SHORT,
};
use crate::rig::animation::{Animation, Interpolation, WeightsChannel};
use crate::rig::pose::BoneTransform;
use crate::rig::skeleton::Skeleton;
use crate::scene::{MeshBinding, MeshPart, Scene};
use crate::skin::influences::VertexInfluences;

mod materials;

/// How a mesh goes out: skinned by the skin, as a child node of the joint
/// it rides, or static.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Written {
    Skinned,
    Rigid { bone: usize },
    Static,
}

/// How each of the scene's meshes goes out. A rigid part is a child node of
/// its joint when the file has a skin (whose joints keep the bones bones
/// when it is read again) and every one of its vertices still rides that
/// joint alone; otherwise, weights painted on it or no skin to keep the
/// skeleton, it is skinned to its bones.
fn written(scene: &Scene) -> Vec<Written> {
    let has_skin = scene
        .meshes
        .iter()
        .any(|part| part.binding == MeshBinding::Skinned);
    scene
        .meshes
        .iter()
        .map(|part| {
            let range = part.first_vertex..part.first_vertex + part.vertex_count;
            match part.binding {
                MeshBinding::Static => Written::Static,
                MeshBinding::Rigid { bone }
                    if has_skin
                        && scene.influences[range]
                            .iter()
                            .all(|v| v.pairs().count() == 1 && v.weight_of(bone as u16) == 1.0) =>
                {
                    Written::Rigid { bone }
                }
                _ => Written::Skinned,
            }
        })
        .collect()
}

/// Where a skinned mesh's bones are among the skin's joints, and the joint
/// that never moves.
struct SkinSlots<'a> {
    joint_of: &'a [u16],
    still_joint: usize,
}

/// Where a mesh's vertices go: a rigid part's points, normals and offsets
/// in its joint's frame (normals by the inverse transpose, so a scaled
/// joint keeps them perpendicular); the others' as the scene holds them.
struct Placing {
    place: Mat4,
    turn_normal: glam::Mat3,
}

impl Placing {
    fn new(joint_from_model: Option<Mat4>) -> Self {
        let place = joint_from_model.unwrap_or(Mat4::IDENTITY);
        let turn_normal = glam::Mat3::from_mat4(place).inverse().transpose();
        Self { place, turn_normal }
    }
}

/// One of the scene's meshes as a glTF mesh: its vertices (with joints and
/// weights unless it is static, bound to joint `still_joint` where no bone
/// moves them), one primitive per surface in its material (one for all its
/// triangles when the scene has no surfaces), and the morph targets, with
/// their weights and names, when any target moves one of its vertices.
fn mesh_json(
    builder: &mut Builder,
    scene: &Scene,
    part: &MeshPart,
    skin: Option<SkinSlots>,
    joint_from_model: Option<Mat4>,
) -> Value {
    let range = part.first_vertex..part.first_vertex + part.vertex_count;
    let placing = Placing::new(joint_from_model);
    let mut attributes = vertex_attributes(builder, scene, range.clone(), &placing);
    if let Some(slots) = skin {
        skin_attributes(builder, scene, range.clone(), &slots, &mut attributes);
    }
    let targets = morph_targets(builder, scene, range.clone(), &placing);
    let runs = triangle_runs(scene, range);
    let mut primitives: Vec<Value> = runs
        .iter()
        .map(|(run, material)| {
            let rebased: Vec<u8> = run
                .iter()
                .flat_map(|&i| (i - part.first_vertex as u32).to_le_bytes())
                .collect();
            let mut primitive = json!({
                "attributes": attributes,
                "indices": builder.accessor(
                    &rebased,
                    Some(ELEMENT_ARRAY_BUFFER),
                    json!({"componentType": UNSIGNED_INT, "count": run.len(), "type": "SCALAR"}),
                ),
            });
            if let Some(material) = material {
                primitive["material"] = json!(material);
            }
            primitive
        })
        .collect();
    if primitives.is_empty() {
        // Points: a mesh without triangles.
        primitives.push(json!({"attributes": attributes, "mode": 0}));
    }
    if let Some(targets) = &targets {
        for primitive in &mut primitives {
            primitive["targets"] = json!(targets);
        }
    }
    let name = if part.name.is_empty() {
        "skin"
    } else {
        part.name.as_str()
    };
    let mut mesh = json!({"name": name, "primitives": primitives});
    if targets.is_some() {
        mesh["weights"] = json!(scene.morph_weights);
        let names: Vec<&str> = scene.morphs.iter().map(|m| m.name.as_str()).collect();
        mesh["extras"] = json!({ "targetNames": names });
    }
    mesh
}

/// The attributes of the vertices in `range`: POSITION (with its bounds)
/// and NORMAL placed, and the scene's vertex colours (COLOR_0) and texture
/// coordinates (TEXCOORD_0) where it has them.
fn vertex_attributes(
    builder: &mut Builder,
    scene: &Scene,
    range: std::ops::Range<usize>,
    placing: &Placing,
) -> Value {
    let count = range.len();
    let points: Vec<Vec3> = scene.mesh.positions_model[range.clone()]
        .iter()
        .map(|p| placing.place.transform_point3(*p))
        .collect();
    let normals: Vec<Vec3> = scene.mesh.normals_model[range.clone()]
        .iter()
        .map(|n| (placing.turn_normal * *n).normalize_or_zero())
        .collect();
    let mut attributes = json!({
        "POSITION": vec3s(builder, &points, true),
        "NORMAL": vec3s(builder, &normals, false),
    });
    if scene.vertex_colours.len() == scene.mesh.vertex_count() {
        // glTF's COLOR_0: linear RGB floats, multiplying the base colour.
        attributes["COLOR_0"] = vec3s(builder, &scene.vertex_colours[range.clone()], false).into();
    }
    if let Some(colour) = scene
        .base_colour
        .as_ref()
        .filter(|_| materials::textured(scene))
    {
        let uvs = floats(colour.uvs[range].iter().flat_map(|uv| uv.to_array()));
        attributes["TEXCOORD_0"] = builder
            .accessor(
                &uvs,
                Some(ARRAY_BUFFER),
                json!({"componentType": FLOAT, "count": count, "type": "VEC2"}),
            )
            .into();
    }
    attributes
}

/// JOINTS_0 and WEIGHTS_0 of the vertices in `range`: each vertex's four
/// largest influences as skin joints, weights summing to 1; a vertex no
/// bone moves rides the still joint.
fn skin_attributes(
    builder: &mut Builder,
    scene: &Scene,
    range: std::ops::Range<usize>,
    slots: &SkinSlots,
    attributes: &mut Value,
) {
    let count = range.len();
    let mut joint_bytes = Vec::with_capacity(count * 8);
    let mut weight_values = Vec::with_capacity(count * 4);
    for influences in &scene.influences[range] {
        let total = influences.total_weight();
        let mut pairs = [(0u16, 0.0f32); 4];
        if total > 0.0 {
            for (slot, (bone, weight)) in influences.pairs().take(4).enumerate() {
                pairs[slot] = (slots.joint_of[usize::from(bone)], weight / total);
            }
        } else {
            pairs[0] = (slots.still_joint as u16, 1.0);
        }
        for (joint, weight) in pairs {
            joint_bytes.extend_from_slice(&joint.to_le_bytes());
            weight_values.push(weight);
        }
    }
    attributes["JOINTS_0"] = builder
        .accessor(
            &joint_bytes,
            Some(ARRAY_BUFFER),
            json!({"componentType": UNSIGNED_SHORT, "count": count, "type": "VEC4"}),
        )
        .into();
    attributes["WEIGHTS_0"] = builder
        .accessor(
            &floats(weight_values),
            Some(ARRAY_BUFFER),
            json!({"componentType": FLOAT, "count": count, "type": "VEC4"}),
        )
        .into();
}

/// The morph targets of the vertices in `range`, offsets as glTF stores
/// them (POSITION with its bounds, NORMAL where the scene has them); none
/// when no target moves one of these vertices.
fn morph_targets(
    builder: &mut Builder,
    scene: &Scene,
    range: std::ops::Range<usize>,
    placing: &Placing,
) -> Option<Vec<Value>> {
    let morphed = scene
        .morphs
        .iter()
        .any(|m| m.positions[range.clone()].iter().any(|d| *d != Vec3::ZERO));
    morphed.then(|| {
        scene
            .morphs
            .iter()
            .map(|morph| {
                let offsets: Vec<Vec3> = morph.positions[range.clone()]
                    .iter()
                    .map(|d| placing.place.transform_vector3(*d))
                    .collect();
                let mut target = json!({"POSITION": vec3s(builder, &offsets, true)});
                if let Some(normals) = &morph.normals {
                    let turned: Vec<Vec3> = normals[range.clone()]
                        .iter()
                        .map(|d| placing.turn_normal * *d)
                        .collect();
                    target["NORMAL"] = vec3s(builder, &turned, false).into();
                }
                target
            })
            .collect()
    })
}

/// The triangles of the vertices in `range` with their glTF materials: a
/// run per surface of the scene among them, or, without surfaces, all of
/// their own as one run when they are contiguous (the examples' meshes and
/// a file's are).
fn triangle_runs(scene: &Scene, range: std::ops::Range<usize>) -> Vec<(&[u32], Option<usize>)> {
    let indices = &scene.mesh.indices;
    let inside = |run: &[u32]| run.first().is_some_and(|&v| range.contains(&(v as usize)));
    if scene.surfaces.is_empty() {
        let own: Vec<usize> = (0..indices.len() / 3)
            .filter(|t| inside(&indices[3 * t..3 * t + 3]))
            .collect();
        return match (own.first(), own.last()) {
            (Some(&a), Some(&b)) if b - a + 1 == own.len() => {
                vec![(
                    &indices[3 * a..3 * b + 3],
                    materials::material_of(scene, None),
                )]
            }
            _ => Vec::new(),
        };
    }
    scene
        .surfaces
        .iter()
        .map(|s| {
            (
                &indices[s.first_index..s.first_index + s.index_count],
                s.material,
            )
        })
        .filter(|(run, _)| inside(run))
        .map(|(run, material)| (run, materials::material_of(scene, Some(material))))
        .collect()
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
    morphed_nodes: &[usize],
    channels: &mut Vec<Value>,
    samplers: &mut Vec<Value>,
) {
    let times = &weights.times;
    if times.is_empty() || morphed_nodes.is_empty() {
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
    // One sampler, a channel for each morphed mesh's node: every mesh
    // carries every target, so they share the weights.
    for &node in morphed_nodes {
        channels
            .push(json!({"sampler": samplers.len(), "target": {"node": node, "path": "weights"}}));
    }
    samplers.push(json!({"input": input, "output": output, "interpolation": interpolation}));
}

/// Every clip as glTF animations of the bone nodes (and the morph weights
/// of the mesh's node, `mesh_node`).
///
/// Longer than a screen: each clip's channels (translation, rotation, scale per
/// bone, the morph weights) written through one set of accessors and samplers,
/// in glTF's order.
fn animations(
    builder: &mut Builder,
    skeleton: &Skeleton,
    animation: &Animation,
    morphed_nodes: &[usize],
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
            weights_channel(
                builder,
                weights,
                morphed_nodes,
                &mut channels,
                &mut samplers,
            );
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
    let mut builder = Builder::default();
    // Nodes 0..n are the bones, in the skeleton's order.
    let children = children_of(skeleton);
    let mut nodes = bone_nodes(scene, &children);
    let mut roots: Vec<usize> = (0..children.len())
        .filter(|&bone| skeleton.bones()[bone].parent.is_none())
        .collect();
    let written = written(scene);
    let mut skin = SkinJoints::of(scene, &written, &children);
    if skin.unmoved {
        // The joint that never moves is the common root of the others: the
        // validator asks a skin's joints for one, and a node above the
        // skeleton moves nothing when nothing animates it.
        nodes.push(json!({"name": "unmoved", "children": roots}));
        roots = vec![nodes.len() - 1];
        skin.joints.push(nodes.len() - 1);
        skin.inverse_binds.push(Mat4::IDENTITY);
    }
    let meshes: Vec<Value> = scene
        .meshes
        .iter()
        .zip(&written)
        .map(|(part, &how)| {
            let joint_from_model = match how {
                Written::Rigid { bone } => skin.bone_inverse_binds.get(bone).copied(),
                _ => None,
            };
            let slots = (how == Written::Skinned).then_some(SkinSlots {
                joint_of: &skin.joint_of,
                still_joint: skin.still_joint,
            });
            mesh_json(&mut builder, scene, part, slots, joint_from_model)
        })
        .collect();
    let inverse_bind_matrices = inverse_bind_accessor(&mut builder, &skin.inverse_binds);
    let (skin_count, gltf_skin) = skin_groups(scene, &written);
    let placed = place_meshes(&mut nodes, &written, &meshes, &skin.own_node, &gltf_skin);
    // The skinned and static meshes first: a reader walking the scene then
    // meets them before the skeleton's rigid parts, as files usually list
    // them.
    let mut scene_roots = placed.roots;
    scene_roots.extend(roots);
    let clips = animations(&mut builder, skeleton, &scene.animation, &placed.morphed);
    let materials = materials::materials_json(&mut builder, scene);
    builder.bin.resize(builder.bin.len().next_multiple_of(4), 0);
    let mut document = json!({
        "asset": {"version": "2.0", "generator": "Skinlab"},
        "scene": 0,
        "scenes": [{"nodes": scene_roots}],
        "nodes": nodes,
        "meshes": meshes,
        "accessors": builder.accessors,
        "bufferViews": builder.views,
        "buffers": [{"byteLength": builder.bin.len()}],
    });
    if scene
        .meshes
        .iter()
        .any(|part| part.binding != MeshBinding::Static)
    {
        let gltf = json!({"joints": skin.joints, "inverseBindMatrices": inverse_bind_matrices});
        document["skins"] = json!(vec![gltf; skin_count.max(1)]);
    }
    if !clips.is_empty() {
        document["animations"] = json!(clips);
    }
    if let Value::Object(parts) = materials {
        for (key, value) in parts {
            document[key] = value;
        }
    }
    let json = serde_json::to_vec(&document).map_err(|e| GltfError::Json(e.to_string()))?;
    write_glb(&json, &builder.bin)
}

/// Each bone's child bones.
fn children_of(skeleton: &Skeleton) -> Vec<Vec<usize>> {
    let bones = skeleton.bones();
    let mut children = vec![Vec::new(); bones.len()];
    for (bone, this) in bones.iter().enumerate() {
        if let Some(parent) = this.parent {
            children[usize::from(parent)].push(bone);
        }
    }
    children
}

/// The bones as nodes, in the skeleton's order, posed as the scene is.
fn bone_nodes(scene: &Scene, children: &[Vec<usize>]) -> Vec<Value> {
    let skeleton = &scene.skeleton;
    skeleton
        .bones()
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
        .collect()
}

/// The skin's joints and binds.
struct SkinJoints {
    /// The joints' nodes: every bone but those carried (see
    /// [`SkinJoints::of`]), then the still joint when needed.
    joints: Vec<usize>,
    /// Each bone's place among the joints.
    joint_of: Vec<u16>,
    /// The joints' inverse bind matrices.
    inverse_binds: Vec<Mat4>,
    /// Each bone's inverse bind matrix.
    bone_inverse_binds: Vec<Mat4>,
    /// The mesh each bone carries as its own node, if any.
    own_node: Vec<Option<usize>>,
    /// Where the still joint goes among the joints.
    still_joint: usize,
    /// Whether some skinned vertex has no bone moving it (it rides the
    /// still joint).
    unmoved: bool,
}

impl SkinJoints {
    /// The joints of `scene` written as `written`. A bone that is a rigid
    /// mesh's own node (as a file's rigid mesh is read: its node becomes a
    /// bone) carries that mesh again, and is left out of the skin's joints
    /// when nothing else needs it there, so a reader binds it once, where
    /// the mesh is.
    fn of(scene: &Scene, written: &[Written], children: &[Vec<usize>]) -> Self {
        let skeleton = &scene.skeleton;
        let bones = skeleton.bones();
        let own_node: Vec<Option<usize>> = (0..bones.len())
            .map(|bone| {
                let mut riding = written
                    .iter()
                    .enumerate()
                    .filter(|(_, how)| matches!(how, Written::Rigid { bone: b } if *b == bone));
                match (riding.next(), riding.next()) {
                    (Some((part, _)), None) if scene.meshes[part].name == bones[bone].name => {
                        Some(part)
                    }
                    _ => None,
                }
            })
            .collect();
        let skinned: Vec<&VertexInfluences> = scene
            .meshes
            .iter()
            .zip(written)
            .filter(|(_, how)| **how == Written::Skinned)
            .flat_map(|(part, _)| {
                &scene.influences[part.first_vertex..part.first_vertex + part.vertex_count]
            })
            .collect();
        let carried = |bone: usize| {
            own_node[bone].is_some()
                && children[bone].is_empty()
                && !skinned.iter().any(|v| v.weight_of(bone as u16) > 0.0)
        };
        let joints: Vec<usize> = (0..bones.len()).filter(|&b| !carried(b)).collect();
        let mut joint_of = vec![0u16; bones.len()];
        for (k, &bone) in joints.iter().enumerate() {
            joint_of[bone] = k as u16;
        }
        // IBM_i = U_i · bind_i: the node is the joint, not the turned bone.
        let bone_inverse_binds: Vec<Mat4> = skeleton
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
        Self {
            inverse_binds: joints.iter().map(|&b| bone_inverse_binds[b]).collect(),
            still_joint: joints.len(),
            joints,
            joint_of,
            bone_inverse_binds,
            own_node,
            unmoved: skinned.iter().any(|v| v.total_weight() <= 0.0),
        }
    }
}

/// The inverse bind matrices' accessor. glTF requires an affine inverse
/// bind matrix with a last row of exactly 0 0 0 1; an inverse computed in
/// floats may miss it by an ulp.
fn inverse_bind_accessor(builder: &mut Builder, inverse_binds: &[Mat4]) -> usize {
    builder.accessor(
        &floats(inverse_binds.iter().flat_map(|m| {
            let mut columns = m.to_cols_array();
            for (k, value) in [0.0, 0.0, 0.0, 1.0].into_iter().enumerate() {
                columns[4 * k + 3] = value;
            }
            columns
        })),
        None,
        json!({"componentType": FLOAT, "count": inverse_binds.len(), "type": "MAT4"}),
    )
}

/// Every skin of the file stays a skin: the skinned meshes a skin bound
/// share it again (each skin listing every joint, so the joint indices are
/// the same in all), and the page's own skinned meshes share one. Returns
/// the number of skins and each mesh's (`usize::MAX` for a mesh not
/// skinned).
fn skin_groups(scene: &Scene, written: &[Written]) -> (usize, Vec<usize>) {
    let mut groups: Vec<Option<usize>> = Vec::new();
    let of_mesh = scene
        .meshes
        .iter()
        .zip(written)
        .map(|(part, how)| {
            if *how != Written::Skinned {
                return usize::MAX;
            }
            groups
                .iter()
                .position(|group| *group == part.skin)
                .unwrap_or_else(|| {
                    groups.push(part.skin);
                    groups.len() - 1
                })
        })
        .collect();
    (groups.len(), of_mesh)
}

/// Where [`place_meshes`] put the meshes.
struct Placed {
    /// The mesh nodes that are roots of the scene.
    roots: Vec<usize>,
    /// The nodes whose meshes have morph targets.
    morphed: Vec<usize>,
}

/// One node per mesh: a skinned or static one after the skeleton, in the
/// scene's order; a rigid one a child of its joint, before the joint's
/// child bones, so a reader walking the nodes meets the meshes in the
/// scene's order when they were in the skeleton's (a bone that is the
/// mesh's own node carries it itself).
fn place_meshes(
    nodes: &mut Vec<Value>,
    written: &[Written],
    meshes: &[Value],
    own_node: &[Option<usize>],
    gltf_skin: &[usize],
) -> Placed {
    let bone_count = own_node.len();
    let mut placed = Placed {
        roots: Vec::new(),
        morphed: Vec::new(),
    };
    let mut rigid_children = vec![0usize; bone_count];
    for (index, (&how, mesh)) in written.iter().zip(meshes).enumerate() {
        let morphed = mesh.get("weights").is_some();
        if let Written::Rigid { bone } = how {
            if own_node[bone] == Some(index) {
                nodes[bone]["mesh"] = json!(index);
                if morphed {
                    placed.morphed.push(bone);
                }
                continue;
            }
        }
        let mut node = json!({"name": mesh["name"], "mesh": index});
        if how == Written::Skinned {
            node["skin"] = gltf_skin[index].into();
        }
        let at = nodes.len();
        if morphed {
            placed.morphed.push(at);
        }
        nodes.push(node);
        match how {
            Written::Rigid { bone } if bone < bone_count => {
                let children = nodes[bone]
                    .as_object_mut()
                    .map(|n| n.entry("children").or_insert_with(|| json!([])));
                if let Some(Value::Array(list)) = children {
                    list.insert(rigid_children[bone], json!(at));
                    rigid_children[bone] += 1;
                }
            }
            _ => placed.roots.push(at),
        }
    }
    placed
}
