//! The one-shot tools that the page's module leaves to this one, since a
//! first frame never runs them: automatic weights (nearest bone, distance,
//! bone heat and voxel binding, with their solvers), the mesh report, the
//! skeleton templates' fitting, key reduction and retargeting. Each reads
//! the page's scene as handover bytes (`lab.handover()`) into a scratch
//! `Lab` and answers with what the page's `Lab` takes back
//! (`setInfluenceArrays`, `addBones`, `setClipJson`, `addClipJson`), so the
//! page keeps its own scene, undo steps and views.

use std::collections::HashMap;

use skinlab::formats::handover;
use skinlab::lab::index_from_f64;
use skinlab::weights::auto_weights::AutoWeights;
use skinlab::Lab;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::js_error;

/// Automatic weights for the scene in `scene` (handover bytes): `method`
/// is `nearest`, `distance`, `heat` or `voxel`, on the bones that deform;
/// `progress(done, total)`, if given, hears how far it is. Returns
/// `{report, bones, weights}`: the report as `lab.autoWeights` gives it
/// (`{prunedVertices, visibilityChecked, iterations, unreachedVertices,
/// nearestNonDeforming, handedOver}`) and every vertex's four (bone,
/// weight) slots as `lab.influenceArrays()` gives them.
#[wasm_bindgen(js_name = autoWeights)]
pub fn auto_weights(
    scene: &[u8],
    method: &str,
    progress: Option<js_sys::Function>,
) -> Result<js_sys::Object, JsError> {
    const METHOD: &str = "autoWeights";
    let method = match method {
        "nearest" => AutoWeights::NearestBone,
        "distance" => AutoWeights::DistanceFalloff,
        "heat" => AutoWeights::BoneHeat,
        "voxel" => AutoWeights::Voxel,
        _ => {
            return Err(js_error(
                METHOD,
                format!("unknown method '{method}'; use nearest, distance, heat or voxel"),
            ))
        }
    };
    let mut lab = scratch_lab(METHOD, scene)?;
    let mut report_progress = |done: usize, total: usize| {
        if let Some(callback) = &progress {
            // A callback that throws only loses its progress report.
            let _ = callback.call2(
                &JsValue::NULL,
                &(done as f64).into(),
                &(total as f64).into(),
            );
        }
    };
    let report = lab.apply_auto_weights_with_progress(method, &mut report_progress);
    let mut handed_over = [&report.nearest_non_deforming[..], &report.unreached[..]].concat();
    handed_over.sort_unstable();
    handed_over.dedup();
    let view = object(&[
        ("prunedVertices", (report.pruned_vertices as f64).into()),
        ("visibilityChecked", report.visibility_checked.into()),
        ("iterations", (report.iterations as f64).into()),
        ("unreachedVertices", (report.unreached.len() as f64).into()),
        (
            "nearestNonDeforming",
            (report.nearest_non_deforming.len() as f64).into(),
        ),
        (
            "handedOver",
            handed_over
                .iter()
                .map(|&v| JsValue::from(v))
                .collect::<js_sys::Array>()
                .into(),
        ),
    ])?;
    let all = lab.all_influences();
    let bones: Vec<u16> = all.iter().flat_map(|v| v.bones).collect();
    let weights: Vec<f32> = all.iter().flat_map(|v| v.weights).collect();
    object(&[
        ("report", view.into()),
        ("bones", js_sys::Uint16Array::from(&bones[..]).into()),
        ("weights", js_sys::Float32Array::from(&weights[..]).into()),
    ])
}

/// What the mesh of the scene in `scene` (handover bytes) brings to
/// binding: `{looseParts, duplicateVertices, nonManifoldEdges, openEdges,
/// degenerateTriangles, flippedTriangles, seamsApart, size}` (counts of
/// the mesh with coincident vertices welded; seamsApart: places whose
/// copies hold different weights, as `lab.seamsApart()` counts; size is
/// the bounding box's diagonal).
#[wasm_bindgen(js_name = meshReport)]
pub fn mesh_report(scene: &[u8]) -> Result<js_sys::Object, JsError> {
    let lab = scratch_lab("meshReport", scene)?;
    let r = lab.mesh_report();
    let count = |n: usize| JsValue::from(n as f64);
    object(&[
        ("looseParts", count(r.loose_parts)),
        ("duplicateVertices", count(r.duplicate_vertices)),
        ("nonManifoldEdges", count(r.non_manifold_edges)),
        ("openEdges", count(r.open_edges)),
        ("degenerateTriangles", count(r.degenerate_triangles)),
        ("flippedTriangles", count(r.flipped_triangles)),
        ("seamsApart", count(lab.seams_apart())),
        ("size", JsValue::from(r.size)),
    ])
}

/// The bones template `template` fitted to `markers` adds to the scene in
/// `scene` (handover bytes), which must have its root alone: an array of
/// `{parent, head, tail, name}` as the page's `lab.addBones` takes it.
/// `"humanoid"` takes `{chin, groin, leftWrist, rightWrist, leftElbow,
/// rightElbow, leftKnee, rightKnee, fingers?}`, `"quadruped"` `{nose,
/// tailBase, tailTip, frontLeftPaw, frontRightPaw, backLeftPaw,
/// backRightPaw, withers, hips}`, `"chain"` `{start, end, bones}`; each
/// point `[x, y, z]`, model space. Throws naming a marker that is missing
/// or out of place.
#[wasm_bindgen(js_name = fitSkeleton)]
pub fn fit_skeleton(
    scene: &[u8],
    template: &str,
    markers: &JsValue,
) -> Result<js_sys::Array, JsError> {
    const METHOD: &str = "fitSkeleton";
    let markers = marker_points(METHOD, markers)?;
    let bones = scratch_lab(METHOD, scene)?
        .template_bones(template, &markers)
        .map_err(|e| js_error(METHOD, e))?;
    let point = |p: [f32; 3]| -> JsValue {
        p.iter()
            .map(|&c| JsValue::from(c))
            .collect::<js_sys::Array>()
            .into()
    };
    bones
        .into_iter()
        .map(|bone| {
            object(&[
                ("parent", JsValue::from(bone.parent as f64)),
                ("head", point(bone.head.to_array())),
                ("tail", point(bone.tail.to_array())),
                ("name", bone.name.map_or(JsValue::UNDEFINED, JsValue::from)),
            ])
            .map(JsValue::from)
        })
        .collect()
}

/// Clip `clip` of the scene in `scene` (handover bytes) with keys removed
/// while every joint stays within `tolerance` model units of the clip at
/// each of its key times: `{before, after, maxError, clip}`, the last the
/// reduced clip as JSON for the page's `lab.setClipJson`.
#[wasm_bindgen(js_name = reduceKeys)]
pub fn reduce_keys(scene: &[u8], clip: f64, tolerance: f32) -> Result<js_sys::Object, JsError> {
    const METHOD: &str = "reduceKeys";
    let mut lab = scratch_lab(METHOD, scene)?;
    let clip = index_from_f64("clip", clip).map_err(|e| js_error(METHOD, e))?;
    let reduction = lab
        .reduce_keys(clip, tolerance, true)
        .map_err(|e| js_error(METHOD, e))?;
    let json = lab.clip_json(clip).map_err(|e| js_error(METHOD, e))?;
    object(&[
        ("before", JsValue::from(reduction.before as f64)),
        ("after", JsValue::from(reduction.after as f64)),
        ("maxError", JsValue::from(reduction.max_error)),
        ("clip", JsValue::from(json)),
    ])
}

/// Clip `clip` of the scene in `source` (handover bytes; a motion file
/// without its character) played on the bones of the scene in `scene` by
/// joint names: `{clip, matched, unmatched}`, the clip as JSON for the
/// page's `lab.addClipJson`, how many bones it moves, and the source's
/// joints without a match; throws when none match.
#[wasm_bindgen(js_name = retargetClip)]
pub fn retarget_clip(scene: &[u8], source: &[u8], clip: f64) -> Result<js_sys::Object, JsError> {
    const METHOD: &str = "retargetClip";
    let mut lab = scratch_lab(METHOD, scene)?;
    let source = scratch_lab(METHOD, source)?;
    let clip = index_from_f64("clip", clip).map_err(|e| js_error(METHOD, e))?;
    let (index, retargeted) = lab
        .retarget_clip(&source, clip)
        .map_err(|e| js_error(METHOD, e))?;
    let json = lab.clip_json(index).map_err(|e| js_error(METHOD, e))?;
    let unmatched: js_sys::Array = retargeted
        .unmatched
        .into_iter()
        .map(JsValue::from)
        .collect();
    object(&[
        ("clip", JsValue::from(json)),
        ("matched", JsValue::from(retargeted.matched as f64)),
        ("unmatched", unmatched.into()),
    ])
}

/// `markers` as the templates read them: each key's number, or its array's.
fn marker_points(method: &str, markers: &JsValue) -> Result<HashMap<String, Vec<f32>>, JsError> {
    let object = markers
        .dyn_ref::<js_sys::Object>()
        .filter(|_| !markers.is_function() && !js_sys::Array::is_array(markers))
        .ok_or_else(|| js_error(method, "markers must be an object of points"))?;
    let mut points = HashMap::new();
    for entry in js_sys::Object::entries(object).iter() {
        let pair = js_sys::Array::from(&entry);
        let name = pair.get(0).as_string().unwrap_or_default();
        let value = pair.get(1);
        let numbers = if let Some(n) = value.as_f64() {
            vec![n as f32]
        } else if js_sys::Array::is_array(&value) {
            js_sys::Array::from(&value)
                .iter()
                .map(|c| c.as_f64().map_or(f32::NAN, |n| n as f32))
                .collect()
        } else {
            return Err(js_error(
                method,
                format!("marker '{name}' must be [x, y, z]"),
            ));
        };
        points.insert(name, numbers);
    }
    Ok(points)
}

/// A `Lab` of the scene in handover bytes `scene`, to work on and drop.
pub(crate) fn scratch_lab(method: &str, scene: &[u8]) -> Result<Lab, JsError> {
    handover::scene_from_handover(scene)
        .map(Lab::new)
        .map_err(|e| js_error(method, e))
}

/// A JS object of `fields`.
pub(crate) fn object(fields: &[(&str, JsValue)]) -> Result<js_sys::Object, JsError> {
    let object = js_sys::Object::new();
    for (key, value) in fields {
        js_sys::Reflect::set(&object, &(*key).into(), value)
            .map_err(|_| JsError::new("could not build the result"))?;
    }
    Ok(object)
}
