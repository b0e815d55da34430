//! The folders of `src/` are layers: each imports only from the layers
//! before it, and the core never touches the browser. Read from the sources,
//! so a stray `use` fails here rather than in review.

use std::fs;
use std::path::Path;

/// Lowest first.
const LAYERS: [&str; 8] = [
    "rig", "skin", "weights", "io", "lab", "view", "render", "web",
];
/// The layers that must build and test natively.
const CORE: [&str; 6] = ["rig", "skin", "weights", "io", "lab", "view"];

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = fs::read_to_string(&path).expect("a readable source file");
            out.push((path.display().to_string(), text));
        }
    }
}

/// Every `crate::NAME` in `text`.
fn crate_paths(text: &str) -> Vec<&str> {
    text.match_indices("crate::")
        .map(|(at, _)| {
            let rest = &text[at + "crate::".len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

#[test]
fn no_layer_imports_a_higher_one() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = Vec::new();
    for (rank, layer) in LAYERS.iter().enumerate() {
        let mut files = Vec::new();
        sources(&root.join(layer), &mut files);
        assert!(!files.is_empty(), "src/{layer}/ holds no sources");
        for (path, text) in &files {
            for name in crate_paths(text) {
                if let Some(used) = LAYERS.iter().position(|l| *l == name) {
                    if used > rank {
                        problems.push(format!("{path} uses crate::{name}"));
                    }
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "imports upwards:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_core_never_touches_the_browser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = Vec::new();
    for layer in CORE {
        let mut files = Vec::new();
        sources(&root.join(layer), &mut files);
        for (path, text) in &files {
            for banned in ["glow::", "web_sys", "wasm_bindgen", "js_sys"] {
                if text.contains(banned) {
                    problems.push(format!("{path} mentions {banned}"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_source_file_lives_in_a_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in fs::read_dir(&root).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        assert!(
            name == "lib.rs" || (path.is_dir() && LAYERS.contains(&name)),
            "src/{name} is outside the layers {LAYERS:?}"
        );
    }
}
