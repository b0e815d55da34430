//! The interaction controller, driven natively by whole drags: pointer
//! events in CSS pixels go in, the lab and the camera come out changed.

use glam::{Mat4, Quat, Vec2, Vec3};
use skinlab::view::camera::{Camera, Projection};
use skinlab::view::controller::{Began, Button, Controller, Modifiers, Tool, ViewPort};
use skinlab::view::framing::{frame_scene, ViewChoice};
use skinlab::weights::paint::{Brush, Falloff, PaintMode};
use skinlab::{Lab, SkinningMethod};

const SIZE: Vec2 = Vec2::new(800.0, 600.0);

/// The camera the page frames a scene with (`view::framing`, the same code).
fn framing(lab: &Lab, projection: Projection) -> Camera {
    let choice = match projection {
        Projection::Orthographic => ViewChoice::Flat,
        Projection::Perspective => ViewChoice::Solid,
    };
    frame_scene(lab, SkinningMethod::Lbs, choice, SIZE.x / SIZE.y)
}

fn view(camera: &mut Camera) -> ViewPort<'_> {
    ViewPort { camera, size: SIZE }
}

fn frame(lab: &mut Lab, bone: usize) -> Mat4 {
    lab.model_from_bone_posed()[bone]
}

fn tip(lab: &mut Lab, bone: usize) -> Vec3 {
    let length = lab.scene().skeleton.bones()[bone].length;
    frame(lab, bone).transform_point3(Vec3::new(0.0, length, 0.0))
}

fn screen(camera: &Camera, point: Vec3) -> Vec2 {
    camera
        .screen_from_model(point, SIZE)
        .expect("in front of the camera")
}

const PRIMARY: Button = Button::Primary;
const NO_KEYS: Modifiers = Modifiers {
    shift: false,
    reach: false,
};

#[test]
fn a_drag_on_bone_2_turns_it_90_degrees_about_its_origin_and_bone_1_stays() {
    let mut lab = Lab::example("two-bone").unwrap();
    let mut camera = framing(&lab, Projection::Orthographic);
    let mut controller = Controller::default();
    let rest_positions = lab.skinned_positions(SkinningMethod::Lbs).to_vec();
    let origin = frame(&mut lab, 1).transform_point3(Vec3::ZERO);
    let tip_before = tip(&mut lab, 1);

    let grab = controller
        .bone_grab_point(&mut lab, &camera, SIZE, 1)
        .unwrap();
    let pivot = screen(&camera, origin);
    let began = controller.pointer_down(&mut lab, view(&mut camera), grab, PRIMARY, NO_KEYS);
    assert_eq!(began, Began::Rotate);
    assert_eq!(controller.selected(), Some(1), "a press selects the bone");
    // An arc of a quarter turn counter-clockwise on screen (y down), in
    // twelve moves, as a hand would drag it.
    let arm = grab - pivot;
    for step in 1..=12 {
        let angle = std::f32::consts::FRAC_PI_2 * step as f32 / 12.0;
        let (sin, cos) = angle.sin_cos();
        let point = pivot + Vec2::new(arm.x * cos + arm.y * sin, -arm.x * sin + arm.y * cos);
        assert!(controller.pointer_move(&mut lab, view(&mut camera), point));
    }
    controller.pointer_up();
    assert!(!controller.dragging());

    let pose = lab.bone_pose(1).unwrap();
    assert!(
        pose.rotation
            .abs_diff_eq(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2), 1e-4),
        "bone 2 turned a quarter turn about the view axis: {:?}",
        pose.rotation
    );
    assert!(frame(&mut lab, 1)
        .transform_point3(Vec3::ZERO)
        .abs_diff_eq(origin, 1e-5));
    let expected_tip =
        origin + Quat::from_rotation_z(std::f32::consts::FRAC_PI_2) * (tip_before - origin);
    assert!(
        tip(&mut lab, 1).abs_diff_eq(expected_tip, 1e-4),
        "{}",
        tip(&mut lab, 1)
    );
    assert_eq!(lab.bone_pose(0).unwrap(), skinlab::BoneTransform::IDENTITY);
    // The skinning note: bone 1's vertices do not move.
    let posed = lab.skinned_positions(SkinningMethod::Lbs).to_vec();
    for v in 0..lab.vertex_count() {
        if lab
            .influences(v)
            .unwrap()
            .iter()
            .all(|&(bone, _)| bone == 0)
        {
            assert!(posed[v].abs_diff_eq(rest_positions[v], 1e-6), "vertex {v}");
        }
    }
    // The whole drag is one undo step.
    assert!(lab.undo());
    assert_eq!(lab.bone_pose(1).unwrap(), skinlab::BoneTransform::IDENTITY);
}

#[test]
fn a_shift_drag_moves_the_root_with_the_pointer() {
    let mut lab = Lab::example("two-bone").unwrap();
    let mut camera = framing(&lab, Projection::Orthographic);
    let mut controller = Controller::default();
    let origin_screen = screen(&camera, frame(&mut lab, 0).transform_point3(Vec3::ZERO));
    let grab = controller
        .bone_grab_point(&mut lab, &camera, SIZE, 1)
        .unwrap();
    let shift = Modifiers {
        shift: true,
        reach: false,
    };
    let began = controller.pointer_down(&mut lab, view(&mut camera), grab, PRIMARY, shift);
    assert_eq!(began, Began::Move);
    for step in 1..=5 {
        let point = grab + Vec2::new(50.0, -30.0) * step as f32 / 5.0;
        controller.pointer_move(&mut lab, view(&mut camera), point);
    }
    controller.pointer_up();
    let moved = screen(&camera, frame(&mut lab, 0).transform_point3(Vec3::ZERO));
    assert!(
        (moved - origin_screen).abs_diff_eq(Vec2::new(50.0, -30.0), 0.01),
        "the root followed the pointer: {}",
        moved - origin_screen
    );
    assert_eq!(lab.bone_pose(0).unwrap().rotation, Quat::IDENTITY);
    assert_eq!(lab.bone_pose(1).unwrap(), skinlab::BoneTransform::IDENTITY);
}

#[test]
fn a_reach_drag_puts_the_tip_where_the_pointer_is() {
    let mut lab = Lab::example("two-bone").unwrap();
    let mut camera = framing(&lab, Projection::Orthographic);
    let mut controller = Controller::default();
    let grab = controller
        .bone_grab_point(&mut lab, &camera, SIZE, 1)
        .unwrap();
    let tip_screen = screen(&camera, tip(&mut lab, 1));
    let reach = Modifiers {
        shift: false,
        reach: true,
    };
    let began = controller.pointer_down(&mut lab, view(&mut camera), grab, PRIMARY, reach);
    assert_eq!(began, Began::Reach);
    // Pull the tip from (4, 0) to (2.5, 1.5), well within reach, in steps;
    // the pointer keeps its offset from the tip.
    let target = Vec3::new(2.5, 1.5, 0.0);
    let offset = screen(&camera, target) - tip_screen;
    for step in 1..=8 {
        controller.pointer_move(
            &mut lab,
            view(&mut camera),
            grab + offset * step as f32 / 8.0,
        );
    }
    controller.pointer_up();
    assert!(
        tip(&mut lab, 1).abs_diff_eq(target, 1e-3),
        "tip at {}",
        tip(&mut lab, 1)
    );
    // The root stayed put; only the two bones turned.
    assert!(frame(&mut lab, 0)
        .transform_point3(Vec3::ZERO)
        .abs_diff_eq(Vec3::ZERO, 1e-5));
    assert_eq!(lab.bone_pose(0).unwrap().translation, Vec3::ZERO);
    assert!(lab.undo(), "one undo step");
    assert!(tip(&mut lab, 1).abs_diff_eq(Vec3::new(4.0, 0.0, 0.0), 1e-5));
}

#[test]
fn a_fast_paint_stroke_paints_dabs_spaced_along_its_path() {
    let mut lab = Lab::example("two-bone").unwrap();
    let mut camera = framing(&lab, Projection::Orthographic);
    let mut controller = Controller::default();
    controller.tool = Tool::Paint;
    controller.brush = Brush {
        radius: 12.0,
        strength: 1.0,
        falloff: Falloff::Constant,
        mode: PaintMode::Add,
        value: 1.0,
    };
    // No bone selected: nothing to paint.
    let began = controller.pointer_down(&mut lab, view(&mut camera), Vec2::ZERO, PRIMARY, NO_KEYS);
    assert_eq!(began, Began::Nothing);
    controller.select(Some(1));

    // Along the bottom edge of the strip, from x = 0 to x = 1.5: bone 1's
    // half. One move covers the whole length, far more than a radius.
    let from = screen(&camera, Vec3::new(0.0, -0.5, 0.0));
    let to = screen(&camera, Vec3::new(1.5, -0.5, 0.0));
    let began = controller.pointer_down(&mut lab, view(&mut camera), from, PRIMARY, NO_KEYS);
    assert_eq!(began, Began::Paint);
    assert!(controller.pointer_move(&mut lab, view(&mut camera), to));
    controller.pointer_up();

    let spacing = 12.0 * 0.25;
    let expected_dabs = 1 + ((to - from).length() / spacing).ceil() as usize;
    assert_eq!(controller.stroke().dabs, expected_dabs);
    let positions = lab.scene().mesh.positions_model.clone();
    for (v, p) in positions.iter().enumerate() {
        let painted = lab.influences(v).unwrap() == vec![(1, 1.0)];
        if p.y < 0.0 && p.x <= 1.5 + 1e-6 {
            // Every vertex along the path, the middle ones too.
            assert!(painted, "vertex {v} at {p} lies on the stroke");
        } else if p.x < 2.0 {
            assert_eq!(
                lab.influences(v).unwrap(),
                vec![(0, 1.0)],
                "vertex {v} at {p}"
            );
        }
    }
    assert!(controller.stroke().touched >= 4);
    assert!(lab.undo(), "the stroke is one undo step");
    assert_eq!(lab.influences(0).unwrap(), vec![(0, 1.0)]);
}

#[test]
fn empty_space_orbits_a_3d_view_and_pans_a_2d_one() {
    let mut lab = Lab::example("tube").unwrap();
    let mut controller = Controller::default();

    let mut camera = framing(&lab, Projection::Perspective);
    let (yaw, pitch) = (camera.yaw, camera.pitch);
    let corner = Vec2::new(5.0, 5.0);
    let began = controller.pointer_down(&mut lab, view(&mut camera), corner, PRIMARY, NO_KEYS);
    assert_eq!(began, Began::Orbit);
    controller.pointer_move(&mut lab, view(&mut camera), corner + Vec2::new(20.0, 5.0));
    controller.pointer_move(&mut lab, view(&mut camera), corner + Vec2::new(30.0, 10.0));
    controller.pointer_up();
    assert!(
        (camera.yaw - (yaw - 0.3)).abs() < 1e-5,
        "yaw {}",
        camera.yaw
    );
    assert!(
        (camera.pitch - (pitch + 0.1)).abs() < 1e-5,
        "pitch {}",
        camera.pitch
    );
    assert!(!lab.can_undo(), "the camera is not an edit of the scene");

    let mut lab = Lab::example("two-bone").unwrap();
    let mut camera = framing(&lab, Projection::Orthographic);
    let anchor = Vec3::new(1.0, 0.0, 0.0);
    let before = screen(&camera, anchor);
    let began = controller.pointer_down(&mut lab, view(&mut camera), corner, PRIMARY, NO_KEYS);
    assert_eq!(began, Began::Pan);
    controller.pointer_move(&mut lab, view(&mut camera), corner + Vec2::new(40.0, 20.0));
    controller.pointer_up();
    let after = screen(&camera, anchor);
    assert!(
        (after - before).abs_diff_eq(Vec2::new(40.0, 20.0), 0.01),
        "{}",
        after - before
    );

    // The secondary button pans even on a bone, and selects nothing.
    let mut controller = Controller::default();
    let grab = controller
        .bone_grab_point(&mut lab, &camera, SIZE, 1)
        .unwrap();
    let began = controller.pointer_down(
        &mut lab,
        view(&mut camera),
        grab,
        Button::Secondary,
        NO_KEYS,
    );
    assert_eq!(began, Began::Pan);
    assert_eq!(controller.selected(), None);
}

#[test]
fn arrow_keys_turn_the_selected_bone_as_one_undo_step() {
    let mut lab = Lab::example("two-bone").unwrap();
    let camera = framing(&lab, Projection::Orthographic);
    let mut controller = Controller::default();
    assert!(
        !controller.turn_selected(&mut lab, &camera, 0.1),
        "no bone selected"
    );
    controller.select(Some(1));
    assert!(controller.turn_selected(&mut lab, &camera, 5_f32.to_radians()));
    let rotation = lab.bone_pose(1).unwrap().rotation;
    assert!(rotation.abs_diff_eq(Quat::from_rotation_z(5_f32.to_radians()), 1e-6));
    assert!(lab.undo());
    assert_eq!(lab.bone_pose(1).unwrap().rotation, Quat::IDENTITY);
}
