//! The WebGL2 renderer: the skin drawn by a matrix-palette vertex shader,
//! the teaching overlays, and the transform-feedback read-back that checks
//! the shader against the CPU reference.
//!
//! This is the GL layer: it sees a `glow::Context` and slices from the core,
//! nothing of the page. `unsafe` is allowed here only, for glow's calls.
#![allow(unsafe_code)]

mod base_colour;
mod batches;
mod mesh;
mod morphs;
mod overlays;
mod program;

use mesh::{create_mesh, MeshGpu};
use overlays::OVERLAY_FLOATS;

use std::collections::HashMap;

use glam::{Mat4, Vec2};
use glow::HasContext;

use crate::lab::{Lab, SkinningMethod};
use crate::skin::batches::PaletteFormat;
use crate::skin::gpu_layout::{
    bone_stride, joint_indices, joint_weights, palette_texture_rows, palette_vectors,
    MAX_ACTIVE_MORPHS, MORPH_TEXTURE_WIDTH, PALETTE_TEXTURE_WIDTH,
};
use crate::skin::influences::quantise_unorm8;
use crate::skin::palette_formats::format_vectors;
use crate::view::camera::Camera;
use crate::view::colours::{blended_vertex_colours, error_colours, heat_colours};

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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Variant {
    method: SkinningMethod,
    /// The engine note's palette format, or `None` for the method's own layout.
    format: Option<PaletteFormat>,
    palette_vectors: Option<usize>,
    feedback: bool,
}

impl Variant {
    /// `vec4`s per bone in this variant's palette.
    fn stride(&self) -> usize {
        self.format
            .map_or(bone_stride(self.method), PaletteFormat::vectors_per_bone)
    }

    /// Whether the shader blends dual quaternions.
    fn dqs(&self) -> bool {
        self.format.map_or(
            self.method == SkinningMethod::Dqs,
            PaletteFormat::blends_dual_quaternions,
        )
    }
}

/// Owns every GL object Skinlab draws with.
pub struct Renderer {
    programs: HashMap<Variant, glow::Program>,
    overlay_program: glow::Program,
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

const BACKGROUND: [f32; 4] = [0.957, 0.961, 0.969, 1.0];
use crate::view::colours::{FLAT_FILL, LIT_FILL};
const WIRE: [f32; 4] = [0.16, 0.24, 0.36, 0.75];
const DOT_OUTLINE: [f32; 4] = [0.16, 0.24, 0.36, 1.0];
const GHOST: [f32; 4] = [0.45, 0.48, 0.55, 0.22];

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

    /// Whether the palette of `bones` bones travels as uniforms (`false`:
    /// as a float texture read with `texelFetch`).
    pub fn palette_fits_uniforms(&self, method: SkinningMethod, bones: usize) -> bool {
        let stride = self
            .switches
            .palette_format
            .map_or(bone_stride(method), PaletteFormat::vectors_per_bone);
        !self.switches.force_palette_texture
            && bones * stride + RESERVED_UNIFORM_VECTORS <= self.max_uniform_vectors
    }

    fn variant(&self, method: SkinningMethod, bones: usize, feedback: bool) -> Variant {
        let mut variant = Variant {
            method,
            format: self.switches.palette_format,
            palette_vectors: None,
            feedback,
        };
        if self.palette_fits_uniforms(method, bones) {
            variant.palette_vectors = Some(bones * variant.stride());
        }
        variant
    }

    fn program(&mut self, gl: &glow::Context, variant: Variant) -> Result<glow::Program, String> {
        if let Some(&program) = self.programs.get(&variant) {
            return Ok(program);
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
        self.programs.insert(variant, program);
        Ok(program)
    }

    /// Uploads the mesh when the lab is new, and the joints, weights and
    /// colours when the weights changed.
    fn sync_mesh(&mut self, gl: &glow::Context, lab: &Lab) -> Result<(), String> {
        let current = self
            .mesh
            .as_ref()
            .map(|m| (m.lab_id, m.influences_revision));
        if current == Some((lab.id(), lab.influences_revision())) {
            return Ok(());
        }
        if current.map(|(id, _)| id) != Some(lab.id()) {
            if let Some(old) = self.mesh.take() {
                unsafe {
                    gl.delete_vertex_array(old.vertex_array);
                    for buffer in old.buffers {
                        gl.delete_buffer(buffer);
                    }
                }
            }
            self.mesh = Some(create_mesh(gl, lab)?);
            self.base_colour.keep_only(gl, lab.id());
        }
        let Some(mesh) = self.mesh.as_mut() else {
            return Ok(());
        };
        let influences = lab.skinning_influences();
        // uint8 joint indices (the engine note's blend indices) reach 256 bones.
        let joint_bytes = self.switches.joint_bytes && lab.bone_count() <= 256;
        unsafe {
            gl.bind_vertex_array(Some(mesh.vertex_array));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(mesh.joints));
            if joint_bytes {
                let narrow: Vec<u8> = joint_indices(influences).iter().map(|&j| j as u8).collect();
                gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &narrow, glow::DYNAMIC_DRAW);
                gl.vertex_attrib_pointer_i32(JOINTS, 4, glow::UNSIGNED_BYTE, 0, 0);
            } else {
                gl.buffer_data_u8_slice(
                    glow::ARRAY_BUFFER,
                    bytes(&joint_indices(influences)),
                    glow::DYNAMIC_DRAW,
                );
                gl.vertex_attrib_pointer_i32(JOINTS, 4, glow::UNSIGNED_SHORT, 0, 0);
            }
            // 8-bit weights travel as the engine note's unorm8x4, which the GPU reads
            // back as q / 255; otherwise as floats.
            gl.bind_vertex_array(Some(mesh.vertex_array));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(mesh.weights));
            if lab.is_quantised() {
                let unorm8 = influences
                    .iter()
                    .flat_map(|v| quantise_unorm8(&v.weights))
                    .collect::<Vec<u8>>();
                gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &unorm8, glow::DYNAMIC_DRAW);
                gl.vertex_attrib_pointer_f32(WEIGHTS, 4, glow::UNSIGNED_BYTE, true, 0, 0);
            } else {
                gl.buffer_data_u8_slice(
                    glow::ARRAY_BUFFER,
                    bytes(&joint_weights(influences)),
                    glow::DYNAMIC_DRAW,
                );
                gl.vertex_attrib_pointer_f32(WEIGHTS, 4, glow::FLOAT, false, 0, 0);
            }
            gl.bind_vertex_array(None);
        }
        mesh.influences_revision = lab.influences_revision();
        Ok(())
    }

    /// Uploads per-vertex colours for `view` when the weights, the view or
    /// the heat map's bone changed.
    fn sync_colours(&mut self, gl: &glow::Context, lab: &mut Lab, settings: &FrameSettings) {
        let (view, selected) = (settings.view, settings.selected);
        let Some(mesh) = self.mesh.as_mut() else {
            return;
        };
        let heat_bone = if view == WeightView::Weights {
            selected
        } else {
            None
        };
        // The error changes with the pose: its colours follow every change.
        let revision = if view == WeightView::Error {
            lab.revision()
        } else {
            lab.influences_revision()
        };
        let key = Some((revision, view, heat_bone));
        if mesh.colours_key == key {
            return;
        }
        let colours = if view == WeightView::Error {
            error_colours(&lab.influence_errors(settings.method))
        } else {
            let influences = lab.all_influences();
            match heat_bone {
                Some(bone) => heat_colours(influences, bone as u16),
                None if view == WeightView::Weights => heat_colours(influences, u16::MAX),
                None => blended_vertex_colours(influences),
            }
        };
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(mesh.colours));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes(&colours), glow::DYNAMIC_DRAW);
        }
        mesh.colours_key = key;
    }

    /// Uploads the palette for `method` and binds it to `program`.
    fn bind_palette(
        &mut self,
        gl: &glow::Context,
        lab: &mut Lab,
        method: SkinningMethod,
        variant: Variant,
        program: glow::Program,
    ) {
        let (palette, dqs) = lab.palettes();
        match variant.format {
            Some(format) => format_vectors(format, palette, dqs, &mut self.palette_scratch),
            None => palette_vectors(method, palette, dqs, &mut self.palette_scratch),
        }
        let flat: &[f32] = bytemuck::cast_slice(&self.palette_scratch);
        unsafe {
            if variant.palette_vectors.is_some() {
                let location = gl.get_uniform_location(program, "u_bones");
                gl.uniform_4_f32_slice(location.as_ref(), flat);
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
                let location = gl.get_uniform_location(program, "u_bone_texture");
                gl.uniform_1_i32(location.as_ref(), 0);
            }
        }
    }

    /// Draws one frame of `lab`.
    pub fn draw(
        &mut self,
        gl: &glow::Context,
        lab: &mut Lab,
        settings: &FrameSettings,
    ) -> Result<(), String> {
        self.sync_mesh(gl, lab)?;
        self.sync_colours(gl, lab, settings);
        let batched = self.sync_batches(gl, lab)?;
        let variant = self.variant(settings.method, lab.bone_count(), false);
        let program = self.program(gl, variant)?;
        let (width, height) = settings.viewport_pixels;
        let viewport = Vec2::new(width.max(1) as f32, height.max(1) as f32);
        let clip_from_model = settings.camera.clip_from_model(viewport);
        let (x, y) = settings.viewport_origin;
        unsafe {
            gl.viewport(x, y, width, height);
            // Clear only this view's area, so two views can share a canvas.
            gl.enable(glow::SCISSOR_TEST);
            gl.scissor(x, y, width, height);
            gl.clear_color(BACKGROUND[0], BACKGROUND[1], BACKGROUND[2], BACKGROUND[3]);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
            gl.disable(glow::SCISSOR_TEST);
            gl.enable(glow::BLEND);
            // Colour blends by alpha; the canvas' own alpha stays opaque so
            // the page behind never shows through.
            gl.blend_func_separate(
                glow::SRC_ALPHA,
                glow::ONE_MINUS_SRC_ALPHA,
                glow::ONE,
                glow::ONE_MINUS_SRC_ALPHA,
            );
            gl.use_program(Some(program));
        }
        self.bind_palette(gl, lab, settings.method, variant, program);
        self.morphs.bind(gl, lab, program);
        let Some(mesh) = self.mesh.as_ref() else {
            return Ok(());
        };
        let uniforms = MeshUniforms::new(gl, program);
        unsafe {
            gl.uniform_matrix_4_f32_slice(
                uniforms.clip_from_model.as_ref(),
                false,
                &clip_from_model.to_cols_array(),
            );
            gl.uniform_3_f32_slice(
                uniforms.toward_eye.as_ref(),
                &settings.camera.toward_eye().to_array(),
            );
            gl.bind_vertex_array(Some(mesh.vertex_array));
            let overlays = settings.overlays;
            if overlays.ghost {
                gl.disable(glow::DEPTH_TEST);
                uniforms.set(gl, GHOST, false, false, false, 0.0, 1.0);
                gl.uniform_1_f32(uniforms.skinned.as_ref(), 0.0);
                gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(mesh.triangles));
                gl.draw_elements(glow::TRIANGLES, mesh.triangle_count, glow::UNSIGNED_INT, 0);
            }
            gl.uniform_1_f32(uniforms.skinned.as_ref(), 1.0);
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            if overlays.mesh && !batched {
                let coloured = settings.view != WeightView::Skin;
                // A glTF file's own colour: its factor, times its texture.
                let own = lab.scene().base_colour.as_ref().map(|c| c.factor);
                let fill = match (own, coloured, settings.flat) {
                    (Some([r, g, b, _]), false, _) => [r, g, b, 1.0],
                    (_, _, true) => FLAT_FILL,
                    _ => LIT_FILL,
                };
                let textured = !coloured && self.base_colour.bind(gl, lab.id(), program);
                uniforms.set_textured(gl, textured);
                uniforms.set(gl, fill, !settings.flat, coloured, false, 0.0, 1.0);
                gl.enable(glow::POLYGON_OFFSET_FILL);
                gl.polygon_offset(1.0, 1.0);
                gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(mesh.triangles));
                gl.draw_elements(glow::TRIANGLES, mesh.triangle_count, glow::UNSIGNED_INT, 0);
                gl.disable(glow::POLYGON_OFFSET_FILL);
                uniforms.set_textured(gl, false);
            }
            if overlays.wireframe {
                uniforms.set(gl, WIRE, false, false, false, 0.0, 1.0);
                gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(mesh.edges));
                gl.draw_elements(glow::LINES, mesh.edge_count, glow::UNSIGNED_INT, 0);
            }
            if overlays.dots {
                let size = (if settings.flat { 7.0 } else { 4.0 })
                    * settings.pixel_ratio
                    * settings.mark_scale;
                uniforms.set(gl, DOT_OUTLINE, false, true, true, size, 1.0);
                gl.draw_arrays(glow::POINTS, 0, mesh.vertex_count);
            }
            gl.bind_vertex_array(None);
        }
        if batched && settings.overlays.mesh {
            self.draw_batches(gl, lab, settings, &clip_from_model)?;
        }
        self.draw_overlays(gl, lab, settings, &clip_from_model)
    }

    /// Morph targets with a weight that the last draw left out: the morph
    /// texture could not hold them (see [`morphs::MorphGpu`]).
    pub fn morphs_dropped(&self) -> usize {
        self.morphs.dropped()
    }

    /// The width and height of lab `lab_id`'s base colour texture.
    pub fn base_colour_size(&self, lab_id: u64) -> Option<[u32; 2]> {
        self.base_colour.size_for(lab_id)
    }

    /// Uploads `width × height` RGBA pixels as lab `lab_id`'s base colour
    /// texture (see [`base_colour::BaseColourGpu::upload`]).
    pub fn set_base_colour_pixels(
        &mut self,
        gl: &glow::Context,
        lab_id: u64,
        width: u32,
        height: u32,
        rgba: &[u8],
    ) -> Result<(), String> {
        self.base_colour.upload(gl, lab_id, width, height, rgba)
    }

    /// Draw calls the skin took in the last frame: the batches, or 1.
    pub fn draw_calls(&self) -> usize {
        match (&self.batches, self.switches.batch_limit) {
            (Some(batches), Some(_)) => batches.list.len(),
            _ => 1,
        }
    }

    /// Builds or drops the batches as `batch_limit` asks; whether the skin is
    /// drawn batch by batch. Scenes with morph targets are drawn whole: the
    /// shader finds a vertex's offsets by its index in the whole mesh.
    fn sync_batches(&mut self, gl: &glow::Context, lab: &Lab) -> Result<bool, String> {
        let wanted = self
            .switches
            .batch_limit
            .filter(|_| lab.scene().morphs.is_empty())
            .map(|max| (lab.id(), lab.influences_revision(), max));
        if self.batches.as_ref().map(|b| b.key) == wanted && wanted.is_some() {
            return Ok(true);
        }
        if let Some(old) = self.batches.take() {
            batches::delete_batches(gl, old);
        }
        let Some((_, _, max)) = wanted else {
            return Ok(false);
        };
        self.batches = Some(batches::create_batches(gl, lab, max)?);
        Ok(true)
    }

    /// Binds the program that draws (or, with `feedback`, reads back) one
    /// batch: its uniform array sized for `batch_limit` bones. Returns it
    /// with the full palettes the sub-palettes are cut from; `None` without
    /// a batch limit.
    #[allow(clippy::type_complexity)]
    fn use_batch_program(
        &mut self,
        gl: &glow::Context,
        lab: &mut Lab,
        method: SkinningMethod,
        feedback: bool,
    ) -> Result<
        Option<(
            Variant,
            glow::Program,
            Vec<Mat4>,
            Vec<crate::skin::dual_quat::RigidScale>,
        )>,
        String,
    > {
        let Some(max) = self.switches.batch_limit else {
            return Ok(None);
        };
        let mut variant = Variant {
            method,
            format: self.switches.palette_format,
            palette_vectors: None,
            feedback,
        };
        variant.palette_vectors = Some(max * variant.stride());
        let program = self.program(gl, variant)?;
        unsafe {
            gl.use_program(Some(program));
        }
        self.morphs.bind(gl, lab, program);
        let (palette, dqs) = lab.palettes();
        Ok(Some((variant, program, palette.to_vec(), dqs.to_vec())))
    }

    /// The skin's fill, one draw call per batch, each with its sub-palette
    /// as uniforms, coloured by batch.
    fn draw_batches(
        &mut self,
        gl: &glow::Context,
        lab: &mut Lab,
        settings: &FrameSettings,
        clip_from_model: &Mat4,
    ) -> Result<(), String> {
        let Some((variant, program, palette, dqs)) =
            self.use_batch_program(gl, lab, settings.method, false)?
        else {
            return Ok(());
        };
        let uniforms = MeshUniforms::new(gl, program);
        let Some(batches) = self.batches.as_mut() else {
            return Ok(());
        };
        // The error heat map shows through the batch colours; it follows
        // the pose, so it is recoloured whenever the lab changes.
        let error_revision = (settings.view == WeightView::Error).then(|| lab.revision());
        if batches.error_revision != error_revision {
            let heat =
                error_revision.map(|_| error_colours(&lab.influence_errors(settings.method)));
            batches::recolour_batches(gl, batches, heat.as_deref());
            batches.error_revision = error_revision;
        }
        let batches = &*batches;
        let scratch = &mut self.palette_scratch;
        unsafe {
            gl.uniform_matrix_4_f32_slice(
                uniforms.clip_from_model.as_ref(),
                false,
                &clip_from_model.to_cols_array(),
            );
            gl.uniform_3_f32_slice(
                uniforms.toward_eye.as_ref(),
                &settings.camera.toward_eye().to_array(),
            );
            gl.uniform_1_f32(uniforms.skinned.as_ref(), 1.0);
            let fill = if settings.flat { FLAT_FILL } else { LIT_FILL };
            uniforms.set(gl, fill, !settings.flat, true, false, 0.0, 1.0);
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.enable(glow::POLYGON_OFFSET_FILL);
            gl.polygon_offset(1.0, 1.0);
            let location = gl.get_uniform_location(program, "u_bones");
            for batch in &batches.list {
                upload_sub_palette(
                    gl,
                    location.as_ref(),
                    variant,
                    &palette,
                    &dqs,
                    &batch.bones,
                    scratch,
                );
                gl.bind_vertex_array(Some(batch.vertex_array));
                gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(batch.triangles));
                gl.draw_elements(glow::TRIANGLES, batch.count, glow::UNSIGNED_INT, 0);
            }
            gl.disable(glow::POLYGON_OFFSET_FILL);
            gl.bind_vertex_array(None);
        }
        Ok(())
    }

    fn draw_overlays(
        &mut self,
        gl: &glow::Context,
        lab: &mut Lab,
        settings: &FrameSettings,
        clip_from_model: &Mat4,
    ) -> Result<(), String> {
        let out = &mut self.overlay_scratch;
        let spans = overlays::build(lab, settings, out);
        let (triangle_vertices, line_end) = (spans.triangles, spans.lines_end);
        let total_vertices = spans.total;
        if total_vertices == 0 {
            return Ok(());
        }
        unsafe {
            gl.disable(glow::DEPTH_TEST);
            gl.use_program(Some(self.overlay_program));
            let location = gl.get_uniform_location(self.overlay_program, "u_clip_from_model");
            gl.uniform_matrix_4_f32_slice(
                location.as_ref(),
                false,
                &clip_from_model.to_cols_array(),
            );
            gl.bind_vertex_array(Some(self.overlay_array));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.overlay_buffer));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes(out), glow::STREAM_DRAW);
            if triangle_vertices > 0 {
                gl.draw_arrays(glow::TRIANGLES, 0, triangle_vertices);
            }
            if line_end > triangle_vertices {
                gl.draw_arrays(glow::LINES, triangle_vertices, line_end - triangle_vertices);
            }
            let size_location = gl.get_uniform_location(self.overlay_program, "u_point_size");
            for (k, size) in [13.0, 8.0].into_iter().enumerate() {
                if line_end + (k as i32) < total_vertices {
                    gl.uniform_1_f32(
                        size_location.as_ref(),
                        size * settings.pixel_ratio * settings.mark_scale,
                    );
                    gl.draw_arrays(glow::POINTS, line_end + k as i32, 1);
                }
            }
            gl.bind_vertex_array(None);
        }
        Ok(())
    }

    /// Skins every vertex on the GPU with the shader the page draws with, and
    /// reads positions and normals back through transform feedback: `x, y, z`
    /// per vertex each, model space.
    pub fn gpu_skinned(
        &mut self,
        gl: &glow::Context,
        lab: &mut Lab,
        method: SkinningMethod,
    ) -> Result<(Vec<f32>, Vec<f32>), String> {
        self.sync_mesh(gl, lab)?;
        if self.sync_batches(gl, lab)? {
            return self.gpu_skinned_batches(gl, lab, method);
        }
        let variant = self.variant(method, lab.bone_count(), true);
        let program = self.program(gl, variant)?;
        unsafe {
            gl.use_program(Some(program));
        }
        self.bind_palette(gl, lab, method, variant, program);
        self.morphs.bind(gl, lab, program);
        let Some(mesh) = self.mesh.as_ref() else {
            return Ok((Vec::new(), Vec::new()));
        };
        let uniforms = MeshUniforms::new(gl, program);
        unsafe {
            gl.uniform_1_f32(uniforms.skinned.as_ref(), 1.0);
        }
        // Interleaved: position xyz, normal xyz, per vertex.
        let out = feedback_pass(
            gl,
            self.feedback,
            mesh.vertex_array,
            mesh.feedback_buffer,
            mesh.vertex_count as usize,
        );
        let positions = out
            .chunks_exact(6)
            .flat_map(|v| [v[0], v[1], v[2]])
            .collect();
        let normals = out
            .chunks_exact(6)
            .flat_map(|v| [v[3], v[4], v[5]])
            .collect();
        Ok((positions, normals))
    }
}

impl Renderer {
    /// [`Renderer::gpu_skinned`] batch by batch, as the skin is drawn: each
    /// batch's vertices skinned with its sub-palette, read back and put in
    /// their mesh vertices' places.
    fn gpu_skinned_batches(
        &mut self,
        gl: &glow::Context,
        lab: &mut Lab,
        method: SkinningMethod,
    ) -> Result<(Vec<f32>, Vec<f32>), String> {
        let Some((variant, program, palette, dqs)) =
            self.use_batch_program(gl, lab, method, true)?
        else {
            return Ok((Vec::new(), Vec::new()));
        };
        let (Some(mesh), Some(batches)) = (self.mesh.as_ref(), self.batches.as_ref()) else {
            return Ok((Vec::new(), Vec::new()));
        };
        let uniforms = MeshUniforms::new(gl, program);
        let count = mesh.vertex_count as usize;
        let (mut positions, mut normals) = (vec![0_f32; 3 * count], vec![0_f32; 3 * count]);
        let scratch = &mut self.palette_scratch;
        unsafe {
            gl.uniform_1_f32(uniforms.skinned.as_ref(), 1.0);
            let location = gl.get_uniform_location(program, "u_bones");
            for batch in &batches.list {
                upload_sub_palette(
                    gl,
                    location.as_ref(),
                    variant,
                    &palette,
                    &dqs,
                    &batch.bones,
                    scratch,
                );
                // A batch has at most the mesh's vertices: the mesh's
                // feedback buffer holds its output.
                let out = feedback_pass(
                    gl,
                    self.feedback,
                    batch.vertex_array,
                    mesh.feedback_buffer,
                    batch.vertices.len(),
                );
                for (local, &vertex) in batch.vertices.iter().enumerate() {
                    let v = vertex as usize;
                    positions[3 * v..3 * v + 3].copy_from_slice(&out[6 * local..6 * local + 3]);
                    normals[3 * v..3 * v + 3].copy_from_slice(&out[6 * local + 3..6 * local + 6]);
                }
            }
        }
        Ok((positions, normals))
    }
}

/// Uploads the sub-palette of `bones` (as `variant` sends a palette) to the
/// uniform array at `location`.
fn upload_sub_palette(
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

/// Runs the bound program over the `count` vertices of `vertex_array` with
/// rasterisation off and reads what transform feedback wrote into
/// `buffer`: position and normal, six floats per vertex.
fn feedback_pass(
    gl: &glow::Context,
    feedback: glow::TransformFeedback,
    vertex_array: glow::VertexArray,
    buffer: glow::Buffer,
    count: usize,
) -> Vec<f32> {
    let mut out = vec![0_f32; count * 6];
    // SAFETY: plain WebGL calls on a live context; `out` outlives them.
    #[allow(unsafe_code)]
    unsafe {
        gl.bind_vertex_array(Some(vertex_array));
        gl.bind_transform_feedback(glow::TRANSFORM_FEEDBACK, Some(feedback));
        gl.bind_buffer_base(glow::TRANSFORM_FEEDBACK_BUFFER, 0, Some(buffer));
        gl.enable(glow::RASTERIZER_DISCARD);
        gl.begin_transform_feedback(glow::POINTS);
        gl.draw_arrays(glow::POINTS, 0, count as i32);
        gl.end_transform_feedback();
        gl.disable(glow::RASTERIZER_DISCARD);
        gl.bind_buffer_base(glow::TRANSFORM_FEEDBACK_BUFFER, 0, None);
        gl.bind_transform_feedback(glow::TRANSFORM_FEEDBACK, None);
        gl.bind_vertex_array(None);
        gl.bind_buffer(glow::COPY_READ_BUFFER, Some(buffer));
        gl.get_buffer_sub_data(
            glow::COPY_READ_BUFFER,
            0,
            bytemuck::cast_slice_mut(&mut out),
        );
        gl.bind_buffer(glow::COPY_READ_BUFFER, None);
    }
    out
}

struct MeshUniforms {
    clip_from_model: Option<glow::UniformLocation>,
    skinned: Option<glow::UniformLocation>,
    point_size: Option<glow::UniformLocation>,
    colour: Option<glow::UniformLocation>,
    lit: Option<glow::UniformLocation>,
    vertex_colour: Option<glow::UniformLocation>,
    round: Option<glow::UniformLocation>,
    toward_eye: Option<glow::UniformLocation>,
    textured: Option<glow::UniformLocation>,
}

impl MeshUniforms {
    fn new(gl: &glow::Context, program: glow::Program) -> Self {
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
        }
    }

    /// Whether the fill samples the base colour texture (bound beforehand).
    fn set_textured(&self, gl: &glow::Context, on: bool) {
        unsafe {
            gl.uniform_1_f32(self.textured.as_ref(), if on { 1.0 } else { 0.0 });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn set(
        &self,
        gl: &glow::Context,
        colour: [f32; 4],
        lit: bool,
        vertex_colour: bool,
        round: bool,
        point_size: f32,
        _alpha: f32,
    ) {
        let flag = |on: bool| if on { 1.0 } else { 0.0 };
        unsafe {
            gl.uniform_4_f32_slice(self.colour.as_ref(), &colour);
            gl.uniform_1_f32(self.lit.as_ref(), flag(lit));
            gl.uniform_1_f32(self.vertex_colour.as_ref(), flag(vertex_colour));
            gl.uniform_1_f32(self.round.as_ref(), flag(round));
            gl.uniform_1_f32(self.point_size.as_ref(), point_size.max(1.0));
        }
    }
}
