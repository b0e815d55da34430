//! Helpers shared by the integration tests.
#![allow(dead_code, clippy::unwrap_used)]

use glam::Vec3;

/// `|a − b| ≤ tolerance · (1 + |b|)`: an absolute tolerance near zero, a
/// relative one for large values.
pub fn close(a: Vec3, b: Vec3, tolerance: f32) -> bool {
    (a - b).length() <= tolerance * (1.0 + b.length())
}

/// Panics with both values when they are not [`close`].
#[track_caller]
pub fn assert_close(a: Vec3, b: Vec3, tolerance: f32) {
    assert!(
        close(a, b, tolerance),
        "{a} is not within {tolerance} of {b}"
    );
}

/// A shipped sample model's embedded `.gltf` text.
pub fn model_text(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("www/models/{name}/{name}.gltf"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `.glb` of an embedded `.gltf`, made as exporters make it: every
/// buffer's bytes, 4-byte aligned, in one binary chunk that is buffer 0;
/// the JSON chunk padded with spaces, the binary one with zeros.
pub fn glb_from_gltf(text: &str) -> Vec<u8> {
    let mut doc: serde_json::Value = serde_json::from_str(text).unwrap();
    let mut bin = Vec::new();
    let mut starts = Vec::new();
    for buffer in doc["buffers"].as_array().unwrap() {
        let uri = buffer["uri"].as_str().unwrap();
        let payload = uri.split_once(";base64,").unwrap().1;
        starts.push(bin.len());
        bin.extend(skinlab::io::gltf::decode_base64(payload).unwrap());
        bin.resize(bin.len().next_multiple_of(4), 0);
    }
    for view in doc["bufferViews"].as_array_mut().unwrap() {
        let buffer = view["buffer"].as_u64().unwrap() as usize;
        let offset = view["byteOffset"].as_u64().unwrap_or(0) as usize;
        view["buffer"] = 0.into();
        view["byteOffset"] = (starts[buffer] + offset).into();
    }
    doc["buffers"] = serde_json::json!([{ "byteLength": bin.len() }]);
    let mut json = serde_json::to_vec(&doc).unwrap();
    json.resize(json.len().next_multiple_of(4), b' ');
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    for word in [0x4654_6C67, 2, total as u32, json.len() as u32, 0x4E4F_534A] {
        out.extend_from_slice(&u32::to_le_bytes(word));
    }
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(&0x004E_4942_u32.to_le_bytes());
    out.extend_from_slice(&bin);
    out
}
