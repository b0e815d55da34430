//! Joint limits (the bones note: IK comes "almost always with adjustable angle
//! limits"; the animation talk: the knee bends one way), on a bone's rotation `q`
//! relative to its rest orientation — the rotation part of its animation
//! `A_i`, in the bone's own frame.
//!
//! - A **hinge** keeps one degree of freedom: `q` is replaced by its twist
//!   about the axis, `θ = 2·atan2(q_xyz · axis, q_w)`, with `θ` clamped to
//!   `[min, max]`.
//! - A **swing cone with a twist range**: `q = swing · twist`, the twist
//!   about the bone's +Y (its length) and the swing tilting +Y away from
//!   rest; the swing's angle is clamped to the cone's half-angle, the
//!   twist's to its range.

use std::f32::consts::PI;

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

/// The limit on one bone's rotation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointLimit {
    /// One axis, an angle range.
    Hinge {
        /// Unit axis in the bone's own frame.
        axis: Vec3,
        /// Smallest angle, radians.
        min: f32,
        /// Largest angle, radians.
        max: f32,
    },
    /// A cone about +Y and a twist range about +Y.
    Swing {
        /// The cone's half-angle, radians (0..π).
        swing: f32,
        /// Smallest twist, radians.
        twist_min: f32,
        /// Largest twist, radians.
        twist_max: f32,
    },
}

/// Why a limit was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LimitError {
    /// Neither `hinge` nor `swing` given, or both.
    #[error("a limit is either {{\"hinge\": {{axis, min, max}}}} or {{\"swing\": angle, \"twist\": [min, max]}}")]
    Shape,
    /// A number is NaN or infinite.
    #[error("{field} is not a finite number")]
    NonFinite {
        /// Which number.
        field: &'static str,
    },
    /// The hinge axis has no direction.
    #[error("the hinge axis is zero")]
    ZeroAxis,
    /// A range whose end comes before its start, or beyond ±π.
    #[error("{field}: [{min}, {max}] is not a range within [-π, π]")]
    BadRange {
        /// Which range.
        field: &'static str,
        /// Its start.
        min: f32,
        /// Its end.
        max: f32,
    },
    /// A cone wider than a full turn or negative.
    #[error("swing: {0} is not within [0, π]")]
    BadSwing(f32),
}

/// A limit as the scene JSON writes it: `{"hinge": {"axis": [x,y,z],
/// "min": a, "max": b}}` or `{"swing": a, "twist": [min, max]}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct LimitDoc {
    /// A hinge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hinge: Option<HingeDoc>,
    /// A cone's half-angle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swing: Option<f32>,
    /// The twist range with a cone (default: free).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twist: Option<[f32; 2]>,
}

/// A hinge as the scene JSON writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HingeDoc {
    /// The axis in the bone's frame.
    pub axis: [f32; 3],
    /// Smallest angle, radians.
    pub min: f32,
    /// Largest angle, radians.
    pub max: f32,
}

fn range(field: &'static str, min: f32, max: f32) -> Result<(), LimitError> {
    if !min.is_finite() || !max.is_finite() {
        return Err(LimitError::NonFinite { field });
    }
    let slack = 1e-4;
    if min > max || min < -PI - slack || max > PI + slack {
        return Err(LimitError::BadRange { field, min, max });
    }
    Ok(())
}

impl LimitDoc {
    /// Checks the document and builds the limit.
    pub fn to_limit(&self) -> Result<JointLimit, LimitError> {
        match (&self.hinge, self.swing) {
            (Some(hinge), None) if self.twist.is_none() => {
                let axis = Vec3::from_array(hinge.axis);
                if !axis.is_finite() {
                    return Err(LimitError::NonFinite {
                        field: "hinge.axis",
                    });
                }
                let axis = axis.try_normalize().ok_or(LimitError::ZeroAxis)?;
                range("hinge", hinge.min, hinge.max)?;
                Ok(JointLimit::Hinge {
                    axis,
                    min: hinge.min,
                    max: hinge.max,
                })
            }
            (None, Some(swing)) => {
                if !swing.is_finite() {
                    return Err(LimitError::NonFinite { field: "swing" });
                }
                if !(0.0..=PI + 1e-4).contains(&swing) {
                    return Err(LimitError::BadSwing(swing));
                }
                let [twist_min, twist_max] = self.twist.unwrap_or([-PI, PI]);
                range("twist", twist_min, twist_max)?;
                Ok(JointLimit::Swing {
                    swing,
                    twist_min,
                    twist_max,
                })
            }
            _ => Err(LimitError::Shape),
        }
    }

    /// The document of `limit`.
    pub fn from_limit(limit: &JointLimit) -> Self {
        match *limit {
            JointLimit::Hinge { axis, min, max } => Self {
                hinge: Some(HingeDoc {
                    axis: axis.to_array(),
                    min,
                    max,
                }),
                ..Self::default()
            },
            JointLimit::Swing {
                swing,
                twist_min,
                twist_max,
            } => Self {
                hinge: None,
                swing: Some(swing),
                twist: Some([twist_min, twist_max]),
            },
        }
    }
}

/// The signed angle of `q`'s twist about the unit `axis`, in (−π, π]:
/// `2·atan2(q_xyz · axis, q_w)`, wrapped.
pub fn twist_angle(q: Quat, axis: Vec3) -> f32 {
    let angle = 2.0 * Vec3::new(q.x, q.y, q.z).dot(axis).atan2(q.w);
    if angle > PI {
        angle - 2.0 * PI
    } else if angle <= -PI {
        angle + 2.0 * PI
    } else {
        angle
    }
}

impl JointLimit {
    /// The nearest rotation this limit allows to `q` (see the module doc).
    pub fn clamp(&self, q: Quat) -> Quat {
        let q = q.normalize();
        match *self {
            JointLimit::Hinge { axis, min, max } => {
                Quat::from_axis_angle(axis, twist_angle(q, axis).clamp(min, max))
            }
            JointLimit::Swing {
                swing,
                twist_min,
                twist_max,
            } => {
                let twist_now = twist_angle(q, Vec3::Y);
                let twist = Quat::from_rotation_y(twist_now);
                let swing_now = (q * twist.inverse()).normalize();
                // The swing tilts +Y about an axis in the XZ plane.
                let (axis, angle) = swing_now.to_axis_angle();
                let (axis, angle) = if angle > PI {
                    (-axis, 2.0 * PI - angle)
                } else {
                    (axis, angle)
                };
                let swing_kept = if angle.is_finite() && axis.is_finite() {
                    Quat::from_axis_angle(axis, angle.min(swing))
                } else {
                    Quat::IDENTITY
                };
                (swing_kept * Quat::from_rotation_y(twist_now.clamp(twist_min, twist_max)))
                    .normalize()
            }
        }
    }

    /// How far `q` is outside this limit, radians (0 inside): the angle of
    /// `q⁻¹ · clamp(q)`, as `2·atan2(|v|, |w|)`, which stays accurate for
    /// tiny angles where `acos` of the dot product does not.
    pub fn excess(&self, q: Quat) -> f32 {
        let q = q.normalize();
        let between = q.inverse() * self.clamp(q);
        2.0 * Vec3::new(between.x, between.y, between.z)
            .length()
            .atan2(between.w.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_2;

    #[test]
    fn a_hinge_keeps_its_axis_and_range() {
        let knee = JointLimit::Hinge {
            axis: Vec3::X,
            min: 0.0,
            max: 2.5,
        };
        let bent = Quat::from_rotation_x(1.0);
        assert!(knee.clamp(bent).abs_diff_eq(bent, 1e-6));
        assert!(
            knee.clamp(Quat::from_rotation_x(-0.5))
                .abs_diff_eq(Quat::IDENTITY, 1e-6),
            "the knee does not bend backwards"
        );
        // A turn about another axis keeps only its part about the hinge.
        let sideways = Quat::from_rotation_z(0.7) * Quat::from_rotation_x(0.4);
        assert!((twist_angle(knee.clamp(sideways), Vec3::X) - 0.4).abs() < 0.2);
        assert!(knee.excess(knee.clamp(sideways)) < 1e-5);
    }

    #[test]
    fn a_cone_limits_the_tilt_and_the_twist_separately() {
        let shoulder = JointLimit::Swing {
            swing: 0.5,
            twist_min: -0.2,
            twist_max: 0.2,
        };
        let tilted = Quat::from_rotation_z(FRAC_PI_2);
        let clamped = shoulder.clamp(tilted);
        let y = clamped * Vec3::Y;
        assert!((y.angle_between(Vec3::Y) - 0.5).abs() < 1e-5, "{y}");
        let twisted = Quat::from_rotation_y(1.0);
        assert!(shoulder
            .clamp(twisted)
            .abs_diff_eq(Quat::from_rotation_y(0.2), 1e-6));
        let inside = Quat::from_rotation_x(0.3) * Quat::from_rotation_y(0.1);
        assert!(shoulder.clamp(inside).abs_diff_eq(inside, 1e-5));
    }

    #[test]
    fn documents_round_trip_and_bad_ones_are_named() {
        let hinge = LimitDoc {
            hinge: Some(HingeDoc {
                axis: [0.0, 0.0, 2.0],
                min: -1.0,
                max: 0.0,
            }),
            ..LimitDoc::default()
        };
        let limit = hinge.to_limit().unwrap();
        assert_eq!(LimitDoc::from_limit(&limit).to_limit().unwrap(), limit);
        assert_eq!(LimitDoc::default().to_limit(), Err(LimitError::Shape));
        let backwards = LimitDoc {
            swing: Some(0.3),
            twist: Some([1.0, -1.0]),
            ..LimitDoc::default()
        };
        assert!(matches!(
            backwards.to_limit(),
            Err(LimitError::BadRange { field: "twist", .. })
        ));
    }
}
