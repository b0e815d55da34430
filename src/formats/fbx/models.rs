//! An FBX file's models as a hierarchy, parents first, with their rest
//! transforms as three.js's `FBXLoader` composes them.

use std::collections::{HashMap, HashSet};

use glam::DMat4;

use super::objects::{Object, Objects};
use super::transform::{as_trs, from_trs, TransformParts};
use super::tree::{Node, Value as FbxValue};
use super::FbxError;

/// The models as a hierarchy: parents before children.
pub(super) struct Models<'o, 'a> {
    pub(super) list: Vec<&'o Object<'a>>,
    pub(super) parent: Vec<Option<usize>>,
    pub(super) node_of: HashMap<i64, usize>,
    /// Rest transforms relative to the parent, file units.
    pub(super) local: Vec<DMat4>,
    /// Rest transforms in the file's world, file units.
    pub(super) world: Vec<DMat4>,
}

impl<'o, 'a> Models<'o, 'a> {
    pub(super) fn of(objects: &'o Objects<'a>) -> Result<Self, FbxError> {
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
