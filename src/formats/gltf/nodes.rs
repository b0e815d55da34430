//! The node hierarchy: parents, rest transforms, loops, and the meshes of
//! the default scene.

use glam::Mat4;

use super::document::Document;

/// Each node's global transform at rest, `G_n = G_parent · L_n`.
pub(super) fn node_globals(document: &Document, node_parent: &[Option<usize>]) -> Vec<Mat4> {
    let mut globals: Vec<Option<Mat4>> = vec![None; document.nodes.len()];
    let mut path = Vec::new();
    for start in 0..document.nodes.len() {
        let mut current = Some(start);
        while let Some(node) = current {
            if globals[node].is_some() {
                break;
            }
            path.push(node);
            current = node_parent[node];
        }
        while let Some(node) = path.pop() {
            let parent = node_parent[node]
                .and_then(|p| globals[p])
                .unwrap_or(Mat4::IDENTITY);
            globals[node] = Some(parent * document.nodes[node].local());
        }
    }
    globals
        .into_iter()
        .map(|g| g.unwrap_or(Mat4::IDENTITY))
        .collect()
}

/// The nodes with a mesh in the file's default scene (its `scene`, else
/// its first), parents before children; every node with a mesh when the
/// file has no scenes.
pub(super) fn shown_mesh_nodes(document: &Document, node_parent: &[Option<usize>]) -> Vec<usize> {
    let roots: Vec<usize> = match document.scenes.get(document.scene.unwrap_or(0)) {
        Some(scene) => scene.nodes.clone(),
        None => (0..document.nodes.len())
            .filter(|&n| node_parent[n].is_none())
            .collect(),
    };
    let mut seen = vec![false; document.nodes.len()];
    let mut out = Vec::new();
    let mut stack: Vec<usize> = roots.into_iter().rev().collect();
    while let Some(node) = stack.pop() {
        let Some(slot) = seen.get_mut(node) else {
            continue;
        };
        if std::mem::replace(slot, true) {
            continue;
        }
        let this = &document.nodes[node];
        if this.mesh.is_some() {
            out.push(node);
        }
        stack.extend(this.children.iter().rev());
    }
    out
}

/// A node that is its own ancestor, if the parent links have a loop; each
/// node is walked once, so ten thousand nested nodes cost ten thousand
/// steps.
pub(super) fn first_on_a_cycle(node_parent: &[Option<usize>]) -> Option<usize> {
    const UNSEEN: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![UNSEEN; node_parent.len()];
    let mut path = Vec::new();
    for start in 0..node_parent.len() {
        let mut current = Some(start);
        while let Some(node) = current {
            match state[node] {
                DONE => break,
                ON_PATH => return Some(node),
                _ => {}
            }
            state[node] = ON_PATH;
            path.push(node);
            current = node_parent[node];
        }
        for node in path.drain(..) {
            state[node] = DONE;
        }
    }
    None
}
