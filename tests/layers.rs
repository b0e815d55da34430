//! The folders of `src/` are layers: each imports only from the layers
//! before it, and the core never touches the browser. Read from the sources,
//! so a stray `use` fails here rather than in review.

use std::fs;
use std::path::Path;

/// Lowest first.
const LAYERS: [&str; 9] = [
    "rig", "skin", "weights", "scene", "io", "lab", "view", "render", "web",
];
/// The layers that must build and test natively.
const CORE: [&str; 7] = ["rig", "skin", "weights", "scene", "io", "lab", "view"];

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

/// The identifier at the start of `text`.
fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The first path segment of each item of a `{a::b, c, d::{e, f}}` group
/// that starts `text` (after the `{`).
fn group_heads(text: &str) -> Vec<&str> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut at_item = true;
    for (k, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => at_item = true,
            c if c.is_whitespace() => {}
            _ if at_item && depth == 0 => {
                heads.push(ident(&text[k..]));
                at_item = false;
            }
            _ => {}
        }
    }
    heads
}

/// Every top-level module named by `crate::NAME`, `crate::{NAME, …}` or by
/// enough `super::` to climb out of `module` (the file's module path,
/// e.g. `["io", "gltf", "material"]`) to the crate root.
fn crate_paths<'a>(text: &'a str, module: &[String]) -> Vec<&'a str> {
    let mut names = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        match rest.strip_prefix('{') {
            Some(group) => names.extend(group_heads(group)),
            None => names.push(ident(rest)),
        }
    }
    for (at, _) in text.match_indices("super::") {
        // Only the first `super` of a chain.
        if text[..at].ends_with("super::") {
            continue;
        }
        let mut rest = &text[at..];
        let mut depth = module.len();
        while let Some(next) = rest.strip_prefix("super::") {
            rest = next;
            depth = depth.saturating_sub(1);
        }
        if depth == 0 {
            match rest.strip_prefix('{') {
                Some(group) => names.extend(group_heads(group)),
                None => names.push(ident(rest)),
            }
        }
    }
    names
}

/// The module path of a source file below `src/`: `src/io/gltf/material.rs`
/// is `io::gltf::material`, `src/io/mod.rs` is `io`.
fn module_of(root: &Path, path: &str) -> Vec<String> {
    let relative = Path::new(path)
        .strip_prefix(root)
        .expect("a file below src/");
    let mut parts: Vec<String> = relative
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

#[test]
fn the_import_reader_sees_every_form() {
    let module = vec!["skin".to_owned(), "mesh".to_owned()];
    let text = "use crate::{lab::Lab, rig::{pose, skeleton}};\nuse super::super::io::x;\nuse super::dual_quat;\nlet a = crate::view::thing;";
    let mut found = crate_paths(text, &module);
    found.sort_unstable();
    assert_eq!(found, ["io", "lab", "rig", "view"]);
    let root_module = vec!["lab".to_owned()];
    assert_eq!(
        crate_paths("use super::{web, rig::x};", &root_module),
        ["web", "rig"]
    );
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
            for name in crate_paths(text, &module_of(&root, path)) {
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
