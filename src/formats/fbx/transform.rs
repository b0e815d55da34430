//! FBX's transform of a model (`Model`) relative to its parent:
//!
//! `L = T · Roff · Rp · Rpre · R · Rpost⁻¹ · Rp⁻¹ · Soff · Sp · S · Sp⁻¹`
//!
//! with `T`, `R`, `S` the `Lcl Translation`, `Lcl Rotation` (degrees, in
//! the model's `RotationOrder`) and `Lcl Scaling`, `Rpre`/`Rpost` the pre-
//! and post-rotations (always in XYZ order), `Roff`/`Rp` the rotation
//! offset and pivot, `Soff`/`Sp` the scaling offset and pivot. A rest
//! transform also follows the model's `InheritType` (how a parent's scale
//! reaches the child, see [`Inheritance`]).

use glam::{DMat4, DQuat, DVec3};

use super::objects::Object;

/// What a model's transform is made of.
#[derive(Clone, Debug)]
pub struct TransformParts {
    /// `Lcl Translation`.
    pub translation: DVec3,
    /// `Lcl Rotation`, degrees.
    pub rotation: DVec3,
    /// `Lcl Scaling`.
    pub scale: DVec3,
    /// `PreRotation`, degrees.
    pub pre_rotation: DVec3,
    /// `PostRotation`, degrees.
    pub post_rotation: DVec3,
    /// `RotationOffset`.
    pub rotation_offset: DVec3,
    /// `RotationPivot`.
    pub rotation_pivot: DVec3,
    /// `ScalingOffset`.
    pub scaling_offset: DVec3,
    /// `ScalingPivot`.
    pub scaling_pivot: DVec3,
    /// `RotationOrder` (0 = XYZ … 5 = ZYX; 6, spheric XYZ, read as XYZ).
    pub order: u8,
    /// `InheritType` (0 RrSs, 1 RSrs, 2 Rrs).
    pub inherit: u8,
}

impl TransformParts {
    /// The parts of `model`'s `Properties70`, absent ones at their defaults.
    pub fn of(model: &Object) -> Self {
        let v = |name: &str, default: DVec3| model.vector(name).map_or(default, DVec3::from_array);
        let order = model.number("RotationOrder").unwrap_or(0.0);
        TransformParts {
            translation: v("Lcl Translation", DVec3::ZERO),
            rotation: v("Lcl Rotation", DVec3::ZERO),
            scale: v("Lcl Scaling", DVec3::ONE),
            pre_rotation: v("PreRotation", DVec3::ZERO),
            post_rotation: v("PostRotation", DVec3::ZERO),
            rotation_offset: v("RotationOffset", DVec3::ZERO),
            rotation_pivot: v("RotationPivot", DVec3::ZERO),
            scaling_offset: v("ScalingOffset", DVec3::ZERO),
            scaling_pivot: v("ScalingPivot", DVec3::ZERO),
            order: if (0.0..=5.0).contains(&order) {
                order as u8
            } else {
                0
            },
            inherit: model.number("InheritType").unwrap_or(0.0).clamp(0.0, 2.0) as u8,
        }
    }

    /// The geometric transform of `model` (`GeometricTranslation`,
    /// `GeometricRotation`, `GeometricScaling`): applied to its geometry
    /// alone, not inherited by its children.
    pub fn geometric(model: &Object) -> DMat4 {
        let v = |name: &str, default: DVec3| model.vector(name).map_or(default, DVec3::from_array);
        let order = TransformParts::of(model).order;
        DMat4::from_translation(v("GeometricTranslation", DVec3::ZERO))
            * DMat4::from_quat(euler(v("GeometricRotation", DVec3::ZERO), order))
            * DMat4::from_scale(v("GeometricScaling", DVec3::ONE))
    }

    /// The rotation `Rpre · R · Rpost⁻¹` for Euler angles `rotation`.
    pub fn rotation_with(&self, rotation: DVec3) -> DQuat {
        euler(self.pre_rotation, 0)
            * euler(rotation, self.order)
            * euler(self.post_rotation, 0).inverse()
    }

    /// `L` of the module documentation with `T`, `R` (degrees) and `S`
    /// given: a model's local transform at a moment of a clip.
    pub fn local_with(&self, translation: DVec3, rotation: DVec3, scale: DVec3) -> DMat4 {
        let t = DMat4::from_translation;
        t(translation)
            * t(self.rotation_offset)
            * t(self.rotation_pivot)
            * DMat4::from_quat(self.rotation_with(rotation))
            * t(-self.rotation_pivot)
            * t(self.scaling_offset)
            * t(self.scaling_pivot)
            * DMat4::from_scale(scale)
            * t(-self.scaling_pivot)
    }

    /// The model's own values: `Lcl Translation`, `Lcl Rotation`, `Lcl Scaling`.
    pub fn rest_values(&self) -> Values {
        (self.translation, self.rotation, self.scale)
    }

    /// The model's transform at `values` relative to the node it hangs
    /// from in the scene graph, its parent's scale taken as `how` says.
    pub fn graph_local(&self, (translation, rotation, scale): Values, how: Inheritance) -> DMat4 {
        let local = self.local_with(translation, rotation, scale);
        match how {
            Inheritance::Whole => local,
            Inheritance::Compensated(parent_scale) => {
                local * DMat4::from_scale(reciprocal(parent_scale))
            }
            Inheritance::Frame {
                scale: parent,
                keeps,
            } => {
                let mut out = if keeps {
                    local * DMat4::from_scale(parent)
                } else {
                    local
                };
                out.w_axis = (local.w_axis.truncate() * parent).extend(1.0);
                out
            }
        }
    }
}

impl Inheritance {
    /// The scale along the model's own axes in the scene graph for its
    /// own scale `scale`: the scale of [`TransformParts::graph_local`]'s
    /// matrix, sign kept.
    pub fn scale_of(self, scale: DVec3) -> DVec3 {
        match self {
            Inheritance::Compensated(parent) => scale * reciprocal(parent),
            Inheritance::Frame {
                scale: parent,
                keeps: true,
            } => scale * parent,
            _ => scale,
        }
    }
}

/// A model's translation, rotation (degrees) and scale, as `Lcl` values.
pub type Values = (DVec3, DVec3, DVec3);

/// How a model takes its parent's scale in the scene graph (FBX's
/// `InheritType`, as MotionBuilder and Maya evaluate it):
///
/// - `RSrs` (1): the parent's whole transform, `W = W_P · L`;
/// - `Rrs` (2, Maya's segment scale compensation): the parent's own scale
///   `S_P` undone after the child's translation, `W = W_P · T · S_P⁻¹ · L'`
///   (`L'` being `L` without `T`);
/// - `RrSs` (0, MotionBuilder's default): the parent's world scale `S_W`
///   applied along the child's own axes, `W = T_W · R_P · R · S_W · S`.
///
/// Where `S_P` (or `S_W`) is the same along all three axes, these are
/// translation, rotation and scale relative to the parent. Otherwise the
/// model hangs from a frame node between it and its parent, whose scale
/// `S⁻¹` undoes the parent's, and is itself `T(S t) · R · S` (`RrSs`) or
/// `T(S t) · R` (`Rrs`) under it: exact, where keeping the model under its
/// parent would need a shear no node holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Inheritance {
    /// `L` itself: `RSrs`, a root, or `RrSs` under an even scale.
    Whole,
    /// `Rrs` under its parent's own even scale `S_P`: `L · S_P⁻¹`.
    Compensated(DVec3),
    /// Under a frame node of scale `scale⁻¹`: the translation scaled by
    /// `scale`, and the scale too where the model keeps it (`RrSs`).
    Frame {
        /// The parent's scale the frame undoes.
        scale: DVec3,
        /// Whether the model takes that scale along its own axes (`RrSs`).
        keeps: bool,
    },
}

/// `1 / v` per axis, 1 where an axis is 0.
pub fn reciprocal(v: DVec3) -> DVec3 {
    DVec3::select(v.abs().cmpgt(DVec3::splat(1e-12)), v.recip(), DVec3::ONE)
}

/// Whether `v`'s three entries are the same (to a millionth of their size).
pub fn is_even(v: DVec3) -> bool {
    let v = v.abs();
    v.max_element() - v.min_element() <= 1e-6 * v.max_element()
}

/// The rotation of Euler angles `degrees` in FBX order `order`: order
/// `ABC` turns about `A` first, so `R = R_C · R_B · R_A`.
pub fn euler(degrees: DVec3, order: u8) -> DQuat {
    let r = degrees * (std::f64::consts::PI / 180.0);
    let x = DQuat::from_rotation_x(r.x);
    let y = DQuat::from_rotation_y(r.y);
    let z = DQuat::from_rotation_z(r.z);
    match order {
        1 => y * z * x, // XZY
        2 => x * z * y, // YZX
        3 => z * x * y, // YXZ
        4 => y * x * z, // ZXY
        5 => x * y * z, // ZYX
        _ => z * y * x, // XYZ
    }
}

/// The lengths of a matrix's first three columns.
pub fn column_lengths(m: DMat4) -> DVec3 {
    DVec3::new(
        m.x_axis.truncate().length(),
        m.y_axis.truncate().length(),
        m.z_axis.truncate().length(),
    )
}

/// `m` kept as translation, rotation and scale (the sign of a mirroring
/// put on the x scale), as a scene graph's node keeps it.
pub fn as_trs(m: DMat4) -> (DVec3, DQuat, DVec3) {
    let (scale, rotation, translation) = m.to_scale_rotation_translation();
    (translation, rotation.normalize(), scale)
}

/// The matrix of translation, rotation and scale.
pub fn from_trs((t, r, s): (DVec3, DQuat, DVec3)) -> DMat4 {
    DMat4::from_scale_rotation_translation(s, r, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xyz_order_turns_about_x_first() {
        // (0, 1, 0) turned 90° about X goes to (0, 0, 1), then 90° about Z
        // stays there: XYZ order. ZYX order turns about Z first: (-1, 0, 0),
        // then about X: unchanged.
        let q = euler(DVec3::new(90.0, 0.0, 90.0), 0);
        assert!((q * DVec3::Y).abs_diff_eq(DVec3::Z, 1e-12));
        let q = euler(DVec3::new(90.0, 0.0, 90.0), 5);
        assert!((q * DVec3::Y).abs_diff_eq(-DVec3::X, 1e-12));
    }

    #[test]
    fn pivots_turn_about_the_pivot() {
        let parts = TransformParts {
            translation: DVec3::ZERO,
            rotation: DVec3::new(0.0, 0.0, 180.0),
            scale: DVec3::ONE,
            pre_rotation: DVec3::ZERO,
            post_rotation: DVec3::ZERO,
            rotation_offset: DVec3::ZERO,
            rotation_pivot: DVec3::new(1.0, 0.0, 0.0),
            scaling_offset: DVec3::ZERO,
            scaling_pivot: DVec3::ZERO,
            order: 0,
            inherit: 1,
        };
        // The pivot stays put; the origin goes to the far side of it.
        let m = parts.graph_local(parts.rest_values(), Inheritance::Whole);
        assert!(m.transform_point3(DVec3::X).abs_diff_eq(DVec3::X, 1e-12));
        assert!(m
            .transform_point3(DVec3::ZERO)
            .abs_diff_eq(DVec3::new(2.0, 0.0, 0.0), 1e-12));
    }
}
