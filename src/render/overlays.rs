//! The teaching overlays as one vertex list: bone octahedra, each bone's own
//! frame (green) and the frame it hands to its children (red) as solid
//! sticks (triangles: a line is one pixel wide in WebGL, too thin for a
//! projector), the bones' outlines, and the marked vertex. Built on the CPU
//! each frame from the posed frames; the renderer uploads and draws it.

use glam::{Mat4, Vec3};

use glow::HasContext;

use super::{bytes, FrameSettings, Renderer};
use crate::lab::Lab;
use crate::rig::skeleton::own_from_child_frame;
use crate::view::overlay::{frame_axes, posed_bone_glyphs, OCTAHEDRON_EDGES, OCTAHEDRON_TRIANGLES};

/// Floats per overlay vertex: position xyz, colour rgba.
pub const OVERLAY_FLOATS: usize = 7;

const BONE_FILL: [f32; 4] = [0.40, 0.43, 0.49, 0.55];
const BONE_SELECTED: [f32; 4] = [0.97, 0.58, 0.05, 0.75];
const BONE_OUTLINE: [f32; 4] = [0.13, 0.15, 0.18, 0.95];
const OWN_FRAME: [f32; 4] = [0.10, 0.62, 0.25, 1.0];
const CHILD_FRAME: [f32; 4] = [0.85, 0.15, 0.15, 1.0];

/// Where each kind of primitive sits in the list, counted in vertices:
/// triangles in `0..triangles`, lines in `triangles..lines_end`, the marked
/// vertex's two points (outline, then fill) in `lines_end..marks_end`, the
/// centres of rotation in `marks_end..total`.
pub struct Spans {
    /// End of the triangles.
    pub triangles: i32,
    /// End of the lines.
    pub lines_end: i32,
    /// End of the marked vertex's points.
    pub marks_end: i32,
    /// End of the list.
    pub total: i32,
}

/// The centres of rotation's dots: reddish purple (Okabe and Ito), apart
/// from the own frame's green and the child frame's red, and dots where the
/// frames are sticks.
const CENTRE: [f32; 4] = [0.8, 0.475, 0.655, 0.9];

fn push_vertex(out: &mut Vec<f32>, position: Vec3, colour: [f32; 4]) {
    out.extend(position.to_array());
    out.extend(colour);
}

/// A stick from `from` to `to` of square cross-section `2·half_width`: four
/// side faces, two triangles each, seen from any direction.
fn push_stick(out: &mut Vec<f32>, from: Vec3, to: Vec3, half_width: f32, colour: [f32; 4]) {
    let along = (to - from).try_normalize().unwrap_or(Vec3::Y);
    let (u, v) = along.any_orthonormal_pair();
    let corners = [u + v, v - u, -u - v, u - v].map(|c| c * half_width);
    for side in 0..4 {
        let (a, b) = (corners[side], corners[(side + 1) % 4]);
        for corner in [from + a, to + a, to + b, from + a, to + b, from + b] {
            push_vertex(out, corner, colour);
        }
    }
}

/// Each bone's own frame (green) and child frame (red) as sticks. Where a
/// child starts, its own frame and its parent's child frame coincide: the
/// child frame is drawn longer and thinner, so both stay visible.
fn add_frames(
    out: &mut Vec<f32>,
    frames: &[Mat4],
    lengths: &[f32],
    (own, child): (bool, bool),
    thickness: f32,
) {
    let typical_length = lengths.iter().copied().fold(0.0_f32, f32::max).max(0.1);
    for (bone, frame) in frames.iter().enumerate() {
        let size = 0.3 * lengths[bone].max(0.25 * typical_length);
        let mut add_frame = |model_from_frame: &Mat4,
                             colour: [f32; 4],
                             length: f32,
                             half_width: f32| {
            for (axis, [from, to]) in frame_axes(model_from_frame, length).into_iter().enumerate() {
                // x, y and z of one frame share its colour, dimmer along z.
                let shade = [1.0, 0.8, 0.55][axis];
                let colour = [
                    colour[0] * shade,
                    colour[1] * shade,
                    colour[2] * shade,
                    colour[3],
                ];
                push_stick(out, from, to, half_width, colour);
            }
        };
        if child {
            let child_frame = *frame * own_from_child_frame(lengths[bone]);
            add_frame(
                &child_frame,
                CHILD_FRAME,
                1.45 * size,
                0.035 * size * thickness,
            );
        }
        if own {
            add_frame(frame, OWN_FRAME, size, 0.06 * size * thickness);
        }
    }
}

/// Fills `out` with this frame's overlay vertices.
pub fn build(lab: &Lab, settings: &FrameSettings, out: &mut Vec<f32>) -> Spans {
    let overlays = settings.overlays;
    let frames = lab.model_from_bone_posed().to_vec();
    let lengths = lab.scene().skeleton.lengths();
    out.clear();
    let glyphs = if overlays.bones {
        let (width, height) = settings.viewport_pixels;
        let viewport =
            glam::Vec2::new(width as f32, height as f32) / settings.pixel_ratio.max(1e-3);
        posed_bone_glyphs(lab, &settings.camera, viewport)
    } else {
        Vec::new()
    };
    if overlays.bones {
        for (bone, corners) in glyphs.iter().enumerate() {
            let colour = if settings.selected == Some(bone) {
                BONE_SELECTED
            } else {
                BONE_FILL
            };
            for triangle in OCTAHEDRON_TRIANGLES {
                for k in triangle {
                    push_vertex(out, corners[usize::from(k)], colour);
                }
            }
        }
    }
    add_frames(
        out,
        &frames,
        &lengths,
        (overlays.own_frames, overlays.child_frames),
        settings.mark_scale,
    );
    let triangles = (out.len() / OVERLAY_FLOATS) as i32;
    if overlays.bones {
        for corners in &glyphs {
            for edge in OCTAHEDRON_EDGES {
                for k in edge {
                    push_vertex(out, corners[usize::from(k)], BONE_OUTLINE);
                }
            }
        }
    }
    let lines_end = (out.len() / OVERLAY_FLOATS) as i32;
    if let Some(vertex) = settings.selected_vertex {
        // One vertex skinned, not the mesh: drawn every frame while selected.
        if let Ok(position) = lab.skinned_vertex(settings.method, vertex) {
            push_vertex(out, position, BONE_OUTLINE);
            push_vertex(out, position, BONE_SELECTED);
        }
    }
    let marks_end = (out.len() / OVERLAY_FLOATS) as i32;
    if overlays.centres {
        for centre in lab.posed_centres() {
            push_vertex(out, centre, CENTRE);
        }
    }
    Spans {
        triangles,
        lines_end,
        marks_end,
        total: (out.len() / OVERLAY_FLOATS) as i32,
    }
}

/// Where the overlay program's uniforms are, looked up once.
pub(super) struct OverlayUniforms {
    clip_from_model: Option<glow::UniformLocation>,
    point_size: Option<glow::UniformLocation>,
}

impl OverlayUniforms {
    /// Looks the overlay program's uniforms up.
    pub(super) fn locate(gl: &glow::Context, program: glow::Program) -> Self {
        unsafe {
            Self {
                clip_from_model: gl.get_uniform_location(program, "u_clip_from_model"),
                point_size: gl.get_uniform_location(program, "u_point_size"),
            }
        }
    }
}

impl Renderer {
    /// The bones, frames, paths and marks over the skin, depth test off.
    pub(super) fn draw_overlays(
        &mut self,
        gl: &glow::Context,
        lab: &Lab,
        settings: &FrameSettings,
        clip_from_model: &Mat4,
    ) -> Result<(), String> {
        let out = &mut self.overlay_scratch;
        let spans = build(lab, settings, out);
        let (triangle_vertices, line_end) = (spans.triangles, spans.lines_end);
        let total_vertices = spans.total;
        if total_vertices == 0 {
            return Ok(());
        }
        unsafe {
            gl.disable(glow::DEPTH_TEST);
            gl.use_program(Some(self.overlay_program));
            gl.uniform_matrix_4_f32_slice(
                self.overlay_uniforms.clip_from_model.as_ref(),
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
            for (k, size) in [13.0, 8.0].into_iter().enumerate() {
                if line_end + (k as i32) < spans.marks_end {
                    gl.uniform_1_f32(
                        self.overlay_uniforms.point_size.as_ref(),
                        size * settings.pixel_ratio * settings.mark_scale,
                    );
                    gl.draw_arrays(glow::POINTS, line_end + k as i32, 1);
                }
            }
            if total_vertices > spans.marks_end {
                gl.uniform_1_f32(
                    self.overlay_uniforms.point_size.as_ref(),
                    5.0 * settings.pixel_ratio * settings.mark_scale,
                );
                gl.draw_arrays(
                    glow::POINTS,
                    spans.marks_end,
                    total_vertices - spans.marks_end,
                );
            }
            gl.bind_vertex_array(None);
        }
        Ok(())
    }
}
