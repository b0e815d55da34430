//! One place, one weight, under the brush: a file splits a vertex where its
//! UVs part and where two meshes of a skin meet, and the copies share the
//! weights a stroke gives any of them. Copies the user made differ (by
//! typed weights) are allowed, and counted.

use rustc_hash::{FxHashMap, FxHashSet};

use super::Lab;
use crate::skin::influences::VertexInfluences;
use crate::skin::mesh::Mesh;
use crate::weights::auto_weights::mesh_scale;
use crate::weights::weld::{first_copies, WELD_TOLERANCE};

/// The places of the mesh held by more than one vertex.
#[derive(Clone, Debug, Default)]
pub(super) struct Copies {
    /// Each vertex's first copy (itself when it has no earlier one).
    first: Vec<u32>,
    /// Each first copy with copies, and all of them.
    groups: FxHashMap<u32, Vec<u32>>,
}

impl Copies {
    fn of(mesh: &Mesh) -> Self {
        let first = first_copies(&mesh.positions_model, WELD_TOLERANCE * mesh_scale(mesh));
        let mut groups: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        for (vertex, &copy) in first.iter().enumerate() {
            if copy as usize != vertex {
                groups
                    .entry(copy)
                    .or_insert_with(|| vec![copy])
                    .push(vertex as u32);
            }
        }
        Self { first, groups }
    }

    /// How many places hold copies with different weights.
    fn apart(&self, weights: &[VertexInfluences]) -> usize {
        self.groups
            .values()
            .filter(|group| {
                group
                    .iter()
                    .any(|&v| weights[v as usize] != weights[group[0] as usize])
            })
            .count()
    }
}

impl Lab {
    /// Gives each copy of a place among `changed` the weights the stroke
    /// left on it, where the copy's locked bones keep theirs; returns the
    /// copies changed.
    pub(super) fn paint_copies_alike(&mut self, changed: &[u32]) -> Vec<u32> {
        // Found on first use, and held aside while the weights change.
        let copies = match self.weight_editing.topology.copies.take() {
            Some(copies) => copies,
            None => Copies::of(&self.scene.mesh),
        };
        let copied = self.copy_within(&copies, changed);
        self.weight_editing.topology.copies = Some(copies);
        copied
    }

    fn copy_within(&mut self, copies: &Copies, changed: &[u32]) -> Vec<u32> {
        if copies.groups.is_empty() {
            return Vec::new();
        }
        let locked: Vec<u16> = (0..self.bone_count())
            .filter(|&b| self.settings.locked[b])
            .map(|b| b as u16)
            .collect();
        let keeps_locks = |from: &VertexInfluences, to: &VertexInfluences| {
            locked.iter().all(|&b| from.weight_of(b) == to.weight_of(b))
        };
        let mut done: FxHashSet<u32> = FxHashSet::default();
        let mut copied = Vec::new();
        for &vertex in changed {
            let first = copies.first[vertex as usize];
            let Some(group) = copies.groups.get(&first) else {
                continue;
            };
            if !done.insert(first) {
                continue;
            }
            let source = self.scene.influences[vertex as usize];
            for &copy in group {
                let target = &mut self.scene.influences[copy as usize];
                if copy != vertex && *target != source && keeps_locks(&source, target) {
                    *target = source;
                    copied.push(copy);
                }
            }
        }
        copied
    }

    /// Finds the copies of each place now, which a stroke's first dab
    /// would otherwise find (35 ms of it on 100,000 vertices in wasm): for
    /// a caller with idle time before the user paints. Nothing else
    /// changes; a mesh that has them already is left as it is.
    pub fn prepare_painting(&mut self) {
        if self.weight_editing.topology.copies.is_none() {
            self.weight_editing.topology.copies = Some(Copies::of(&self.scene.mesh));
        }
    }

    /// How many places of the mesh hold copies with different weights (a
    /// seam that parts when posed: typed so, or so in the file).
    pub fn seams_apart(&self) -> usize {
        match &self.weight_editing.topology.copies {
            Some(copies) => copies.apart(&self.scene.influences),
            None => Copies::of(&self.scene.mesh).apart(&self.scene.influences),
        }
    }
}
