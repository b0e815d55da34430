//! The animation talk's walking leg on the lab's skeleton (see [`crate::rig::gait`]):
//! a two-bone chain ending at `tip` posed at a phase of the walk cycle by
//! each gait, and the ankle's path over a whole cycle measured against the
//! ground. The leg bends about its bones' `z` axes, as the `leg` example's.

use glam::{Quat, Vec3};

use super::{EditError, IkGoal, Lab};
use crate::rig::chain_ik::{chain_bones, IkMethod};
use crate::rig::gait::{Gait, Stride};

/// A walk cycle's ankle path and how well it keeps to the ground.
#[derive(Clone, Debug, PartialEq)]
pub struct GaitTrace {
    /// The ankle at evenly spaced phases over one cycle, model space.
    pub ankle_model: Vec<Vec3>,
    /// The ground line under the step (a little longer), model space.
    pub ground_model: [Vec3; 2],
    /// The ankle's largest distance from the ground in the stance, when it
    /// should be on it.
    pub stance_off_ground: f32,
    /// The ankle's lowest height above the ground in the swing; below zero
    /// it went through the ground.
    pub swing_clearance: f32,
}

impl Lab {
    /// The chain's upper bone and the step for its lengths.
    fn stride_of(&self, tip: usize) -> Result<([usize; 2], Stride), EditError> {
        let bones = chain_bones(&self.scene.skeleton, tip, 2)?;
        let length = |bone: usize| self.scene.skeleton.bones()[bone].length;
        Ok((
            [bones[0], bones[1]],
            Stride::for_leg(length(bones[0]), length(bones[1])),
        ))
    }

    /// Poses the two-bone leg ending at `tip` as `gait` has it at `phase`
    /// of the walk cycle (0 to 1): angles for the FK gaits, the animation talk's
    /// analytic IK toward the ankle's goal for [`Gait::Ik`].
    pub fn pose_gait(&mut self, gait: Gait, tip: usize, phase: f32) -> Result<(), EditError> {
        let ([upper, lower], stride) = self.stride_of(tip)?;
        match stride.fk_angles(gait, phase) {
            Some([hip, knee]) => {
                for (bone, angle) in [(upper, hip), (lower, knee)] {
                    let mut transform = self.bone_pose(bone)?;
                    transform.rotation = Quat::from_rotation_z(angle);
                    self.set_bone_transform(bone, transform)?;
                }
            }
            None => {
                let frame = self.unanimated_frame(upper)?;
                let goal = stride.ankle_goal(phase);
                self.solve_ik(&IkGoal {
                    tip,
                    chain: 2,
                    target_model: frame.transform_point3(goal.extend(0.0)),
                    method: IkMethod::Analytic,
                    iterations: None,
                    tolerance: None,
                    fallback_normal: frame.transform_vector3(Vec3::Z),
                    stretch: None,
                })?;
            }
        }
        Ok(())
    }

    /// The ankle's path over one cycle of `gait` at `samples` phases, and
    /// how far it strays from the ground; the pose is left as it was.
    pub fn gait_trace(
        &self,
        gait: Gait,
        tip: usize,
        samples: usize,
    ) -> Result<GaitTrace, EditError> {
        let ([upper, _], stride) = self.stride_of(tip)?;
        // The trace poses a copy of the scene, so that reading it leaves
        // this lab as it is.
        let mut scratch = Lab::new(self.scene.clone());
        scratch.stretch.clone_from(&self.stretch);
        scratch.settings.limit_posing = self.settings.limit_posing;
        scratch.changed();
        let frame = self.unanimated_frame(upper)?;
        let length = self.scene.skeleton.bones()[tip].length;
        let mut trace = GaitTrace {
            ankle_model: Vec::with_capacity(samples),
            ground_model: [-1.3, 1.3]
                .map(|s| frame.transform_point3(Vec3::new(s * stride.half, stride.ground, 0.0))),
            stance_off_ground: 0.0,
            swing_clearance: f32::INFINITY,
        };
        let mut result = Ok(());
        for k in 0..samples.max(1) {
            let phase = k as f32 / samples.max(1) as f32;
            result = scratch.pose_gait(gait, tip, phase);
            if result.is_err() {
                break;
            }
            let ankle = scratch.model_from_bone_posed()[tip].transform_point3(Vec3::Y * length);
            // Height above the ground in the hip's frame (y points down).
            let height = stride.ground - frame.inverse().transform_point3(ankle).y;
            if stride.in_stance(phase) {
                trace.stance_off_ground = trace.stance_off_ground.max(height.abs());
            } else {
                trace.swing_clearance = trace.swing_clearance.min(height);
            }
            trace.ankle_model.push(ankle);
        }
        result.map(|()| trace)
    }
}
