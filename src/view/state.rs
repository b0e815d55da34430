//! What a viewer shows and how, apart from the GL surface it draws on: the
//! camera, the layers, the colouring, the selection, the tool and the GPU
//! switches. A lost WebGL context takes only the surface with it; a new
//! surface takes this state over whole (`Viewer::rebuilt`), so nothing the
//! lecturer set up is lost and no setting has to be read and written back
//! one by one.

use glam::Vec3;

use super::camera::{Camera, Projection};
use super::controller::Controller;
use crate::skin::batches::PaletteFormat;
use crate::skin::SkinningMethod;

/// Which layers are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlays {
    /// The filled skin.
    pub mesh: bool,
    /// The skin's edges.
    pub wireframe: bool,
    /// The skin's vertices as dots, coloured by their bones.
    pub dots: bool,
    /// The bones as octahedra.
    pub bones: bool,
    /// Each bone's own frame (green).
    pub own_frames: bool,
    /// The frame each bone hands to its children (red).
    pub child_frames: bool,
    /// A faint ghost of the rest pose.
    pub ghost: bool,
    /// Each vertex's centre of rotation (CoR), posed, as a dot.
    pub centres: bool,
}

impl Default for Overlays {
    fn default() -> Self {
        Self {
            mesh: true,
            wireframe: true,
            dots: true,
            bones: true,
            own_frames: false,
            child_frames: false,
            ghost: false,
            centres: false,
        }
    }
}

/// How the skin is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeightView {
    /// One colour, lit or flat; the vertex dots show their bones' colours.
    Skin,
    /// A heat map of the selected bone's weight.
    Weights,
    /// Each vertex in its bones' colours mixed by weight.
    AllBones,
    /// A heat map of how far each vertex moves because of the influence
    /// cap and 8-bit weights, against the stored weights, in this pose.
    Error,
}

/// How the palette and the vertices travel to the GPU (the GPU mode's
/// switches); the renderer reads them while it draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuSwitches {
    /// Always use the palette texture, even where uniforms would fit.
    pub force_palette_texture: bool,
    /// Send joint indices as `uint8` (up to 256 bones), not `uint16`.
    pub joint_bytes: bool,
    /// Draw the skin batch by batch, each with at most this many bones (the
    /// engine note's split); `None`: one draw call.
    pub batch_limit: Option<usize>,
    /// The palette format the shader receives (`None`: the method's own,
    /// `mat4x3` rows for LBS, dual quaternion and scale for DQS).
    pub palette_format: Option<PaletteFormat>,
}

/// Everything a viewer keeps besides its GL surface (and the GPU switches,
/// which the renderer holds while it draws).
pub struct ViewState {
    /// The view.
    pub camera: Camera,
    /// The layers drawn.
    pub overlays: Overlays,
    /// How the skin is coloured.
    pub weight_view: WeightView,
    /// The vertex whose weights and three steps are shown.
    pub selected_vertex: Option<usize>,
    /// Two methods side by side.
    pub compare: bool,
    /// The methods side by side, left and right (LBS and DQS at first).
    pub compare_pair: [SkinningMethod; 2],
    /// How much larger vertex dots and frame sticks are drawn (1: as
    /// usual; the projector view draws them larger).
    pub mark_scale: f32,
    /// The drag state machine, the tools and the selected bone.
    pub controller: Controller,
}

impl Default for ViewState {
    fn default() -> Self {
        Self {
            camera: Camera::framing(
                Vec3::splat(-1.0),
                Vec3::splat(1.0),
                Projection::Orthographic,
            ),
            overlays: Overlays::default(),
            weight_view: WeightView::Skin,
            selected_vertex: None,
            compare: false,
            compare_pair: [SkinningMethod::Lbs, SkinningMethod::Dqs],
            mark_scale: 1.0,
            controller: Controller::default(),
        }
    }
}
