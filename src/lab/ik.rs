//! Joint limits and chain IK on the lab's pose: the solvers of
//! [`crate::rig::chain_ik`], each solve one edit of the pose.

use glam::{Mat4, Quat, Vec3};

use super::{EditError, Lab};
use crate::rig::chain_ik::{solve_chain_stretchy, IkMethod, IkReport, IkRequest};
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
    /// The most each bone may stretch to reach (stretchy joints); `None`
    /// or 1: rigid bones.
    pub stretch: Option<f32>,
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
        self.settings.limit_posing
    }

    /// Keeps bones turned by hand (drags, keys, [`Lab::set_bone_transform`])
    /// within their limits, or not.
    pub fn set_limits_posing(&mut self, on: bool) {
        self.settings.limit_posing = on;
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
            stretch,
        } = *goal;
        let bones = crate::rig::chain_ik::chain_bones(&self.scene.skeleton, tip, chain)?;
        // In model space: a glTF joint's frame may carry scale.
        let frames = self.model_from_bone_posed().to_vec();
        let length: f32 = bones
            .iter()
            .map(|&bone| self.scene.skeleton.bones()[bone].model_length(&frames[bone]))
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
        // A chain solved without stretch is unstretched too.
        let report = solve_chain_stretchy(
            &self.scene.skeleton,
            &mut self.scene.pose,
            &self.scene.limits,
            &mut self.stretch,
            &request,
            stretch.unwrap_or(1.0).max(1.0),
        )?;
        self.changed();
        Ok(report)
    }
}

/// Points on an outline drawn for a limit (see [`Lab::limit_outline`]).
pub const LIMIT_OUTLINE_SAMPLES: usize = 33;

impl Lab {
    /// Bone `bone`'s frame before its own animation, `F = R'_i · A_i⁻¹`:
    /// the frame its limit is stated in, model space.
    pub(super) fn unanimated_frame(&self, bone: usize) -> Result<Mat4, EditError> {
        self.model_from_bone_unanimated(bone)
    }

    /// The direction a limit's angle `angle` points bone `bone` in, unit
    /// and in `F`'s axes: for a hinge `R(axis, angle) · Y` (or `· Z` for a
    /// hinge about the bone's own length, which would not move +Y); for a
    /// cone, +Y tilted by `angle` about the axis at `around` radians from +X
    /// in the XZ plane.
    fn limit_direction(limit: JointLimit, angle: f32, around: f32) -> Vec3 {
        match limit {
            JointLimit::Hinge { axis, .. } => {
                let reference = if axis.dot(Vec3::Y).abs() > 0.9 {
                    Vec3::Z
                } else {
                    Vec3::Y
                };
                Quat::from_axis_angle(axis, angle) * reference
            }
            JointLimit::Swing { .. } => {
                let tilt = Vec3::new(around.cos(), 0.0, around.sin());
                Quat::from_axis_angle(tilt, angle) * Vec3::Y
            }
        }
    }

    /// An outline of bone `bone`'s limit, model space, at `radius` from its
    /// origin: for a hinge the arc from `min` to `max`, the directions its
    /// angle range can point the bone (its ends are the handles that set
    /// them); for a cone the rim of directions at its half-angle. Empty for
    /// a free joint.
    pub fn limit_outline(&self, bone: usize, radius: f32) -> Result<Vec<Vec3>, EditError> {
        let Some(limit) = self.limit(bone)? else {
            return Ok(Vec::new());
        };
        let frame = self.unanimated_frame(bone)?;
        let last = (LIMIT_OUTLINE_SAMPLES - 1) as f32;
        Ok((0..LIMIT_OUTLINE_SAMPLES)
            .map(|k| {
                let s = k as f32 / last;
                let direction = match limit {
                    JointLimit::Hinge { min, max, .. } => {
                        Self::limit_direction(limit, min + (max - min) * s, 0.0)
                    }
                    JointLimit::Swing { swing, .. } => {
                        Self::limit_direction(limit, swing, std::f32::consts::TAU * s)
                    }
                };
                frame.transform_point3(direction * radius)
            })
            .collect())
    }

    /// The limit angle that points bone `bone` toward `point_model`: for a
    /// hinge the signed angle about its axis, in the plane across it,
    /// from the reference direction to `F⁻¹ (p − o)`; for a cone the angle
    /// between +Y and `F⁻¹ (p − o)`. What dragging a limit's handle sets.
    pub fn limit_angle_toward(
        &self,
        bone: usize,
        point_model: Vec3,
    ) -> Result<Option<f32>, EditError> {
        let Some(limit) = self.limit(bone)? else {
            return Ok(None);
        };
        let local = self
            .unanimated_frame(bone)?
            .inverse()
            .transform_point3(point_model);
        Ok(match limit {
            JointLimit::Hinge { axis, .. } => {
                let flat = local - axis * local.dot(axis);
                let reference = Self::limit_direction(limit, 0.0, 0.0);
                Some(reference.cross(flat).dot(axis).atan2(reference.dot(flat)))
            }
            JointLimit::Swing { .. } => Some(Vec3::Y.angle_between(local)),
        })
    }
}
