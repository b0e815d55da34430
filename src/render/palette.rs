//! The skinning palette on its way to the shader: as a uniform array when
//! it fits the budget, as a float texture read with `texelFetch` otherwise,
//! in the method's own layout or one of the engine note's formats; and a
//! batch's sub-palette.

use glam::Mat4;
use glow::HasContext;

use super::programs::Variant;
use super::uniforms::MeshUniforms;
use super::{bytes, Renderer, PALETTE_TEXTURE_WIDTH};
use crate::lab::Lab;
use crate::skin::gpu_layout::{palette_texture_rows, palette_vectors};
use crate::skin::palette_formats::format_vectors;

impl Renderer {
    /// Uploads the palette for `method` and binds it to `program`.
    pub(super) fn bind_palette(
        &mut self,
        gl: &glow::Context,
        lab: &Lab,
        variant: Variant,
        uniforms: &MeshUniforms,
    ) {
        let (palette, dqs) = lab.palettes();
        match variant.format {
            Some(format) => format_vectors(format, palette, dqs, &mut self.palette_scratch),
            None => palette_vectors(variant.method, palette, dqs, &mut self.palette_scratch),
        }
        let flat: &[f32] = bytemuck::cast_slice(&self.palette_scratch);
        unsafe {
            if variant.palette_vectors.is_some() {
                gl.uniform_4_f32_slice(uniforms.bones.as_ref(), flat);
            } else {
                // Whole rows of PALETTE_TEXTURE_WIDTH texels, the last padded.
                let vectors = self.palette_scratch.len();
                let rows = palette_texture_rows(vectors);
                self.palette_scratch
                    .resize(rows * PALETTE_TEXTURE_WIDTH, [0.0; 4]);
                let flat: &[f32] = bytemuck::cast_slice(&self.palette_scratch);
                gl.active_texture(glow::TEXTURE0);
                gl.bind_texture(glow::TEXTURE_2D, Some(self.bone_texture));
                gl.tex_image_2d(
                    glow::TEXTURE_2D,
                    0,
                    glow::RGBA32F as i32,
                    PALETTE_TEXTURE_WIDTH as i32,
                    rows as i32,
                    0,
                    glow::RGBA,
                    glow::FLOAT,
                    glow::PixelUnpackData::Slice(Some(bytes(flat))),
                );
                gl.uniform_1_i32(uniforms.bone_texture.as_ref(), 0);
            }
        }
    }
}

/// Uploads the sub-palette of `bones` (as `variant` sends a palette) to the
/// uniform array at `location`.
pub(super) fn upload_sub_palette(
    gl: &glow::Context,
    location: Option<&glow::UniformLocation>,
    variant: Variant,
    palette: &[Mat4],
    dqs: &[crate::skin::dual_quat::RigidScale],
    bones: &[u16],
    scratch: &mut Vec<[f32; 4]>,
) {
    let sub: Vec<Mat4> = bones.iter().map(|&b| palette[usize::from(b)]).collect();
    let sub_dqs: Vec<_> = bones.iter().map(|&b| dqs[usize::from(b)]).collect();
    match variant.format {
        Some(format) => format_vectors(format, &sub, &sub_dqs, scratch),
        None => palette_vectors(variant.method, &sub, &sub_dqs, scratch),
    }
    let flat: &[f32] = bytemuck::cast_slice(scratch);
    // SAFETY: a plain WebGL call on a live context.
    #[allow(unsafe_code)]
    unsafe {
        gl.uniform_4_f32_slice(location, flat);
    }
}
