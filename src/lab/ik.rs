//! Joint limits and chain IK on the lab's pose: the solvers of
//! [`crate::rig::chain_ik`], each solve one edit of the pose.

use glam::Vec3;

use super::{EditError, Lab};
use crate::rig::chain_ik::{solve_chain, IkMethod, IkReport, IkRequest};
use crate::rig::limits::JointLimit;

/// Sweeps a solve may use unless told otherwise.
pub const DEFAULT_IK_ITERATIONS: usize = 64;

/// What [`Lab::solve_ik`] is asked: a chain of `chain` bones ending at
/// `tip`, whose end should reach `target_model`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IkGoal {
    /// The bone whose end reaches.
    pub tip: usize,
    /// Bones in the chain, the tip included.
    pub chain: usize,
    /// The target, model space.
    pub target_model: Vec3,
    /// The solver.
    pub method: IkMethod,
    /// At most this many sweeps; [`DEFAULT_IK_ITERATIONS`] when `None`.
    pub iterations: Option<usize>,
    /// Close enough, model units; 0.1% of the chain's length when `None`.
    pub tolerance: Option<f32>,
    /// The plane a straight two-bone chain bends in (the view direction).
    pub fallback_normal: Vec3,
}

impl Lab {
    /// Bone `bone`'s joint limit, if it has one.
    pub fn limit(&self, bone: usize) -> Result<Option<JointLimit>, EditError> {
        self.check_bone(bone)?;
        Ok(self.scene.limits[bone])
    }

    /// Sets (or, with `None`, removes) bone `bone`'s joint limit; its
    /// current rotation is brought within it.
    pub fn set_limit(&mut self, bone: usize, limit: Option<JointLimit>) -> Result<(), EditError> {
        self.check_bone(bone)?;
        self.scene.limits[bone] = limit;
        if let Some(limit) = limit {
            self.scene.pose[bone].rotation = limit.clamp(self.scene.pose[bone].rotation);
        }
        self.changed();
        Ok(())
    }

    /// Whether bones turned by hand are kept within their limits.
    pub fn limits_posing(&self) -> bool {
        self.limit_posing
    }

    /// Keeps bones turned by hand (drags, keys, [`Lab::set_bone_transform`])
    /// within their limits, or not.
    pub fn set_limits_posing(&mut self, on: bool) {
        self.limit_posing = on;
    }

    /// Solves `goal` on the pose, within every limit: see [`IkGoal`].
    pub fn solve_ik(&mut self, goal: &IkGoal) -> Result<IkReport, EditError> {
        let IkGoal {
            tip,
            chain,
            target_model,
            method,
            iterations,
            tolerance,
            fallback_normal,
        } = *goal;
        let bones = crate::rig::chain_ik::chain_bones(&self.scene.skeleton, tip, chain)?;
        let length: f32 = bones
            .iter()
            .map(|&bone| self.scene.skeleton.bones()[bone].length)
            .sum();
        let request = IkRequest {
            tip,
            chain,
            target_model,
            method,
            iterations: iterations.unwrap_or(DEFAULT_IK_ITERATIONS).min(10_000),
            tolerance: tolerance.unwrap_or(1e-3 * length.max(1e-3)),
            fallback_normal,
        };
        let report = solve_chain(
            &self.scene.skeleton,
            &mut self.scene.pose,
            &self.scene.limits,
            &request,
        )?;
        self.changed();
        Ok(report)
    }
}
