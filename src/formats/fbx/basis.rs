//! The change of basis from an FBX file's units and axes to Skinlab's
//! metres, Y up: `C = U · s` with `s` the file's `UnitScaleFactor` / 100
//! and `U` a turn of −90° about X for a Z-up file; points go through `C`,
//! transforms through `C M C⁻¹`.

use glam::{DMat4, DQuat, DVec3, Vec3};

use super::objects::property;
use super::tree::{Node, Value as FbxValue};

/// The change of basis `C` from the file's units and axes to metres, Y up.
pub(super) struct Basis {
    c: DMat4,
    c_inverse: DMat4,
    /// `C`'s turn: the identity, or −90° about X for a Z-up file.
    turn: DQuat,
}

impl Basis {
    pub(super) fn of(top: &[Node]) -> Basis {
        let settings = top.iter().find(|n| n.name == "GlobalSettings");
        let number = |name: &str| {
            settings
                .and_then(|s| property(s, name))
                .and_then(|v| v.first())
                .and_then(FbxValue::number)
        };
        // Centimetres per unit; FBX's own default unit is the centimetre.
        let unit = number("UnitScaleFactor")
            .filter(|u| u.is_finite() && *u > 0.0)
            .unwrap_or(1.0);
        let turn = if number("UpAxis") == Some(2.0) {
            DQuat::from_rotation_x(-std::f64::consts::FRAC_PI_2)
        } else {
            DQuat::IDENTITY
        };
        let c = DMat4::from_quat(turn) * DMat4::from_scale(DVec3::splat(unit / 100.0));
        Basis {
            c,
            c_inverse: c.inverse(),
            turn,
        }
    }

    /// A model's local transform `L = T' · R · S` (FBX's pivots and
    /// offsets all translations, so its linear part is exactly `R · S`) in
    /// this basis, as translation, rotation and scale without taking a
    /// matrix apart: `C L C⁻¹ = T(C t') · (U R U⁻¹) · (U S U⁻¹)`, and
    /// `U S U⁻¹` is `S` with its axes permuted, `U` turning axes onto axes.
    /// A scale through zero or below stays as written.
    pub(super) fn local_trs(
        &self,
        local: DMat4,
        rotation: DQuat,
        scale: DVec3,
    ) -> (DVec3, DQuat, DVec3) {
        let translation = self.c.transform_point3(local.w_axis.truncate());
        let turn = glam::DMat3::from_quat(self.turn);
        let permuted = DVec3::new(
            turn.row(0).abs().dot(scale),
            turn.row(1).abs().dot(scale),
            turn.row(2).abs().dot(scale),
        );
        (
            translation,
            (self.turn * rotation * self.turn.inverse()).normalize(),
            permuted,
        )
    }

    pub(super) fn point(&self, p: DVec3) -> Vec3 {
        self.c.transform_point3(p).as_vec3()
    }

    pub(super) fn vector(&self, v: DVec3) -> Vec3 {
        self.c.transform_vector3(v).as_vec3()
    }

    pub(super) fn transform(&self, m: DMat4) -> DMat4 {
        self.c * m * self.c_inverse
    }
}
