//! Morph targets on the GPU: every target's offsets in one float texture
//! read by `gl_VertexID` (so the number of targets is not bound by vertex
//! attributes), and the weights of the active targets as uniforms, so only
//! targets with a weight cost time.

use glow::HasContext;

use crate::lab::Lab;
use crate::skin::gpu_layout::{
    active_morphs, morph_texels, MAX_ACTIVE_MORPHS, MORPH_TEXTURE_WIDTH,
};

/// The texture unit the morph offsets are bound to (the palette uses 0).
const MORPH_UNIT: u32 = 1;

/// The offsets texture and what it holds.
pub(super) struct MorphGpu {
    texture: glow::Texture,
    /// The lab whose targets are uploaded: targets never change within one.
    uploaded_for: Option<u64>,
    active: Vec<(u32, f32)>,
}

/// A float texture sampled texel by texel: nearest, clamped.
pub(super) fn data_texture(gl: &glow::Context) -> Result<glow::Texture, String> {
    unsafe {
        let texture = gl.create_texture()?;
        gl.bind_texture(glow::TEXTURE_2D, Some(texture));
        for (parameter, value) in [
            (glow::TEXTURE_MIN_FILTER, glow::NEAREST),
            (glow::TEXTURE_MAG_FILTER, glow::NEAREST),
            (glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE),
            (glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE),
        ] {
            gl.tex_parameter_i32(glow::TEXTURE_2D, parameter, value as i32);
        }
        Ok(texture)
    }
}

impl MorphGpu {
    pub(super) fn new(gl: &glow::Context) -> Result<Self, String> {
        Ok(Self {
            texture: data_texture(gl)?,
            uploaded_for: None,
            active: Vec::with_capacity(MAX_ACTIVE_MORPHS),
        })
    }

    /// Uploads the targets of a lab not seen before.
    fn sync(&mut self, gl: &glow::Context, lab: &Lab) {
        if self.uploaded_for == Some(lab.id()) {
            return;
        }
        let (texels, rows) = morph_texels(&lab.scene().morphs, lab.vertex_count());
        let flat: &[f32] = bytemuck::cast_slice(&texels);
        unsafe {
            gl.active_texture(glow::TEXTURE0 + MORPH_UNIT);
            gl.bind_texture(glow::TEXTURE_2D, Some(self.texture));
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                glow::RGBA32F as i32,
                MORPH_TEXTURE_WIDTH as i32,
                rows as i32,
                0,
                glow::RGBA,
                glow::FLOAT,
                glow::PixelUnpackData::Slice(Some(bytemuck::cast_slice(flat))),
            );
            gl.active_texture(glow::TEXTURE0);
        }
        self.uploaded_for = Some(lab.id());
    }

    /// Uploads what is new and sets `program`'s morph uniforms: the active
    /// targets and their weights.
    pub(super) fn bind(&mut self, gl: &glow::Context, lab: &Lab, program: glow::Program) {
        self.sync(gl, lab);
        active_morphs(lab.morph_weights(), &mut self.active);
        let mut targets = [0_i32; MAX_ACTIVE_MORPHS];
        let mut weights = [0_f32; MAX_ACTIVE_MORPHS];
        for (k, &(target, weight)) in self.active.iter().enumerate() {
            targets[k] = target as i32;
            weights[k] = weight;
        }
        unsafe {
            gl.active_texture(glow::TEXTURE0 + MORPH_UNIT);
            gl.bind_texture(glow::TEXTURE_2D, Some(self.texture));
            gl.active_texture(glow::TEXTURE0);
            let location = |name: &str| gl.get_uniform_location(program, name);
            gl.uniform_1_i32(location("u_morph_texture").as_ref(), MORPH_UNIT as i32);
            gl.uniform_1_i32(location("u_morph_count").as_ref(), self.active.len() as i32);
            gl.uniform_1_i32(
                location("u_vertex_count").as_ref(),
                lab.vertex_count() as i32,
            );
            gl.uniform_4_i32_slice(location("u_morph_targets").as_ref(), &targets);
            gl.uniform_4_f32_slice(location("u_morph_weights").as_ref(), &weights);
        }
    }
}
