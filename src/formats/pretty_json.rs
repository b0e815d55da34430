//! Indents compact JSON the way `serde_json::to_string_pretty` does.
//!
//! The scene is serialised once, compactly; the pretty text a person
//! downloads is this re-indentation of it. Serialising twice (compact and
//! pretty) compiled every `Serialize` of the scene twice, once per
//! formatter: 6 KB of the wasm's gzip size, for a loop over bytes here.

/// `compact` (serde_json's compact output: no white space outside strings)
/// with two-space indentation, one element or member per line, `": "`
/// after keys, and `[]` / `{}` for empty containers: the same text
/// `serde_json::to_string_pretty` writes for the same value.
pub fn indent(compact: &str) -> String {
    let bytes = compact.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(compact.len() * 2);
    let mut depth = 0_usize;
    let newline = |out: &mut Vec<u8>, depth: usize| {
        out.push(b'\n');
        out.resize(out.len() + 2 * depth, b' ');
    };
    let mut k = 0;
    while k < bytes.len() {
        let byte = bytes[k];
        match byte {
            b'"' => {
                let start = k;
                k += 1;
                while k < bytes.len() && bytes[k] != b'"' {
                    k += if bytes[k] == b'\\' { 2 } else { 1 };
                }
                out.extend_from_slice(&bytes[start..(k + 1).min(bytes.len())]);
            }
            b'{' | b'[' => {
                let close = if byte == b'{' { b'}' } else { b']' };
                out.push(byte);
                if bytes.get(k + 1) == Some(&close) {
                    out.push(close);
                    k += 1;
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(byte);
            }
            b',' => {
                out.push(b',');
                newline(&mut out, depth);
            }
            b':' => out.extend_from_slice(b": "),
            _ => out.push(byte),
        }
        k += 1;
    }
    // Only ASCII bytes were added and strings were copied whole.
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn indents_as_serde_json_does() {
        let value = json!({
            "bones": [{"name": "a \"quoted\", {bracketed} [name]: é", "parent": null, "origin": [0.0, 1.5, -2e-7]}],
            "empty": [], "none": {}, "nested": [[], [[1, 2], {}], {"k": [true, false]}],
            "text": "back\\slash\n", "number": 3
        });
        let compact = serde_json::to_string(&value).unwrap();
        assert_eq!(
            indent(&compact),
            serde_json::to_string_pretty(&value).unwrap()
        );
    }

    #[test]
    fn scalars_and_empty_text_pass_through() {
        assert_eq!(indent(""), "");
        assert_eq!(indent("12"), "12");
        assert_eq!(indent("\"a,b\""), "\"a,b\"");
    }
}
