//! The view: the camera, the interaction math (picking, drag-to-rotate),
//! the controller that turns pointer events into edits of a
//! [`crate::lab::Lab`], the overlay geometry and the colours. Plain numbers,
//! tested natively; `render` and `web` draw and wire what it decides.

pub mod camera;
pub mod colours;
pub mod controller;
pub mod framing;
pub mod interaction;
pub mod overlay;
pub mod state;
pub mod svg;
pub mod volume;
