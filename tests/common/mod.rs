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

/// An embedded `.gltf` split into the `.gltf` and one `.bin` file per
/// buffer, named `STEM0.bin`, `STEM1.bin`, …, as "glTF Separate" exports are.
pub fn split_gltf(text: &str, stem: &str) -> (String, std::collections::HashMap<String, Vec<u8>>) {
    let mut doc: serde_json::Value = serde_json::from_str(text).unwrap();
    let mut files = std::collections::HashMap::new();
    for (index, buffer) in doc["buffers"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        let payload = buffer["uri"]
            .as_str()
            .unwrap()
            .split_once(";base64,")
            .unwrap()
            .1;
        let name = format!("{stem}{index}.bin");
        files.insert(
            name.clone(),
            skinlab::formats::gltf::decode_base64(payload).unwrap(),
        );
        buffer["uri"] = name.into();
    }
    (doc.to_string(), files)
}

/// Standard base64 with padding, for building test files.
pub fn encode_base64(bytes: &[u8]) -> String {
    skinlab::formats::look_json::encode_base64(bytes)
}

/// Accessor `index` read straight from the file, any stride, as `f32`
/// (`u8`, `u16` and `f32` components), `width` per element.
pub fn accessor_values(doc: &serde_json::Value, index: usize, width: usize) -> Vec<f32> {
    let accessor = &doc["accessors"][index];
    let view = &doc["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    let uri = doc["buffers"][view["buffer"].as_u64().unwrap() as usize]["uri"]
        .as_str()
        .unwrap();
    let bytes =
        skinlab::formats::gltf::decode_base64(uri.split_once(";base64,").unwrap().1).unwrap();
    let size = match accessor["componentType"].as_u64().unwrap() {
        5121 => 1,
        5123 => 2,
        _ => 4,
    };
    let stride = view["byteStride"]
        .as_u64()
        .map_or(size * width, |s| s as usize);
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize
        + accessor["byteOffset"].as_u64().unwrap_or(0) as usize;
    let mut out = Vec::new();
    for element in 0..accessor["count"].as_u64().unwrap() as usize {
        for component in 0..width {
            let at = start + element * stride + component * size;
            out.push(match size {
                1 => f32::from(bytes[at]),
                2 => f32::from(u16::from_le_bytes([bytes[at], bytes[at + 1]])),
                _ => f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()),
            });
        }
    }
    out
}

/// The names of `lab`'s bones, in order.
pub fn bone_names(lab: &skinlab::Lab) -> Vec<String> {
    lab.scene()
        .skeleton
        .bones()
        .iter()
        .map(|b| b.name.clone())
        .collect()
}

/// Every automatic weighting method.
pub const AUTO_WEIGHTS: [skinlab::weights::auto_weights::AutoWeights; 4] = [
    skinlab::weights::auto_weights::AutoWeights::NearestBone,
    skinlab::weights::auto_weights::AutoWeights::DistanceFalloff,
    skinlab::weights::auto_weights::AutoWeights::BoneHeat,
    skinlab::weights::auto_weights::AutoWeights::Voxel,
];

/// A PNG's signature and header, 2 × 3 pixels: what the core reads of one.
pub fn png_header() -> Vec<u8> {
    let mut png = vec![137u8, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13];
    png.extend(b"IHDR");
    png.extend([0, 0, 0, 2, 0, 0, 0, 3, 8, 6, 0, 0, 0, 0, 0, 0, 0]);
    png
}

/// Bone `bone`'s posed direction in model space (origin to tip).
pub fn pointing(lab: &skinlab::lab::Lab, bone: usize) -> Vec3 {
    let frame = lab.model_from_bone_posed()[bone];
    let length = lab.scene().skeleton.bones()[bone].length;
    (frame.transform_point3(Vec3::new(0.0, length, 0.0)) - frame.transform_point3(Vec3::ZERO))
        .normalize()
}

/// The limbs compared: upper and lower arms and legs.
pub const LIMBS: [&str; 8] = [
    "LeftArm",
    "LeftForeArm",
    "RightArm",
    "RightForeArm",
    "LeftUpLeg",
    "LeftLeg",
    "RightUpLeg",
    "RightLeg",
];

/// The index of the bone named `name`.
pub fn bone(lab: &skinlab::lab::Lab, name: &str) -> usize {
    bone_names(lab).iter().position(|n| n == name).unwrap()
}

/// The largest angle, in degrees, between a limb of `target` and the
/// capture's, over the walk retargeted onto it, where it is, and the
/// retargeting's report.
pub fn worst_limb_angle(
    target: &mut skinlab::lab::Lab,
) -> (f32, String, skinlab::rig::retarget::Retargeted) {
    let mut capture = skinlab::lab::Lab::example("capture").unwrap();
    let (clip, report) = target.retarget_clip(&capture, 0).unwrap();
    let duration = capture.animation_duration(0).unwrap();
    let mut worst = (0.0f32, String::new());
    for k in 0..8 {
        let time = duration * k as f32 / 8.0;
        capture.set_animation_time(0, time).unwrap();
        target.set_animation_time(clip, time).unwrap();
        for limb in LIMBS {
            let angle = pointing(&capture, bone(&capture, limb))
                .angle_between(pointing(target, bone(target, limb)))
                .to_degrees();
            if angle > worst.0 {
                worst = (angle, format!("{limb} at {time:.2} s"));
            }
        }
    }
    (worst.0, worst.1, report)
}
