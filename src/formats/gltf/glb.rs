//! The binary glTF container (`.glb`): a 12-byte header (`glTF`, version
//! 2, total length), a JSON chunk, then an optional binary chunk that holds
//! buffer 0. Reading checks every length against the bytes actually there;
//! writing packs an embedded `.gltf` the way exporters do.

use super::accessors::decode_base64;
use super::{GltfError, MAX_FILE_BYTES};

const MAGIC: u32 = 0x4654_6C67; // "glTF"
const JSON: u32 = 0x4E4F_534A;
const BIN: u32 = 0x004E_4942;

/// The JSON chunk and the binary chunk (if any) of a `.glb`.
pub fn chunks(bytes: &[u8]) -> Result<(&[u8], Option<&[u8]>), GltfError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(GltfError::TooLarge {
            bytes: bytes.len(),
            max: MAX_FILE_BYTES,
        });
    }
    let word = |at: usize| -> Option<u32> {
        let four = bytes.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes([four[0], four[1], four[2], four[3]]))
    };
    let bad = |problem: String| GltfError::Glb(problem);
    if word(0) != Some(MAGIC) {
        return Err(bad("the file does not start with 'glTF'".to_owned()));
    }
    if word(4) != Some(2) {
        return Err(bad(format!("version {:?}, only 2 is read", word(4))));
    }
    let declared = word(8).ok_or_else(|| bad("the header is cut short".to_owned()))? as usize;
    if declared != bytes.len() {
        return Err(bad(format!(
            "the header says {declared} bytes, the file has {}",
            bytes.len()
        )));
    }
    let mut chunks = Vec::new();
    let mut at = 12;
    while at < bytes.len() {
        let (Some(length), Some(kind)) = (word(at), word(at + 4)) else {
            return Err(bad(format!("chunk {} is cut short", chunks.len())));
        };
        let start = at + 8;
        let end = start
            .checked_add(length as usize)
            .filter(|&end| end <= bytes.len())
            .ok_or_else(|| {
                bad(format!(
                    "chunk {} claims {length} bytes, {} remain",
                    chunks.len(),
                    bytes.len().saturating_sub(start)
                ))
            })?;
        chunks.push((kind, &bytes[start..end]));
        at = end;
    }
    match chunks.as_slice() {
        [(JSON, json)] => Ok((json, None)),
        [(JSON, json), (BIN, bin), ..] => Ok((json, Some(bin))),
        _ => Err(bad(
            "the first chunk must be JSON, the second (if any) binary".to_owned(),
        )),
    }
}

/// Packs an embedded `.gltf` (buffers as base64 data URIs) into a `.glb`:
/// every buffer's bytes, 4-byte aligned, in one binary chunk that becomes
/// buffer 0; the JSON chunk padded with spaces, the binary one with zeros.
pub fn glb_from_embedded_gltf(text: &str) -> Result<Vec<u8>, GltfError> {
    let json_error = |e: serde_json::Error| GltfError::Json(e.to_string());
    let mut doc: serde_json::Value = serde_json::from_str(text).map_err(json_error)?;
    let mut bin = Vec::new();
    let mut starts = Vec::new();
    let buffers = doc["buffers"].as_array().cloned().unwrap_or_default();
    for (index, buffer) in buffers.iter().enumerate() {
        let payload = buffer["uri"]
            .as_str()
            .and_then(|uri| uri.split_once(";base64,"))
            .map(|(_, payload)| payload)
            .ok_or_else(|| GltfError::Missing(format!("buffers[{index}]'s data URI")))?;
        starts.push(bin.len());
        bin.extend(decode_base64(payload).ok_or(GltfError::Base64(index))?);
        bin.resize(bin.len().next_multiple_of(4), 0);
    }
    if let Some(views) = doc["bufferViews"].as_array_mut() {
        for (index, view) in views.iter_mut().enumerate() {
            let start = view["buffer"]
                .as_u64()
                .and_then(|buffer| starts.get(buffer as usize))
                .ok_or_else(|| GltfError::Missing(format!("bufferViews[{index}]'s buffer")))?;
            let offset = view["byteOffset"].as_u64().unwrap_or(0) as usize;
            view["buffer"] = 0.into();
            view["byteOffset"] = (start + offset).into();
        }
    }
    doc["buffers"] = serde_json::json!([{ "byteLength": bin.len() }]);
    let json = serde_json::to_vec(&doc).map_err(json_error)?;
    write_glb(&json, &bin)
}

/// A `.glb` of a JSON chunk and a binary chunk: the JSON padded with spaces,
/// the binary data with zeros, each to a multiple of 4 bytes.
pub fn write_glb(json: &[u8], bin: &[u8]) -> Result<Vec<u8>, GltfError> {
    let json_padded = json.len().next_multiple_of(4);
    let bin_padded = bin.len().next_multiple_of(4);
    let total = 12 + 8 + json_padded + 8 + bin_padded;
    let word = |n: usize| u32::try_from(n).map(u32::to_le_bytes);
    let (Ok(total_word), Ok(json_word), Ok(bin_word)) =
        (word(total), word(json_padded), word(bin_padded))
    else {
        return Err(GltfError::TooLarge {
            bytes: total,
            max: MAX_FILE_BYTES,
        });
    };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(&MAGIC.to_le_bytes());
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&total_word);
    out.extend_from_slice(&json_word);
    out.extend_from_slice(&JSON.to_le_bytes());
    out.extend_from_slice(json);
    out.resize(20 + json_padded, b' ');
    out.extend_from_slice(&bin_word);
    out.extend_from_slice(&BIN.to_le_bytes());
    out.extend_from_slice(bin);
    out.resize(total, 0);
    Ok(out)
}
