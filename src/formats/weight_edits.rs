//! The share link's weight edits as bytes: each vertex whose weights
//! differ from the scene as it opened, with its (bone, weight) pairs.
//!
//! A link on `dense` after one stroke held 8,565 edited vertices; written as
//! JSON numbers they made a 561 KB address, which the browser took 45–60 ms
//! to store on every update. As bytes, base64url in the address, about 16
//! characters a vertex:
//!
//! ```text
//! 1                                   format version
//! per edit, vertices increasing:
//!   varint  vertex − (previous vertex + 1)   (the first: its index)
//!   u8      n, the pairs (0–4)
//!   n ×     varint bone, f32 weight (little-endian bits, exact)
//! ```

/// The format version this module writes and reads.
const VERSION: u8 = 1;
/// At most this many pairs a vertex (the skin's four influences).
const MAX_PAIRS: u8 = 4;

/// Why weight-edit bytes were refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WeightEditsError {
    /// The first byte is not a known version.
    #[error("the link's weight edits have an unknown format ({found})")]
    Version {
        /// The version byte found.
        found: u8,
    },
    /// The bytes end inside an edit.
    #[error("the link's weight edits are cut short after {edits} vertices")]
    Truncated {
        /// Complete edits before the end.
        edits: usize,
    },
    /// A vertex index past the mesh.
    #[error("the link edits vertex {vertex}, but the scene has {vertices}")]
    Vertex {
        /// The index read.
        vertex: u64,
        /// The scene's vertex count.
        vertices: usize,
    },
    /// More pairs than a vertex holds.
    #[error("the link gives vertex {vertex} {pairs} influences (at most 4)")]
    Pairs {
        /// The vertex.
        vertex: u32,
        /// The count read.
        pairs: u8,
    },
}

/// One vertex's edit: its index and its (bone, weight) pairs.
pub type WeightEdit = (u32, Vec<(u32, f32)>);

/// `edits` (vertices increasing) as bytes.
pub fn encode(edits: &[WeightEdit]) -> Vec<u8> {
    let mut bytes = vec![VERSION];
    let mut next = 0_u64;
    for (vertex, pairs) in edits {
        put_varint(&mut bytes, u64::from(*vertex).saturating_sub(next));
        next = u64::from(*vertex) + 1;
        bytes.push(pairs.len().min(usize::from(MAX_PAIRS)) as u8);
        for &(bone, weight) in pairs.iter().take(usize::from(MAX_PAIRS)) {
            put_varint(&mut bytes, u64::from(bone));
            bytes.extend_from_slice(&weight.to_le_bytes());
        }
    }
    bytes
}

/// The edits in `bytes`, each vertex below `vertices`; bone indices are
/// checked where the weights are set, as any typed-in weights are.
pub fn decode(bytes: &[u8], vertices: usize) -> Result<Vec<WeightEdit>, WeightEditsError> {
    let Some((&version, mut rest)) = bytes.split_first() else {
        return Ok(Vec::new());
    };
    if version != VERSION {
        return Err(WeightEditsError::Version { found: version });
    }
    let mut edits = Vec::new();
    let mut next = 0_u64;
    while !rest.is_empty() {
        let truncated = WeightEditsError::Truncated { edits: edits.len() };
        let gap = take_varint(&mut rest).ok_or(truncated.clone())?;
        let vertex = next.saturating_add(gap);
        if vertex >= vertices as u64 {
            return Err(WeightEditsError::Vertex { vertex, vertices });
        }
        next = vertex + 1;
        let vertex = vertex as u32;
        let (&count, tail) = rest.split_first().ok_or(truncated.clone())?;
        rest = tail;
        if count > MAX_PAIRS {
            return Err(WeightEditsError::Pairs {
                vertex,
                pairs: count,
            });
        }
        let mut pairs = Vec::with_capacity(usize::from(count));
        for _ in 0..count {
            let bone = take_varint(&mut rest).ok_or(truncated.clone())?;
            let (weight, tail) = rest.split_first_chunk::<4>().ok_or(truncated.clone())?;
            rest = tail;
            pairs.push((
                u32::try_from(bone).unwrap_or(u32::MAX),
                f32::from_le_bytes(*weight),
            ));
        }
        edits.push((vertex, pairs));
    }
    Ok(edits)
}

/// LEB128: seven bits a byte, the high bit set on all but the last.
fn put_varint(bytes: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        bytes.push((value as u8) | 0x80);
        value >>= 7;
    }
    bytes.push(value as u8);
}

/// Reads a LEB128 value of at most ten bytes; `None` if the bytes end first
/// or it does not fit 64 bits.
fn take_varint(rest: &mut &[u8]) -> Option<u64> {
    let mut value = 0_u64;
    for shift in (0..64).step_by(7) {
        let (&byte, tail) = rest.split_first()?;
        *rest = tail;
        value |= u64::from(byte & 0x7f).checked_shl(shift)?;
        if byte < 0x80 {
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any edits, vertices increasing, come back bit for bit.
        #[test]
        fn edits_round_trip(
            steps in prop::collection::vec(
                (0_u32..5000, prop::collection::vec((0_u32..70_000, any::<f32>()), 0..=4)),
                0..60,
            )
        ) {
            let mut vertex = 0_u32;
            let edits: Vec<WeightEdit> = steps
                .into_iter()
                .map(|(gap, pairs)| {
                    vertex += gap;
                    let edit = (vertex, pairs);
                    vertex += 1;
                    edit
                })
                .collect();
            let back = decode(&encode(&edits), vertex as usize).unwrap();
            prop_assert_eq!(back.len(), edits.len());
            for ((v, pairs), (w, expected)) in back.iter().zip(&edits) {
                prop_assert_eq!(v, w);
                let bits = |p: &[(u32, f32)]| p.iter().map(|&(b, x)| (b, x.to_bits())).collect::<Vec<_>>();
                prop_assert_eq!(bits(pairs), bits(expected));
            }
        }

        /// Any bytes decode to edits or a named error, never a panic.
        #[test]
        fn any_bytes_are_read_or_refused(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            let _ = decode(&bytes, 1000);
        }
    }

    #[test]
    fn a_vertex_past_the_mesh_and_a_cut_are_named() {
        let bytes = encode(&[(3, vec![(1, 0.5)]), (9, vec![])]);
        assert_eq!(
            decode(&bytes, 9),
            Err(WeightEditsError::Vertex {
                vertex: 9,
                vertices: 9
            })
        );
        assert_eq!(
            decode(&bytes[..bytes.len() - 3], 10),
            Err(WeightEditsError::Truncated { edits: 0 })
        );
        assert_eq!(
            decode(&[2], 10),
            Err(WeightEditsError::Version { found: 2 })
        );
        assert_eq!(
            decode(&[1, 0, 5], 10),
            Err(WeightEditsError::Pairs {
                vertex: 0,
                pairs: 5
            })
        );
    }
}
