//! Drawing the skin batch by batch (the engine note): when the palette must fit a
//! budget of uniforms, the triangles are split so that each batch touches
//! at most that many bones; each batch has its own vertices with joints
//! renumbered into its sub-palette, and is drawn with only its bones'
//! matrices uploaded. Each batch is coloured by its own colour.

use glam::Mat4;
use glow::HasContext;

use super::mesh::attribute_buffer;
use super::palette::upload_sub_palette;
use super::programs::{SkinProgram, Variant};
use super::uniforms::Fill;
use super::{bytes, FrameSettings, Renderer};
use crate::lab::{Lab, SkinningMethod};
use crate::skin::batches::draw_batches;
use crate::skin::dual_quat::RigidScale;
use crate::skin::gpu_layout::{joint_indices, joint_weights};
use crate::view::colours::bone_colour;
use crate::view::colours::{error_colours, FLAT_FILL, LIT_FILL};
use crate::view::state::WeightView;

/// One batch on the GPU.
pub struct BatchGpu {
    /// Its attribute bindings.
    pub vertex_array: glow::VertexArray,
    /// Its buffers, for deletion.
    pub buffers: Vec<glow::Buffer>,
    /// Its triangles' local indices.
    pub triangles: glow::Buffer,
    /// Indices in `triangles`.
    pub count: i32,
    /// Its sub-palette's bones.
    pub bones: Vec<u16>,
    /// The mesh vertex behind each of its vertices.
    pub vertices: Vec<u32>,
    /// Its vertex colour buffer: the batch's colour, or the error heat map.
    pub colours: glow::Buffer,
}

/// A lab's batches and what they were built from: lab, weights revision,
/// bones per draw.
pub struct BatchesGpu {
    /// `(lab id, weights revision, bones per draw)`.
    pub key: (u64, u64, usize),
    /// The batches.
    pub list: Vec<BatchGpu>,
    /// The lab revision whose error heat map the batches show instead of
    /// their own colours; `None` while they show their own.
    pub error_revision: Option<u64>,
}

/// Each batch's own colour for each of its vertices: the bones'
/// colour-blind-safe palette, in batch order.
fn batch_colours(batch_index: usize, vertex_count: usize) -> Vec<f32> {
    (0..vertex_count)
        .flat_map(|_| bone_colour(batch_index as u16))
        .collect()
}

/// Colours the batches by `per_vertex` (rgb for every mesh vertex, e.g. the
/// error heat map), or by their own colours for `None`, so the GPU mode's
/// heat map shows through the batch colouring.
pub fn recolour_batches(gl: &glow::Context, batches: &BatchesGpu, per_vertex: Option<&[f32]>) {
    for (k, batch) in batches.list.iter().enumerate() {
        let colours: Vec<f32> = match per_vertex {
            Some(all) => batch
                .vertices
                .iter()
                .flat_map(|&v| all[3 * v as usize..3 * v as usize + 3].iter().copied())
                .collect(),
            None => batch_colours(k, batch.vertices.len()),
        };
        // SAFETY: a plain WebGL upload on a live context.
        #[allow(unsafe_code)]
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(batch.colours));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes(&colours), glow::DYNAMIC_DRAW);
        }
    }
}

/// Splits `lab`'s mesh into batches of at most `max_bones` bones and
/// uploads each.
pub fn create_batches(
    gl: &glow::Context,
    lab: &Lab,
    max_bones: usize,
) -> Result<BatchesGpu, String> {
    let mesh = &lab.scene().mesh;
    let batches = draw_batches(&mesh.indices, lab.skinning_influences(), max_bones)
        .map_err(|e| e.to_string())?;
    let mut list = Vec::with_capacity(batches.len());
    for (k, batch) in batches.iter().enumerate() {
        let positions: Vec<f32> = batch
            .vertices
            .iter()
            .flat_map(|&v| mesh.positions_model[v as usize].to_array())
            .collect();
        let normals: Vec<f32> = batch
            .vertices
            .iter()
            .flat_map(|&v| mesh.normals_model[v as usize].to_array())
            .collect();
        let colours = batch_colours(k, batch.vertices.len());
        // SAFETY: plain WebGL calls on a live context; the slices outlive them.
        #[allow(unsafe_code)]
        unsafe {
            let vertex_array = gl.create_vertex_array()?;
            gl.bind_vertex_array(Some(vertex_array));
            let mut buffers = Vec::new();
            for (location, size, data, integer) in [
                (0, 3, bytes(&positions), false),
                (1, 3, bytes(&normals), false),
                (2, 4, bytes(&joint_indices(&batch.influences)), true),
                (3, 4, bytes(&joint_weights(&batch.influences)), false),
                (4, 3, bytes(&colours), false),
            ] {
                buffers.push(attribute_buffer(gl, location, size, data, integer)?);
            }
            let colours_buffer = buffers[4];
            let triangles = gl.create_buffer()?;
            gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(triangles));
            gl.buffer_data_u8_slice(
                glow::ELEMENT_ARRAY_BUFFER,
                bytes(&batch.indices),
                glow::STATIC_DRAW,
            );
            buffers.push(triangles);
            gl.bind_vertex_array(None);
            list.push(BatchGpu {
                vertex_array,
                buffers,
                triangles,
                count: batch.indices.len() as i32,
                bones: batch.bones.clone(),
                vertices: batch.vertices.clone(),
                colours: colours_buffer,
            });
        }
    }
    Ok(BatchesGpu {
        key: (lab.id(), lab.influences_revision(), max_bones),
        list,
        error_revision: None,
    })
}

/// Frees the batches' GL objects.
pub fn delete_batches(gl: &glow::Context, batches: BatchesGpu) {
    // SAFETY: plain WebGL calls on a live context.
    #[allow(unsafe_code)]
    unsafe {
        for batch in batches.list {
            gl.delete_vertex_array(batch.vertex_array);
            for buffer in batch.buffers {
                gl.delete_buffer(buffer);
            }
        }
    }
}

/// The program a batch is drawn (or read back) with, and the full palettes
/// the sub-palettes are cut from.
pub(super) struct BatchProgram {
    pub(super) variant: Variant,
    pub(super) skin: SkinProgram,
    pub(super) palette: Vec<Mat4>,
    pub(super) dqs: Vec<RigidScale>,
}

impl BatchProgram {
    /// Uploads the sub-palette of a batch's `bones`, as the program's
    /// variant sends a palette, to its bone uniforms.
    pub(super) fn upload_batch(
        &self,
        gl: &glow::Context,
        bones: &[u16],
        scratch: &mut Vec<[f32; 4]>,
    ) {
        upload_sub_palette(
            gl,
            self.skin.uniforms.bones.as_ref(),
            self.variant,
            &self.palette,
            &self.dqs,
            bones,
            scratch,
        );
    }
}

impl Renderer {
    /// Builds or drops the batches as `batch_limit` asks; whether the skin is
    /// drawn batch by batch. Scenes with morph targets are drawn whole: the
    /// shader finds a vertex's offsets by its index in the whole mesh.
    pub(super) fn sync_batches(&mut self, gl: &glow::Context, lab: &Lab) -> Result<bool, String> {
        let wanted = self
            .switches
            .batch_limit
            .filter(|_| lab.scene().morphs.is_empty())
            .map(|max| (lab.id(), lab.influences_revision(), max));
        if self.batches.as_ref().map(|b| b.key) == wanted && wanted.is_some() {
            return Ok(true);
        }
        if let Some(old) = self.batches.take() {
            delete_batches(gl, old);
        }
        let Some((_, _, max)) = wanted else {
            return Ok(false);
        };
        self.batches = Some(create_batches(gl, lab, max)?);
        Ok(true)
    }

    /// Binds the program that draws (or, with `feedback`, reads back) one
    /// batch: its uniform array sized for `batch_limit` bones. Returns it
    /// with the full palettes the sub-palettes are cut from; `None` without
    /// a batch limit.
    pub(super) fn use_batch_program(
        &mut self,
        gl: &glow::Context,
        lab: &Lab,
        method: SkinningMethod,
        feedback: bool,
    ) -> Result<Option<BatchProgram>, String> {
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
        let skin = self.program(gl, variant)?;
        unsafe {
            gl.use_program(Some(skin.program));
        }
        self.morphs.bind(gl, lab, &skin.uniforms);
        let (palette, dqs) = lab.palettes();
        Ok(Some(BatchProgram {
            variant,
            skin,
            palette: palette.to_vec(),
            dqs: dqs.to_vec(),
        }))
    }

    /// The skin's fill, one draw call per batch, each with its sub-palette
    /// as uniforms, coloured by batch.
    pub(super) fn draw_batches(
        &mut self,
        gl: &glow::Context,
        lab: &Lab,
        settings: &FrameSettings,
        clip_from_model: &Mat4,
    ) -> Result<(), String> {
        let Some(program) = self.use_batch_program(gl, lab, settings.method, false)? else {
            return Ok(());
        };
        let uniforms = &program.skin.uniforms;
        let Some(batches) = self.batches.as_mut() else {
            return Ok(());
        };
        // The error heat map shows through the batch colours; it follows
        // the pose, so it is recoloured whenever the lab changes.
        let error_revision = (settings.view == WeightView::Error).then(|| lab.revision());
        if batches.error_revision != error_revision {
            let heat =
                error_revision.map(|_| error_colours(&lab.influence_errors(settings.method)));
            recolour_batches(gl, batches, heat.as_deref());
            batches.error_revision = error_revision;
        }
        let batches = &*batches;
        let scratch = &mut self.palette_scratch;
        uniforms.set_view(gl, clip_from_model, settings.camera.toward_eye());
        uniforms.set_skinned(gl, true);
        let fill = if settings.flat { FLAT_FILL } else { LIT_FILL };
        uniforms.set_fill(
            gl,
            &Fill {
                lit: !settings.flat,
                vertex_colour: true,
                ..Fill::plain(fill)
            },
        );
        unsafe {
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            gl.enable(glow::POLYGON_OFFSET_FILL);
            gl.polygon_offset(1.0, 1.0);
            for batch in &batches.list {
                program.upload_batch(gl, &batch.bones, scratch);
                gl.bind_vertex_array(Some(batch.vertex_array));
                gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(batch.triangles));
                gl.draw_elements(glow::TRIANGLES, batch.count, glow::UNSIGNED_INT, 0);
            }
            gl.disable(glow::POLYGON_OFFSET_FILL);
            gl.bind_vertex_array(None);
        }
        Ok(())
    }
}
