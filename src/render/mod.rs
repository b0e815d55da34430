//! The WebGL2 renderer: the skin drawn by a matrix-palette vertex shader,
//! the teaching overlays, and the transform-feedback read-back that checks
//! the shader against the CPU reference.
//!
//! This is the GL layer: it sees a `glow::Context` and slices from the core,
//! nothing of the page. `unsafe` is allowed here only, for glow's calls.
//! One file per job: `sync` keeps the GPU's copy of the lab current,
//! `programs` links and caches the skin programs (`uniforms`: their
//! locations, looked up once), `palette` sends the palette, `frame` draws a
//! frame, `batches` the skin batch by batch, `overlays` the teaching layers,
//! `readback` reads the GPU's skinning back.
#![allow(unsafe_code)]

mod base_colour;
mod batches;
mod frame;
mod mesh;
mod morphs;
mod overlays;
mod palette;
mod program;
mod programs;
mod readback;
mod sync;
mod uniforms;

use std::collections::HashMap;

use glow::HasContext;

use mesh::MeshGpu;
use overlays::{OverlayUniforms, OVERLAY_FLOATS};
use programs::{SkinProgram, Variant};

use crate::lab::SkinningMethod;
use crate::skin::gpu_layout::{MAX_ACTIVE_MORPHS, MORPH_TEXTURE_WIDTH, PALETTE_TEXTURE_WIDTH};
use crate::view::camera::Camera;

pub use crate::view::state::{GpuSwitches, Overlays, WeightView};

/// Everything one frame needs besides the lab.
#[derive(Clone, Copy, Debug)]
pub struct FrameSettings {
    /// The view.
    pub camera: Camera,
    /// Drawing-buffer size of the area drawn, device pixels.
    pub viewport_pixels: (i32, i32),
    /// Lower-left corner of the area drawn in the drawing buffer (not `0, 0`
    /// when two views share the canvas).
    pub viewport_origin: (i32, i32),
    /// Device pixels per CSS pixel.
    pub pixel_ratio: f32,
    /// LBS or DQS.
    pub method: SkinningMethod,
    /// The layers drawn.
    pub overlays: Overlays,
    /// The highlighted bone.
    pub selected: Option<usize>,
    /// Flat shading (the 2D examples) instead of lighting.
    pub flat: bool,
    /// How the skin is coloured.
    pub view: WeightView,
    /// A vertex to mark.
    pub selected_vertex: Option<usize>,
    /// Dots and frame sticks drawn this much larger (the projector view).
    pub mark_scale: f32,
}

/// Owns every GL object Skinlab draws with.
pub struct Renderer {
    /// The skin programs linked so far, each with its uniforms' locations.
    programs: HashMap<Variant, SkinProgram>,
    overlay_program: glow::Program,
    overlay_uniforms: OverlayUniforms,
    overlay_array: glow::VertexArray,
    overlay_buffer: glow::Buffer,
    bone_texture: glow::Texture,
    feedback: glow::TransformFeedback,
    mesh: Option<MeshGpu>,
    morphs: morphs::MorphGpu,
    base_colour: base_colour::BaseColourGpu,
    max_uniform_vectors: usize,
    device_uniform_vectors: usize,
    /// How the palette and the vertices travel to the GPU.
    pub switches: GpuSwitches,
    batches: Option<batches::BatchesGpu>,
    palette_scratch: Vec<[f32; 4]>,
    overlay_scratch: Vec<f32>,
}

/// Uniform vectors kept free for everything besides the palette.
const RESERVED_UNIFORM_VECTORS: usize = 32;

/// The vertex uniform vectors every WebGL2 device has. The palette uses
/// uniforms only within this budget, so a scene takes the same path on every
/// GPU and the texture path is exercised wherever a scene outgrows it.
const PORTABLE_UNIFORM_VECTORS: usize = 256;

/// Attribute location of the joint weights.
const WEIGHTS: u32 = 3;
/// Attribute location of the joint indices.
const JOINTS: u32 = 2;

fn bytes<T: bytemuck::Pod>(data: &[T]) -> &[u8] {
    bytemuck::cast_slice(data)
}

impl Renderer {
    /// Creates the programs and buffers; fails with the info log of a shader
    /// that does not compile.
    pub fn new(gl: &glow::Context) -> Result<Self, String> {
        let overlay_program = program::link(
            gl,
            &program::assemble(&[], &[program::OVERLAY_VERT]),
            &program::assemble(&[], &[program::OVERLAY_FRAG]),
            &[(0, "a_position"), (program::OVERLAY_COLOUR, "a_colour")],
            &[],
        )?;
        unsafe {
            let overlay_array = gl.create_vertex_array()?;
            let overlay_buffer = gl.create_buffer()?;
            gl.bind_vertex_array(Some(overlay_array));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(overlay_buffer));
            let stride = (OVERLAY_FLOATS * 4) as i32;
            gl.enable_vertex_attrib_array(0);
            gl.vertex_attrib_pointer_f32(0, 3, glow::FLOAT, false, stride, 0);
            gl.enable_vertex_attrib_array(program::OVERLAY_COLOUR);
            gl.vertex_attrib_pointer_f32(
                program::OVERLAY_COLOUR,
                4,
                glow::FLOAT,
                false,
                stride,
                12,
            );
            gl.bind_vertex_array(None);
            let bone_texture = morphs::data_texture(gl)?;
            let device_uniform_vectors = gl
                .get_parameter_i32(glow::MAX_VERTEX_UNIFORM_VECTORS)
                .max(0) as usize;
            let max_uniform_vectors = device_uniform_vectors.min(PORTABLE_UNIFORM_VECTORS);
            Ok(Self {
                programs: HashMap::new(),
                overlay_uniforms: OverlayUniforms::locate(gl, overlay_program),
                overlay_program,
                overlay_array,
                overlay_buffer,
                bone_texture,
                feedback: gl.create_transform_feedback()?,
                mesh: None,
                morphs: morphs::MorphGpu::new(gl)?,
                base_colour: base_colour::BaseColourGpu::default(),
                max_uniform_vectors,
                device_uniform_vectors,
                switches: GpuSwitches::default(),
                batches: None,
                palette_scratch: Vec::new(),
                overlay_scratch: Vec::new(),
            })
        }
    }

    /// Uploads the joints and weights again at the next frame (their
    /// format changed).
    pub fn forget_weights(&mut self) {
        if let Some(mesh) = self.mesh.as_mut() {
            mesh.influences_revision = u64::MAX;
        }
    }

    /// `MAX_VERTEX_UNIFORM_VECTORS` as the device reports it.
    pub fn device_uniform_vectors(&self) -> usize {
        self.device_uniform_vectors
    }

    /// Morph targets with a weight that the last draw left out: the morph
    /// texture could not hold them (see [`morphs::MorphGpu`]).
    pub fn morphs_dropped(&self) -> usize {
        self.morphs.dropped()
    }

    /// The width and height of image `index` of lab `lab_id` on the GPU.
    pub fn base_colour_size(&self, lab_id: u64, index: usize) -> Option<[u32; 2]> {
        self.base_colour.size_for(lab_id, index)
    }

    /// Uploads `width × height` RGBA pixels as image `index` of lab
    /// `lab_id` (see [`base_colour::BaseColourGpu::upload`]).
    pub fn set_base_colour_pixels(
        &mut self,
        gl: &glow::Context,
        lab_id: u64,
        index: usize,
        (width, height): (u32, u32),
        rgba: &[u8],
    ) -> Result<(), String> {
        self.base_colour
            .upload(gl, lab_id, index, width, height, rgba)
    }

    /// Draw calls the skin took in the last frame: the batches, or 1.
    pub fn draw_calls(&self) -> usize {
        match (&self.batches, self.switches.batch_limit) {
            (Some(batches), Some(_)) => batches.list.len(),
            _ => 1,
        }
    }
}
