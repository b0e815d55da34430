//! The GPU's skinning read back by transform feedback (rasterisation off),
//! whole or batch by batch as the skin is drawn: what the browser tests
//! compare with the CPU reference.

use glow::HasContext;

use super::programs::SkinProgram;
use super::Renderer;
use crate::lab::{Lab, SkinningMethod};

impl Renderer {
    /// Skins every vertex on the GPU with the shader the page draws with, and
    /// reads positions and normals back through transform feedback: `x, y, z`
    /// per vertex each, model space.
    pub fn gpu_skinned(
        &mut self,
        gl: &glow::Context,
        lab: &Lab,
        method: SkinningMethod,
    ) -> Result<(Vec<f32>, Vec<f32>), String> {
        self.sync_mesh(gl, lab)?;
        let cor = method == SkinningMethod::Cor;
        if cor {
            self.sync_centres(gl, lab);
        }
        if !cor && self.sync_batches(gl, lab)? {
            return self.gpu_skinned_batches(gl, lab, method);
        }
        let variant = self.variant(method, lab.bone_count(), true);
        let SkinProgram { program, uniforms } = self.program(gl, variant)?;
        unsafe {
            gl.use_program(Some(program));
        }
        self.bind_palette(gl, lab, variant, &uniforms);
        self.morphs.bind(gl, lab, &uniforms);
        let Some(mesh) = self.mesh.as_ref() else {
            return Ok((Vec::new(), Vec::new()));
        };
        uniforms.set_skinned(gl, true);
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

    /// [`Renderer::gpu_skinned`] batch by batch, as the skin is drawn: each
    /// batch's vertices skinned with its sub-palette, read back and put in
    /// their mesh vertices' places.
    fn gpu_skinned_batches(
        &mut self,
        gl: &glow::Context,
        lab: &Lab,
        method: SkinningMethod,
    ) -> Result<(Vec<f32>, Vec<f32>), String> {
        let Some(program) = self.use_batch_program(gl, lab, method, true)? else {
            return Ok((Vec::new(), Vec::new()));
        };
        let uniforms = &program.skin.uniforms;
        let (Some(mesh), Some(batches)) = (self.mesh.as_ref(), self.batches.as_ref()) else {
            return Ok((Vec::new(), Vec::new()));
        };
        let count = mesh.vertex_count as usize;
        let (mut positions, mut normals) = (vec![0_f32; 3 * count], vec![0_f32; 3 * count]);
        let scratch = &mut self.palette_scratch;
        uniforms.set_skinned(gl, true);
        for batch in &batches.list {
            program.upload_batch(gl, &batch.bones, scratch);
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
        Ok((positions, normals))
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
