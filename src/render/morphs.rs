//! Morph targets on the GPU: the active targets' offsets (those with a
//! weight, at most [`MAX_ACTIVE_MORPHS`]) in one float texture read by
//! `gl_VertexID`, uploaded when the set changes, and their weights as
//! uniforms. Only the active set is uploaded: all targets of a large mesh
//! (100 on 100,000 vertices: 9,766 rows) would outgrow `MAX_TEXTURE_SIZE`.
//! Where even the active set does not fit, the largest that fit are drawn
//! and [`MorphGpu::dropped`] says how many were not.

use super::uniforms::MeshUniforms;
use glow::HasContext;

use crate::lab::Lab;
use crate::skin::gpu_layout::{
    active_morphs, morph_texels, morphs_that_fit, MAX_ACTIVE_MORPHS, MORPH_TEXTURE_WIDTH,
};

/// The texture unit the morph offsets are bound to (the palette uses 0).
const MORPH_UNIT: u32 = 1;

/// The offsets texture and what it holds.
pub(super) struct MorphGpu {
    texture: glow::Texture,
    /// The lab and the targets (ascending) uploaded, slot by slot; targets
    /// never change within one lab.
    uploaded: Option<(u64, Vec<u32>)>,
    active: Vec<(u32, f32)>,
    /// The device's `MAX_TEXTURE_SIZE`: the most rows the texture may have.
    max_rows: usize,
    /// Active targets the last draw left out because they did not fit.
    dropped: usize,
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
        let max_rows = unsafe { gl.get_parameter_i32(glow::MAX_TEXTURE_SIZE) }.max(2048) as usize;
        Ok(Self {
            texture: data_texture(gl)?,
            uploaded: None,
            active: Vec::with_capacity(MAX_ACTIVE_MORPHS),
            max_rows,
            dropped: 0,
        })
    }

    /// Active targets the last draw could not fit into the texture.
    pub(super) fn dropped(&self) -> usize {
        self.dropped
    }

    /// Uploads `targets` (ascending) of `lab` unless they are what the
    /// texture holds.
    fn sync(&mut self, gl: &glow::Context, lab: &Lab, targets: &[u32]) {
        if self
            .uploaded
            .as_ref()
            .is_some_and(|(id, held)| *id == lab.id() && held == targets)
        {
            return;
        }
        let morphs = &lab.scene().morphs;
        let chosen: Vec<_> = targets.iter().map(|&t| &morphs[t as usize]).collect();
        let (texels, rows) = morph_texels(&chosen, lab.vertex_count());
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
        self.uploaded = Some((lab.id(), targets.to_vec()));
    }

    /// Uploads what is new and sets `program`'s morph uniforms: the active
    /// targets and their weights.
    pub(super) fn bind(&mut self, gl: &glow::Context, lab: &Lab, uniforms: &MeshUniforms) {
        active_morphs(lab.morph_weights(), &mut self.active);
        // The largest that fit the texture; the rest are counted as dropped.
        let fit = morphs_that_fit(self.active.len(), lab.vertex_count(), self.max_rows);
        self.dropped = self.active.len() - fit;
        self.active.truncate(fit);
        // Uploaded in ascending order, so a change of weights alone (the
        // same set) uploads nothing; each active target reads its slot.
        let mut uploaded: Vec<u32> = self.active.iter().map(|&(t, _)| t).collect();
        crate::rig::sorting::sort_stable_by_key(&mut uploaded, |&target| target);
        self.sync(gl, lab, &uploaded);
        let mut targets = [0_i32; MAX_ACTIVE_MORPHS];
        let mut weights = [0_f32; MAX_ACTIVE_MORPHS];
        for (k, &(target, weight)) in self.active.iter().enumerate() {
            targets[k] = uploaded.binary_search(&target).unwrap_or(0) as i32;
            weights[k] = weight;
        }
        unsafe {
            gl.active_texture(glow::TEXTURE0 + MORPH_UNIT);
            gl.bind_texture(glow::TEXTURE_2D, Some(self.texture));
            gl.active_texture(glow::TEXTURE0);
            gl.uniform_1_i32(uniforms.morph_texture.as_ref(), MORPH_UNIT as i32);
            gl.uniform_1_i32(uniforms.morph_count.as_ref(), self.active.len() as i32);
            gl.uniform_1_i32(uniforms.vertex_count.as_ref(), lab.vertex_count() as i32);
            gl.uniform_4_i32_slice(uniforms.morph_targets.as_ref(), &targets);
            gl.uniform_4_f32_slice(uniforms.morph_weights.as_ref(), &weights);
        }
    }
}
