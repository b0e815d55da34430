//! The view: an orbit camera around a target, orthographic or perspective,
//! and the maps between model space and the canvas.
//!
//! Screen points are CSS pixels from the canvas' top-left corner, y down.

use glam::{Mat4, Vec2, Vec3};

/// Vertical field of view of the perspective camera; the orthographic one
/// shows the same height at the target's distance.
pub const FOV_Y: f32 = std::f32::consts::FRAC_PI_4;

/// How the camera projects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Projection {
    /// Parallel rays: the front view of the flat examples.
    Orthographic,
    /// A pinhole camera, for 3D meshes.
    Perspective,
}

/// An orbit camera: it looks at `target` from `distance` away, turned by
/// `yaw` about +Y and then `pitch` above the XZ plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The point looked at, model space.
    pub target: Vec3,
    /// Turn about +Y, radians; 0 looks down −Z (the front view).
    pub yaw: f32,
    /// Elevation, radians, within ±89°.
    pub pitch: f32,
    /// Distance from the eye to the target, model units.
    pub distance: f32,
    /// Orthographic or perspective.
    pub projection: Projection,
}

impl Camera {
    /// A camera that frames the box `min..max`, looking from the front
    /// (orthographic) or from slightly above and to the side (perspective).
    pub fn framing(min: Vec3, max: Vec3, projection: Projection) -> Self {
        let centre = (min + max) * 0.5;
        let radius = ((max - min) * 0.5).length().max(0.1);
        let (yaw, pitch) = match projection {
            Projection::Orthographic => (0.0, 0.0),
            Projection::Perspective => (0.5, 0.35),
        };
        Self {
            target: centre,
            yaw,
            pitch,
            distance: radius * 1.25 / (FOV_Y * 0.5).tan(),
            projection,
        }
    }

    /// An orthographic front view that fits the box `min..max` into a
    /// viewport of `aspect` (width / height) with a tenth of the view to
    /// spare at the tighter side: the box's own width and height count,
    /// not its diagonal, so a flat scene fills the view. Its depth keeps
    /// the eye in front of the box.
    pub fn framing_flat(min: Vec3, max: Vec3, aspect: f32) -> Self {
        let half = (max - min) * 0.5;
        let half_height = half
            .y
            .max(half.x / aspect.max(1e-3))
            .max(0.5 * half.z)
            .max(0.05)
            * 1.12;
        Self {
            target: (min + max) * 0.5,
            yaw: 0.0,
            pitch: 0.0,
            distance: half_height / (FOV_Y * 0.5).tan(),
            projection: Projection::Orthographic,
        }
    }

    /// Unit vector from the target towards the eye.
    pub fn toward_eye(&self) -> Vec3 {
        let (sin_yaw, cos_yaw) = self.yaw.sin_cos();
        let (sin_pitch, cos_pitch) = self.pitch.sin_cos();
        Vec3::new(sin_yaw * cos_pitch, sin_pitch, cos_yaw * cos_pitch)
    }

    /// The eye position, model space.
    pub fn eye(&self) -> Vec3 {
        self.target + self.toward_eye() * self.distance
    }

    /// The camera's right and up directions, model space.
    pub fn right_up(&self) -> (Vec3, Vec3) {
        let back = self.toward_eye();
        let right = Vec3::Y.cross(back).try_normalize().unwrap_or(Vec3::X);
        (right, back.cross(right))
    }

    /// `view_from_model`: the look-at matrix.
    pub fn view_from_model(&self) -> Mat4 {
        let (_, up) = self.right_up();
        Mat4::look_at_rh(self.eye(), self.target, up)
    }

    /// `clip_from_view` for a viewport of the given aspect (width / height),
    /// OpenGL clip conventions (z in −1..1).
    pub fn clip_from_view(&self, aspect: f32) -> Mat4 {
        let aspect = aspect.max(1e-3);
        match self.projection {
            Projection::Perspective => {
                Mat4::perspective_rh_gl(FOV_Y, aspect, self.distance * 0.01, self.distance * 100.0)
            }
            Projection::Orthographic => {
                let half_height = self.distance * (FOV_Y * 0.5).tan();
                let half_width = half_height * aspect;
                Mat4::orthographic_rh_gl(
                    -half_width,
                    half_width,
                    -half_height,
                    half_height,
                    self.distance * 0.01,
                    self.distance * 100.0,
                )
            }
        }
    }

    /// `clip_from_model = clip_from_view · view_from_model`.
    pub fn clip_from_model(&self, viewport: Vec2) -> Mat4 {
        self.clip_from_view(viewport.x / viewport.y.max(1.0)) * self.view_from_model()
    }

    /// Where a model-space point appears on the canvas, in CSS pixels (y
    /// down); `None` behind the eye.
    pub fn screen_from_model(&self, point: Vec3, viewport: Vec2) -> Option<Vec2> {
        screen_with_depth(&self.clip_from_model(viewport), point, viewport).map(|p| p.truncate())
    }

    /// Model units per CSS pixel at the depth of `point`.
    pub fn units_per_pixel(&self, point: Vec3, viewport: Vec2) -> f32 {
        let depth = match self.projection {
            Projection::Orthographic => self.distance,
            Projection::Perspective => (point - self.eye()).dot(-self.toward_eye()).max(1e-3),
        };
        2.0 * depth * (FOV_Y * 0.5).tan() / viewport.y.max(1.0)
    }

    /// The model-space motion in the view plane, at the depth of `point`,
    /// that follows a screen motion of `delta` CSS pixels.
    pub fn model_delta(&self, delta: Vec2, point: Vec3, viewport: Vec2) -> Vec3 {
        let (right, up) = self.right_up();
        let scale = self.units_per_pixel(point, viewport);
        (right * delta.x - up * delta.y) * scale
    }

    /// Turns the camera about the target by a drag of `delta` CSS pixels.
    pub fn orbit(&mut self, delta: Vec2) {
        let limit = 89_f32.to_radians();
        self.yaw -= delta.x * 0.01;
        self.pitch = (self.pitch + delta.y * 0.01).clamp(-limit, limit);
    }

    /// Moves the target so the scene follows a drag of `delta` CSS pixels.
    pub fn pan(&mut self, delta: Vec2, viewport: Vec2) {
        self.target -= self.model_delta(delta, self.target, viewport);
    }

    /// Moves closer (`factor < 1`) or farther.
    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            self.distance = (self.distance * factor).clamp(1e-3, 1e5);
        }
    }
}

/// Where `point` appears on a canvas of `viewport` CSS pixels under
/// `clip_from_model` (computed once for many points): `(x, y)` in CSS
/// pixels, y down, and the normalised device depth `z` (larger is
/// farther); `None` behind the eye.
pub fn screen_with_depth(clip_from_model: &Mat4, point: Vec3, viewport: Vec2) -> Option<Vec3> {
    let clip = *clip_from_model * point.extend(1.0);
    if clip.w <= 1e-6 {
        return None;
    }
    let ndc = clip.truncate() / clip.w;
    Some(Vec3::new(
        (ndc.x + 1.0) * 0.5 * viewport.x,
        (1.0 - ndc.y) * 0.5 * viewport.y,
        ndc.z,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_front_view_maps_the_target_to_the_centre_and_x_to_the_right() {
        let camera = Camera::framing(
            Vec3::new(-1.0, -1.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Projection::Orthographic,
        );
        let viewport = Vec2::new(800.0, 600.0);
        let centre = camera.screen_from_model(Vec3::ZERO, viewport).unwrap();
        assert!(centre.abs_diff_eq(Vec2::new(400.0, 300.0), 1e-3));
        let right = camera.screen_from_model(Vec3::X, viewport).unwrap();
        let up = camera.screen_from_model(Vec3::Y, viewport).unwrap();
        assert!(right.x > 400.0 && (right.y - 300.0).abs() < 1e-3);
        assert!(up.y < 300.0, "y up on screen is y down in pixels");
    }

    #[test]
    fn model_delta_inverts_the_projection() {
        for projection in [Projection::Orthographic, Projection::Perspective] {
            let camera = Camera::framing(Vec3::splat(-2.0), Vec3::splat(2.0), projection);
            let viewport = Vec2::new(640.0, 480.0);
            let point = Vec3::new(0.3, 0.2, -0.1);
            let start = camera.screen_from_model(point, viewport).unwrap();
            let moved = point + camera.model_delta(Vec2::new(5.0, -3.0), point, viewport);
            let end = camera.screen_from_model(moved, viewport).unwrap();
            assert!(
                (end - start).abs_diff_eq(Vec2::new(5.0, -3.0), 0.05),
                "{projection:?}: {}",
                end - start
            );
        }
    }

    #[test]
    fn orbit_keeps_the_distance_and_clamps_the_pitch() {
        let mut camera =
            Camera::framing(Vec3::splat(-1.0), Vec3::splat(1.0), Projection::Perspective);
        let distance = camera.eye().distance(camera.target);
        camera.orbit(Vec2::new(30.0, 10_000.0));
        assert!((camera.eye().distance(camera.target) - distance).abs() < 1e-3);
        assert!(camera.pitch <= 89_f32.to_radians());
    }
}
