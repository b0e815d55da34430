//! The animation talk's walking leg, three ways. A leg walks in place (as on a
//! treadmill): during the stance the foot should slide back along the
//! ground at an even pace, during the swing it should lift and come
//! forward. Everything here is in the hip's frame before its animation:
//! `x` forward, `y` down the leg at rest, the leg bending about `z`.
//!
//! - **Goose step** (pure FK, the animation talk's "naive approach"): the hip's angle
//!   is a function of time and the lower leg stays rigid. The hip follows
//!   the foot's forward position, `a = −asin(x / (l₁ + l₂))`, but a stiff leg
//!   of length `l₁ + l₂` puts the ankle at depth `√((l₁+l₂)² − x²)`: it dips
//!   below the ground mid-stance and drags through it in the swing.
//! - **Hip and knee** (FK, the animation talk's remedy): the same hip, and the knee
//!   bends as a function of time during the swing, `k = K sin(π u)`; the
//!   foot clears the ground, but the stance still dips.
//! - **IK**: the ankle's goal itself is the function of time (flat along the
//!   ground in the stance, an arch in the swing) and the animation talk's two-bone
//!   solution finds hip and knee; the knee bends the one way its hinge
//!   allows.

use std::f32::consts::PI;

use glam::Vec2;

/// How the leg is driven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gait {
    /// Hip angle over time, rigid knee.
    GooseStep,
    /// Hip and knee angles over time.
    HipAndKnee,
    /// The ankle's path over time, hip and knee by IK.
    Ik,
}

impl std::str::FromStr for Gait {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "goose" => Ok(Self::GooseStep),
            "hip-knee" => Ok(Self::HipAndKnee),
            "ik" => Ok(Self::Ik),
            _ => Err(format!("unknown gait '{name}'; use goose, hip-knee or ik")),
        }
    }
}

/// The step, in the hip's frame (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stride {
    /// Thigh and shin lengths, `l₁` and `l₂`.
    pub lengths: [f32; 2],
    /// The ground's depth below the hip.
    pub ground: f32,
    /// Half the step: the ankle goes from `+half` to `−half` in the stance.
    pub half: f32,
    /// How high the ankle lifts mid-swing.
    pub lift: f32,
    /// The share of the cycle the foot is on the ground.
    pub stance: f32,
    /// The knee's largest bend in the swing of [`Gait::HipAndKnee`], radians.
    pub knee_bend: f32,
}

impl Stride {
    /// A step for a leg of these lengths: the ground at 96 % of the leg's
    /// length (a slightly bent knee mid-stance), a step of half a leg.
    pub fn for_leg(thigh: f32, shin: f32) -> Self {
        let leg = thigh + shin;
        Self {
            lengths: [thigh, shin],
            ground: 0.96 * leg,
            half: 0.25 * leg,
            lift: 0.15 * leg,
            stance: 0.6,
            knee_bend: 0.9,
        }
    }

    /// Where in the stance (`Ok(u)`) or the swing (`Err(u)`) the cycle is at
    /// `phase` (wrapped to `[0, 1)`), `u` from 0 to 1 through each.
    fn part(&self, phase: f32) -> Result<f32, f32> {
        let phase = phase.rem_euclid(1.0);
        if phase < self.stance {
            Ok(phase / self.stance)
        } else {
            Err((phase - self.stance) / (1.0 - self.stance))
        }
    }

    /// The ankle's goal at `phase`: in the stance `(half − 2·half·u,
    /// ground)`, in the swing `(−half + 2·half·u, ground − lift·sin(πu))`.
    pub fn ankle_goal(&self, phase: f32) -> Vec2 {
        match self.part(phase) {
            Ok(u) => Vec2::new(self.half - 2.0 * self.half * u, self.ground),
            Err(u) => Vec2::new(
                -self.half + 2.0 * self.half * u,
                self.ground - self.lift * (PI * u).sin(),
            ),
        }
    }

    /// Whether the foot should be on the ground at `phase`.
    pub fn in_stance(&self, phase: f32) -> bool {
        self.part(phase).is_ok()
    }

    /// The FK gaits' hip and knee angles about `z` at `phase`: the hip
    /// `a = −asin(x / (l₁ + l₂))` for the goal's forward position `x`, the
    /// knee 0 (goose step) or `K sin(πu)` in the swing (hip and knee).
    /// `None` for [`Gait::Ik`], whose angles come from the solver.
    pub fn fk_angles(&self, gait: Gait, phase: f32) -> Option<[f32; 2]> {
        let leg = self.lengths[0] + self.lengths[1];
        let x = self.ankle_goal(phase).x;
        let hip = -(x / leg).clamp(-1.0, 1.0).asin();
        match (gait, self.part(phase)) {
            (Gait::Ik, _) => None,
            (Gait::GooseStep, _) | (Gait::HipAndKnee, Ok(_)) => Some([hip, 0.0]),
            (Gait::HipAndKnee, Err(u)) => Some([hip, self.knee_bend * (PI * u).sin()]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_goal_slides_flat_in_the_stance_and_arches_in_the_swing() {
        let stride = Stride::for_leg(1.0, 1.0);
        assert_eq!(stride.ankle_goal(0.0), Vec2::new(0.5, 1.92));
        assert!((stride.ankle_goal(0.3) - Vec2::new(0.0, 1.92)).length() < 1e-6);
        let top = stride.ankle_goal(0.8);
        assert!(top.x.abs() < 1e-6 && (top.y - (1.92 - 0.3)).abs() < 1e-6);
        assert!((stride.ankle_goal(1.0) - stride.ankle_goal(0.0)).length() < 1e-6);
    }

    #[test]
    fn a_stiff_leg_dips_below_the_ground_mid_stance() {
        let stride = Stride::for_leg(1.0, 1.0);
        let [hip, knee] = stride.fk_angles(Gait::GooseStep, 0.3).unwrap();
        assert_eq!(knee, 0.0);
        // Straight down: the ankle at depth 2, 0.08 below the ground.
        assert!(hip.abs() < 1e-6);
        let [_, knee] = stride.fk_angles(Gait::HipAndKnee, 0.8).unwrap();
        assert!((knee - 0.9).abs() < 1e-6);
        assert_eq!(stride.fk_angles(Gait::Ik, 0.8), None);
    }
}
