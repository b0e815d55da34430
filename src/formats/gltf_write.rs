//! Building a glTF binary chunk: buffer views and accessors appended to one
//! byte vector, for the `.glb` export and the motion-capture figure.

use glam::Vec3;
use serde_json::{json, Value};

pub(super) const FLOAT: u32 = 5126;
pub(super) const UNSIGNED_SHORT: u32 = 5123;
pub(super) const UNSIGNED_INT: u32 = 5125;
pub(super) const ARRAY_BUFFER: u32 = 34962;
pub(super) const ELEMENT_ARRAY_BUFFER: u32 = 34963;

/// The binary chunk being built and the JSON that describes it.
#[derive(Default)]
pub(super) struct Builder {
    /// The binary chunk.
    pub(super) bin: Vec<u8>,
    /// The buffer views.
    pub(super) views: Vec<Value>,
    /// The accessors.
    pub(super) accessors: Vec<Value>,
}

impl Builder {
    /// Appends `bytes` as a buffer view (4-byte aligned); returns the
    /// view's index.
    pub(super) fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        self.bin.resize(self.bin.len().next_multiple_of(4), 0);
        let mut view = json!({
            "buffer": 0,
            "byteOffset": self.bin.len(),
            "byteLength": bytes.len(),
        });
        if let Some(target) = target {
            view["target"] = target.into();
        }
        self.bin.extend_from_slice(bytes);
        self.views.push(view);
        self.views.len() - 1
    }

    /// Appends `bytes` as a buffer view and an accessor of `count`
    /// elements; returns the accessor's index.
    pub(super) fn accessor(
        &mut self,
        bytes: &[u8],
        target: Option<u32>,
        mut accessor: Value,
    ) -> usize {
        accessor["bufferView"] = self.view(bytes, target).into();
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }
}

/// Little-endian bytes of `values`.
pub(super) fn floats(values: impl IntoIterator<Item = f32>) -> Vec<u8> {
    values.into_iter().flat_map(f32::to_le_bytes).collect()
}

/// A `VEC3` float accessor of `values` (a vertex attribute), with the
/// `min` and `max` glTF asks of positions and morph position offsets when
/// `bounded`; returns its index.
pub(super) fn vec3s(builder: &mut Builder, values: &[Vec3], bounded: bool) -> usize {
    let mut accessor = json!({"componentType": FLOAT, "count": values.len(), "type": "VEC3"});
    if bounded {
        let (lo, hi) = values.iter().fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(lo, hi), v| (lo.min(*v), hi.max(*v)),
        );
        accessor["min"] = json!(lo.to_array());
        accessor["max"] = json!(hi.to_array());
    }
    builder.accessor(
        &floats(values.iter().flat_map(|v| v.to_array())),
        Some(ARRAY_BUFFER),
        accessor,
    )
}
