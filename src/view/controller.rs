//! The interaction controller: pointer events in, edits of the lab and the
//! camera out.
//!
//! A press on a bone selects it and starts a drag that turns it about its
//! origin in the view plane (with Shift: moves the root; with Alt or Ctrl:
//! pulls its tip by two-bone IK). A press elsewhere orbits (3D) or pans
//! (2D); the secondary buttons always pan. With the paint tool a press
//! paints the selected bone's weight, in dabs spaced along the pointer's
//! path. Each drag that edits the lab is one undo step.
//!
//! Points are CSS pixels from the top-left corner of the view they fall in,
//! y down, as [`crate::view::camera`] uses them; the shell turns DOM events
//! into these numbers and draws what changed.

use glam::{Mat4, Quat, Vec2, Vec3};

use crate::lab::Lab;
use crate::rig::pose::BoneTransform;
use crate::skin::SkinningMethod;
use crate::view::camera::{Camera, Projection};
use crate::view::interaction::{
    drag_angle, grab_point, pick_bone, rotate_about_axis, translate, ScreenBone,
};
use crate::view::overlay::posed_bone_glyphs;
use crate::weights::paint::{Brush, Falloff, PaintMode};

/// How far from a bone, in CSS pixels, a press still grabs it.
pub const PICK_RADIUS: f32 = 14.0;

/// How far from a vertex, in CSS pixels, a click still picks it.
pub const VERTEX_PICK_RADIUS: f32 = 12.0;

/// What a press on the view does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Turn and move bones.
    Pose,
    /// Paint the selected bone's weight.
    Paint,
}

/// Which pointer button went down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// The left button, a touch or a pen.
    Primary,
    /// Any other button (middle, right): always pans.
    Secondary,
}

impl Button {
    /// The DOM's `MouseEvent.button` number: 0 is primary.
    pub fn from_dom(button: i32) -> Self {
        if button == 0 {
            Self::Primary
        } else {
            Self::Secondary
        }
    }
}

/// The modifier keys held at a press.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// Shift: move the root instead of turning.
    pub shift: bool,
    /// Alt or Ctrl: pull the bone's tip by IK.
    pub reach: bool,
}

/// The view a pointer acts in: its camera and its size.
#[derive(Debug)]
pub struct ViewPort<'a> {
    /// The camera; orbit and pan change it.
    pub camera: &'a mut Camera,
    /// The view's size, CSS pixels.
    pub size: Vec2,
}

impl ViewPort<'_> {
    /// A flat (2D) view: orthographic, painted from both sides, panned by a
    /// drag on empty space.
    fn flat(&self) -> bool {
        self.camera.projection == Projection::Orthographic
    }
}

/// What a press began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Began {
    /// Nothing: the paint tool has no selected bone to paint.
    Nothing,
    /// Turning a bone about its origin.
    Rotate,
    /// Moving the root.
    Move,
    /// Pulling a bone's tip by two-bone IK.
    Reach,
    /// Turning the camera about its target.
    Orbit,
    /// Moving the camera in its view plane.
    Pan,
    /// A paint stroke.
    Paint,
}

impl Began {
    /// The name the page uses: `none`, `rotate`, `move`, `reach`, `orbit`,
    /// `pan` or `paint`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Nothing => "none",
            Self::Rotate => "rotate",
            Self::Move => "move",
            Self::Reach => "reach",
            Self::Orbit => "orbit",
            Self::Pan => "pan",
            Self::Paint => "paint",
        }
    }
}

/// What one paint stroke did, summed over its dabs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StrokeReport {
    /// Dabs painted.
    pub dabs: usize,
    /// Vertices changed, counted once per dab.
    pub touched: usize,
    /// Influences dropped to keep four per vertex.
    pub pruned: usize,
}

#[derive(Clone, Copy, Debug)]
enum Drag {
    Rotate {
        bone: usize,
        pivot: Vec2,
        from: Vec2,
        start: BoneTransform,
        frame_rotation: Quat,
        axis_model: Vec3,
    },
    Move {
        bone: usize,
        from: Vec2,
        start: BoneTransform,
        frame_rotation: Quat,
        anchor_model: Vec3,
    },
    Orbit {
        last: Vec2,
    },
    Pan {
        last: Vec2,
    },
    Paint {
        bone: usize,
        last: Vec2,
    },
    Reach {
        bone: usize,
        upper: usize,
        from: Vec2,
        start_bone: BoneTransform,
        start_upper: BoneTransform,
        tip_model: Vec3,
        axis_model: Vec3,
    },
}

/// The drag state machine and the tool settings of one view.
#[derive(Clone, Debug)]
pub struct Controller {
    /// What a press does.
    pub tool: Tool,
    /// The brush the paint tool uses.
    pub brush: Brush,
    /// Paints the mirror vertices with the mirror bone too.
    pub mirror: bool,
    /// How the mesh is skinned where the brush reads it.
    pub method: SkinningMethod,
    selected: Option<usize>,
    drag: Option<Drag>,
    stroke: StrokeReport,
    // Reused by every dab: where each vertex is on screen, and whether the
    // brush may reach it.
    points_screen: Vec<Vec2>,
    paintable: Vec<bool>,
    /// What those were projected from: while it holds, only the vertices
    /// the last dab changed have moved.
    projected: Option<Projected>,
    bones_screen: Vec<ScreenBone>,
}

/// The lab, skinning, weights and view a dab's projection was made from.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Projected {
    lab: u64,
    epoch: u64,
    influences: u64,
    method: SkinningMethod,
    camera: Camera,
    size: Vec2,
}

impl Default for Controller {
    fn default() -> Self {
        Self {
            tool: Tool::Pose,
            brush: Brush {
                radius: 40.0,
                strength: 0.5,
                falloff: Falloff::Smooth,
                mode: PaintMode::Add,
                value: 1.0,
            },
            mirror: false,
            method: SkinningMethod::Lbs,
            selected: None,
            drag: None,
            stroke: StrokeReport::default(),
            points_screen: Vec::new(),
            paintable: Vec::new(),
            projected: None,
            bones_screen: Vec::new(),
        }
    }
}

/// The rotation part of a frame.
fn rotation_of(matrix: &Mat4) -> Quat {
    let (_, rotation, _) = matrix.to_scale_rotation_translation();
    rotation.normalize()
}

/// Where each bone of `lab`'s posed skeleton appears: its glyph's origin and
/// tip in CSS pixels (far off screen when behind the eye), as drawn.
pub fn screen_bones(lab: &mut Lab, camera: &Camera, viewport: Vec2, out: &mut Vec<ScreenBone>) {
    let project = |p: Vec3| {
        camera
            .screen_from_model(p, viewport)
            .unwrap_or(Vec2::splat(-1e6))
    };
    out.clear();
    out.extend(
        posed_bone_glyphs(lab, camera, viewport)
            .iter()
            .map(|corners| ScreenBone {
                origin: project(corners[0]),
                tip: project(corners[1]),
            }),
    );
}

impl Controller {
    /// The selected bone, if any.
    pub fn selected(&self) -> Option<usize> {
        self.selected
    }

    /// Selects `bone` (or none); the caller checks that it exists.
    pub fn select(&mut self, bone: Option<usize>) {
        self.selected = bone;
    }

    /// Whether a drag is under way.
    pub fn dragging(&self) -> bool {
        self.drag.is_some()
    }

    /// What the current or last paint stroke did.
    pub fn stroke(&self) -> StrokeReport {
        self.stroke
    }

    /// The bone whose drawn segment is within [`PICK_RADIUS`] of `point`.
    pub fn bone_at(
        &mut self,
        lab: &mut Lab,
        camera: &Camera,
        size: Vec2,
        point: Vec2,
    ) -> Option<usize> {
        screen_bones(lab, camera, size, &mut self.bones_screen);
        pick_bone(&self.bones_screen, point, PICK_RADIUS)
    }

    /// Where a press grabs bone `bone`, CSS pixels; `None` for no such bone.
    pub fn bone_grab_point(
        &mut self,
        lab: &mut Lab,
        camera: &Camera,
        size: Vec2,
        bone: usize,
    ) -> Option<Vec2> {
        screen_bones(lab, camera, size, &mut self.bones_screen);
        self.bones_screen.get(bone).map(grab_point)
    }

    /// The vertex drawn nearest to `point`, within [`VERTEX_PICK_RADIUS`].
    pub fn vertex_at(
        &self,
        lab: &mut Lab,
        camera: &Camera,
        size: Vec2,
        point: Vec2,
    ) -> Option<usize> {
        // The skinning job keeps its result for the frames until the next
        // change: a hover over the mesh does not skin it again.
        lab.skin(self.method);
        lab.skinned_positions(self.method)
            .iter()
            .enumerate()
            .filter_map(|(v, &p)| {
                camera
                    .screen_from_model(p, size)
                    .map(|s| (v, s.distance(point)))
            })
            .filter(|&(_, d)| d <= VERTEX_PICK_RADIUS)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(v, _)| v)
    }

    /// A press at `point`: starts a drag (see the module doc) and says which.
    ///
    /// Longer than a screen: what a press starts depends on the tool, the
    /// button, the modifiers and the bone under the pointer (paint, rotate,
    /// move, reach, orbit, pan); each case is a branch that sets up its drag.
    pub fn pointer_down(
        &mut self,
        lab: &mut Lab,
        view: ViewPort,
        point: Vec2,
        button: Button,
        modifiers: Modifiers,
    ) -> Began {
        self.drag = None;
        if self.tool == Tool::Paint && button == Button::Primary {
            let Some(bone) = self.selected.filter(|&b| b < lab.bone_count()) else {
                return Began::Nothing;
            };
            lab.checkpoint();
            self.stroke = StrokeReport::default();
            self.paint_at(lab, &view, bone, point);
            self.drag = Some(Drag::Paint { bone, last: point });
            return Began::Paint;
        }
        let picked = match button {
            Button::Primary => self.bone_at(lab, view.camera, view.size, point),
            Button::Secondary => None,
        };
        let parent_of =
            |lab: &Lab, bone: usize| lab.scene().skeleton.bones()[bone].parent.map(usize::from);
        let drag = match picked {
            Some(bone) if modifiers.reach && parent_of(lab, bone).is_some() => {
                let upper = parent_of(lab, bone).unwrap_or_default();
                let length = lab.scene().skeleton.bones()[bone].length;
                let tip_model =
                    lab.model_from_bone_posed()[bone].transform_point3(Vec3::new(0.0, length, 0.0));
                Drag::Reach {
                    bone,
                    upper,
                    from: point,
                    start_bone: lab.bone_pose(bone).unwrap_or_default(),
                    start_upper: lab.bone_pose(upper).unwrap_or_default(),
                    tip_model,
                    axis_model: view.camera.toward_eye(),
                }
            }
            Some(bone) if modifiers.shift => {
                let root = 0;
                let frame = lab.model_from_bone_unanimated(root).unwrap_or_default();
                Drag::Move {
                    bone: root,
                    from: point,
                    start: lab.bone_pose(root).unwrap_or_default(),
                    frame_rotation: rotation_of(&frame),
                    anchor_model: lab.model_from_bone_posed()[bone].transform_point3(Vec3::ZERO),
                }
            }
            Some(bone) => {
                let frame = lab.model_from_bone_unanimated(bone).unwrap_or_default();
                let origin = lab.model_from_bone_posed()[bone].transform_point3(Vec3::ZERO);
                Drag::Rotate {
                    bone,
                    pivot: view
                        .camera
                        .screen_from_model(origin, view.size)
                        .unwrap_or(point),
                    from: point,
                    start: lab.bone_pose(bone).unwrap_or_default(),
                    frame_rotation: rotation_of(&frame),
                    axis_model: view.camera.toward_eye(),
                }
            }
            None if button == Button::Primary && !view.flat() => Drag::Orbit { last: point },
            None => Drag::Pan { last: point },
        };
        if let Some(bone) = picked {
            self.selected = Some(bone);
            lab.checkpoint();
        }
        self.drag = Some(drag);
        match drag {
            Drag::Rotate { .. } => Began::Rotate,
            Drag::Move { .. } => Began::Move,
            Drag::Reach { .. } => Began::Reach,
            Drag::Orbit { .. } => Began::Orbit,
            Drag::Pan { .. } => Began::Pan,
            Drag::Paint { .. } => Began::Paint,
        }
    }

    /// The pointer moved to `point` during a drag; true if the lab or the
    /// camera changed.
    pub fn pointer_move(&mut self, lab: &mut Lab, view: ViewPort, point: Vec2) -> bool {
        let Some(drag) = self.drag else {
            return false;
        };
        match drag {
            Drag::Rotate {
                bone,
                pivot,
                from,
                start,
                frame_rotation,
                axis_model,
            } => {
                let angle = drag_angle(pivot, from, point);
                let turned = rotate_about_axis(&start, frame_rotation, axis_model, angle);
                lab.set_bone_transform(bone, turned).is_ok()
            }
            Drag::Move {
                bone,
                from,
                start,
                frame_rotation,
                anchor_model,
            } => {
                let delta = view
                    .camera
                    .model_delta(point - from, anchor_model, view.size);
                lab.set_bone_transform(bone, translate(&start, frame_rotation, delta))
                    .is_ok()
            }
            Drag::Orbit { last } => {
                view.camera.orbit(point - last);
                self.drag = Some(Drag::Orbit { last: point });
                true
            }
            Drag::Pan { last } => {
                view.camera.pan(point - last, view.size);
                self.drag = Some(Drag::Pan { last: point });
                true
            }
            Drag::Reach {
                bone,
                upper,
                from,
                start_bone,
                start_upper,
                tip_model,
                axis_model,
            } => {
                // Solve from the pose the drag started in, so the chain does
                // not drift as the pointer wanders.
                let target =
                    tip_model + view.camera.model_delta(point - from, tip_model, view.size);
                let restored = lab
                    .set_bone_transform(upper, start_upper)
                    .and_then(|()| lab.set_bone_transform(bone, start_bone));
                restored
                    .and_then(|()| lab.reach(bone, target, axis_model))
                    .is_ok()
            }
            Drag::Paint { bone, last } => {
                // Dabs a quarter radius apart along the path, so fast moves
                // paint a continuous stroke.
                let spacing = (self.brush.radius * 0.25).max(1.0);
                let steps = ((point - last).length() / spacing).ceil().max(1.0) as usize;
                for step in 1..=steps {
                    self.paint_at(
                        lab,
                        &view,
                        bone,
                        last.lerp(point, step as f32 / steps as f32),
                    );
                }
                self.drag = Some(Drag::Paint { bone, last: point });
                true
            }
        }
    }

    /// The pointer was released (or the drag cancelled): the drag ends.
    pub fn pointer_up(&mut self) {
        self.drag = None;
    }

    /// Turns the selected bone by `angle` radians about the view axis
    /// (counter-clockwise as seen), as one undo step: the keyboard's way to
    /// pose. False when no bone is selected.
    pub fn turn_selected(&mut self, lab: &mut Lab, camera: &Camera, angle: f32) -> bool {
        let Some(bone) = self.selected.filter(|&b| b < lab.bone_count()) else {
            return false;
        };
        let (Ok(frame), Ok(start)) = (lab.model_from_bone_unanimated(bone), lab.bone_pose(bone))
        else {
            return false;
        };
        lab.checkpoint();
        let turned = rotate_about_axis(&start, rotation_of(&frame), camera.toward_eye(), angle);
        lab.set_bone_transform(bone, turned).is_ok()
    }

    /// One dab centred at `centre`: the skinned mesh projected into the
    /// view's buffers (reused, not reallocated), then painted. Within a
    /// stroke nothing moves but what the dabs repaint, so a dab projects
    /// again only the vertices the last one changed (100,000 vertices each
    /// dab made a stroke's pointer move cost 10–15 ms of the page's time).
    fn paint_at(&mut self, lab: &mut Lab, view: &ViewPort, bone: usize, centre: Vec2) {
        let now = Projected {
            lab: lab.id(),
            epoch: lab.skinning_epoch(),
            influences: lab.influences_revision(),
            method: self.method,
            camera: *view.camera,
            size: view.size,
        };
        let moved: Option<Vec<u32>> =
            (self.projected == Some(now)).then(|| lab.last_dab_changed().to_vec());
        let flat = view.flat();
        let (eye, toward_eye) = (now.camera.eye(), now.camera.toward_eye());
        // Kept by the skinning job, and brought up to date in place by each
        // dab at the vertices it changed.
        lab.skin(self.method);
        let (positions, normals) = lab.skinned(self.method);
        let project = |vertex: usize| {
            let (position, normal) = (positions[vertex], normals[vertex]);
            let screen = now.camera.screen_from_model(position, view.size);
            // Flat meshes are painted from either side; solid ones on the
            // faces turned to the viewer, as a brush on real skin would.
            let facing = match now.camera.projection {
                Projection::Orthographic => normal.dot(toward_eye),
                Projection::Perspective => normal.dot(eye - position),
            };
            (
                screen.unwrap_or(Vec2::splat(-1e9)),
                screen.is_some() && (flat || facing > 0.0),
            )
        };
        match moved {
            Some(vertices) if self.points_screen.len() == positions.len() => {
                for vertex in vertices {
                    let vertex = vertex as usize;
                    (self.points_screen[vertex], self.paintable[vertex]) = project(vertex);
                }
            }
            _ => {
                self.points_screen.clear();
                self.paintable.clear();
                for vertex in 0..positions.len() {
                    let (point, paintable) = project(vertex);
                    self.points_screen.push(point);
                    self.paintable.push(paintable);
                }
            }
        }
        if let Ok(report) = lab.paint_dab(
            &self.points_screen,
            &self.paintable,
            bone,
            centre,
            &self.brush,
            self.mirror,
        ) {
            self.stroke.dabs += 1;
            self.stroke.pruned += report.pruned;
            self.stroke.touched += report.touched;
        }
        // Current but for what this dab changed.
        self.projected = Some(Projected {
            epoch: lab.skinning_epoch(),
            influences: lab.influences_revision(),
            ..now
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tube bent at its middle joint, seen in perspective, painted by a
    /// stroke of `dabs` dabs circling the bend; `full` projects every
    /// vertex for every dab. The weights it leaves.
    fn paint_stroke(method: SkinningMethod, full: bool, dabs: usize) -> Vec<Vec<(u16, f32)>> {
        let mut lab = Lab::example("tube").expect("a built-in example");
        lab.set_bone_pose(1, [0.0, 0.0, 0.5, 0.866], [0.0; 3], [1.0; 3])
            .expect("bone 1 exists");
        let positions = lab.scene().mesh.positions_model.clone();
        let (min, max) = positions
            .iter()
            .fold((Vec3::MAX, Vec3::MIN), |(l, h), p| (l.min(*p), h.max(*p)));
        let mut camera = Camera::framing(min, max, Projection::Perspective);
        let size = Vec2::new(640.0, 480.0);
        let middle = camera
            .screen_from_model((min + max) * 0.5, size)
            .expect("the middle is in view");
        let mut controller = Controller {
            tool: Tool::Paint,
            method,
            ..Controller::default()
        };
        controller.brush.radius = 60.0;
        controller.brush.strength = 0.9;
        for dab in 0..dabs {
            if full {
                controller.projected = None;
            }
            let angle = dab as f32 * 0.4;
            let centre = middle + 50.0 * Vec2::new(angle.cos(), angle.sin());
            let view = ViewPort {
                camera: &mut camera,
                size,
            };
            controller.paint_at(&mut lab, &view, dab % 2, centre);
        }
        (0..lab.vertex_count())
            .map(|v| lab.influences(v).expect("a vertex"))
            .collect()
    }

    #[test]
    fn projecting_only_what_the_last_dab_changed_paints_as_projecting_all() {
        for method in [SkinningMethod::Lbs, SkinningMethod::Dqs] {
            let before = paint_stroke(method, true, 0);
            let incremental = paint_stroke(method, false, 24);
            assert_ne!(incremental, before, "{method:?}: the stroke painted");
            assert_eq!(incremental, paint_stroke(method, true, 24), "{method:?}");
        }
    }
}
