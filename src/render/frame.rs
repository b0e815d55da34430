//! One frame: the view's area cleared, the ghost at rest, the skin (whole
//! or batch by batch), the wireframe and the vertex dots, then the overlays.

use glam::Vec2;
use glow::HasContext;

use super::programs::SkinProgram;
use super::uniforms::Fill;
use super::{FrameSettings, Renderer};
use crate::lab::{Lab, SkinningMethod};
use crate::scene::AlphaMode;
use crate::view::colours::{FLAT_FILL, LIT_FILL};
use crate::view::state::WeightView;

/// The view's background.
const BACKGROUND: [f32; 4] = [0.957, 0.961, 0.969, 1.0];
/// The wireframe's lines.
const WIRE: [f32; 4] = [0.16, 0.24, 0.36, 0.75];
/// The rim of the vertex dots.
const DOT_OUTLINE: [f32; 4] = [0.16, 0.24, 0.36, 1.0];
/// The rest pose drawn faintly behind the skin.
const GHOST: [f32; 4] = [0.45, 0.48, 0.55, 0.22];

impl Renderer {
    /// Draws one frame of `lab`.
    ///
    /// Longer than a screen: the passes of one frame in the order they are
    /// drawn, sharing the frame's camera, palette and GL state; each pass is a
    /// few lines, and as functions each would take all of them.
    pub fn draw(
        &mut self,
        gl: &glow::Context,
        lab: &Lab,
        settings: &FrameSettings,
    ) -> Result<(), String> {
        self.sync_mesh(gl, lab)?;
        self.sync_colours(gl, lab, settings);
        // CoR is drawn whole: the batches carry no centres.
        let cor = settings.method == SkinningMethod::Cor;
        if cor {
            self.sync_centres(gl, lab);
        }
        let batched = !cor && self.sync_batches(gl, lab)?;
        let variant = self.variant(settings.method, lab.bone_count(), false);
        let SkinProgram { program, uniforms } = self.program(gl, variant)?;
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
        self.bind_palette(gl, lab, variant, &uniforms);
        self.morphs.bind(gl, lab, &uniforms);
        let Some(mesh) = self.mesh.as_ref() else {
            return Ok(());
        };
        uniforms.set_view(gl, &clip_from_model, settings.camera.toward_eye());
        unsafe {
            gl.bind_vertex_array(Some(mesh.vertex_array));
            let overlays = settings.overlays;
            if overlays.ghost {
                gl.disable(glow::DEPTH_TEST);
                uniforms.set_fill(gl, &Fill::plain(GHOST));
                uniforms.set_skinned(gl, false);
                gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(mesh.triangles));
                gl.draw_elements(glow::TRIANGLES, mesh.triangle_count, glow::UNSIGNED_INT, 0);
            }
            uniforms.set_skinned(gl, true);
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LEQUAL);
            if overlays.mesh && !batched {
                let coloured = settings.view != WeightView::Skin;
                gl.enable(glow::POLYGON_OFFSET_FILL);
                gl.polygon_offset(1.0, 1.0);
                gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(mesh.triangles));
                if !coloured && !lab.scene().surfaces.is_empty() {
                    self.draw_surfaces(gl, lab, settings, &uniforms);
                } else {
                    // A file's one colour (its factor, times its texture), or
                    // the page's, or the weight colours.
                    let own = lab.scene().base_colour.as_ref().map(|c| c.factor);
                    let fill = match (own, coloured, settings.flat) {
                        (Some([r, g, b, _]), false, _) => [r, g, b, 1.0],
                        (_, _, true) => FLAT_FILL,
                        _ => LIT_FILL,
                    };
                    let textured = !coloured && self.base_colour.bind(gl, lab.id(), 0, &uniforms);
                    uniforms.set_textured(gl, textured);
                    // The scene's own vertex colours take the colour
                    // attribute's place for the skin, and give it back to the
                    // dots after.
                    let painted = mesh.paint.filter(|_| !coloured);
                    if let Some(paint) = painted {
                        point_colours_at(gl, paint);
                    }
                    uniforms.set_fill(
                        gl,
                        &Fill {
                            lit: !settings.flat,
                            vertex_colour: coloured || painted.is_some(),
                            ..Fill::plain(fill)
                        },
                    );
                    gl.draw_elements(glow::TRIANGLES, mesh.triangle_count, glow::UNSIGNED_INT, 0);
                    if painted.is_some() {
                        point_colours_at(gl, mesh.colours);
                    }
                }
                gl.disable(glow::POLYGON_OFFSET_FILL);
                uniforms.set_textured(gl, false);
            }
            if overlays.wireframe {
                uniforms.set_fill(gl, &Fill::plain(WIRE));
                gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(mesh.edges));
                gl.draw_elements(glow::LINES, mesh.edge_count, glow::UNSIGNED_INT, 0);
            }
            if overlays.dots {
                let size = (if settings.flat { 7.0 } else { 4.0 })
                    * settings.pixel_ratio
                    * settings.mark_scale;
                uniforms.set_fill(
                    gl,
                    &Fill {
                        vertex_colour: true,
                        round_points: true,
                        point_size: size,
                        ..Fill::plain(DOT_OUTLINE)
                    },
                );
                gl.draw_arrays(glow::POINTS, 0, mesh.vertex_count);
            }
            gl.bind_vertex_array(None);
        }
        if batched && settings.overlays.mesh {
            self.draw_batches(gl, lab, settings, &clip_from_model)?;
        }
        self.draw_overlays(gl, lab, settings, &clip_from_model)
    }
}

impl Renderer {
    /// The skin surface by surface, each in its material (glTF 2.0 §3.9):
    /// its factor times its texture (and `COLOR_0`), lit unless unlit, its
    /// back faces culled unless double-sided, MASK's fragments under the
    /// cutoff discarded; the BLEND surfaces after every opaque one, without
    /// writing depth, so what they cover shows through. The triangle
    /// buffer and the skin program are bound.
    fn draw_surfaces(
        &self,
        gl: &glow::Context,
        lab: &Lab,
        settings: &FrameSettings,
        uniforms: &super::uniforms::MeshUniforms,
    ) {
        let Some(mesh) = self.mesh.as_ref() else {
            return;
        };
        let scene = lab.scene();
        if let Some(paint) = mesh.paint {
            point_colours_at(gl, paint);
        }
        // SAFETY: plain WebGL calls on a live context, the skin's vertex
        // array and triangle buffer bound; each run lies inside the buffer
        // (the scene checks its surfaces against its indices).
        #[allow(unsafe_code)]
        unsafe {
            for blended in [false, true] {
                gl.depth_mask(!blended);
                for surface in &scene.surfaces {
                    let material = &scene.materials[surface.material];
                    if (material.alpha_mode == AlphaMode::Blend) != blended {
                        continue;
                    }
                    let textured = material
                        .texture
                        .is_some_and(|k| self.base_colour.bind(gl, lab.id(), k, uniforms));
                    uniforms.set_textured(gl, textured);
                    let [r, g, b, a] = material.base_colour;
                    uniforms.set_fill(
                        gl,
                        &Fill {
                            lit: !settings.flat && !material.unlit,
                            vertex_colour: mesh.paint.is_some(),
                            tint: [r, g, b],
                            alpha_cutoff: match material.alpha_mode {
                                AlphaMode::Mask { cutoff } => cutoff,
                                _ => -1.0,
                            },
                            ..Fill::plain([r, g, b, if blended { a } else { 1.0 }])
                        },
                    );
                    if material.double_sided {
                        gl.disable(glow::CULL_FACE);
                    } else {
                        gl.enable(glow::CULL_FACE);
                        gl.cull_face(glow::BACK);
                    }
                    gl.draw_elements(
                        glow::TRIANGLES,
                        surface.index_count as i32,
                        glow::UNSIGNED_INT,
                        (surface.first_index * 4) as i32,
                    );
                }
            }
            gl.depth_mask(true);
            gl.disable(glow::CULL_FACE);
        }
        if mesh.paint.is_some() {
            point_colours_at(gl, mesh.colours);
        }
    }
}

/// Points the bound vertex array's colour attribute (location 4: RGB
/// floats) at `buffer`.
fn point_colours_at(gl: &glow::Context, buffer: glow::Buffer) {
    // SAFETY: plain WebGL calls on a live context with a vertex array bound.
    #[allow(unsafe_code)]
    unsafe {
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
        gl.vertex_attrib_pointer_f32(4, 3, glow::FLOAT, false, 0, 0);
        gl.bind_buffer(glow::ARRAY_BUFFER, None);
    }
}
