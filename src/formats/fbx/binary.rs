//! The binary encoding: a 27-byte header (`Kaydara FBX Binary  \0`,
//! `0x1A`, a byte that is 0 for little-endian numbers and 1 for big-endian
//! ones, as old Maya on PowerPC wrote them, a `u32` version), then node
//! records. A record starts with its end offset, property count and
//! property bytes (`u32` each before version 7500, `u64` from 7500 on) and
//! its name's length (`u8`); then the properties, then child records,
//! closed by a record of zeros (an end offset of 0: no child records, as
//! some writers leave it). An array property (`f d l i b`) is a count, an encoding (0 raw,
//! 1 zlib) and a byte length; every count is checked against the bytes
//! there and the memory budget before anything is allocated, and a
//! compressed array inflates to at most the size its count declares.

use super::tree::{Node, NodePath, SiblingCounter, Value};
use super::{Budget, FbxError, MAX_DEPTH};

/// The magic text a binary file starts with.
pub const MAGIC: &[u8] = b"Kaydara FBX Binary  \0";

/// The header's length: magic, `0x1A 0x00`, version.
const HEADER: usize = 27;

/// The file's version (7400 for FBX 7.4) from its header.
pub fn version(bytes: &[u8]) -> Option<u32> {
    let v = bytes.get(23..27)?;
    let v = [v[0], v[1], v[2], v[3]];
    Some(if big_endian(bytes) {
        u32::from_be_bytes(v)
    } else {
        u32::from_le_bytes(v)
    })
}

/// Whether the header says the file's numbers are big-endian.
fn big_endian(bytes: &[u8]) -> bool {
    bytes.get(22).is_some_and(|&b| b != 0)
}

/// Parses a binary file's top-level nodes.
pub fn parse(bytes: &[u8], budget: &mut Budget) -> Result<Vec<Node>, FbxError> {
    let version = version(bytes).ok_or(FbxError::Truncated {
        path: "header".to_owned(),
        offset: bytes.len(),
    })?;
    let mut reader = Reader {
        bytes,
        pos: HEADER,
        wide: version >= 7500,
        big: big_endian(bytes),
        budget,
    };
    let mut nodes = Vec::new();
    let mut siblings = SiblingCounter::default();
    let top = NodePath::default();
    // The top level ends with a zero record, after which a footer follows;
    // some writers leave the record out and end at the footer.
    while reader.pos + reader.record_header() <= bytes.len() {
        match reader.node(&top, &mut siblings, 0)? {
            Some(node) => nodes.push(node),
            None => break,
        }
    }
    if nodes.is_empty() {
        // Not even one whole record: the file was cut short.
        return Err(FbxError::Truncated {
            path: "(top)".to_owned(),
            offset: bytes.len(),
        });
    }
    Ok(nodes)
}

struct Reader<'a, 'b> {
    bytes: &'a [u8],
    pos: usize,
    /// 64-bit record fields (version 7500 and later).
    wide: bool,
    /// Big-endian numbers.
    big: bool,
    budget: &'b mut Budget,
}

impl Reader<'_, '_> {
    fn record_header(&self) -> usize {
        if self.wide {
            25
        } else {
            13
        }
    }

    fn take(&mut self, count: usize, path: &NodePath) -> Result<&[u8], FbxError> {
        let end = self
            .pos
            .checked_add(count)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| FbxError::Truncated {
                path: path.to_string(),
                offset: self.pos,
            })?;
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn u8(&mut self, path: &NodePath) -> Result<u8, FbxError> {
        Ok(self.take(1, path)?[0])
    }

    fn u32(&mut self, path: &NodePath) -> Result<u32, FbxError> {
        let big = self.big;
        let b = self.take(4, path)?;
        let b = [b[0], b[1], b[2], b[3]];
        Ok(if big {
            u32::from_be_bytes(b)
        } else {
            u32::from_le_bytes(b)
        })
    }

    fn u64(&mut self, path: &NodePath) -> Result<u64, FbxError> {
        let big = self.big;
        let b = self.take(8, path)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(if big {
            u64::from_be_bytes(a)
        } else {
            u64::from_le_bytes(a)
        })
    }

    /// A record field: `u32` or `u64` by version, as a `usize`.
    fn field(&mut self, path: &NodePath) -> Result<usize, FbxError> {
        let value = if self.wide {
            self.u64(path)?
        } else {
            u64::from(self.u32(path)?)
        };
        usize::try_from(value).map_err(|_| FbxError::Malformed {
            path: path.to_string(),
            problem: format!("a record length of {value} bytes"),
        })
    }

    /// One node record, or `None` at a closing zero record.
    ///
    /// Longer than a screen: one node record as the binary format lays it out
    /// (its header, its properties, its nested records and the closing record),
    /// each count and offset checked against the bytes there before anything is
    /// read or reserved.
    fn node(
        &mut self,
        parent: &NodePath,
        siblings: &mut SiblingCounter,
        depth: usize,
    ) -> Result<Option<Node>, FbxError> {
        let start = self.pos;
        let end = self.field(parent)?;
        let prop_count = self.field(parent)?;
        let prop_bytes = self.field(parent)?;
        let name_len = usize::from(self.u8(parent)?);
        if end == 0 && prop_count == 0 && prop_bytes == 0 && name_len == 0 {
            return Ok(None);
        }
        let name = String::from_utf8_lossy(self.take(name_len, parent)?).into_owned();
        let path = parent.with(&name, siblings.next(&name));
        if depth >= MAX_DEPTH {
            return Err(FbxError::TooDeep {
                path: path.to_string(),
                max: MAX_DEPTH,
            });
        }
        // An end of 0 (as some exporters write it, ufbx's `maya_zero_end`):
        // the record ends with its properties and holds no records.
        let open_end = end == 0;
        let end = if open_end {
            self.pos.saturating_add(prop_bytes)
        } else {
            end
        };
        if end <= start || end > self.bytes.len() {
            return Err(FbxError::Malformed {
                path: path.to_string(),
                problem: format!(
                    "the record ends at byte {end}, outside {start}..{}",
                    self.bytes.len()
                ),
            });
        }
        let props_end = self
            .pos
            .checked_add(prop_bytes)
            .filter(|&e| e <= end)
            .ok_or_else(|| FbxError::Malformed {
                path: path.to_string(),
                problem: format!("{prop_bytes} bytes of properties do not fit in the record"),
            })?;
        // Each property takes at least two bytes, so the count is bounded
        // by the bytes there before anything is reserved.
        if prop_count > prop_bytes / 2 + 1 {
            return Err(FbxError::Malformed {
                path: path.to_string(),
                problem: format!("{prop_count} properties in {prop_bytes} bytes"),
            });
        }
        let mut props = Vec::with_capacity(prop_count);
        for _ in 0..prop_count {
            props.push(self.property(&path, props_end)?);
        }
        if self.pos != props_end {
            return Err(FbxError::Malformed {
                path: path.to_string(),
                problem: format!(
                    "the properties take {} bytes, not the {prop_bytes} declared",
                    self.pos - (props_end - prop_bytes)
                ),
            });
        }
        self.budget.charge(64, &path)?;
        let mut children = Vec::new();
        let mut child_siblings = SiblingCounter::default();
        while self.pos < end {
            match self.node(&path, &mut child_siblings, depth + 1)? {
                Some(child) => children.push(child),
                None => break,
            }
        }
        if self.pos != end {
            return Err(FbxError::Malformed {
                path: path.to_string(),
                problem: format!("the children end at byte {}, not {end}", self.pos),
            });
        }
        Ok(Some(Node {
            name,
            props,
            children,
        }))
    }

    fn property(&mut self, path: &NodePath, limit: usize) -> Result<Value, FbxError> {
        if self.pos >= limit {
            return Err(FbxError::Truncated {
                path: path.to_string(),
                offset: self.pos,
            });
        }
        let code = self.u8(path)?;
        Ok(match code {
            b'Y' => {
                let big = self.big;
                let b = self.take(2, path)?;
                let b = if big { [b[1], b[0]] } else { [b[0], b[1]] };
                Value::Int(i64::from(i16::from_le_bytes(b)))
            }
            b'C' => Value::Bool(self.u8(path)? != 0),
            // One byte as a number (Maya writes `Z` in its audio's templates).
            b'B' | b'Z' => Value::Int(i64::from(self.u8(path)?)),
            b'I' => Value::Int(i64::from(self.u32(path)? as i32)),
            b'L' => Value::Int(self.u64(path)? as i64),
            b'F' => Value::Real(f64::from(f32::from_bits(self.u32(path)?))),
            b'D' => Value::Real(f64::from_bits(self.u64(path)?)),
            b'S' | b'R' => {
                let len = self.u32(path)? as usize;
                self.budget.charge(len, path)?;
                let bytes = self.take(len, path)?;
                if code == b'S' {
                    Value::Text(String::from_utf8_lossy(bytes).into_owned())
                } else {
                    Value::Raw(bytes.to_vec())
                }
            }
            b'f' | b'd' | b'l' | b'i' | b'b' | b'c' => self.array(code, path)?,
            other => {
                return Err(FbxError::Malformed {
                    path: path.to_string(),
                    problem: format!("unknown property type {:?}", char::from(other)),
                })
            }
        })
    }

    fn array(&mut self, code: u8, path: &NodePath) -> Result<Value, FbxError> {
        let count = self.u32(path)? as usize;
        let encoding = self.u32(path)?;
        let stored = self.u32(path)? as usize;
        let size = match code {
            b'f' | b'i' => 4,
            b'd' | b'l' => 8,
            _ => 1,
        };
        let raw_len = count
            .checked_mul(size)
            .ok_or_else(|| FbxError::OverBudget {
                path: path.to_string(),
                bytes: usize::MAX,
                max: super::MAX_DECODED_BYTES,
            })?;
        // The decoded values are kept as 8-byte numbers.
        self.budget
            .charge(count.saturating_mul(8).max(raw_len), path)?;
        let big = self.big;
        let data = self.take(stored, path)?;
        let raw: std::borrow::Cow<[u8]> = match encoding {
            0 if stored == raw_len => data.into(),
            0 => {
                return Err(FbxError::Malformed {
                    path: path.to_string(),
                    problem: format!("an array of {count} values stored in {stored} bytes"),
                })
            }
            1 => {
                // Inflated to at most the size the count declares, so a
                // small array cannot expand past what the budget allowed.
                let inflated =
                    miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(data, raw_len)
                        .map_err(|e| FbxError::Inflate {
                            path: path.to_string(),
                            problem: format!("{:?}", e.status),
                        })?;
                if inflated.len() != raw_len {
                    return Err(FbxError::Inflate {
                        path: path.to_string(),
                        problem: format!(
                            "{} bytes inflated where {count} values need {raw_len}",
                            inflated.len()
                        ),
                    });
                }
                inflated.into()
            }
            other => {
                return Err(FbxError::Malformed {
                    path: path.to_string(),
                    problem: format!("array encoding {other} (0 or 1)"),
                })
            }
        };
        // A big-endian file's values, each turned little-endian.
        let raw: std::borrow::Cow<[u8]> = if big && size > 1 {
            let mut owned = raw.into_owned();
            owned.chunks_exact_mut(size).for_each(<[u8]>::reverse);
            owned.into()
        } else {
            raw
        };
        Ok(match code {
            b'f' => Value::Reals(
                words(&raw)
                    .map(|w| f64::from(f32::from_le_bytes(w)))
                    .collect(),
            ),
            b'd' => Value::Reals(words(&raw).map(f64::from_le_bytes).collect()),
            b'i' => Value::Ints(
                words(&raw)
                    .map(|w| i64::from(i32::from_le_bytes(w)))
                    .collect(),
            ),
            b'l' => Value::Ints(words(&raw).map(i64::from_le_bytes).collect()),
            _ => Value::Ints(raw.iter().map(|&b| i64::from(b)).collect()),
        })
    }
}

/// `raw` as consecutive `N`-byte words (the array's values, little-endian);
/// the array's length was checked to be a whole number of them.
fn words<const N: usize>(raw: &[u8]) -> impl Iterator<Item = [u8; N]> + '_ {
    raw.chunks_exact(N)
        .map(|word| word.try_into().unwrap_or([0; N]))
}
