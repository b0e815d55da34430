//! The folders of `src/` are layers: each imports only from the layers
//! before it, and the core never touches the browser. Read from the sources,
//! so a stray `use` fails here rather than in review.

use std::fs;
use std::path::Path;

/// Lowest first.
const LAYERS: [&str; 10] = [
    "rig", "skin", "weights", "scene", "formats", "examples", "lab", "view", "render", "web",
];
/// The layers that must build and test natively.
const CORE: [&str; 8] = [
    "rig", "skin", "weights", "scene", "formats", "examples", "lab", "view",
];

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

/// The module path of a source file below `src/`: `src/formats/gltf/material.rs`
/// is `formats::gltf::material`, `src/formats/mod.rs` is `formats`.
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

/// `text` with comments, string and character literals blanked to spaces,
/// so that braces and paths inside them are not read as code.
fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut k = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    while k < bytes.len() {
        let rest = &bytes[k..];
        if rest.starts_with(b"//") {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |e| k + e);
            blank(&mut out, k, end);
            k = end;
        } else if rest.starts_with(b"/*") {
            let end = text[k + 2..]
                .find("*/")
                .map_or(bytes.len(), |e| k + 2 + e + 2);
            blank(&mut out, k, end);
            k = end;
        } else if rest.starts_with(b"r#") || rest.starts_with(b"r\"") {
            let hashes = rest[1..].iter().take_while(|&&b| b == b'#').count();
            let close = format!("\"{}", "#".repeat(hashes));
            let open = 1 + hashes + 1;
            let end = text[k + open..]
                .find(&close)
                .map_or(bytes.len(), |e| k + open + e + close.len());
            blank(&mut out, k, end);
            k = end;
        } else if rest[0] == b'"' {
            let mut end = k + 1;
            while end < bytes.len() && bytes[end] != b'"' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            let end = (end + 1).min(bytes.len());
            blank(&mut out, k, end);
            k = end;
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '{'), not a lifetime ('a).
            let len = if rest.get(1) == Some(&b'\\') {
                rest[2..].iter().position(|&b| b == b'\'').map(|e| e + 3)
            } else {
                let ch = text[k + 1..].chars().next().map_or(1, char::len_utf8);
                (rest.get(1 + ch) == Some(&b'\'')).then_some(ch + 2)
            };
            let end = k + len.unwrap_or(1);
            if len.is_some() {
                blank(&mut out, k, end);
            }
            k = end;
        } else {
            k += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The path that starts `text`, as segments, with a `{…}` group expanded:
/// `a::{b, c::{d, e}}` is `[a, b]`, `[a, c, d]`, `[a, c, e]`.
fn use_tree(text: &str) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    let mut rest = text.trim_start();
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let mut trees = Vec::new();
            let mut depth = 0;
            let mut start = 0;
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        trees.extend(use_tree(&group[start..k]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        trees.extend(use_tree(&group[start..k]));
                        start = k + 1;
                    }
                    _ => {}
                }
            }
            return trees
                .into_iter()
                .filter(|t| !t.is_empty())
                .map(|t| prefix.iter().cloned().chain(t).collect())
                .collect();
        }
        let name = ident(rest);
        if name.is_empty() {
            return vec![prefix];
        }
        prefix.push(name.to_owned());
        rest = &rest[name.len()..];
        match rest.trim_start().strip_prefix("::") {
            Some(next) => rest = next.trim_start(),
            None => return vec![prefix],
        }
    }
}

/// Every module path a file's code names through `crate::`, `self::` or
/// `super::`, made absolute from where it stands: the file's module path
/// plus any inline `mod name { … }` around it.
fn absolute_paths(text: &str, file_module: &[String]) -> Vec<(Vec<String>, Vec<String>)> {
    let code = code_only(text);
    let bytes = code.as_bytes();
    // The inline modules open at each brace depth.
    let mut inline: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    let mut found = Vec::new();
    let mut k = 0;
    let word_start = |k: usize| {
        k == 0
            || !(bytes[k - 1].is_ascii_alphanumeric()
                || bytes[k - 1] == b'_'
                || bytes[k - 1] == b':')
    };
    while k < bytes.len() {
        match bytes[k] {
            b'{' => {
                depth += 1;
                k += 1;
                continue;
            }
            b'}' => {
                if inline.last().is_some_and(|(d, _)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                k += 1;
                continue;
            }
            _ => {}
        }
        let rest = &code[k..];
        if word_start(k) && rest.starts_with("mod ") {
            let name = ident(rest["mod ".len()..].trim_start());
            let after = rest["mod ".len()..].trim_start()[name.len()..].trim_start();
            if after.starts_with('{') {
                inline.push((depth + 1, name.to_owned()));
            }
        }
        let here: Vec<String> = file_module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(_, n)| n.clone()))
            .collect();
        let mut base = None;
        let mut tail = rest;
        if word_start(k) && rest.starts_with("crate::") {
            base = Some(Vec::new());
            tail = &rest["crate::".len()..];
        } else if word_start(k) && rest.starts_with("self::") {
            base = Some(here.clone());
            tail = &rest["self::".len()..];
        } else if word_start(k) && rest.starts_with("super::") {
            let mut up = here.clone();
            while let Some(next) = tail.strip_prefix("super::") {
                up.pop();
                tail = next;
            }
            base = Some(up);
        }
        if let Some(base) = base {
            for path in use_tree(tail) {
                found.push((here.clone(), base.iter().cloned().chain(path).collect()));
            }
            k += rest.len() - tail.len();
        } else {
            k += 1;
        }
    }
    found
}

/// The modules of one folder that import each other in a circle: for each
/// folder of `src/`, the strongly connected parts (more than one module) of
/// the graph "a sibling names a sibling".
fn folder_cycles(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    sources(root, &mut files);
    let modules: std::collections::BTreeSet<Vec<String>> = files
        .iter()
        .map(|(path, _)| module_of(root, path))
        .collect();
    // folder → (module → modules it names)
    let mut graphs: std::collections::BTreeMap<
        Vec<String>,
        std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
    > = Default::default();
    for (path, text) in &files {
        for (from, to) in absolute_paths(text, &module_of(root, path)) {
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if from.len() <= common || to.len() <= common {
                continue;
            }
            let sibling: Vec<String> = to[..=common].to_vec();
            if !modules.contains(&sibling) {
                continue;
            }
            graphs
                .entry(from[..common].to_vec())
                .or_default()
                .entry(from[common].clone())
                .or_default()
                .insert(to[common].clone());
        }
    }
    let mut cycles = Vec::new();
    for (folder, graph) in &graphs {
        let names: Vec<&String> = graph.keys().collect();
        let reaches = |from: &String, to: &String| {
            let mut seen = std::collections::BTreeSet::new();
            let mut stack = vec![from];
            while let Some(at) = stack.pop() {
                for next in graph.get(at).into_iter().flatten() {
                    if next == to {
                        return true;
                    }
                    if seen.insert(next) {
                        stack.push(next);
                    }
                }
            }
            false
        };
        let mut placed = std::collections::BTreeSet::new();
        for a in &names {
            if placed.contains(a) || !reaches(a, a) {
                continue;
            }
            let part: Vec<&String> = names
                .iter()
                .copied()
                .filter(|b| *b == *a || (reaches(a, b) && reaches(b, a)))
                .collect();
            placed.extend(part.iter().copied());
            let folder = if folder.is_empty() {
                "src".to_owned()
            } else {
                format!("src/{}", folder.join("/"))
            };
            let joined: Vec<&str> = part.iter().map(|s| s.as_str()).collect();
            cycles.push(format!("{folder}: {}", joined.join(" ↔ ")));
        }
    }
    cycles
}

#[test]
fn the_cycle_reader_sees_paths_groups_and_inline_modules() {
    let module = vec!["io".to_owned(), "clips".to_owned()];
    let text = "use crate::io::{scene::Doc, gltf};\n\
                // use super::ignored;\n\
                let s = \"super::ignored\";\n\
                fn f() { super::flip::go(); let c = '{'; }\n\
                mod tests { use super::*; use super::super::robot; }";
    let mut targets: Vec<String> = absolute_paths(text, &module)
        .into_iter()
        .map(|(_, to)| to.join("::"))
        .collect();
    targets.sort_unstable();
    assert_eq!(
        targets,
        [
            "io::clips",
            "io::flip::go",
            "io::gltf",
            "io::robot",
            "io::scene::Doc"
        ]
    );
}

#[test]
fn no_folder_imports_itself_in_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let cycles = folder_cycles(&root);
    assert!(
        cycles.is_empty(),
        "modules of one folder that import each other in a circle:\n{}",
        cycles.join("\n")
    );
}
