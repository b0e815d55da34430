//! Where the memory of the 1,000,000-vertex `million` example goes,
//! natively, by a counting allocator: the peak while each step runs and
//! what stays allocated after it. The wasm's linear memory never shrinks,
//! so the page's figure (`cargo xtask bench`: `million_memory_mib`) is the
//! highest peak plus the allocator's slack and what the page itself adds
//! (the renderer's upload arrays, the link's and autosave's copies).
#![allow(clippy::unwrap_used, missing_docs, unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use skinlab::skin::gpu_layout::{joint_indices, joint_weights};
use skinlab::{Lab, SkinningMethod};

/// The system allocator, counting live bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; only
// the byte counts are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: as the caller's contract for `GlobalAlloc::alloc`.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` was allocated by `alloc` above with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let live = if new_size >= layout.size() {
            LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size - layout.size()
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed) - (layout.size() - new_size)
        };
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: as the caller's contract for `GlobalAlloc::realloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const MIB: f64 = (1 << 20) as f64;

/// Runs `step`, printing its peak and what stays allocated after it.
fn measure<T>(name: &str, key: &str, step: impl FnOnce() -> T) -> T {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let result = step();
    let peak = PEAK.load(Ordering::Relaxed);
    let after = LIVE.load(Ordering::Relaxed);
    println!(
        "{name:<44} peak {:>6.0} MiB, live after {:>6.0} MiB",
        peak as f64 / MIB,
        after as f64 / MIB
    );
    println!("BENCH memory_{key}_peak_mib={:.0}", peak as f64 / MIB);
    println!("BENCH memory_{key}_live_mib={:.0}", after as f64 / MIB);
    result
}

fn main() {
    let lab = measure("million: build the example (Lab::example)", "build", || {
        Lab::example("million").unwrap()
    });
    println!(
        "  {} vertices, {} bones",
        lab.vertex_count(),
        lab.bone_count()
    );
    measure("first LBS skinning (positions and normals)", "skin", || {
        lab.skinned_positions(SkinningMethod::Lbs).len()
    });
    let influences = lab.scene().influences.clone();
    measure("the renderer's joint and weight arrays", "upload", || {
        (joint_indices(&influences), joint_weights(&influences))
    });
    measure("the scene JSON (autosave, compact)", "json", || {
        lab.scene().to_json_compact().len()
    });
}
