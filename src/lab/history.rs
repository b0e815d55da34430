//! Undo and redo over the pose and the weights.

use super::Lab;
use crate::rig::pose::BoneTransform;
use crate::skin::influences::VertexInfluences;

/// What undo restores: the pose and the weights.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Snapshot {
    pose: Vec<BoneTransform>,
    influences: Vec<VertexInfluences>,
}

/// Undo steps kept; older ones are forgotten.
pub const UNDO_DEPTH: usize = 200;

impl Lab {
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            pose: self.scene.pose.clone(),
            influences: self.scene.influences.clone(),
        }
    }

    fn restore(&mut self, snapshot: Snapshot) {
        self.scene.pose = snapshot.pose;
        if self.scene.influences != snapshot.influences {
            self.scene.influences = snapshot.influences;
            self.influences_changed();
        }
        self.changed();
    }

    /// Records the current pose and weights as one undo step, before an edit
    /// (a drag, a stroke) begins. Clears the redo steps.
    pub fn checkpoint(&mut self) {
        let snapshot = self.snapshot();
        if self.undo_stack.last() == Some(&snapshot) {
            return;
        }
        if self.undo_stack.len() == UNDO_DEPTH {
            self.undo_stack.remove(0);
        }
        self.undo_stack.push(snapshot);
        self.redo_stack.clear();
    }

    /// Whether there is a step to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo_stack.is_empty()
    }

    /// Whether there is a step to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo_stack.is_empty()
    }

    /// Goes back to the last checkpoint; false if there is none.
    pub fn undo(&mut self) -> bool {
        let Some(previous) = self.undo_stack.pop() else {
            return false;
        };
        self.redo_stack.push(self.snapshot());
        self.restore(previous);
        true
    }

    /// Re-applies what the last undo took back; false if there is nothing.
    pub fn redo(&mut self) -> bool {
        let Some(next) = self.redo_stack.pop() else {
            return false;
        };
        self.undo_stack.push(self.snapshot());
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
}
