//! The skin programs: one per variant (method, palette format, uniforms or
//! texture, read-back or not), linked from the shared GLSL when first drawn
//! with, each with its uniform locations looked up once.

use super::uniforms::MeshUniforms;
use super::{
    program, Renderer, MAX_ACTIVE_MORPHS, MORPH_TEXTURE_WIDTH, PALETTE_TEXTURE_WIDTH,
    RESERVED_UNIFORM_VECTORS,
};
use crate::lab::SkinningMethod;
use crate::skin::batches::PaletteFormat;
use crate::skin::gpu_layout::bone_stride;

/// What selects a skin program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Variant {
    pub(super) method: SkinningMethod,
    /// The engine note's palette format, or `None` for the method's own layout.
    pub(super) format: Option<PaletteFormat>,
    pub(super) palette_vectors: Option<usize>,
    pub(super) feedback: bool,
}

impl Variant {
    /// `vec4`s per bone in this variant's palette.
    pub(super) fn stride(&self) -> usize {
        self.format
            .map_or(bone_stride(self.method), PaletteFormat::vectors_per_bone)
    }

    /// Whether the shader blends dual quaternions.
    pub(super) fn dqs(&self) -> bool {
        self.format.map_or(
            self.method == SkinningMethod::Dqs,
            PaletteFormat::blends_dual_quaternions,
        )
    }
}

/// A linked skin program and where its uniforms are.
#[derive(Clone)]
pub(super) struct SkinProgram {
    pub(super) program: glow::Program,
    pub(super) uniforms: MeshUniforms,
}

impl Renderer {
    /// Whether the palette of `bones` bones travels as uniforms (`false`:
    /// as a float texture read with `texelFetch`).
    pub fn palette_fits_uniforms(&self, method: SkinningMethod, bones: usize) -> bool {
        let stride = self
            .palette_format(method)
            .map_or(bone_stride(method), PaletteFormat::vectors_per_bone);
        !self.switches.force_palette_texture
            && bones * stride + RESERVED_UNIFORM_VECTORS <= self.max_uniform_vectors
    }

    /// The engine note's palette format `method` draws with: the one set,
    /// or none for CoR, which needs its own layout (the rows and `q_i`).
    pub(super) fn palette_format(&self, method: SkinningMethod) -> Option<PaletteFormat> {
        self.switches
            .palette_format
            .filter(|_| method != SkinningMethod::Cor)
    }

    pub(super) fn variant(&self, method: SkinningMethod, bones: usize, feedback: bool) -> Variant {
        let mut variant = Variant {
            method,
            format: self.palette_format(method),
            palette_vectors: None,
            feedback,
        };
        if self.palette_fits_uniforms(method, bones) {
            variant.palette_vectors = Some(bones * variant.stride());
        }
        variant
    }

    pub(super) fn program(
        &mut self,
        gl: &glow::Context,
        variant: Variant,
    ) -> Result<SkinProgram, String> {
        if let Some(program) = self.programs.get(&variant) {
            return Ok(program.clone());
        }
        let mut defines = vec![
            format!("BONE_STRIDE {}", variant.stride()),
            format!("MAX_ACTIVE_MORPHS {MAX_ACTIVE_MORPHS}"),
            format!("MORPH_TEXTURE_WIDTH {MORPH_TEXTURE_WIDTH}"),
            format!("PALETTE_TEXTURE_WIDTH {PALETTE_TEXTURE_WIDTH}"),
        ];
        if variant.dqs() {
            defines.push("SKIN_DQS".to_owned());
        }
        if variant.method == SkinningMethod::Cor && variant.format.is_none() {
            defines.push("SKIN_COR".to_owned());
        }
        match variant.format {
            Some(PaletteFormat::Mat4) => defines.push("PALETTE_MAT4".to_owned()),
            Some(PaletteFormat::QuatTranslation) => {
                defines.push("PALETTE_QUAT_TRANSLATION".to_owned());
            }
            Some(PaletteFormat::DualQuat) => defines.push("PALETTE_DUAL_QUAT".to_owned()),
            Some(PaletteFormat::Mat4x3) | None => {}
        }
        match variant.palette_vectors {
            Some(vectors) => defines.push(format!("PALETTE_VECTORS {vectors}")),
            None => defines.push("PALETTE_TEXTURE".to_owned()),
        }
        let feedback: &[&str] = if variant.feedback {
            &["v_position_model", "v_normal_model"]
        } else {
            &[]
        };
        let program = program::link(
            gl,
            &program::assemble(&defines, &[program::SKIN_CHUNK, program::MESH_VERT]),
            &program::assemble(&[], &[program::MESH_FRAG]),
            &program::ATTRIBUTES,
            feedback,
        )?;
        let program = SkinProgram {
            program,
            uniforms: MeshUniforms::locate(gl, program),
        };
        self.programs.insert(variant, program.clone());
        Ok(program)
    }
}
