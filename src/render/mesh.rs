//! The skin's GPU buffers: positions, normals, joints, weights, colours,
//! triangle and edge indices, and the transform-feedback output.

use glow::HasContext;

use super::{bytes, WeightView};
use crate::lab::Lab;

/// One lab's mesh on the GPU, and what it was uploaded from.
pub struct MeshGpu {
    /// The lab the buffers hold ([`Lab::id`]).
    pub lab_id: u64,
    /// The weights revision of the joints and weights buffers.
    pub influences_revision: u64,
    /// The attribute bindings.
    pub vertex_array: glow::VertexArray,
    /// Every buffer, for deletion.
    pub buffers: Vec<glow::Buffer>,
    /// `u16 × 4` joint indices per vertex.
    pub joints: glow::Buffer,
    /// `f32 × 4` (or `unorm8 × 4`) weights per vertex.
    pub weights: glow::Buffer,
    /// RGB per vertex for the weight views and the dots.
    pub colours: glow::Buffer,
    /// The scene's own colour per vertex (glTF's `COLOR_0`), drawn in the
    /// skin view in place of `colours` (times the material's factor);
    /// `None` when the skin has one colour.
    pub paint: Option<glow::Buffer>,
    /// Each vertex's centre of rotation (CoR) and 1, or w = 0 for none.
    pub centres: glow::Buffer,
    /// What `centres` holds: the lab, whether its centres job ran, and the
    /// weights revision they are of.
    pub centres_key: Option<(u64, bool, u64)>,
    /// Triangle indices.
    pub triangles: glow::Buffer,
    /// Indices in `triangles`.
    pub triangle_count: i32,
    /// Edge indices, two per edge, for the wireframe.
    pub edges: glow::Buffer,
    /// Indices in `edges`.
    pub edge_count: i32,
    /// Vertices in the mesh.
    pub vertex_count: i32,
    /// Where transform feedback writes the skinned positions.
    pub feedback_buffer: glow::Buffer,
    /// What `colours` was computed for: weights revision, view, heat-map bone.
    pub colours_key: Option<(u64, WeightView, Option<usize>)>,
}

/// A buffer holding `data` bound to attribute `location` of the bound
/// vertex array: `size` floats per vertex, or `size` `u16`s when `integer`.
pub fn attribute_buffer(
    gl: &glow::Context,
    location: u32,
    size: i32,
    data: &[u8],
    integer: bool,
) -> Result<glow::Buffer, String> {
    // SAFETY: plain WebGL calls on a live context; `data` outlives them.
    #[allow(unsafe_code)]
    unsafe {
        let buffer = gl.create_buffer()?;
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
        gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, data, glow::DYNAMIC_DRAW);
        gl.enable_vertex_attrib_array(location);
        if integer {
            gl.vertex_attrib_pointer_i32(location, size, glow::UNSIGNED_SHORT, 0, 0);
        } else {
            gl.vertex_attrib_pointer_f32(location, size, glow::FLOAT, false, 0, 0);
        }
        Ok(buffer)
    }
}

/// Uploads `lab`'s rest mesh; joints, weights and colours come later.
///
/// Longer than a screen: the GPU buffers of the rest mesh and the vertex array
/// that binds each to its shader attribute, in attribute order; each buffer is
/// a few lines of the same GL calls.
pub fn create_mesh(gl: &glow::Context, lab: &Lab) -> Result<MeshGpu, String> {
    let mesh = &lab.scene().mesh;
    let positions: Vec<f32> = mesh
        .positions_model
        .iter()
        .flat_map(|p| p.to_array())
        .collect();
    let normals: Vec<f32> = mesh
        .normals_model
        .iter()
        .flat_map(|n| n.to_array())
        .collect();
    let edges: Vec<u32> = mesh.edges().into_iter().flat_map(|(a, b)| [a, b]).collect();
    unsafe {
        let vertex_array = gl.create_vertex_array()?;
        gl.bind_vertex_array(Some(vertex_array));
        let mut buffers = Vec::new();
        let mut attribute = |location: u32,
                             size: i32,
                             data: &[u8],
                             integer: bool|
         -> Result<glow::Buffer, String> {
            let buffer = attribute_buffer(gl, location, size, data, integer)?;
            buffers.push(buffer);
            Ok(buffer)
        };
        attribute(0, 3, bytes(&positions), false)?;
        attribute(1, 3, bytes(&normals), false)?;
        let joints = attribute(2, 4, &[], true)?;
        let weights = attribute(3, 4, &[], false)?;
        let colours = attribute(4, 3, &[], false)?;
        let centres = attribute(super::program::CENTRE, 4, &[], false)?;
        // A glTF file's UVs, or none (the attribute then reads as zero).
        if let Some(colour) = lab
            .scene()
            .base_colour
            .as_ref()
            .filter(|c| !c.uvs.is_empty())
        {
            let uvs: Vec<f32> = colour.uvs.iter().flat_map(|uv| uv.to_array()).collect();
            attribute(5, 2, bytes(&uvs), false)?;
        }
        gl.bind_vertex_array(None);
        let paint = if lab.scene().vertex_colours.is_empty() {
            None
        } else {
            // The factor multiplies in the shader (`u_vertex_tint`), per
            // material.
            let painted: Vec<f32> = lab
                .scene()
                .vertex_colours
                .iter()
                .flat_map(|c| c.to_array())
                .collect();
            let buffer = gl.create_buffer()?;
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes(&painted), glow::STATIC_DRAW);
            gl.bind_buffer(glow::ARRAY_BUFFER, None);
            buffers.push(buffer);
            Some(buffer)
        };
        let triangles = gl.create_buffer()?;
        gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(triangles));
        gl.buffer_data_u8_slice(
            glow::ELEMENT_ARRAY_BUFFER,
            bytes(&mesh.indices),
            glow::STATIC_DRAW,
        );
        let edge_buffer = gl.create_buffer()?;
        gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, Some(edge_buffer));
        gl.buffer_data_u8_slice(glow::ELEMENT_ARRAY_BUFFER, bytes(&edges), glow::STATIC_DRAW);
        gl.bind_buffer(glow::ELEMENT_ARRAY_BUFFER, None);
        let feedback_buffer = gl.create_buffer()?;
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(feedback_buffer));
        gl.buffer_data_size(
            glow::ARRAY_BUFFER,
            (positions.len() * 2 * 4).max(4) as i32,
            glow::STREAM_READ,
        );
        gl.bind_buffer(glow::ARRAY_BUFFER, None);
        buffers.extend([triangles, edge_buffer, feedback_buffer]);
        Ok(MeshGpu {
            lab_id: lab.id(),
            influences_revision: u64::MAX,
            vertex_array,
            buffers,
            joints,
            weights,
            colours,
            paint,
            centres,
            centres_key: None,
            triangles,
            triangle_count: mesh.indices.len() as i32,
            edges: edge_buffer,
            edge_count: edges.len() as i32,
            vertex_count: mesh.vertex_count() as i32,
            feedback_buffer,
            colours_key: None,
        })
    }
}
