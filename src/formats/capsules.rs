//! A body of capsules for a skeleton without a mesh (a motion capture, an
//! animation file without its character): a capsule from each joint to
//! each of its children, moved by the joint; its ring at the child is
//! shared half and half with the child and its ring at the joint half and
//! half with the joint's parent, so the skin bends smoothly where two
//! capsules meet.

use glam::Vec3;
use serde_json::{json, Value};

use crate::formats::gltf_write::{
    floats, vec3s, Builder, ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, UNSIGNED_INT, UNSIGNED_SHORT,
};

/// Vertices around each capsule ring.
pub(crate) const SIDES: usize = 8;
/// The rings along each capsule, as fractions from joint to child.
pub(crate) const RINGS: [f32; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The capsule body as flat arrays.
#[derive(Default)]
pub(crate) struct Body {
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

    /// The glTF primitive, its attributes appended to `builder`; `None`
    /// for a body without vertices (every joint at one point).
    pub(crate) fn primitive(&self, builder: &mut Builder) -> Option<Value> {
        if self.positions.is_empty() {
            return None;
        }
        let count = self.positions.len();
        let position = vec3s(builder, &self.positions, true);
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
        Some(json!({
            "attributes": {"POSITION": position, "JOINTS_0": joints, "WEIGHTS_0": weights},
            "indices": indices,
        }))
    }
}

/// A capsule from each joint to each child (see the module documentation),
/// its radius a quarter of its length but at most 4 % of the figure's size;
/// `parents[k]` is joint `k`'s parent and `rest_model[k]` where it rests.
pub(crate) fn capsule_body(parents: &[Option<usize>], rest_model: &[Vec3]) -> Body {
    let (lo, hi) = rest_model.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let size = (hi - lo).length();
    let mut body = Body::default();
    for (child, joint_parent) in parents.iter().enumerate() {
        let Some(parent) = *joint_parent else {
            continue;
        };
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
        let at_joint: Vec<(usize, f32)> = match parents[parent] {
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
