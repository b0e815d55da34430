//! A captured motion as a scene: each joint and end site a glTF node
//! (translation = its offset, or its first frame's position), a body of capsules skinned to them, and the
//! frames as one LINEAR clip — written as a `.glb` and read by the one glTF
//! reader, so a captured skeleton gets the same bones, turns and clip
//! conversion as any glTF rig.
//!
//! The body: a capsule from each joint to each of its children, moved by
//! the joint; its ring at the child is shared half and half with the child
//! and its ring at the joint half and half with the joint's parent, so the
//! skin bends smoothly where two capsules meet.

use glam::{Mat4, Quat, Vec3};
use serde_json::{json, Value};

use super::{parse_bvh, BvhError, Motion};
use crate::formats::gltf::glb::write_glb;
use crate::formats::gltf::read_glb;
use crate::formats::gltf_write::{
    floats, Builder, ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, UNSIGNED_INT, UNSIGNED_SHORT,
};
use crate::scene::Scene;

/// Vertices around each capsule ring.
const SIDES: usize = 8;
/// The rings along each capsule, as fractions from joint to child.
const RINGS: [f32; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
/// The name of the captured clip.
pub const CAPTURE_CLIP: &str = "capture";

/// Reads a BVH file as a scene (see the module documentation).
pub fn scene_from_bvh(text: &str) -> Result<Scene, BvhError> {
    scene_from_motion(&parse_bvh(text)?)
}

/// A capsule body, a skin and a clip for `motion`.
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
    let body = body(motion, &rest_model);
    let primitive = body.primitive(&mut builder, joints.len())?;

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

/// The capsule body as flat arrays.
#[derive(Default)]
struct Body {
    positions: Vec<Vec3>,
    joints: Vec<[u16; 4]>,
    weights: Vec<[f32; 4]>,
    indices: Vec<u32>,
}

impl Body {
    fn vertex(&mut self, position: Vec3, influences: &[(usize, f32)]) -> u32 {
        let mut joints = [0u16; 4];
        let mut weights = [0.0f32; 4];
        for (slot, &(joint, weight)) in influences.iter().take(4).enumerate() {
            joints[slot] = joint as u16;
            weights[slot] = weight;
        }
        self.positions.push(position);
        self.joints.push(joints);
        self.weights.push(weights);
        (self.positions.len() - 1) as u32
    }

    /// The glTF primitive, its attributes appended to `builder`.
    fn primitive(&self, builder: &mut Builder, joint_count: usize) -> Result<Value, BvhError> {
        if self.positions.is_empty() {
            return Err(BvhError::Scene(format!(
                "the {joint_count} joints all sit at one point: no body to draw"
            )));
        }
        let (min, max) = self.positions.iter().fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        let count = self.positions.len();
        let position = builder.accessor(
            &floats(self.positions.iter().flat_map(|p| p.to_array())),
            Some(ARRAY_BUFFER),
            json!({"componentType": FLOAT, "count": count, "type": "VEC3",
                   "min": min.to_array(), "max": max.to_array()}),
        );
        let joint_bytes: Vec<u8> = self
            .joints
            .iter()
            .flatten()
            .flat_map(|j| j.to_le_bytes())
            .collect();
        let joints = builder.accessor(
            &joint_bytes,
            Some(ARRAY_BUFFER),
            json!({"componentType": UNSIGNED_SHORT, "count": count, "type": "VEC4"}),
        );
        let weights = builder.accessor(
            &floats(self.weights.iter().flatten().copied()),
            Some(ARRAY_BUFFER),
            json!({"componentType": FLOAT, "count": count, "type": "VEC4"}),
        );
        let index_bytes: Vec<u8> = self.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let indices = builder.accessor(
            &index_bytes,
            Some(ELEMENT_ARRAY_BUFFER),
            json!({"componentType": UNSIGNED_INT, "count": self.indices.len(), "type": "SCALAR"}),
        );
        Ok(json!({
            "attributes": {"POSITION": position, "JOINTS_0": joints, "WEIGHTS_0": weights},
            "indices": indices,
        }))
    }
}

/// A capsule from each joint to each child (see the module documentation),
/// its radius a quarter of its length but at most 4 % of the figure's size.
fn body(motion: &Motion, rest_model: &[Vec3]) -> Body {
    let (lo, hi) = rest_model.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let size = (hi - lo).length();
    let mut body = Body::default();
    for (child, joint) in motion.joints.iter().enumerate() {
        let Some(parent) = joint.parent else { continue };
        let (start, end) = (rest_model[parent], rest_model[child]);
        let length = start.distance(end);
        if length <= 1e-6 * size {
            continue;
        }
        let along = (end - start) / length;
        let radius = (0.25 * length).min(0.04 * size);
        let (u, v) = along.any_orthonormal_pair();
        let (u, v) = (v, u.cross(along).normalize_or(u)); // u × v = along
        let (u, v) = if u.cross(v).dot(along) < 0.0 {
            (v, u)
        } else {
            (u, v)
        };
        let at_joint: Vec<(usize, f32)> = match motion.joints[parent].parent {
            Some(grand) => vec![(parent, 0.5), (grand, 0.5)],
            None => vec![(parent, 1.0)],
        };
        let at_child = [(parent, 0.5), (child, 0.5)];
        let mut rings: Vec<Vec<u32>> = Vec::with_capacity(RINGS.len());
        for f in RINGS {
            let centre = start.lerp(end, f);
            let influences: &[(usize, f32)] = if f == 0.0 {
                &at_joint
            } else if f == 1.0 {
                &at_child
            } else {
                &[(parent, 1.0)]
            };
            let ring = (0..SIDES)
                .map(|k| {
                    let angle = std::f32::consts::TAU * k as f32 / SIDES as f32;
                    let offset = (u * angle.cos() + v * angle.sin()) * radius;
                    body.vertex(centre + offset, influences)
                })
                .collect();
            rings.push(ring);
        }
        for pair in rings.windows(2) {
            let (below, above) = (&pair[0], &pair[1]);
            for k in 0..SIDES {
                let next = (k + 1) % SIDES;
                body.indices.extend([below[k], below[next], above[next]]);
                body.indices.extend([below[k], above[next], above[k]]);
            }
        }
        let bottom = body.vertex(start - along * radius, &at_joint);
        let top = body.vertex(end + along * radius, &at_child);
        let (first, last) = (&rings[0], &rings[RINGS.len() - 1]);
        for k in 0..SIDES {
            let next = (k + 1) % SIDES;
            body.indices.extend([first[next], first[k], bottom]);
            body.indices.extend([last[k], last[next], top]);
        }
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;

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
