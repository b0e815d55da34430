//! An FBX file's models as a hierarchy, parents first, with their rest
//! transforms as the scene graph holds them: each model under its parent,
//! or under a frame node that undoes its parent's uneven scale (see
//! [`Inheritance`]).

use std::collections::{HashMap, HashSet};

use glam::{DMat4, DVec3};

use super::animation::{sample, Curves3, Take};
use super::objects::{Object, Objects};
use super::transform::{as_trs, column_lengths, from_trs, is_even, Inheritance, TransformParts};
use super::tree::{Node, Value as FbxValue};
use super::FbxError;

/// The models as a hierarchy: parents before children.
pub(super) struct Models<'o, 'a> {
    pub(super) list: Vec<&'o Object<'a>>,
    pub(super) parent: Vec<Option<usize>>,
    pub(super) node_of: HashMap<i64, usize>,
    /// Each model's transform parts, read once from its properties.
    pub(super) parts: Vec<TransformParts>,
    /// Rest transforms relative to the node each hangs from (its parent,
    /// or its parent's frame), file units.
    pub(super) local: Vec<DMat4>,
    /// Rest transforms in the file's world, file units.
    pub(super) world: Vec<DMat4>,
    /// Per model, the frame between it and its parent it hangs from.
    pub(super) frame: Vec<Frame>,
    /// The frame nodes, each a parent's and of a kind; glTF node
    /// `list.len() + k` is `frames[k]`.
    pub(super) frames: Vec<(usize, Frame)>,
    /// Each frame's `k` in `frames`.
    frame_index: HashMap<(usize, Frame), usize>,
}

/// Which of its parent's scales a frame node undoes (see [`Inheritance`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Frame {
    /// None: the model hangs from its parent.
    None,
    /// The parent's own scale (`Lcl Scaling`), for `Rrs` children.
    Own,
    /// The parent's scale in the world, for `RrSs` children.
    World,
}

impl Frame {
    /// The frame node's name after its parent's: what it undoes.
    pub(super) fn name(self) -> &'static str {
        match self {
            Frame::None => "",
            Frame::Own => "scale compensated",
            Frame::World => "unscaled",
        }
    }
}

impl<'o, 'a> Models<'o, 'a> {
    pub(super) fn of(objects: &'o Objects<'a>, takes: &[Take]) -> Result<Self, FbxError> {
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

        let mut models = Models {
            local: vec![DMat4::IDENTITY; list.len()],
            world: vec![DMat4::IDENTITY; list.len()],
            frame: vec![Frame::None; list.len()],
            frames: Vec::new(),
            frame_index: HashMap::new(),
            parts: list.iter().map(|model| TransformParts::of(model)).collect(),
            list,
            parent,
            node_of,
        };
        // Whether a take animates each model's scale or an ancestor's.
        let mut scaled_above: Vec<bool> = Vec::with_capacity(models.list.len());
        for n in 0..models.list.len() {
            let own = models.scale_curves(n, takes).next().is_some();
            scaled_above.push(own || models.parent[n].is_some_and(|p| scaled_above[p]));
            models.frame[n] = models.frame_needed(n, takes, &scaled_above);
            if let Some(p) = models.parent[n].filter(|_| models.frame[n] != Frame::None) {
                let key = (p, models.frame[n]);
                if !models.frame_index.contains_key(&key) {
                    models.frame_index.insert(key, models.frames.len());
                    models.frames.push(key);
                }
            }
            let how = models.inheritance(n, models.parent_own_scale(n));
            let parts = &models.parts[n];
            models.local[n] = from_trs(as_trs(parts.graph_local(parts.rest_values(), how)));
            models.world[n] = models.above(n) * models.local[n];
        }
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
            let parent_world = match self.parent[n] {
                Some(p) => held[p].unwrap_or(self.world[p]) * self.frame_local(n, self.world[p]),
                None => DMat4::IDENTITY,
            };
            self.local[n] = from_trs(as_trs(parent_world.inverse() * pose));
            held[n] = Some(pose);
            changed = true;
        }
        if changed {
            for n in 0..self.list.len() {
                self.world[n] = self.above(n) * self.local[n];
            }
        }
    }

    /// Whether model `n` must hang from a frame: an `Rrs`
    /// model under a parent whose own scale is uneven at rest or in a take,
    /// an `RrSs` model under a parent whose world scale is uneven at rest
    /// or whose scale, or an ancestor's, a take animates.
    /// `scaled_above` tells, for `n`'s ancestors, whether a take animates
    /// their scale or an ancestor's.
    fn frame_needed(&self, n: usize, takes: &[Take], scaled_above: &[bool]) -> Frame {
        let Some(p) = self.parent[n] else {
            return Frame::None;
        };
        match self.parts[n].inherit {
            2 => {
                let rest = self.parts[p].scale;
                let uneven_in_a_take = self.scale_curves(p, takes).any(|curves| {
                    Take::times(curves.iter().flatten())
                        .into_iter()
                        .any(|t| !is_even(sample(curves, t, rest)))
                });
                if !is_even(rest) || uneven_in_a_take {
                    Frame::Own
                } else {
                    Frame::None
                }
            }
            0 => {
                if scaled_above[p] || !is_even(column_lengths(self.world[p])) {
                    Frame::World
                } else {
                    Frame::None
                }
            }
            _ => Frame::None,
        }
    }

    /// Model `m`'s scale curves in each take that animates its scale.
    fn scale_curves<'t>(&self, m: usize, takes: &'t [Take]) -> impl Iterator<Item = &'t Curves3> {
        let id = self.list[m].id;
        takes.iter().filter_map(move |take| {
            take.models
                .get(&id)
                .map(|c| &c[2])
                .filter(|c| c.iter().any(Option::is_some))
        })
    }

    /// Model `n`'s parent's own rest scale (`Lcl Scaling`, its size along
    /// each axis); 1 for a root.
    pub(super) fn parent_own_scale(&self, n: usize) -> DVec3 {
        self.parent[n].map_or(DVec3::ONE, |p| self.parts[p].scale.abs())
    }

    /// How model `n` takes its parent's scale, at rest, its parent's own
    /// scale being `own` and its parent's world `self.world`.
    fn inheritance(&self, n: usize, own: DVec3) -> Inheritance {
        let Some(p) = self.parent[n] else {
            return Inheritance::Whole;
        };
        inheritance_of(self.parts[n].inherit, self.frame[n], own, self.world[p])
    }

    /// The frame model `n` hangs from, relative to its parent whose world
    /// is `parent_world` (the identity where it hangs from its parent).
    pub(super) fn frame_local(&self, n: usize, parent_world: DMat4) -> DMat4 {
        match self.parent[n] {
            Some(p) => self.frame_of(p, self.frame[n], parent_world),
            None => DMat4::IDENTITY,
        }
    }

    /// Frame `frame` of model `p` at rest, relative to `p`, whose world is
    /// `world`: the inverse of `p`'s own or world scale.
    pub(super) fn frame_of(&self, p: usize, frame: Frame, world: DMat4) -> DMat4 {
        let scale = match frame {
            Frame::None => return DMat4::IDENTITY,
            Frame::Own => self.parts[p].scale.abs(),
            Frame::World => column_lengths(world),
        };
        DMat4::from_scale(super::transform::reciprocal(scale))
    }

    /// The rest world of the node model `n` hangs from.
    fn above(&self, n: usize) -> DMat4 {
        self.parent[n].map_or(DMat4::IDENTITY, |p| {
            self.world[p] * self.frame_local(n, self.world[p])
        })
    }

    /// The glTF node of the frame model `n` hangs from, if any.
    pub(super) fn frame_node(&self, n: usize) -> Option<usize> {
        let p = self.parent[n]?;
        let k = self.frame_index.get(&(p, self.frame[n]))?;
        Some(self.list.len() + k)
    }
}

/// How a model of `InheritType` `inherit` hanging from `frame` takes its
/// parent's scale, its parent's own scale being `own` and world `parent_world`.
pub(super) fn inheritance_of(
    inherit: u8,
    frame: Frame,
    own: DVec3,
    parent_world: DMat4,
) -> Inheritance {
    match (inherit, frame) {
        (2, Frame::None) => Inheritance::Compensated(own),
        (_, Frame::Own) => Inheritance::Frame {
            scale: own,
            keeps: false,
        },
        (_, Frame::World) => Inheritance::Frame {
            scale: column_lengths(parent_world),
            keeps: true,
        },
        _ => Inheritance::Whole,
    }
}
