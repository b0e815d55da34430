//! The memory a document's reads would allocate, multiplied out from what
//! it declares before a byte is decoded: every use of an accessor counts
//! (a sampler shared by 250 channels is read 250 times, an offset accessor
//! shared by 1000 morph targets 1000 times), each value four bytes as the
//! reads store them. The reads themselves book what they allocate too
//! (`Buffers::charge`), for uses this estimate does not foresee.

use super::accessors::type_width;
use super::document::Document;
use super::meshes::same_vertices;
use super::{GltfError, MAX_READ_BYTES};

/// Bytes reading accessor `index` allocates: `(count + sparse count) ×
/// components × 4`; 0 for an accessor that does not exist (the read names it).
fn read_bytes(document: &Document, index: usize) -> usize {
    let Some(accessor) = document.accessors.get(index) else {
        return 0;
    };
    // An unsupported type is refused by the read itself, before it costs.
    let width = type_width(&accessor.kind).unwrap_or(0);
    let sparse = accessor.sparse.as_ref().map_or(0, |s| s.count);
    accessor
        .count
        .saturating_add(sparse)
        .saturating_mul(width)
        .saturating_mul(4)
}

/// Every accessor read the document declares, once per use: each mesh's
/// attributes, indices and morph targets (a primitive's vertices once where
/// later primitives of its mesh share them), each skin's inverse bind
/// matrices, each animation channel's times and values.
fn declared_reads(document: &Document) -> impl Iterator<Item = usize> + '_ {
    let meshes = document.meshes.iter().flat_map(|mesh| {
        mesh.primitives
            .iter()
            .enumerate()
            .flat_map(|(k, primitive)| {
                // A primitive drawing an earlier one's vertices reads its
                // indices alone.
                let shared = mesh.primitives[..k]
                    .iter()
                    .any(|earlier| same_vertices(earlier, primitive));
                let targets = primitive
                    .targets
                    .iter()
                    .flat_map(|target| target.values().copied());
                let vertices = primitive.attributes.values().copied().chain(targets);
                primitive
                    .indices
                    .into_iter()
                    .chain(vertices.filter(move |_| !shared))
            })
    });
    let skins = document
        .skins
        .iter()
        .filter_map(|skin| skin.inverse_bind_matrices);
    let clips = document.animations.iter().flat_map(|animation| {
        animation
            .channels
            .iter()
            .filter_map(|channel| animation.samplers.get(channel.sampler))
            .flat_map(|s| [s.input, s.output])
    });
    meshes.chain(skins).chain(clips)
}

/// Refuses a document whose declared reads add up to more than
/// [`MAX_READ_BYTES`], naming the accessor whose use crosses the budget
/// and what the whole would have taken.
pub(super) fn check_declared_reads(document: &Document) -> Result<(), GltfError> {
    let mut total = 0_usize;
    let mut crossing = None;
    for index in declared_reads(document) {
        let bytes = read_bytes(document, index);
        total = total.saturating_add(bytes);
        if total > MAX_READ_BYTES && crossing.is_none() {
            crossing = Some((index, bytes));
        }
    }
    match crossing {
        None => Ok(()),
        Some((index, bytes)) => Err(GltfError::OverBudget {
            index,
            bytes,
            total,
            max: MAX_READ_BYTES,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn document(json: &str) -> Document {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_shared_sampler_counts_once_per_channel() {
        // 1000 keys: times 4 000 bytes, rotations 16 000 bytes, per channel.
        let doc = |channels: usize| {
            let channel = r#"{"sampler": 0, "target": {"node": 0, "path": "rotation"}}"#;
            let list = vec![channel; channels].join(",");
            document(&format!(
                r#"{{"asset": {{"version": "2.0"}}, "accessors": [
                    {{"componentType": 5126, "count": 1000, "type": "SCALAR"}},
                    {{"componentType": 5126, "count": 1000, "type": "VEC4"}}],
                  "animations": [{{"samplers": [{{"input": 0, "output": 1}}], "channels": [{list}]}}]}}"#
            ))
        };
        let total = |d: &Document| declared_reads(d).map(|i| read_bytes(d, i)).sum::<usize>();
        assert_eq!(total(&doc(1)), 20_000);
        assert_eq!(total(&doc(7)), 7 * 20_000);
        assert!(check_declared_reads(&doc(7)).is_ok());
        // 13 422 channels of 20 000 bytes pass 256 MiB.
        let error = check_declared_reads(&doc(13_422)).unwrap_err();
        assert!(matches!(error, GltfError::OverBudget { total, .. } if total == 13_422 * 20_000));
    }
}
