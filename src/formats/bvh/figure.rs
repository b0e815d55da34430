//! A captured motion as a scene: each joint and end site a glTF node
//! (translation = its offset, or its first frame's position), a body of
//! capsules skinned to them ([`crate::formats::capsules`]), and the frames
//! as one LINEAR clip — written as a `.glb` and read by the one glTF
//! reader, so a captured skeleton gets the same bones, turns and clip
//! conversion as any glTF rig.

use glam::{Mat4, Quat, Vec3};
use serde_json::{json, Value};

use super::{parse_bvh, BvhError, Motion};
use crate::formats::capsules::capsule_body;
use crate::formats::gltf::glb::write_glb;
use crate::formats::gltf::read_glb;
use crate::formats::gltf_write::{floats, Builder, FLOAT};
use crate::scene::Scene;

/// The name of the captured clip.
pub const CAPTURE_CLIP: &str = "capture";

/// Reads a BVH file as a scene (see the module documentation).
pub fn scene_from_bvh(text: &str) -> Result<Scene, BvhError> {
    scene_from_motion(&parse_bvh(text)?)
}

/// A capsule body, a skin and a clip for `motion`.
///
/// Longer than a screen: the capture's skeleton, its capsule body, the skin
/// that binds it and the clip, built in order from the one motion.
pub fn scene_from_motion(motion: &Motion) -> Result<Scene, BvhError> {
    let joints = &motion.joints;
    // A joint with position channels rests where the first frame puts it
    // (a capture's hips: the offset is often 0 and the height a channel),
    // so the figure is framed and bound where it starts; rotations rest at
    // zero, the pose the hierarchy is written in.
    let rest_local: Vec<Vec3> = (0..joints.len())
        .map(|k| {
            let moves = joints[k]
                .channels
                .iter()
                .any(|c| matches!(c, super::Channel::Position(_)));
            if moves && motion.frames > 0 {
                motion.local(k, 0).0
            } else {
                joints[k].offset
            }
        })
        .collect();
    let mut rest_model: Vec<Vec3> = Vec::with_capacity(joints.len());
    for (joint, local) in joints.iter().zip(&rest_local) {
        let base = joint.parent.map_or(Vec3::ZERO, |p| rest_model[p]);
        rest_model.push(base + *local);
    }
    let mut builder = Builder::default();
    let parents: Vec<Option<usize>> = joints.iter().map(|j| j.parent).collect();
    let primitive = capsule_body(&parents, &rest_model)
        .primitive(&mut builder)
        .ok_or_else(|| {
            BvhError::Scene(format!(
                "the {} joints all sit at one point: no body to draw",
                joints.len()
            ))
        })?;

    let mut children: Vec<Vec<usize>> = vec![Vec::new(); joints.len()];
    for (k, joint) in joints.iter().enumerate() {
        if let Some(p) = joint.parent {
            children[p].push(k);
        }
    }
    let mut nodes: Vec<Value> = joints
        .iter()
        .zip(&children)
        .zip(&rest_local)
        .map(|((joint, children), local)| {
            let mut node = json!({"name": joint.name, "translation": local.to_array()});
            if !children.is_empty() {
                node["children"] = json!(children);
            }
            node
        })
        .collect();
    let mesh_node = nodes.len();
    nodes.push(json!({"name": "body", "mesh": 0, "skin": 0}));
    let mut roots: Vec<usize> = (0..joints.len())
        .filter(|&k| joints[k].parent.is_none())
        .collect();
    roots.push(mesh_node);

    let inverse_binds: Vec<f32> = rest_model
        .iter()
        .flat_map(|p| Mat4::from_translation(-*p).to_cols_array())
        .collect();
    let ibm = builder.accessor(
        &floats(inverse_binds),
        None,
        json!({"componentType": FLOAT, "count": joints.len(), "type": "MAT4"}),
    );
    let mut document = json!({
        "asset": {"version": "2.0", "generator": "Skinlab BVH reader"},
        "scene": 0,
        "scenes": [{"nodes": roots}],
        "nodes": nodes,
        "meshes": [{"name": "body", "primitives": [primitive]}],
        "skins": [{"joints": (0..joints.len()).collect::<Vec<_>>(), "inverseBindMatrices": ibm}],
    });
    if motion.frames > 0 {
        document["animations"] = json!([clip(motion, &mut builder)]);
    }
    document["buffers"] = json!([{"byteLength": builder.bin.len()}]);
    document["bufferViews"] = json!(builder.views);
    document["accessors"] = json!(builder.accessors);
    let json = serde_json::to_vec(&document).map_err(|e| BvhError::Scene(e.to_string()))?;
    let glb = write_glb(&json, &builder.bin).map_err(|e| BvhError::Scene(e.to_string()))?;
    read_glb(&glb).map_err(|e| BvhError::Scene(e.to_string()))
}

/// One LINEAR rotation channel per joint with channels, and a translation
/// channel where it has position channels; a key per frame.
fn clip(motion: &Motion, builder: &mut Builder) -> Value {
    let times: Vec<f32> = (0..motion.frames)
        .map(|f| f as f32 * motion.frame_time)
        .collect();
    let input = builder.accessor(
        &floats(times.iter().copied()),
        None,
        json!({"componentType": FLOAT, "count": times.len(), "type": "SCALAR",
               "min": [times[0]], "max": [times[times.len() - 1]]}),
    );
    let mut samplers = Vec::new();
    let mut channels = Vec::new();
    for (k, joint) in motion.joints.iter().enumerate() {
        if joint.channels.is_empty() {
            continue;
        }
        let locals: Vec<(Vec3, Quat)> = (0..motion.frames).map(|f| motion.local(k, f)).collect();
        let rotations = builder.accessor(
            &floats(locals.iter().flat_map(|(_, q)| q.to_array())),
            None,
            json!({"componentType": FLOAT, "count": locals.len(), "type": "VEC4"}),
        );
        samplers.push(json!({"input": input, "output": rotations, "interpolation": "LINEAR"}));
        channels.push(
            json!({"sampler": samplers.len() - 1, "target": {"node": k, "path": "rotation"}}),
        );
        let moves = joint
            .channels
            .iter()
            .any(|c| matches!(c, super::Channel::Position(_)));
        if moves {
            let translations = builder.accessor(
                &floats(locals.iter().flat_map(|(t, _)| t.to_array())),
                None,
                json!({"componentType": FLOAT, "count": locals.len(), "type": "VEC3"}),
            );
            samplers
                .push(json!({"input": input, "output": translations, "interpolation": "LINEAR"}));
            channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": k, "path": "translation"}}));
        }
    }
    json!({"name": CAPTURE_CLIP, "samplers": samplers, "channels": channels})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::capsules::{RINGS, SIDES};

    const TWO: &str = "HIERARCHY\nROOT hips\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\nJOINT knee\n{\nOFFSET 0 -4 0\nCHANNELS 3 Zrotation Xrotation Yrotation\nEnd Site\n{\nOFFSET 0 -4 0\n}\n}\n}\nMOTION\nFrames: 3\nFrame Time: 0.1\n0 0 0 0 0 0 0 0 0\n1 0 0 0 0 0 90 0 0\n2 0 0 0 0 0 0 0 0\n";

    #[test]
    fn a_capture_becomes_bones_a_body_and_a_clip() {
        let scene = scene_from_bvh(TWO).unwrap();
        assert_eq!(scene.skeleton.len(), 3);
        assert_eq!(scene.animation.clips.len(), 1);
        assert_eq!(scene.animation.clips[0].name, CAPTURE_CLIP);
        assert_eq!(
            scene.mesh.positions_model.len(),
            2 * (RINGS.len() * SIDES + 2)
        );
        let rest = scene.skeleton.model_from_bone_rest();
        assert!(rest[2]
            .w_axis
            .truncate()
            .abs_diff_eq(Vec3::new(0.0, -8.0, 0.0), 1e-5));
    }

    #[test]
    fn a_figure_of_one_point_is_refused() {
        let text =
            "HIERARCHY\nROOT a\n{\nOFFSET 0 0 0\nCHANNELS 0\n}\nMOTION\nFrames: 0\nFrame Time: 1\n";
        assert!(matches!(scene_from_bvh(text), Err(BvhError::Scene(_))));
    }
}
