//! Installs what the build and the tests need, when it is missing.

use std::path::Path;
use std::process::Command;

use crate::{root, run};

fn output_of(program: &str, args: &[&str]) -> Option<String> {
    let output = Command::new(program).args(args).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Adds the `wasm32-unknown-unknown` target through rustup if it is missing.
pub fn ensure_wasm_target() -> Result<(), String> {
    let installed = output_of("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if installed
        .lines()
        .any(|line| line.trim() == "wasm32-unknown-unknown")
    {
        return Ok(());
    }
    println!("installing the wasm32-unknown-unknown target (missing)");
    run("rustup", &["target", "add", "wasm32-unknown-unknown"])
}

/// The `wasm-bindgen` version `Cargo.lock` pins.
pub fn locked_wasm_bindgen_version() -> Result<String, String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock"))
        .map_err(|e| format!("Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"wasm-bindgen\"" {
            if let Some(version) = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("version = "))
            {
                return Ok(version.trim_matches('"').to_owned());
            }
        }
    }
    Err("Cargo.lock has no wasm-bindgen entry".to_owned())
}

/// Where `cargo install` puts binaries: `$CARGO_HOME/bin`, by default
/// `~/.cargo/bin`.
fn cargo_bin_dir() -> Option<std::path::PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|home| std::path::Path::new(&home).join(".cargo"))
        })?;
    Some(home.join("bin"))
}

/// The wasm-bindgen CLI to run: the one on the PATH, or the one `cargo
/// install` just put in cargo's bin folder when that folder is not on the
/// PATH.
pub fn wasm_bindgen_program() -> String {
    if output_of("wasm-bindgen", &["--version"]).is_some() {
        return "wasm-bindgen".to_owned();
    }
    cargo_bin_dir()
        .map(|dir| dir.join("wasm-bindgen"))
        .filter(|path| path.exists())
        .map_or_else(
            || "wasm-bindgen".to_owned(),
            |path| path.to_string_lossy().into_owned(),
        )
}

/// Installs the wasm-bindgen CLI of exactly the locked version, unless that
/// version is already there.
pub fn ensure_wasm_bindgen() -> Result<(), String> {
    let version = locked_wasm_bindgen_version()?;
    let found = output_of(&wasm_bindgen_program(), &["--version"]).unwrap_or_default();
    if found.split_whitespace().nth(1) == Some(version.as_str()) {
        return Ok(());
    }
    let why = if found.is_empty() {
        "missing".to_owned()
    } else {
        format!("found {}", found.trim())
    };
    println!("installing wasm-bindgen-cli {version} ({why}); this compiles for a few minutes");
    let exact = format!("={version}");
    let locked = [
        "install",
        "wasm-bindgen-cli",
        "--version",
        &exact,
        "--force",
        "--locked",
    ];
    run("cargo", &locked).or_else(|_| {
        println!("retrying without --locked");
        run("cargo", &locked[..locked.len() - 1])
    })
}

/// Runs `npm ci` when `node_modules` is missing or older than the lock file.
pub fn ensure_npm_packages() -> Result<(), String> {
    let root = root();
    let marker = root.join("node_modules/.package-lock.json");
    let lock = root.join("package-lock.json");
    let modified = |path: &Path| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let fresh = match (modified(&marker), modified(&lock)) {
        (Some(installed), Some(locked)) => installed >= locked,
        _ => false,
    };
    if fresh {
        return Ok(());
    }
    println!("installing npm packages (node_modules missing or stale)");
    run("npm", &["ci", "--no-audit", "--no-fund"])
}

/// The browser the tests drive.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// Installs Debian's Chromium when it is missing: as root with apt-get,
/// otherwise by printing the command to run.
pub fn ensure_chromium() -> Result<(), String> {
    if Path::new(CHROMIUM).exists() {
        return Ok(());
    }
    let is_root = output_of("id", &["-u"]).is_some_and(|uid| uid.trim() == "0");
    if !is_root {
        return Err(format!(
            "{CHROMIUM} is missing; install it with: sudo apt-get update && sudo apt-get install -y chromium chromium-driver"
        ));
    }
    println!("installing Chromium (missing) with apt-get");
    run("apt-get", &["update"])?;
    let status = Command::new("apt-get")
        .args(["install", "-y", "chromium", "chromium-driver"])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .map_err(|e| format!("could not start apt-get: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("apt-get install chromium failed ({status})"))
    }
}
