//! The skin program's uniforms, looked up once when a program is linked
//! (not on every draw), and what one draw sets through them.

use glam::{Mat4, Vec3};
use glow::HasContext;

/// Where a skin program's uniforms are.
#[derive(Clone)]
pub(super) struct MeshUniforms {
    clip_from_model: Option<glow::UniformLocation>,
    skinned: Option<glow::UniformLocation>,
    point_size: Option<glow::UniformLocation>,
    colour: Option<glow::UniformLocation>,
    lit: Option<glow::UniformLocation>,
    vertex_colour: Option<glow::UniformLocation>,
    round: Option<glow::UniformLocation>,
    toward_eye: Option<glow::UniformLocation>,
    textured: Option<glow::UniformLocation>,
    vertex_tint: Option<glow::UniformLocation>,
    alpha_cutoff: Option<glow::UniformLocation>,
    /// The palette as a uniform array (`PALETTE_VECTORS`).
    pub(super) bones: Option<glow::UniformLocation>,
    /// The palette as a texture (`PALETTE_TEXTURE`).
    pub(super) bone_texture: Option<glow::UniformLocation>,
    /// The base colour texture's sampler.
    pub(super) base_colour: Option<glow::UniformLocation>,
    /// The morph targets' texture, how many are active, the mesh's vertex
    /// count and the active targets' slots and weights.
    pub(super) morph_texture: Option<glow::UniformLocation>,
    pub(super) morph_count: Option<glow::UniformLocation>,
    pub(super) vertex_count: Option<glow::UniformLocation>,
    pub(super) morph_targets: Option<glow::UniformLocation>,
    pub(super) morph_weights: Option<glow::UniformLocation>,
}

/// How one draw fills its pixels: the colour, and the switches the shaders
/// read (named, where they were a row of booleans).
#[derive(Clone, Copy, Debug)]
pub(super) struct Fill {
    /// RGBA.
    pub colour: [f32; 4],
    /// Lit by the light from the eye (a solid mesh) or flat.
    pub lit: bool,
    /// The per-vertex colours (weights, bones, errors) instead of `colour`.
    pub vertex_colour: bool,
    /// Points drawn as discs rather than squares.
    pub round_points: bool,
    /// Point size, device pixels (at least 1).
    pub point_size: f32,
    /// What the per-vertex colours are multiplied by (a material's factor
    /// times glTF's `COLOR_0`).
    pub tint: [f32; 3],
    /// MASK's cutoff: fragments whose alpha is under it are not drawn; −1
    /// draws every fragment.
    pub alpha_cutoff: f32,
}

impl Fill {
    /// `colour` as it is: unlit, no vertex colours, no points.
    pub(super) const fn plain(colour: [f32; 4]) -> Self {
        Self {
            colour,
            lit: false,
            vertex_colour: false,
            round_points: false,
            point_size: 1.0,
            tint: [1.0; 3],
            alpha_cutoff: -1.0,
        }
    }
}

impl MeshUniforms {
    /// Looks every uniform of `program` up, once.
    pub(super) fn locate(gl: &glow::Context, program: glow::Program) -> Self {
        let get = |name: &str| unsafe { gl.get_uniform_location(program, name) };
        Self {
            clip_from_model: get("u_clip_from_model"),
            skinned: get("u_skinned"),
            point_size: get("u_point_size"),
            colour: get("u_colour"),
            lit: get("u_lit"),
            vertex_colour: get("u_vertex_colour"),
            round: get("u_round"),
            toward_eye: get("u_toward_eye"),
            textured: get("u_textured"),
            vertex_tint: get("u_vertex_tint"),
            alpha_cutoff: get("u_alpha_cutoff"),
            bones: get("u_bones"),
            bone_texture: get("u_bone_texture"),
            base_colour: get("u_base_colour"),
            morph_texture: get("u_morph_texture"),
            morph_count: get("u_morph_count"),
            vertex_count: get("u_vertex_count"),
            morph_targets: get("u_morph_targets"),
            morph_weights: get("u_morph_weights"),
        }
    }

    /// The camera: `clip_from_model` and the direction toward the eye the
    /// light comes from.
    pub(super) fn set_view(&self, gl: &glow::Context, clip_from_model: &Mat4, toward_eye: Vec3) {
        unsafe {
            gl.uniform_matrix_4_f32_slice(
                self.clip_from_model.as_ref(),
                false,
                &clip_from_model.to_cols_array(),
            );
            gl.uniform_3_f32_slice(self.toward_eye.as_ref(), &toward_eye.to_array());
        }
    }

    /// Whether the vertices are skinned (the ghost is drawn at rest).
    pub(super) fn set_skinned(&self, gl: &glow::Context, on: bool) {
        unsafe {
            gl.uniform_1_f32(self.skinned.as_ref(), if on { 1.0 } else { 0.0 });
        }
    }

    /// Whether the fill samples the base colour texture (bound beforehand).
    pub(super) fn set_textured(&self, gl: &glow::Context, on: bool) {
        unsafe {
            gl.uniform_1_f32(self.textured.as_ref(), if on { 1.0 } else { 0.0 });
        }
    }

    /// What the next draw fills with.
    pub(super) fn set_fill(&self, gl: &glow::Context, fill: &Fill) {
        let flag = |on: bool| if on { 1.0 } else { 0.0 };
        unsafe {
            gl.uniform_4_f32_slice(self.colour.as_ref(), &fill.colour);
            gl.uniform_1_f32(self.lit.as_ref(), flag(fill.lit));
            gl.uniform_1_f32(self.vertex_colour.as_ref(), flag(fill.vertex_colour));
            gl.uniform_1_f32(self.round.as_ref(), flag(fill.round_points));
            gl.uniform_1_f32(self.point_size.as_ref(), fill.point_size.max(1.0));
            gl.uniform_3_f32_slice(self.vertex_tint.as_ref(), &fill.tint);
            gl.uniform_1_f32(self.alpha_cutoff.as_ref(), fill.alpha_cutoff);
        }
    }
}
