//! Keeping the GPU's copy of a lab current: the mesh when the lab is new,
//! the joints and weights when the weights changed, the per-vertex colours
//! when the colouring asks for others.

use glow::HasContext;

use super::mesh::create_mesh;
use super::{bytes, FrameSettings, Renderer, JOINTS, WEIGHTS};
use crate::lab::Lab;
use crate::skin::gpu_layout::{joint_indices, joint_weights};
use crate::skin::influences::quantise_unorm8;
use crate::view::colours::{blended_vertex_colours, error_colours, heat_colours};
use crate::view::state::WeightView;

impl Renderer {
    /// Uploads the mesh when the lab is new, and the joints, weights and
    /// colours when the weights changed.
    pub(super) fn sync_mesh(&mut self, gl: &glow::Context, lab: &Lab) -> Result<(), String> {
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
    pub(super) fn sync_colours(&mut self, gl: &glow::Context, lab: &Lab, settings: &FrameSettings) {
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

    /// Uploads the centres of rotation CoR skins about when they changed
    /// (the centres job ran, or the weights changed before it ever did).
    pub(super) fn sync_centres(&mut self, gl: &glow::Context, lab: &Lab) {
        let Some(mesh) = self.mesh.as_mut() else {
            return;
        };
        let key = Some(match lab.centres_revision() {
            Some(revision) => (lab.id(), true, revision),
            None => (lab.id(), false, lab.influences_revision()),
        });
        if mesh.centres_key == key {
            return;
        }
        let centres: Vec<[f32; 4]> = lab
            .centres_for_skinning()
            .iter()
            .map(|centre| centre.map_or([0.0; 4], |c| c.extend(1.0).to_array()))
            .collect();
        unsafe {
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(mesh.centres));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes(&centres), glow::DYNAMIC_DRAW);
        }
        mesh.centres_key = key;
    }
}
