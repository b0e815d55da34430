//! The bones of a glTF scene: every joint of every skin a shown mesh uses,
//! every node a joint hangs from, and every mesh node that moves rigidly;
//! each a [`BoneDoc`] with its rest scale, its turn toward its first child
//! and its inverse bind matrix, and a twin bone for each joint a second skin
//! binds elsewhere.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use glam::{Mat4, Quat, Vec3};

use super::accessors::Buffers;
use super::document::Document;
use super::GltfError;
use crate::rig::pose::BoneTransform;
use crate::rig::skeleton::{SkeletonError, MAX_BONES};
use crate::scene::doc::BoneDoc;
use crate::scene::SceneError;

/// The bones of a scene as they are found, and the palette entries bound
/// so far.
pub(super) struct Bones {
    /// The bones, parents first (a common root first where the nodes have
    /// several).
    pub(super) docs: Vec<BoneDoc>,
    /// Each bone node's bone.
    pub(super) bone_of_node: HashMap<usize, usize>,
    /// Whether a node is a mesh that moves rigidly with its own bone.
    pub(super) rigid: Vec<bool>,
    /// Per bone, the inverse binds it already carries and their entries.
    binds: Vec<Vec<(Mat4, usize)>>,
}

impl Bones {
    /// The bones for the meshes `shown`, skinned by `skins` (each skin's
    /// index and its inverse bind matrices).
    pub(super) fn of(
        document: &Document,
        node_parent: &[Option<usize>],
        shown: &[usize],
        skins: &[(usize, Vec<Mat4>)],
    ) -> Result<Self, GltfError> {
        let roles = NodeRoles::of(document, node_parent, shown, skins);
        let bone_nodes = parents_first(document, node_parent, &roles.is_bone);
        let roots = bone_nodes
            .iter()
            .filter(|&&n| node_parent[n].is_none())
            .count();
        let synthetic_root = roots != 1;
        let offset = usize::from(synthetic_root);
        let mut bone_of_node: HashMap<usize, usize> = HashMap::new();
        for (position, &node) in bone_nodes.iter().enumerate() {
            bone_of_node.insert(node, position + offset);
        }
        if bone_nodes.len() + offset > MAX_BONES {
            return Err(SceneError::Skeleton(SkeletonError::TooManyBones {
                count: bone_nodes.len() + offset,
                max: MAX_BONES,
            })
            .into());
        }
        let bone_count = bone_nodes.len() + offset;
        let mut parents: Vec<Option<usize>> = vec![None; bone_count];
        for (k, &node) in bone_nodes.iter().enumerate() {
            parents[k + offset] = node_parent[node]
                .and_then(|p| bone_of_node.get(&p).copied())
                .or(synthetic_root.then_some(0));
        }
        let joints = Joints {
            nodes: &bone_nodes,
            offset,
            parents: &parents,
            locals: bone_nodes
                .iter()
                .map(|&n| document.nodes[n].local_transform())
                .collect(),
        };
        let (turns, lengths) = joints.turns_and_lengths(&roles);
        let mut bones: Vec<BoneDoc> = Vec::with_capacity(bone_count);
        if synthetic_root {
            bones.push(BoneDoc::plain("root", None, [0.0; 3], 0.0));
        }
        for (k, &node) in bone_nodes.iter().enumerate() {
            let name = document.nodes[node]
                .name
                .clone()
                .unwrap_or_else(|| format!("node {node}"));
            bones.push(joints.bone_doc(k, &name, &turns, &lengths));
        }
        Ok(Self {
            binds: vec![Vec::new(); bones.len()],
            docs: bones,
            bone_of_node,
            rigid: roles.rigid,
        })
    }

    /// The palette entry that binds `bone` by `inverse_bind`: the bone
    /// itself the first time (it takes that bind), the same entry again
    /// for the same matrix, and otherwise a twin bone, a zero-length child
    /// that follows the joint exactly, bound as asked.
    pub(super) fn entry(&mut self, bone: usize, inverse_bind: Mat4) -> usize {
        let bones = &mut self.docs;
        let binds = &mut self.binds;
        let tolerance = 1e-5
            * inverse_bind
                .abs()
                .to_cols_array()
                .iter()
                .fold(1.0_f32, |m, v| m.max(*v));
        if let Some(&(_, entry)) = binds[bone]
            .iter()
            .find(|(m, _)| m.abs_diff_eq(inverse_bind, tolerance))
        {
            return entry;
        }
        if binds[bone].is_empty() {
            bones[bone].inverse_bind = Some(inverse_bind.to_cols_array());
            binds[bone].push((inverse_bind, bone));
            return bone;
        }
        let turn = bones[bone].turn.map_or(Quat::IDENTITY, Quat::from_array);
        let twin = bones.len();
        bones.push(BoneDoc {
            inverse_bind: Some((Mat4::from_quat(turn.inverse()) * inverse_bind).to_cols_array()),
            ..BoneDoc::plain(
                &format!("{} (bind {})", bones[bone].name, binds[bone].len() + 1),
                Some(bone as u32),
                [0.0, -bones[bone].length, 0.0],
                0.0,
            )
        });
        binds.push(Vec::new());
        binds[bone].push((inverse_bind, twin));
        twin
    }
}

/// Skin `skin_index`'s inverse bind matrices (identity where the file has
/// none), each finite and invertible; any affine matrix is allowed.
pub(super) fn inverse_binds(
    document: &Document,
    buffers: &Buffers,
    skin_index: usize,
) -> Result<Vec<Mat4>, GltfError> {
    let skin = document
        .skins
        .get(skin_index)
        .ok_or_else(|| GltfError::Missing(format!("skins[{skin_index}]")))?;
    if skin.joints.is_empty() {
        return Err(GltfError::Missing("the skin's joints".to_owned()));
    }
    if skin.joints.len() > MAX_BONES {
        return Err(GltfError::Unsupported(format!(
            "a skin of {} joints (at most {MAX_BONES})",
            skin.joints.len()
        )));
    }
    if let Some(&node) = skin
        .joints
        .iter()
        .find(|&&node| node >= document.nodes.len())
    {
        return Err(GltfError::Missing(format!(
            "nodes[{node}], named as a joint"
        )));
    }
    let inverse_binds: Vec<Mat4> = match skin.inverse_bind_matrices {
        Some(index) => buffers
            .floats(document, index, 16)?
            .chunks_exact(16)
            .map(Mat4::from_cols_slice)
            .collect(),
        None => vec![Mat4::IDENTITY; skin.joints.len()],
    };
    if inverse_binds.len() != skin.joints.len() {
        return Err(GltfError::Missing(
            "one inverse bind matrix per joint".to_owned(),
        ));
    }
    for (joint, inverse_bind) in inverse_binds.iter().enumerate() {
        let problem = if !inverse_bind.is_finite() {
            Some("holds a number that is not finite")
        } else if inverse_bind.determinant().abs() < 1e-18 {
            Some("is not invertible")
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(GltfError::BadInverseBind { joint, problem });
        }
    }
    Ok(inverse_binds)
}

/// What each node of the file is to the skeleton.
struct NodeRoles {
    /// A joint of a skin a shown mesh uses.
    is_joint: Vec<bool>,
    /// Moved by a clip (a weights channel aside).
    animated: Vec<bool>,
    /// A shown mesh's node that moves rigidly: on a joint or an animated node.
    rigid: Vec<bool>,
    /// A bone: every joint, every node a joint hangs from, and every mesh
    /// that moves rigidly.
    is_bone: Vec<bool>,
}

impl NodeRoles {
    fn of(
        document: &Document,
        node_parent: &[Option<usize>],
        shown: &[usize],
        skins: &[(usize, Vec<Mat4>)],
    ) -> Self {
        let node_count = document.nodes.len();
        let is_joint: Vec<bool> = (0..node_count)
            .map(|node| {
                skins
                    .iter()
                    .any(|(s, _)| document.skins[*s].joints.contains(&node))
            })
            .collect();
        let mut animated = vec![false; node_count];
        for animation in &document.animations {
            for channel in &animation.channels {
                if let Some(slot) = channel.target.node.and_then(|n| animated.get_mut(n)) {
                    *slot |= channel.target.path != "weights";
                }
            }
        }
        let mut is_bone = is_joint.clone();
        let mut rigid = vec![false; node_count];
        for &node in shown {
            if document.nodes[node].skin.is_some() {
                continue;
            }
            let mut current = Some(node);
            while let Some(n) = current {
                if is_joint[n] || animated[n] {
                    rigid[node] = true;
                    break;
                }
                current = node_parent[n];
            }
            is_bone[node] |= rigid[node];
        }
        for node in 0..node_count {
            if is_bone[node] {
                let mut current = node_parent[node];
                while let Some(n) = current {
                    if is_bone[n] {
                        break;
                    }
                    is_bone[n] = true;
                    current = node_parent[n];
                }
            }
        }
        Self {
            is_joint,
            animated,
            rigid,
            is_bone,
        }
    }
}

/// The bone nodes, parents first, in the file's own order where it already
/// lists parents first, as exporters do: always the lowest-numbered node
/// whose parent is placed (Kahn's order with a heap, so a hostile
/// child-first chain of 65,535 nodes costs n log n, not n²).
fn parents_first(
    document: &Document,
    node_parent: &[Option<usize>],
    is_bone: &[bool],
) -> Vec<usize> {
    let mut bone_nodes: Vec<usize> = Vec::new();
    let mut ready: BinaryHeap<Reverse<usize>> = (0..is_bone.len())
        .filter(|&node| is_bone[node] && node_parent[node].is_none())
        .map(Reverse)
        .collect();
    let mut placed = vec![false; is_bone.len()];
    while let Some(Reverse(node)) = ready.pop() {
        // A node named twice among its parent's children comes once.
        if std::mem::replace(&mut placed[node], true) {
            continue;
        }
        bone_nodes.push(node);
        for &child in &document.nodes[node].children {
            if is_bone.get(child) == Some(&true) && node_parent[child] == Some(node) {
                ready.push(Reverse(child));
            }
        }
    }
    bone_nodes
}

/// The bone nodes in skeleton order (bone `k + offset` is node
/// `nodes[k]`), their parent bones and their local transforms.
struct Joints<'a> {
    nodes: &'a [usize],
    offset: usize,
    parents: &'a [Option<usize>],
    locals: Vec<BoneTransform>,
}

impl Joints<'_> {
    /// Each bone's turn `U`, which points the drawn bone at its first child
    /// joint, and its length; a leaf keeps its parent's direction at half
    /// its length, and a rigid mesh's own node is drawn as a point.
    fn turns_and_lengths(&self, roles: &NodeRoles) -> (Vec<Quat>, Vec<f32>) {
        let bone_count = self.parents.len();
        let mut turns = vec![Quat::IDENTITY; bone_count];
        let mut lengths = vec![0.0_f32; bone_count];
        let mut first_child = vec![None; bone_count];
        for (k, &node) in self.nodes.iter().enumerate().rev() {
            let point = roles.rigid[node] && !roles.is_joint[node] && !roles.animated[node];
            let reaches = self.locals[k].translation.length() > 1e-6 && !point;
            if let (Some(parent), true) = (self.parents[k + self.offset], reaches) {
                first_child[parent] = Some(k);
            }
        }
        for (k, &node) in self.nodes.iter().enumerate() {
            let bone = k + self.offset;
            let parent_turn = self.parents[bone].map_or(Quat::IDENTITY, |p| turns[p]);
            if let Some(child) = first_child[bone] {
                let toward = self.locals[child].translation;
                turns[bone] = Quat::from_rotation_arc(Vec3::Y, toward.normalize());
                lengths[bone] = toward.length();
            } else if roles.rigid[node] && !roles.is_joint[node] {
                turns[bone] = self.locals[k].rotation.inverse() * parent_turn;
            } else if let Some(parent) = self.parents[bone] {
                turns[bone] = (self.locals[k].rotation.inverse() * parent_turn).normalize();
                lengths[bone] = 0.5 * lengths[parent];
            }
        }
        (turns, lengths)
    }

    /// Bone `k + offset` as the scene document holds it: its origin and
    /// orientation in its parent bone's frame, turned by the turns.
    fn bone_doc(&self, k: usize, name: &str, turns: &[Quat], lengths: &[f32]) -> BoneDoc {
        let bone = k + self.offset;
        let (parent_turn, parent_length) =
            self.parents[bone].map_or((Quat::IDENTITY, 0.0), |p| (turns[p], lengths[p]));
        let local = &self.locals[k];
        let origin = parent_turn.inverse() * local.translation - Vec3::Y * parent_length;
        let orientation = (parent_turn.inverse() * local.rotation * turns[bone]).normalize();
        BoneDoc {
            orientation: orientation.to_array(),
            scale: (local.scale != Vec3::ONE).then(|| local.scale.to_array()),
            turn: (turns[bone] != Quat::IDENTITY).then(|| turns[bone].to_array()),
            ..BoneDoc::plain(
                name,
                self.parents[bone].map(|p| p as u32),
                origin.to_array(),
                lengths[bone],
            )
        }
    }
}
