//! `cargo xtask fuzz [SECONDS]`: coverage-guided fuzzing (libFuzzer through
//! cargo-fuzz) of the scene JSON, `.gltf` and `.glb` readers, and of the
//! round trip load → save → reload (which must give the same save), each
//! for SECONDS under a 2 GiB memory cap (an over-budget allocation fails
//! the run), with a corpus seeded from the examples and the shipped models.
//! Not part of CI: it runs for as long as it is told.
//!
//! Crashes are copied to `tests/fuzz_regressions/TARGET/`, where
//! `tests/fuzz_regressions.rs` replays them on every `cargo test`.

use std::path::Path;
use std::process::Command;

use crate::{root, run};

const TARGETS: [&str; 4] = ["scene_json", "gltf", "glb", "roundtrip"];
const MODELS: [&str; 4] = ["SimpleSkin", "RiggedSimple", "RiggedFigure", "Fox"];

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// The examples' scene JSON and the models as `.gltf` and `.glb`.
fn seed_corpus() -> Result<(), String> {
    let corpus = root().join("fuzz/corpus");
    for target in TARGETS {
        std::fs::create_dir_all(corpus.join(target)).map_err(|e| format!("{target}: {e}"))?;
    }
    for name in skinlab::examples::listed_names() {
        let lab = skinlab::Lab::example(name).map_err(|e| e.to_string())?;
        for target in ["scene_json", "roundtrip"] {
            write(
                &corpus.join(format!("{target}/{name}.json")),
                lab.scene_json().as_bytes(),
            )?;
        }
    }
    for name in MODELS {
        let path = root().join(format!("www/models/{name}/{name}.gltf"));
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        write(&corpus.join(format!("gltf/{name}.gltf")), text.as_bytes())?;
        let glb = skinlab::formats::gltf::glb::glb_from_embedded_gltf(&text)
            .map_err(|e| e.to_string())?;
        write(&corpus.join(format!("glb/{name}.glb")), &glb)?;
        write(&corpus.join(format!("roundtrip/{name}.glb")), &glb)?;
    }
    Ok(())
}

fn ensure_cargo_fuzz() -> Result<(), String> {
    let present = Command::new("cargo")
        .args(["fuzz", "--version"])
        .output()
        .is_ok_and(|output| output.status.success());
    if present {
        return Ok(());
    }
    println!("installing cargo-fuzz (missing); this compiles for a minute or two");
    run("cargo", &["install", "cargo-fuzz", "--locked"])
        .or_else(|_| run("cargo", &["install", "cargo-fuzz"]))
}

/// "Done 123456 runs in 60 second(s)" from libFuzzer's last lines.
fn runs_done(log: &str) -> Option<u64> {
    log.lines().rev().find_map(|line| {
        line.strip_prefix("Done ")?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    })
}

/// Copies the fuzzer's crash inputs for `target` into the regression folder;
/// returns how many there were.
fn keep_crashes(target: &str) -> Result<usize, String> {
    let artifacts = root().join(format!("fuzz/artifacts/{target}"));
    let Ok(entries) = std::fs::read_dir(&artifacts) else {
        return Ok(0);
    };
    let regressions = root().join(format!("tests/fuzz_regressions/{target}"));
    let mut kept = 0;
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if ["crash-", "oom-", "timeout-", "leak-"]
            .iter()
            .any(|p| name.starts_with(p))
        {
            std::fs::create_dir_all(&regressions).map_err(|e| e.to_string())?;
            std::fs::copy(entry.path(), regressions.join(&name)).map_err(|e| e.to_string())?;
            println!("  kept {name} as tests/fuzz_regressions/{target}/{name}");
            kept += 1;
        }
    }
    Ok(kept)
}

/// Fuzzes each reader for `seconds`, then reports executions and crashes.
pub fn fuzz(seconds: u64) -> Result<(), String> {
    ensure_cargo_fuzz()?;
    seed_corpus()?;
    let mut report = Vec::new();
    let mut crashes = 0;
    for target in TARGETS {
        println!("=== fuzzing {target} for {seconds} s");
        // cargo-fuzz asks for nightly flags (sanitizers); the stable
        // toolchain accepts them when told it is bootstrapping.
        let output = Command::new("cargo")
            .current_dir(root())
            .env("RUSTC_BOOTSTRAP", "1")
            .args([
                "fuzz",
                "run",
                target,
                &format!("fuzz/corpus/{target}"),
                "--",
            ])
            .arg(format!("-max_total_time={seconds}"))
            .arg("-rss_limit_mb=2048")
            .arg("-timeout=10")
            .output()
            .map_err(|e| format!("could not start cargo fuzz: {e}"))?;
        let log = String::from_utf8_lossy(&output.stderr);
        let found = keep_crashes(target)?;
        crashes += found;
        let runs = runs_done(&log).map_or_else(|| "?".to_owned(), |n| n.to_string());
        report.push(format!(
            "{target}: {runs} executions in {seconds} s, {found} crash input(s)"
        ));
        if !output.status.success() && found == 0 {
            eprintln!(
                "{}",
                log.lines()
                    .rev()
                    .take(30)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect::<Vec<_>>()
                    .join("\n")
            );
            return Err(format!(
                "cargo fuzz run {target} failed ({})",
                output.status
            ));
        }
    }
    println!("\n{}", report.join("\n"));
    if crashes > 0 {
        return Err(format!(
            "{crashes} crash input(s) kept in tests/fuzz_regressions/: fix them, then commit them"
        ));
    }
    Ok(())
}
