//! The engine note's GPU limits in the lab: what each palette format computes, how
//! far that is from the full matrix, and what a uniform budget allows.

use glam::Vec3;

use super::Lab;
use crate::skin::batches::{split_by_bone_budget, PaletteFormat};
use crate::skin::palette_formats::skin_with_format;
use crate::skin::SkinningMethod;

/// Vertex uniform vectors the mesh shader needs besides the palette: the
/// clip-from-model matrix (4), the light and colours (2), the morph
/// weights and indices (8), and two spare; the page's budget figures
/// subtract them.
pub const OTHER_UNIFORM_VECTORS: usize = 16;

/// One palette format under a uniform budget, for the current skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct FormatFigures {
    /// The format.
    pub format: PaletteFormat,
    /// `vec4` uniforms per bone.
    pub vectors_per_bone: usize,
    /// Bones one draw can carry: `⌊(budget − others) / vectors⌋`.
    pub bones_per_draw: usize,
    /// Draw calls the mesh needs (greedy split); `None` when a single
    /// triangle needs more bones than a draw carries.
    pub draws: Option<usize>,
    /// Palette bytes uploaded per frame: `bones · vectors · 16` per draw's
    /// sub-palette, summed over the draws.
    pub bytes_per_frame: usize,
}

impl Lab {
    /// Positions as the shader computes them with `format` (the CPU
    /// reference of that format).
    pub fn format_positions(&self, format: PaletteFormat) -> Vec<Vec3> {
        let mesh = self.derived.skinning_base(&self.scene);
        let influences = self
            .derived
            .quantised
            .as_deref()
            .unwrap_or(&self.scene.influences);
        let count = mesh.vertex_count();
        let (mut positions, mut normals) = (vec![Vec3::ZERO; count], vec![Vec3::ZERO; count]);
        skin_with_format(
            format,
            mesh,
            influences,
            &self.derived.palette,
            &self.derived.dqs_palette,
            &mut positions,
            &mut normals,
        );
        positions
    }

    /// The largest distance between `format`'s positions and the full
    /// matrices' (LBS with `mat4`), model units: zero for the matrix
    /// formats, the lost scale for the others.
    pub fn format_error(&self, format: PaletteFormat) -> f32 {
        let found = self.format_positions(format);
        let reference = self.skinned_positions(SkinningMethod::Lbs);
        found
            .iter()
            .zip(reference.iter())
            .map(|(a, b)| a.distance(*b))
            .fold(0.0, f32::max)
    }

    /// Every format under `budget` vertex uniform vectors, for this scene.
    pub fn format_figures(&self, budget: usize) -> Vec<FormatFigures> {
        let scene = &self.scene;
        PaletteFormat::ALL
            .into_iter()
            .map(|format| {
                let vectors_per_bone = format.vectors_per_bone();
                let bones_per_draw = format.bones_per_draw(budget, OTHER_UNIFORM_VECTORS);
                let batches =
                    split_by_bone_budget(&scene.mesh.indices, &scene.influences, bones_per_draw)
                        .ok();
                let bones: usize = batches.as_ref().map_or(scene.skeleton.len(), |b| {
                    b.iter().map(|batch| batch.bones.len()).sum()
                });
                FormatFigures {
                    format,
                    vectors_per_bone,
                    bones_per_draw,
                    draws: batches.map(|b| b.len()),
                    bytes_per_frame: bones * vectors_per_bone * 16,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use super::*;
    use crate::rig::pose::BoneTransform;

    #[test]
    fn the_engine_notes_budget_carries_about_80_bones_of_4x3() {
        let lab = Lab::example("chain").unwrap();
        let figures = lab.format_figures(256);
        let per_draw: Vec<usize> = figures.iter().map(|f| f.bones_per_draw).collect();
        println!("bones per draw at 256 vectors: mat4 {}, mat4x3 {}, quat+translation {}, dual quaternion {}", per_draw[0], per_draw[1], per_draw[2], per_draw[3]);
        assert_eq!(per_draw, vec![60, 80, 120, 120]);
        // The 300-bone chain needs several draws in every format.
        assert!(
            figures.iter().all(|f| f.draws.is_some_and(|d| d >= 3)),
            "{figures:?}"
        );
    }

    #[test]
    fn a_scaled_bone_shows_the_error_of_the_formats_without_a_matrix() {
        let mut lab = Lab::example("two-bone").unwrap();
        lab.set_bone_transform(1, BoneTransform::from_rotation(Quat::from_rotation_z(0.6)))
            .unwrap();
        for format in PaletteFormat::ALL {
            assert!(
                lab.format_error(format) < 1e-5,
                "{format:?} on a rigid pose"
            );
        }
        lab.set_bone_transform(
            0,
            BoneTransform {
                scale: Vec3::new(1.0, 1.5, 1.0),
                ..BoneTransform::IDENTITY
            },
        )
        .unwrap();
        assert!(lab.format_error(PaletteFormat::Mat4x3) < 1e-5);
        assert!(lab.format_error(PaletteFormat::QuatTranslation) > 0.5);
        assert!(lab.format_error(PaletteFormat::DualQuat) > 0.5);
    }
}
