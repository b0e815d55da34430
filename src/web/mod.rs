//! The JavaScript face of the lab: `Lab` for `www/pkg/skinlab.js`.
//!
//! A thin shell: it converts JavaScript values into plain Rust values, calls
//! [`crate::lab::Lab`], and turns every error into a JS `Error` whose message
//! starts with the method's name.

mod animate;
mod batches;
mod capture;
mod colour;
mod cor;
mod dynamics;
mod history;
mod ik;
mod morphs;
mod pose;
mod rigging;
mod scene;
mod viewer;
mod weights;

pub use viewer::Viewer;

use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::examples::listed_names;
use crate::lab::{fixed_from_f64, index_from_f64, EditError, Lab, SkinningMethod};

pub(crate) fn js_error(method: &str, error: impl std::fmt::Display) -> JsError {
    JsError::new(&format!("{method}: {error}"))
}

/// Reads an options object into `T` (unknown keys refused, so a misspelt
/// option is an error rather than ignored), naming `method` in the error.
pub(crate) fn options<T: serde::de::DeserializeOwned>(
    method: &str,
    value: JsValue,
) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value).map_err(|e| js_error(method, format!("options: {e}")))
}

/// A point as the API hands it out: a plain array, `[x, y]` (CSS pixels)
/// or `[x, y, z]` (model space). Bulk data (every vertex) goes as typed
/// arrays instead.
pub(crate) fn point_array(values: &[f32]) -> js_sys::Array {
    values.iter().map(|&v| JsValue::from(v)).collect()
}

/// A brush as options give it: `{radius, strength, falloff?, mode?,
/// value?}` (`viewer.setBrush`, and within `lab.paintDab`'s options).
#[derive(serde::Deserialize)]
pub(crate) struct BrushOptions {
    radius: f32,
    strength: f32,
    #[serde(default = "smooth")]
    falloff: String,
    #[serde(default = "add")]
    mode: String,
    #[serde(default)]
    value: f32,
}

impl BrushOptions {
    /// The keys a brush takes.
    pub(crate) const KEYS: &'static [&'static str] =
        &["radius", "strength", "falloff", "mode", "value"];

    /// The brush, checked; an error names `method`.
    pub(crate) fn brush(&self, method: &str) -> Result<crate::weights::paint::Brush, JsError> {
        crate::weights::paint::Brush::parse(
            self.radius,
            self.strength,
            &self.falloff,
            &self.mode,
            self.value,
        )
        .map_err(|e| js_error(method, e))
    }
}

fn smooth() -> String {
    "smooth".to_owned()
}

fn add() -> String {
    "add".to_owned()
}

/// Refuses an options object with a key not in `known`, naming it: a
/// misspelt option is an error rather than ignored.
pub(crate) fn refuse_unknown_keys(
    method: &str,
    value: &JsValue,
    known: &[&str],
) -> Result<(), JsError> {
    // `typeof` rather than `instanceof Object`: options made in another
    // realm (a page holding a lab in a frame) are objects too.
    if !value.is_object() {
        return Err(js_error(method, "the options are an object"));
    }
    match js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>())
        .iter()
        .filter_map(|key| key.as_string())
        .find(|key| !known.contains(&key.as_str()))
    {
        Some(key) => Err(js_error(
            method,
            format!("unknown option '{key}'; known: {}", known.join(", ")),
        )),
        None => Ok(()),
    }
}

/// `Some(value)` as the value and `None` as `null`: the API's one "none"
/// (wasm-bindgen's own `Option` return would give `undefined`).
pub(crate) fn nullable<T: Into<JsValue>>(value: Option<T>) -> JsValue {
    value.map_or(JsValue::NULL, Into::into)
}

/// `x, y, z` per point as a new `Float32Array`: one copy out of the wasm
/// memory, no intermediate buffer.
fn float_array(points: &[glam::Vec3]) -> js_sys::Float32Array {
    js_sys::Float32Array::from(bytemuck::cast_slice::<glam::Vec3, f32>(points))
}

fn numbers(method: &str, what: &str, value: JsValue) -> Result<Vec<f64>, JsError> {
    if !value.is_object() {
        let found = value
            .as_string()
            .map_or_else(|| format!("{value:?}"), |s| format!("'{s}'"));
        return Err(js_error(
            method,
            format!("{what} must be an array of numbers, got {found}"),
        ));
    }
    serde_wasm_bindgen::from_value(value).map_err(|error| {
        js_error(
            method,
            format!("{what} must be an array of numbers ({error})"),
        )
    })
}

/// A skinning lab: one scene, its pose and its CPU reference skinning.
#[wasm_bindgen(js_name = Lab)]
pub struct JsLab {
    pub(crate) inner: Lab,
}
