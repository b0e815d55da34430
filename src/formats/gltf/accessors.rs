//! Buffers and accessors: the bytes a document names (data URIs, a
//! `.glb`'s binary chunk, separate files) and typed reads of its accessors,
//! each checked against the bytes actually there before anything is
//! allocated.

use std::cell::Cell;
use std::collections::HashMap;

use super::document::Document;
use super::GltfError;

/// The most components an accessor without a buffer view (all zeros, or a
/// sparse one's base) may have: 64 MB of `f32`.
pub const MAX_ZERO_COMPONENTS: usize = 16 << 20;

/// Decodes standard base64 (with or without padding).
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        } as u32)
    };
    let symbols: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    let symbols = symbols
        .strip_suffix(b"==")
        .or_else(|| symbols.strip_suffix(b"="))
        .unwrap_or(&symbols);
    if symbols.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(symbols.len() * 3 / 4);
    for chunk in symbols.chunks(4) {
        let mut bits = 0_u32;
        for (k, &c) in chunk.iter().enumerate() {
            bits |= value(c)? << (18 - 6 * k);
        }
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    Some(out)
}

pub(super) struct Buffers {
    pub(super) data: Vec<Vec<u8>>,
    /// Bytes the reads so far have allocated (see [`super::MAX_READ_BYTES`]).
    spent: Cell<usize>,
}

/// Where a document's buffers come from besides data URIs.
#[derive(Clone, Copy, Default)]
pub struct Resources<'a> {
    /// A `.glb`'s binary chunk: buffer 0 when that has no URI.
    pub bin: Option<&'a [u8]>,
    /// Files chosen together with a `.gltf`, by file name.
    pub files: Option<&'a HashMap<String, Vec<u8>>>,
}

/// `%20` and friends decoded; anything malformed is kept as it is.
pub(super) fn percent_decoded(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut k = 0;
    while k < bytes.len() {
        let hex = bytes
            .get(k + 1..k + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[k], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                k += 3;
            }
            (byte, _) => {
                out.push(byte);
                k += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| uri.to_owned())
}

/// Components of an element of accessor type `kind` (`SCALAR` 1 … `MAT4`
/// 16); `None` for a type this reader does not support.
pub(super) fn type_width(kind: &str) -> Option<usize> {
    match kind {
        "SCALAR" => Some(1),
        "VEC2" => Some(2),
        "VEC3" => Some(3),
        "VEC4" => Some(4),
        "MAT4" => Some(16),
        _ => None,
    }
}

/// Bytes of one component of glTF `componentType`; `None` when unknown.
fn component_size(component_type: u32) -> Option<usize> {
    match component_type {
        5120 | 5121 => Some(1),
        5122 | 5123 => Some(2),
        5125 | 5126 => Some(4),
        _ => None,
    }
}

impl Resources<'_> {
    /// The file a relative URI names: matched as written, decoded, or by its
    /// last path segment (a file picker gives names, not folders).
    pub(super) fn file(&self, uri: &str) -> Option<&[u8]> {
        let files = self.files?;
        let decoded = percent_decoded(uri);
        let name = decoded.rsplit(['/', '\\']).next().unwrap_or(&decoded);
        [uri, decoded.as_str(), name]
            .iter()
            .find_map(|key| files.get(*key))
            .map(Vec::as_slice)
    }
}

impl Buffers {
    /// Decodes every buffer: data URIs, external files from `resources`, and
    /// buffer 0 without a URI from a `.glb`'s binary chunk.
    pub(super) fn load(document: &Document, resources: Resources) -> Result<Self, GltfError> {
        let data = document
            .buffers
            .iter()
            .enumerate()
            .map(|(index, buffer)| {
                let bytes = match buffer.uri.as_deref() {
                    None => resources
                        .bin
                        .filter(|_| index == 0)
                        .ok_or_else(|| {
                            GltfError::Missing(format!(
                                "buffers[{index}]'s data (no URI, and not a .glb's first buffer)"
                            ))
                        })?
                        .to_vec(),
                    Some(uri) if uri.starts_with("data:") => {
                        let payload = uri
                            .split_once(";base64,")
                            .map(|(_, payload)| payload)
                            .ok_or(GltfError::Base64(index))?;
                        decode_base64(payload).ok_or(GltfError::Base64(index))?
                    }
                    Some(uri) => resources
                        .file(uri)
                        .ok_or_else(|| GltfError::MissingFile {
                            buffer: index,
                            uri: uri.to_owned(),
                        })?
                        .to_vec(),
                };
                if bytes.len() < buffer.byte_length {
                    return Err(GltfError::BufferTooShort {
                        buffer: index,
                        declared: buffer.byte_length,
                        found: bytes.len(),
                    });
                }
                Ok(bytes)
            })
            .collect::<Result<_, _>>()?;
        Ok(Self {
            data,
            spent: Cell::new(0),
        })
    }

    /// Books `elements × width` values of `value_size` bytes for accessor
    /// `index` against the budget, before they are allocated.
    fn charge(
        &self,
        index: usize,
        elements: usize,
        width: usize,
        value_size: usize,
    ) -> Result<(), GltfError> {
        let bytes = elements.saturating_mul(width).saturating_mul(value_size);
        let total = self.spent.get().saturating_add(bytes);
        if total > super::MAX_READ_BYTES {
            return Err(GltfError::OverBudget {
                index,
                bytes,
                total,
                max: super::MAX_READ_BYTES,
            });
        }
        self.spent.set(total);
        Ok(())
    }

    /// Reads accessor `index` as `f32` components, `width` per element;
    /// normalised integers are mapped to 0..1.
    pub(super) fn floats(
        &self,
        document: &Document,
        index: usize,
        width: usize,
    ) -> Result<Vec<f32>, GltfError> {
        self.read(document, index, width, |bytes, kind, normalized| {
            // glTF's dequantization: unsigned c / (2ⁿ − 1), signed
            // max(c / (2ⁿ⁻¹ − 1), −1); unnormalized integers as they are
            // (KHR_mesh_quantization).
            let scaled = |value: f32, max: f32| {
                if normalized {
                    (value / max).max(-1.0)
                } else {
                    value
                }
            };
            match kind {
                5126 => Some(f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
                5120 => Some(scaled(f32::from(bytes[0] as i8), 127.0)),
                5121 => Some(scaled(f32::from(bytes[0]), 255.0)),
                5122 => Some(scaled(
                    f32::from(i16::from_le_bytes([bytes[0], bytes[1]])),
                    32767.0,
                )),
                5123 => Some(scaled(
                    f32::from(u16::from_le_bytes([bytes[0], bytes[1]])),
                    65535.0,
                )),
                _ => None,
            }
        })
    }

    /// Reads accessor `index` as unsigned integers, `width` per element.
    pub(super) fn integers(
        &self,
        document: &Document,
        index: usize,
        width: usize,
    ) -> Result<Vec<u32>, GltfError> {
        self.read(document, index, width, |bytes, kind, _| match kind {
            5121 => Some(u32::from(bytes[0])),
            5123 => Some(u32::from(u16::from_le_bytes([bytes[0], bytes[1]]))),
            5125 => Some(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
            _ => None,
        })
    }

    /// Longer than a screen: an accessor's checks (type, component, counts
    /// booked before allocation, bounds) and its sparse substitutions in the
    /// order glTF 2.0 §3.6 gives them, each a few lines on the same accessor.
    pub(super) fn read<T: Clone>(
        &self,
        document: &Document,
        index: usize,
        width: usize,
        convert: impl Fn(&[u8], u32, bool) -> Option<T>,
    ) -> Result<Vec<T>, GltfError> {
        let problem = |problem: String| GltfError::Accessor { index, problem };
        let accessor = document
            .accessors
            .get(index)
            .ok_or_else(|| problem("does not exist".to_owned()))?;
        let expected_width = type_width(&accessor.kind)
            .ok_or_else(|| problem(format!("type {} is not supported", accessor.kind)))?;
        if expected_width != width {
            return Err(problem(format!(
                "has type {}, expected {width} components",
                accessor.kind
            )));
        }
        let component_size = component_size(accessor.component_type).ok_or_else(|| {
            problem(format!(
                "component type {} is unknown",
                accessor.component_type
            ))
        })?;
        // Every value read is booked before it is allocated.
        let sparse_count = accessor.sparse.as_ref().map_or(0, |s| s.count);
        self.charge(
            index,
            accessor.count.saturating_add(sparse_count),
            width,
            size_of::<T>(),
        )?;
        // The base: the buffer view, or zeros when there is none (then the
        // count is bounded before anything is allocated).
        let mut out: Vec<T> = match accessor.buffer_view {
            Some(view_index) => self
                .read_view(
                    document,
                    view_index,
                    accessor.byte_offset,
                    accessor.count,
                    width,
                    accessor.component_type,
                    accessor.normalized,
                    true,
                    &convert,
                )
                .map_err(problem)?,
            None => {
                if accessor.count.saturating_mul(width) > MAX_ZERO_COMPONENTS {
                    return Err(problem(format!(
                        "has {} elements and no buffer view; at most {} components are read",
                        accessor.count, MAX_ZERO_COMPONENTS
                    )));
                }
                let zero = vec![0_u8; component_size];
                let zero = convert(&zero, accessor.component_type, accessor.normalized)
                    .ok_or_else(|| problem("cannot be read here".to_owned()))?;
                let mut out = Vec::with_capacity(accessor.count * width);
                out.resize_with(accessor.count * width, || zero.clone());
                out
            }
        };
        if let Some(sparse) = &accessor.sparse {
            if sparse.count > accessor.count {
                return Err(problem(format!(
                    "sparse: {} substitutions for {} elements",
                    sparse.count, accessor.count
                )));
            }
            let indices: Vec<u32> = self
                .read_view(
                    document,
                    sparse.indices.buffer_view,
                    sparse.indices.byte_offset,
                    sparse.count,
                    1,
                    sparse.indices.component_type,
                    false,
                    false,
                    &|bytes: &[u8], kind, _| match kind {
                        5121 => Some(u32::from(bytes[0])),
                        5123 => Some(u32::from(u16::from_le_bytes([bytes[0], bytes[1]]))),
                        5125 => Some(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
                        _ => None,
                    },
                )
                .map_err(|p| problem(format!("sparse indices: {p}")))?;
            let values = self
                .read_view(
                    document,
                    sparse.values.buffer_view,
                    sparse.values.byte_offset,
                    sparse.count,
                    width,
                    accessor.component_type,
                    accessor.normalized,
                    false,
                    &convert,
                )
                .map_err(|p| problem(format!("sparse values: {p}")))?;
            for (k, &element) in indices.iter().enumerate() {
                let element = element as usize;
                if element >= accessor.count {
                    return Err(problem(format!(
                        "sparse index {element} is past its {} elements",
                        accessor.count
                    )));
                }
                out[element * width..(element + 1) * width]
                    .clone_from_slice(&values[k * width..(k + 1) * width]);
            }
        }
        Ok(out)
    }

    /// `count` elements of `width` components of `component_type` from
    /// buffer view `view_index` at `byte_offset`, through `convert`; the
    /// view's stride applies where `strided` (sparse data is packed).
    /// Every byte is checked to lie inside the view and the buffer first.
    #[allow(clippy::too_many_arguments)]
    fn read_view<T>(
        &self,
        document: &Document,
        view_index: usize,
        byte_offset: usize,
        count: usize,
        width: usize,
        component_type: u32,
        normalized: bool,
        strided: bool,
        convert: &impl Fn(&[u8], u32, bool) -> Option<T>,
    ) -> Result<Vec<T>, String> {
        let component_size = component_size(component_type)
            .ok_or_else(|| format!("component type {component_type} is unknown"))?;
        let view = document
            .buffer_views
            .get(view_index)
            .ok_or_else(|| format!("buffer view {view_index} does not exist"))?;
        let buffer = self
            .data
            .get(view.buffer)
            .ok_or_else(|| format!("buffer {} does not exist", view.buffer))?;
        let element_size = component_size * width;
        let stride = match view.byte_stride {
            // A stride below the element would read elements over each
            // other (0 reads one element again and again).
            Some(stride) if strided && stride < element_size => {
                return Err(format!(
                    "bufferViews[{view_index}].byteStride {stride} is below the element size {element_size}"
                ))
            }
            Some(stride) if strided => stride,
            _ => element_size,
        };
        // Checked arithmetic: a damaged file may hold any numbers here.
        let past_end = || "reaches past the end of its buffer view".to_owned();
        let start = view
            .byte_offset
            .checked_add(byte_offset)
            .ok_or_else(past_end)?;
        let view_end = view
            .byte_offset
            .checked_add(view.byte_length)
            .ok_or_else(past_end)?;
        let needed = match count.checked_sub(1) {
            None => 0,
            Some(last) => last
                .checked_mul(stride)
                .and_then(|offset| offset.checked_add(element_size))
                .ok_or_else(past_end)?,
        };
        if start.checked_add(needed).is_none_or(|end| end > view_end) || view_end > buffer.len() {
            return Err(past_end());
        }
        let mut out = Vec::with_capacity(count * width);
        for element in 0..count {
            for component in 0..width {
                let at = start + element * stride + component * component_size;
                let value = convert(&buffer[at..at + component_size], component_type, normalized)
                    .ok_or_else(|| {
                    format!("component type {component_type} cannot be read here")
                })?;
                out.push(value);
            }
        }
        Ok(out)
    }
}
