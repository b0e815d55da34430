//! The built-in scenes, shaped like the figures of the skinning note, behind
//! one table ([`EXAMPLES`]): the page's Example menu, its number keys,
//! `Lab.exampleNames()` and the tests all read it.
//!
//! Each example is built as a [`SceneDoc`] and validated like any loaded
//! file, so the examples exercise the same path as user scenes. One, the
//! motion capture, is a BVH file read as a dropped one is. Builds on
//! [`crate::scene`] and, for that one, [`crate::formats::bvh`].

mod builder;
mod face;
pub mod figures;
mod flip;
mod limbs;
mod mannequin;
mod motion;
mod robot;
mod tubes;

use crate::formats::bvh::{scene_from_bvh, BvhError};
use crate::scene::doc::SceneDoc;
use crate::scene::Scene;

pub use figures::{CHAIN_BONES, TUBE_JOINT_RING, TUBE_RADIUS, TUBE_RINGS, TUBE_SEGMENTS};

/// Where an example's scene comes from.
#[derive(Clone, Copy)]
pub enum Source {
    /// Built in code as a raw document.
    Built(fn() -> SceneDoc),
    /// The BVH motion capture shipped with the page ([`WALK_BVH`]); in the
    /// browser its reader lives in the readers' module, loaded when needed.
    /// The table names it without holding its text, so the page's module,
    /// which never reads it, does not carry its 31 KB.
    Capture,
    /// Built by the browser's second module (`converters/`): in the page's
    /// module the table holds no builder for it, so that module carries
    /// only the examples a first frame shows (see [`later`]).
    SecondModule,
}

/// One built-in scene.
#[derive(Clone, Copy)]
pub struct Example {
    /// Its name in `Lab.example(name)` and `?example=`.
    pub name: &'static str,
    /// Whether the Example menu and [`listed_names`] offer it: each listed
    /// example is saved, exported and reloaded by the tests.
    pub listed: bool,
    /// How it is made.
    pub source: Source,
}

const fn built(name: &'static str, build: fn() -> SceneDoc) -> Example {
    Example {
        name,
        listed: true,
        source: Source::Built(build),
    }
}

/// An example the page's wasm module leaves to the second module
/// (`converters/`, loaded when a file or such an example is first opened):
/// a builder there, as natively, and no builder in the page's module, so
/// its code stays out of what the first frame waits for. The lecture
/// notes' figures (`figures`) stay in the page's module.
const fn later(name: &'static str, build: fn() -> SceneDoc) -> Example {
    #[cfg(all(feature = "page", target_arch = "wasm32"))]
    let source = {
        let _ = build;
        Source::SecondModule
    };
    #[cfg(not(all(feature = "page", target_arch = "wasm32")))]
    let source = Source::Built(build);
    Example {
        name,
        listed: true,
        source,
    }
}

/// The motion capture the `capture` example reads (made by
/// `tests/support/walk-bvh.mjs`; see `www/models/Walk/SOURCE.md`).
pub const WALK_BVH: &str = include_str!("../../www/models/Walk/walk.bvh");

/// Every built-in scene, in the order the page lists and numbers them (the
/// number keys 1–9 open the first nine). `million` (the
/// `dense` tube with 1,000,000 vertices, for `cargo xtask bench` and
/// `?example=million`) is built but not listed.
pub const EXAMPLES: [Example; 19] = [
    built("two-bone", || figures::two_bone(false)),
    built("two-bone-smooth", || figures::two_bone(true)),
    built("y-junction", || figures::y_junction(true)),
    built("y-junction-unweighted", || figures::y_junction(false)),
    built("tube", figures::tube),
    built("chain", || figures::chain(CHAIN_BONES)),
    built("fingers", figures::fingers),
    later("leg", limbs::leg),
    later("arm", limbs::arm),
    later("face", face::face),
    later("walk", motion::walk),
    later("path", motion::path),
    built("dense", || figures::dense_tube(figures::DENSE_RINGS)),
    later("tail", tubes::tail),
    later("flip", flip::flip),
    Example {
        name: "capture",
        listed: true,
        source: Source::Capture,
    },
    later("robot", robot::robot),
    later("mannequin", mannequin::mannequin),
    Example {
        name: "million",
        listed: false,
        source: Source::Built(|| figures::dense_tube(figures::MILLION_RINGS)),
    },
];

/// The names the Example menu offers, in its order.
pub fn listed_names() -> Vec<&'static str> {
    EXAMPLES
        .iter()
        .filter(|example| example.listed)
        .map(|example| example.name)
        .collect()
}

/// The example called `name`.
pub fn find(name: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|example| example.name == name)
}

/// Builds the example called `name`, or `None` for an unknown name (and,
/// in the page's wasm module, for one the second module builds).
pub fn example(name: &str) -> Option<Scene> {
    match find(name)?.source {
        Source::Built(_) => built_example(name),
        Source::Capture => capture().ok(),
        Source::SecondModule => None,
    }
}

/// The motion capture example: a BVH file, read as any dropped one is.
pub fn capture() -> Result<Scene, BvhError> {
    scene_from_bvh(WALK_BVH)
}

/// Builds the example called `name` without reading a file; `None` for an
/// unknown name or one read from a file ([`Source::Capture`]).
pub fn built_example(name: &str) -> Option<Scene> {
    let Source::Built(build) = find(name)?.source else {
        return None;
    };
    // The examples are fixed data covered by tests; a failure here is a bug
    // in their builders, reported as "unknown" rather than a panic in the page.
    Scene::from_doc(&build()).ok()
}

/// Whether `name` is an example this build makes without the file
/// readers: one it builds in code (in the page's wasm module, those that
/// are not [`Source::SecondModule`]'s).
pub fn built_here(name: &str) -> bool {
    find(name).is_some_and(|example| matches!(example.source, Source::Built(_)))
}
#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn every_example_builds() {
        for name in listed_names() {
            let scene = example(name).unwrap_or_else(|| panic!("{name} builds"));
            assert!(scene.mesh.vertex_count() > 0, "{name}");
            assert!(
                scene.mesh.normals_model.iter().all(|n| n.z > 0.99)
                    || matches!(
                        name,
                        "tube" | "dense" | "tail" | "flip" | "capture" | "face" | "mannequin"
                    ),
                "{name}: flat examples face the viewer"
            );
        }
        assert!(example("no-such").is_none());
    }

    #[test]
    fn the_fork_is_shared_only_when_weighted() {
        let weighted = example("y-junction").unwrap();
        let unweighted = example("y-junction-unweighted").unwrap();
        let fork = fork_vertex(&weighted);
        assert_eq!(weighted.influences[fork].weight_of(1), 0.5);
        assert_eq!(weighted.influences[fork].weight_of(2), 0.5);
        assert_eq!(unweighted.influences[fork].weight_of(1), 1.0);
    }

    /// The fork: the vertex bound to a branch that lies on the Y axis.
    pub(crate) fn fork_vertex(scene: &Scene) -> usize {
        scene
            .mesh
            .positions_model
            .iter()
            .position(|p| p.x.abs() < 1e-6 && p.y > 2.0)
            .unwrap()
    }
}

#[cfg(test)]
mod million_tests {
    use super::*;

    #[test]
    fn the_million_tube_holds_the_most_a_scene_may() {
        let scene = example("million").unwrap();
        assert_eq!(scene.mesh.vertex_count(), crate::scene::MAX_VERTICES);
        assert!(!listed_names().contains(&"million"));
    }
}
