//! Where in a JSON document a parse error happened, as a path.
//!
//! serde_json says *where* (line and column) and *what* ("invalid length
//! 2, expected 3"); a person editing a scene wants the field:
//! `bones[1].origin`. This scanner walks the text up to the error's
//! position, keeping one frame per open object (its current key) or array
//! (its current index), and names the value the position is in or has just
//! ended. It replaces tracking the path during deserialization, which cost
//! a copy of every visitor (about 24 KB of the wasm's gzip size) for a path
//! read only when a document is refused.

/// One open container while scanning.
enum Frame {
    /// An object and the key whose value is being read, once seen.
    Object(Option<String>),
    /// An array and the index of its current element, once one started.
    Array(Option<usize>),
}

/// The path (`bones[1].origin`, `influences[2][0][0]`) to the value at
/// `line` and `column` (1-based, as serde_json counts them) of `text`;
/// empty at the top level.
pub fn path_at(text: &str, line: usize, column: usize) -> String {
    let offset = byte_offset(text, line, column);
    let bytes = &text.as_bytes()[..offset];
    let mut stack: Vec<Frame> = Vec::new();
    let mut k = 0;
    while k < bytes.len() {
        match bytes[k] {
            b'{' => {
                start_value(&mut stack);
                stack.push(Frame::Object(None));
            }
            b'[' => {
                start_value(&mut stack);
                stack.push(Frame::Array(None));
            }
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object(key)) => *key = None,
                Some(Frame::Array(Some(index))) => *index += 1,
                _ => {}
            },
            b'"' => {
                let end = string_end(bytes, k + 1);
                if let Some(Frame::Object(key @ None)) = stack.last_mut() {
                    *key = Some(String::from_utf8_lossy(&bytes[k + 1..end]).into_owned());
                } else {
                    start_value(&mut stack);
                }
                k = end;
            }
            b' ' | b'\t' | b'\n' | b'\r' | b':' => {}
            _ => start_value(&mut stack),
        }
        k += 1;
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object(Some(key)) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Frame::Array(Some(index)) => path.push_str(&format!("[{index}]")),
            _ => {}
        }
    }
    path
}

/// Marks the innermost array as having a current element.
fn start_value(stack: &mut [Frame]) {
    if let Some(Frame::Array(index @ None)) = stack.last_mut() {
        *index = Some(0);
    }
}

/// The index of the quote closing the string whose text starts at `from`
/// (or the end of `bytes`), stepping over escapes.
fn string_end(bytes: &[u8], from: usize) -> usize {
    let mut k = from;
    while k < bytes.len() {
        match bytes[k] {
            b'\\' => k += 2,
            b'"' => return k,
            _ => k += 1,
        }
    }
    bytes.len()
}

/// The byte offset of 1-based `line` and `column` (a byte count within
/// the line), clamped to the text and to a character boundary.
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let line_start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(k, _)| k + 1)
    };
    let mut offset = (line_start + column).min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The path serde_json's own error position leads to.
    fn path_of_error<T: serde::de::DeserializeOwned + std::fmt::Debug>(text: &str) -> String {
        let error = serde_json::from_str::<T>(text).unwrap_err();
        path_at(text, error.line(), error.column())
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Bone {
        origin: [f32; 3],
        #[serde(default)]
        parent: Option<u16>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Doc {
        bones: Vec<Bone>,
        #[serde(default)]
        influences: Vec<Vec<(u16, f32)>>,
    }

    #[test]
    fn a_wrong_length_names_the_array() {
        let text = r#"{"bones": [{"origin": [0, 0, 0]}, {"origin": [0, 0]}]}"#;
        assert_eq!(path_of_error::<Doc>(text), "bones[1].origin");
    }

    #[test]
    fn a_wrong_number_names_its_element() {
        let text = "{\"bones\": [],\n \"influences\": [[[0, 1]], [], [[-1, 1]]]}";
        assert_eq!(path_of_error::<Doc>(text), "influences[2][0][0]");
    }

    #[test]
    fn a_wrong_type_names_the_field_across_lines() {
        let text = "{\n  \"bones\": [\n    {\"origin\": [0, 0, 0], \"parent\": \"x\"}\n  ]\n}";
        assert_eq!(path_of_error::<Doc>(text), "bones[0].parent");
    }

    #[test]
    fn strings_with_brackets_and_escapes_do_not_confuse_it() {
        let text = r#"{"a\"[{": [1, "]}", {"b": 2}]}"#;
        let at_two = text.find('2').unwrap();
        assert_eq!(path_at(text, 1, at_two + 1), "a\\\"[{[2].b");
    }

    #[test]
    fn the_top_level_is_the_empty_path() {
        assert_eq!(path_of_error::<Doc>("\"bones\""), "");
        // serde reads a struct from an array too: element 0 is `bones`.
        assert_eq!(path_of_error::<Doc>("[1, 2]"), "[0]");
        assert_eq!(path_at("", 1, 0), "");
        assert_eq!(path_at("{\"é\": 1}", 1, 3), "");
    }
}
