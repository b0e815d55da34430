//! Undo and redo over the pose, the weights, the morph weights, the clips,
//! the paths, the joint limits, which bones deform and the skeleton itself
//! (bones added, moved at rest or removed), within a step count and a byte
//! budget.
//!
//! A step that leaves the weights as they were (a pose drag) shares them
//! with the step before, so a lecture's worth of posing costs little; when
//! the steps outgrow the budget (painting a large mesh), the oldest go.

use std::sync::Arc;

use super::Lab;
use crate::rig::animation::Clip;
use crate::rig::limits::JointLimit;
use crate::rig::path::PathAnimation;
use crate::rig::pose::BoneTransform;
use crate::rig::skeleton::Skeleton;
use crate::scene::MeshPart;
use crate::skin::influences::VertexInfluences;

/// The skeleton, the meshes' bindings and the locks as they were at one
/// structure revision: what a rig edit changes besides the per-bone values.
#[derive(Clone, Debug)]
pub(super) struct Structure {
    revision: u64,
    skeleton: Skeleton,
    meshes: Vec<MeshPart>,
    locked: Vec<bool>,
}

impl PartialEq for Structure {
    fn eq(&self, other: &Self) -> bool {
        self.revision == other.revision
    }
}

/// What undo restores: the pose, the weights, the morph weights, the clips,
/// the paths, the limits and which bones deform.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Snapshot {
    pose: Vec<BoneTransform>,
    stretch: Vec<f32>,
    influences: Arc<Vec<VertexInfluences>>,
    morph_weights: Vec<f32>,
    clips: Arc<Vec<Clip>>,
    paths: Vec<PathAnimation>,
    limits: Arc<Vec<Option<JointLimit>>>,
    deforms: Vec<bool>,
    structure: Arc<Structure>,
}

/// Undo steps kept; older ones are forgotten.
pub const UNDO_DEPTH: usize = 200;

/// Bytes the undo steps may hold together (weights shared between steps
/// counted once); older steps are forgotten beyond it.
pub const UNDO_BUDGET_BYTES: usize = 32 << 20;

/// The bytes `steps` hold, weights shared by neighbouring steps counted once.
fn bytes_held(steps: &[Snapshot]) -> usize {
    let mut total = 0;
    for (k, step) in steps.iter().enumerate() {
        total += std::mem::size_of_val(step.pose.as_slice());
        total += std::mem::size_of_val(step.stretch.as_slice());
        total += std::mem::size_of_val(step.morph_weights.as_slice());
        total += step.deforms.len();
        if !(k > 0 && Arc::ptr_eq(&steps[k - 1].structure, &step.structure)) {
            total += 256 * step.structure.skeleton.len() + 64 * step.structure.meshes.len();
        }
        if !(k > 0 && Arc::ptr_eq(&steps[k - 1].limits, &step.limits)) {
            total += std::mem::size_of_val(step.limits.as_slice());
        }
        total += step
            .paths
            .iter()
            .map(|p| 64 + 12 * p.path.points().len())
            .sum::<usize>();
        let same_clips = k > 0 && Arc::ptr_eq(&steps[k - 1].clips, &step.clips);
        if !same_clips {
            total += step
                .clips
                .iter()
                .flat_map(|clip| &clip.channels)
                .map(|c| 64 + 4 * c.times.len() + 16 * c.values.len() + 32 * c.tangents.len())
                .sum::<usize>();
        }
        let shared = k > 0 && Arc::ptr_eq(&steps[k - 1].influences, &step.influences);
        if !shared {
            total += std::mem::size_of_val(step.influences.as_slice());
        }
    }
    total
}

/// The undo and redo steps and the bytes they may hold.
#[derive(Clone, Debug)]
pub(super) struct History {
    pub(super) undo_stack: Vec<Snapshot>,
    pub(super) redo_stack: Vec<Snapshot>,
    /// Undo steps forgotten to stay within the byte budget.
    pub(super) undo_dropped: usize,
    /// Bytes the undo steps may hold.
    pub(super) undo_budget: usize,
}

impl Default for History {
    fn default() -> Self {
        Self {
            undo_stack: Vec::new(),
            redo_stack: Vec::new(),
            undo_dropped: 0,
            undo_budget: UNDO_BUDGET_BYTES,
        }
    }
}

impl Lab {
    /// The current state, sharing the weights of `beside` when they are the
    /// same.
    fn snapshot(&self, beside: Option<&Snapshot>) -> Snapshot {
        let influences = match beside {
            Some(step) if *step.influences == self.scene.influences => step.influences.clone(),
            _ => Arc::new(self.scene.influences.clone()),
        };
        let clips = match beside {
            Some(step) if *step.clips == self.scene.animation.clips => step.clips.clone(),
            _ => Arc::new(self.scene.animation.clips.clone()),
        };
        let limits = match beside {
            Some(step) if *step.limits == self.scene.limits => step.limits.clone(),
            _ => Arc::new(self.scene.limits.clone()),
        };
        let structure = match beside {
            Some(step) if step.structure.revision == self.revisions.structure => {
                step.structure.clone()
            }
            _ => Arc::new(Structure {
                revision: self.revisions.structure,
                skeleton: self.scene.skeleton.clone(),
                meshes: self.scene.meshes.clone(),
                locked: self.settings.locked.clone(),
            }),
        };
        Snapshot {
            structure,
            pose: self.scene.pose.clone(),
            stretch: self.stretch.clone(),
            influences,
            morph_weights: self.scene.morph_weights.clone(),
            clips,
            paths: self.scene.paths.clone(),
            limits,
            deforms: self.scene.deforms.clone(),
        }
    }

    fn restore(&mut self, snapshot: Snapshot) {
        let rebuilt = snapshot.structure.revision != self.revisions.structure;
        if rebuilt {
            let structure = Arc::unwrap_or_clone(snapshot.structure);
            self.scene.skeleton = structure.skeleton;
            self.scene.meshes = structure.meshes;
            self.settings.locked = structure.locked;
            self.revisions.structure = structure.revision;
        }
        self.scene.pose = snapshot.pose;
        self.stretch = snapshot.stretch;
        self.scene.morph_weights = snapshot.morph_weights;
        self.scene.animation.clips = Arc::unwrap_or_clone(snapshot.clips);
        self.scene.paths = snapshot.paths;
        self.scene.limits = Arc::unwrap_or_clone(snapshot.limits);
        self.scene.deforms = snapshot.deforms;
        if rebuilt {
            self.scene.influences = Arc::unwrap_or_clone(snapshot.influences);
            self.derived = super::derived::Derived::new(&self.scene);
            self.dynamics = None;
            self.influences_changed();
        } else if *snapshot.influences != self.scene.influences {
            self.scene.influences = Arc::unwrap_or_clone(snapshot.influences);
            self.influences_changed();
        }
        self.changed();
    }

    /// Bytes the undo and redo steps hold now.
    pub fn undo_bytes(&self) -> usize {
        bytes_held(&self.history.undo_stack) + bytes_held(&self.history.redo_stack)
    }

    /// Sets the bytes the undo steps may hold (default
    /// [`UNDO_BUDGET_BYTES`]); applies from the next checkpoint.
    pub fn set_undo_budget(&mut self, bytes: usize) {
        self.history.undo_budget = bytes;
    }

    /// Undo steps forgotten so far to stay within the byte budget.
    pub fn undo_steps_dropped(&self) -> usize {
        self.history.undo_dropped
    }

    /// Records the current pose and weights as one undo step, before an edit
    /// (a drag, a stroke) begins. Clears the redo steps.
    pub fn checkpoint(&mut self) {
        let snapshot = self.snapshot(self.history.undo_stack.last());
        if self.history.undo_stack.last() == Some(&snapshot) {
            return;
        }
        if self.history.undo_stack.len() == UNDO_DEPTH {
            self.history.undo_stack.remove(0);
        }
        self.history.undo_stack.push(snapshot);
        self.history.redo_stack.clear();
        // The newest step always stays, however large.
        while self.history.undo_stack.len() > 1
            && bytes_held(&self.history.undo_stack) > self.history.undo_budget
        {
            self.history.undo_stack.remove(0);
            self.history.undo_dropped += 1;
        }
    }

    /// Whether there is a step to undo.
    pub fn can_undo(&self) -> bool {
        !self.history.undo_stack.is_empty()
    }

    /// Whether there is a step to redo.
    pub fn can_redo(&self) -> bool {
        !self.history.redo_stack.is_empty()
    }

    /// Goes back to the last checkpoint; false if there is none.
    pub fn undo(&mut self) -> bool {
        let Some(previous) = self.history.undo_stack.pop() else {
            return false;
        };
        self.history.redo_stack.push(self.snapshot(Some(&previous)));
        self.restore(previous);
        true
    }

    /// Re-applies what the last undo took back; false if there is nothing.
    pub fn redo(&mut self) -> bool {
        let Some(next) = self.history.redo_stack.pop() else {
            return false;
        };
        self.history.undo_stack.push(self.snapshot(Some(&next)));
        self.restore(next);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;

    #[test]
    fn undo_and_redo_walk_the_checkpoints() {
        let mut lab = Lab::example("two-bone").unwrap();
        assert!(!lab.undo());
        let rest = lab.scene_json();
        lab.checkpoint();
        lab.set_bone_pose(1, rotation_about(Vec3::Z, 0.5), [0.0; 3], [1.0; 3])
            .unwrap();
        let bent = lab.scene_json();
        lab.checkpoint();
        lab.set_influences(2, &[(0, 0.5), (1, 0.5)]).unwrap();
        let painted = lab.scene_json();
        assert!(lab.undo());
        assert_eq!(lab.scene_json(), bent);
        assert!(lab.undo());
        assert_eq!(lab.scene_json(), rest);
        assert!(!lab.undo());
        assert!(lab.redo() && lab.redo());
        assert_eq!(lab.scene_json(), painted);
        assert!(!lab.redo());
    }

    #[test]
    fn pose_steps_share_the_weights_and_the_budget_drops_the_oldest() {
        let mut lab = Lab::example("fingers").unwrap();
        let weights = std::mem::size_of_val(lab.all_influences());
        for k in 0..150 {
            lab.checkpoint();
            let angle = 0.01 * (k + 1) as f32;
            lab.set_bone_pose(1, rotation_about(Vec3::Z, angle), [0.0; 3], [1.0; 3])
                .unwrap();
        }
        // 150 drags: the weights are held once, not 150 times.
        assert!(
            lab.undo_bytes() < weights + 150 * 64 * lab.bone_count(),
            "{} bytes",
            lab.undo_bytes()
        );
        assert_eq!(lab.undo_steps_dropped(), 0);
        // Undo and redo still walk them all.
        for _ in 0..150 {
            assert!(lab.undo());
        }
        assert_eq!(lab.bone_pose(1).unwrap().rotation, Quat::IDENTITY);
        while lab.redo() {}
    }

    #[test]
    fn a_budget_smaller_than_the_steps_keeps_the_newest() {
        let mut lab = Lab::example("two-bone").unwrap();
        let weights = std::mem::size_of_val(lab.all_influences());
        // A step's pose: the transforms, the stretch and the deform flags.
        let pose = lab.bone_count() * (std::mem::size_of::<BoneTransform>() + 4 + 1);
        // The limits and the skeleton, unchanged, are held once.
        let limits = lab.bone_count()
            * std::mem::size_of::<Option<crate::rig::limits::JointLimit>>()
            + 256 * lab.bone_count()
            + 64 * lab.scene().meshes.len();
        // Room for three weight edits, not six.
        lab.set_undo_budget(3 * (weights + pose) + limits);
        for k in 0..6 {
            lab.checkpoint();
            let w = 0.1 * (k + 1) as f32;
            lab.set_influences(k, &[(0, 1.0 - w), (1, w)]).unwrap();
        }
        assert!(lab.undo_bytes() <= 3 * (weights + pose) + limits);
        assert_eq!(lab.undo_steps_dropped(), 3);
        let mut undone = 0;
        while lab.undo() {
            undone += 1;
        }
        assert_eq!(undone, 3, "the three newest steps remain");
        // Back to just after the third edit.
        assert!((lab.influences(2).unwrap()[1].1 - 0.3).abs() < 1e-6);
        assert_eq!(lab.influences(3).unwrap(), vec![(0, 1.0)]);
    }
}
