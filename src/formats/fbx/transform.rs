//! FBX's transform of a model (`Model`) relative to its parent:
//!
//! `L = T · Roff · Rp · Rpre · R · Rpost⁻¹ · Rp⁻¹ · Soff · Sp · S · Sp⁻¹`
//!
//! with `T`, `R`, `S` the `Lcl Translation`, `Lcl Rotation` (degrees, in
//! the model's `RotationOrder`) and `Lcl Scaling`, `Rpre`/`Rpost` the pre-
//! and post-rotations (always in XYZ order), `Roff`/`Rp` the rotation
//! offset and pivot, `Soff`/`Sp` the scaling offset and pivot. A rest
//! transform also follows the model's `InheritType` (how a parent's scale
//! reaches the child), as three.js's `FBXLoader` composes it, and is then
//! kept as translation, rotation and scale (a shear is dropped, as a node
//! of a scene graph drops it).

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

    /// The rest transform relative to a parent whose local and global
    /// transforms are `parent` (identity for a root), following
    /// `InheritType` for the parent's scale.
    pub fn rest_local(&self, parent: Option<(DMat4, DMat4)>) -> DMat4 {
        let (parent_local, parent_global) = parent.unwrap_or((DMat4::IDENTITY, DMat4::IDENTITY));
        let local_rotation = DMat4::from_quat(self.rotation_with(self.rotation));
        let parent_rotation = rotation_part(parent_global);
        let parent_translation = DMat4::from_translation(parent_global.w_axis.truncate());
        let parent_rs = parent_translation.inverse() * parent_global;
        let parent_scale = parent_rotation.inverse() * parent_rs;
        let local_scale = DMat4::from_scale(self.scale);
        let global_rs = match self.inherit {
            0 => parent_rotation * local_rotation * parent_scale * local_scale,
            1 => parent_rotation * parent_scale * local_rotation * local_scale,
            _ => {
                let parent_local_scale = DMat4::from_scale(column_lengths(parent_local));
                parent_rotation
                    * local_rotation
                    * parent_scale
                    * parent_local_scale.inverse()
                    * local_scale
            }
        };
        let full = self.local_with(self.translation, self.rotation, self.scale);
        let global_translation = parent_global.transform_point3(full.w_axis.truncate());
        let global = DMat4::from_translation(global_translation) * global_rs;
        parent_global.inverse() * global
    }
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
fn column_lengths(m: DMat4) -> DVec3 {
    DVec3::new(
        m.x_axis.truncate().length(),
        m.y_axis.truncate().length(),
        m.z_axis.truncate().length(),
    )
}

/// The rotation of `m`: its first three columns divided by their lengths
/// (three.js's `extractRotation`), no translation.
fn rotation_part(m: DMat4) -> DMat4 {
    let s = column_lengths(m);
    let div = |v: glam::DVec4, l: f64| {
        if l > 0.0 {
            v.truncate() / l
        } else {
            DVec3::ZERO
        }
    };
    DMat4::from_cols(
        div(m.x_axis, s.x).extend(0.0),
        div(m.y_axis, s.y).extend(0.0),
        div(m.z_axis, s.z).extend(0.0),
        glam::DVec4::W,
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
        let m = parts.rest_local(None);
        assert!(m.transform_point3(DVec3::X).abs_diff_eq(DVec3::X, 1e-12));
        assert!(m
            .transform_point3(DVec3::ZERO)
            .abs_diff_eq(DVec3::new(2.0, 0.0, 0.0), 1e-12));
    }
}
