//! Skinlab's build, serve and test commands: `cargo xtask <command>`.
//!
//! Each command installs what it needs and is missing (the wasm32 target,
//! the wasm-bindgen CLI of exactly the version in `Cargo.lock`, npm packages,
//! Chromium), saying so as it does.

mod fuzz;
mod serve;
mod tools;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  build          build the wasm in release mode and run wasm-bindgen into www/pkg/
                 (a second build with nothing changed takes a second)
  serve [PORT]   build dist/, the bundled page, and serve it on http://127.0.0.1:PORT/
                 (default 8000), sending the precompressed .br or .gz copies
  serve --dev [PORT]
                 build, then serve the unbundled www/, whose modules a reload re-reads
  test           fmt, clippy, native tests, wasm build, Node tests, browser tests, each timed
  bench          skinning natively, as wasm and in three.js; a brush dab; wasm size; the page's frame time
  dist           write dist/, a self-contained static copy of the page with relative paths
  dist --single-file
                 also write dist/skinlab.html, the whole page in one file that opens from file://
  shots          render the README's and docs/' pictures from the real page into docs/pictures/
  shots --sheet [--only TEXT] [--lang L] [--screen TEXT]
                 write test-output/sheet/index.html, a contact sheet of every mode and lesson
                 step at a projector's, a laptop's and a phone's size in en/de/zh, and of <skin-lab>
  fuzz [SECONDS] fuzz the scene JSON, .gltf and .glb readers and the load-save-reload round trip, SECONDS each (default 60); not in CI
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("build") => build(),
        Some("serve") => {
            // The bundled, precompressed dist/ by default (its first frame
            // comes about twice as soon as www/'s); `--dev` serves www/.
            // `--dist`, the old spelling of the default, is still taken.
            let flag = args.get(1).filter(|a| a.starts_with("--"));
            if let Some(flag) = flag.filter(|f| *f != "--dev" && *f != "--dist") {
                eprintln!("xtask: serve: unknown option {flag} (known: --dev)");
                return ExitCode::from(2);
            }
            let from_dist = flag.is_none_or(|f| f != "--dev");
            let port_arg = args.get(if flag.is_some() { 2 } else { 1 });
            let port = port_arg.map_or(Ok(8000), |p| {
                p.parse::<u16>().map_err(|e| format!("port {p}: {e}"))
            });
            port.and_then(|port| {
                build()?;
                if from_dist {
                    dist(false)?;
                }
                serve::serve(&root().join(if from_dist { "dist" } else { "www" }), port)
            })
        }
        Some("test") => test(),
        Some("bench") => bench(),
        Some("shots") => shots(&args[1..]),
        Some("dist") => match args.get(1).map(String::as_str) {
            None => build().and_then(|()| dist(false)),
            Some("--single-file") => build().and_then(|()| dist(true)),
            Some(other) => Err(format!(
                "dist: unknown option {other} (known: --single-file)"
            )),
        },
        Some("fuzz") => args
            .get(1)
            .map_or(Ok(60), |s| {
                s.parse::<u64>().map_err(|e| format!("seconds {s}: {e}"))
            })
            .and_then(fuzz::fuzz),
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The repository root: the folder above this crate.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Runs `program args` in the repository root, failing with its name.
pub fn run(program: &str, args: &[&str]) -> Result<(), String> {
    run_in(&root(), program, args)
}

/// Runs `program args` in `dir`, failing with its name.
pub fn run_in(dir: &Path, program: &str, args: &[&str]) -> Result<(), String> {
    println!("$ {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
        .current_dir(dir)
        .status()
        .map_err(|e| format!("could not start {program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed ({status})", args.join(" ")))
    }
}

/// Builds `www/pkg/` from the crate: release wasm, then wasm-bindgen, for
/// the page's module (`skinlab`) and the file readers' (`skinlab-converters`,
/// loaded when a file is opened or exported).
///
/// A second build with nothing changed takes seconds: each module has its
/// own target folder, since the core is built with its `page` feature for
/// one and without it for the other, and in one folder each build would
/// overwrite the other's core and rebuild it; wasm-bindgen and wasm-opt run
/// only when the wasm cargo made differs from the one they last bound
/// (`www/pkg/.ARTEFACT.stamp` holds its hash).
fn build() -> Result<(), String> {
    tools::ensure_wasm_target()?;
    tools::ensure_wasm_bindgen()?;
    let out_dir = root().join("www/pkg");
    for (package, artefact) in [
        ("skinlab", "skinlab"),
        ("skinlab-converters", "skinlab_converters"),
    ] {
        let target_dir = format!("target/wasm-{package}");
        run(
            "cargo",
            &[
                "build",
                "--package",
                package,
                "--lib",
                "--release",
                "--target",
                "wasm32-unknown-unknown",
                "--target-dir",
                &target_dir,
            ],
        )?;
        let wasm = root().join(format!(
            "{target_dir}/wasm32-unknown-unknown/release/{artefact}.wasm"
        ));
        let bytes = std::fs::read(&wasm).map_err(|e| format!("{}: {e}", wasm.display()))?;
        let stamp = out_dir.join(format!(".{artefact}.stamp"));
        let key = format!(
            "{:016x} wasm-bindgen {}",
            content_hash(&bytes),
            tools::locked_wasm_bindgen_version()?
        );
        let outputs = [
            out_dir.join(format!("{artefact}.js")),
            out_dir.join(format!("{artefact}.d.ts")),
            out_dir.join(format!("{artefact}_bg.wasm")),
        ];
        if outputs.iter().all(|p| p.exists())
            && std::fs::read_to_string(&stamp).is_ok_and(|s| s == key)
        {
            println!("{artefact}: the wasm is unchanged; wasm-bindgen and wasm-opt skipped");
            continue;
        }
        run(
            &tools::wasm_bindgen_program(),
            &[
                "--target",
                "web",
                // TypeScript declarations too: the npm package's types.
                "--out-dir",
                &out_dir.to_string_lossy(),
                &wasm.to_string_lossy(),
            ],
        )?;
        optimise_wasm(&out_dir.join(format!("{artefact}_bg.wasm")))?;
        if artefact == "skinlab" {
            add_restart(&out_dir.join("skinlab.js"))?;
        }
        std::fs::write(&stamp, key).map_err(|e| format!("{}: {e}", stamp.display()))?;
    }
    vendor_decoders()
}

/// Appends `restartSync()` to the page module's wasm-bindgen glue (and its
/// declaration to the glue's `.d.ts`): a fresh
/// instance of the same compiled module, for the page to restart its core
/// after a trap (the glue keeps its instance in a module-level variable and
/// exports no way to replace it). Objects of the old instance must be
/// dropped with `__destroy_into_raw()` first, or their finalizers would
/// free pointers in the new one.
fn add_restart(glue: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(glue).map_err(|e| format!("{}: {e}", glue.display()))?;
    if text.contains("export function restartSync") {
        return Ok(());
    }
    if !text.contains("let wasmModule, wasmInstance, wasm;") {
        return Err(format!(
            "{}: the glue no longer keeps its instance as restartSync expects",
            glue.display()
        ));
    }
    let hook = "\n/** A fresh instance of the compiled module, after a trap (appended by cargo xtask build). */\n\
                export function restartSync() {\n    const module = wasmModule;\n    wasm = undefined;\n    \
                return initSync({ module });\n}\n";
    std::fs::write(glue, text + hook).map_err(|e| format!("{}: {e}", glue.display()))?;
    let types = glue.with_extension("d.ts");
    let declared =
        std::fs::read_to_string(&types).map_err(|e| format!("{}: {e}", types.display()))?;
    let declaration = "\n/** A fresh instance of the compiled module, after a trap. */\n\
                       export function restartSync(): InitOutput;\n";
    std::fs::write(&types, declared + declaration).map_err(|e| format!("{}: {e}", types.display()))
}

/// A 64-bit hash of `bytes`: `DefaultHasher::new()` has fixed keys, so the
/// same bytes hash the same in every run built by one toolchain (another
/// toolchain at worst binds once more).
fn content_hash(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = std::hash::DefaultHasher::new();
    hasher.write(bytes);
    hasher.finish()
}

/// Copies the official geometry decoders and the video muxers and GIF
/// encoder from npm into `www/vendor/`, with their licences: the page loads
/// the decoders only for a Draco- or meshopt-compressed file
/// (`www/codecs.js`) and the encoders only when a video is made
/// (`www/video.js`). Draco's decoder is 286 KB of wasm and 59 KB of script,
/// meshoptimizer's 29 KB of script, the WebM and MP4 muxers 65 and 69 KB,
/// gifenc 9 KB.
fn vendor_decoders() -> Result<(), String> {
    tools::ensure_npm_packages()?;
    let modules = root().join("node_modules");
    let vendor = root().join("www/vendor");
    let copies = [
        ("draco3d/draco_decoder_nodejs.js", "draco/draco_decoder.js"),
        ("draco3d/draco_decoder.wasm", "draco/draco_decoder.wasm"),
        ("draco3d/README.md", "draco/README.md"),
        (
            "meshoptimizer/meshopt_decoder.mjs",
            "meshopt/meshopt_decoder.js",
        ),
        ("meshoptimizer/LICENSE.md", "meshopt/LICENSE.md"),
        ("webm-muxer/build/webm-muxer.mjs", "muxers/webm-muxer.js"),
        ("webm-muxer/LICENSE", "muxers/webm-muxer-LICENSE"),
        ("mp4-muxer/build/mp4-muxer.mjs", "muxers/mp4-muxer.js"),
        ("mp4-muxer/LICENSE", "muxers/mp4-muxer-LICENSE"),
        ("gifenc/dist/gifenc.esm.js", "gifenc/gifenc.js"),
        ("gifenc/LICENSE.md", "gifenc/LICENSE.md"),
    ];
    for (from, to) in copies {
        let target = vendor.join(to);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::copy(modules.join(from), &target)
            .map_err(|e| format!("{}: {e}", modules.join(from).display()))?;
    }
    std::fs::write(
        vendor.join("draco/LICENSE.md"),
        "Draco decoder (npm draco3d 1.5.7), Copyright Google LLC, under the \
         Apache License 2.0: https://www.apache.org/licenses/LICENSE-2.0\n\
         Source: https://github.com/google/draco\n",
    )
    .map_err(|e| format!("www/vendor/draco/LICENSE.md: {e}"))
}

/// Runs Binaryen's `wasm-opt -O3` over the bound module, in place.
///
/// rustc's LLVM output leaves about a tenth of the gzip size to Binaryen's
/// whole-module passes (dead code, duplicate functions, local coalescing):
/// 399 KB → 357 KB gzip when it was added, skinning no slower. Binaryen comes
/// from npm (`binaryen`, a JavaScript build of the tools), so no system
/// package is needed; the features are those rustc emits for this target
/// with `simd128`.
fn optimise_wasm(wasm: &Path) -> Result<(), String> {
    tools::ensure_npm_packages()?;
    let program = root().join("node_modules/binaryen/bin/wasm-opt");
    let path = wasm.to_string_lossy();
    run(
        "node",
        &[
            &program.to_string_lossy(),
            "-O3",
            "--enable-simd",
            "--enable-bulk-memory",
            "--enable-nontrapping-float-to-int",
            "--enable-sign-ext",
            "--enable-mutable-globals",
            "--enable-reference-types",
            "--enable-multivalue",
            &path,
            "-o",
            &path,
        ],
    )
}

/// The page's files: everything in `www/` a browser loads (the page, its
/// modules and wasm, every model file the gallery fetches: glTF and its
/// buffers and images, FBX, BVH) and the licences that go with them.
fn is_page_file(path: &Path) -> bool {
    let licence = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with("LICENSE"));
    licence
        || matches!(
            path.extension().and_then(|e| e.to_str()),
            Some(
                "html"
                    | "js"
                    | "css"
                    | "wasm"
                    | "md"
                    | "gltf"
                    | "glb"
                    | "bin"
                    | "fbx"
                    | "bvh"
                    | "png"
                    | "jpg"
                    | "jpeg"
                    | "webp"
            )
        )
}

fn copy_page_files(from: &Path, to: &Path) -> Result<usize, String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let mut copied = 0;
    let entries = std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copied += copy_page_files(&path, &target)?;
        } else if is_page_file(&path) {
            std::fs::copy(&path, &target).map_err(|e| format!("{}: {e}", path.display()))?;
            copied += 1;
        }
    }
    Ok(copied)
}

/// Writes `dist/`: the built page with relative paths, ready for any static
/// web server or a folder inside a slide deck, its modules bundled into one
/// `app.js` and every text and wasm file precompressed (`.br`, `.gz`:
/// `xtask/dist-bundle.mjs`); with `single_file` also
/// `dist/skinlab.html`, the whole page in one file (`xtask/single-file.mjs`:
/// esbuild bundles the modules, the wasm and models go in as base64).
fn dist(single_file: bool) -> Result<(), String> {
    let out = root().join("dist");
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    let www = root().join("www");
    let copied = copy_page_files(&www, &out)?;
    println!("wrote {copied} files to {}", out.display());
    tools::ensure_npm_packages()?;
    run(
        "node",
        &[
            "xtask/dist-bundle.mjs",
            &www.to_string_lossy(),
            &out.to_string_lossy(),
        ],
    )?;
    if single_file {
        let file = out.join("skinlab.html");
        run(
            "node",
            &[
                "xtask/single-file.mjs",
                &www.to_string_lossy(),
                &file.to_string_lossy(),
            ],
        )?;
    }
    Ok(())
}

/// Every `*.test.mjs` file in `dir`, sorted.
fn test_files(dir: &Path) -> Result<Vec<String>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.to_string_lossy().ends_with(".test.mjs"))
        .map(|path| path.to_string_lossy().into_owned())
        .collect();
    files.sort();
    Ok(files)
}

/// Blender's own glTF importer reads the rigs the Node tests exported
/// (tests/blender/import_rig.py), with the Python named by `SKINLAB_BPY_PYTHON`
/// or `.bpy/bin/python` (a venv with `pip install bpy`); skipped, and said
/// so, where neither has Blender's module.
fn blender_import() -> Result<(), String> {
    let python = std::env::var("SKINLAB_BPY_PYTHON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| root().join(".bpy/bin/python"));
    let has_bpy = Command::new(&python)
        .args(["-c", "import bpy"])
        .current_dir(root())
        .output()
        .is_ok_and(|out| out.status.success());
    if !has_bpy {
        println!(
            "skipped: no Python with Blender's module at {} (python3 -m venv .bpy && .bpy/bin/pip install bpy, or set SKINLAB_BPY_PYTHON)",
            python.display()
        );
        return Ok(());
    }
    let python = python.to_string_lossy().into_owned();
    run(
        &python,
        &["tests/blender/import_rig.py", "test-output/blender"],
    )
}

fn node_tests(dir: &str) -> Result<(), String> {
    let files = test_files(&root().join(dir))?;
    if files.is_empty() {
        return Err(format!("no *.test.mjs files in {dir}"));
    }
    // The spec reporter repeats each failure with its error at the end of
    // its output, where a CI log's tail shows it.
    let mut args = vec!["--test", "--test-concurrency=1", "--test-reporter=spec"];
    args.extend(files.iter().map(String::as_str));
    run("node", &args)
}

/// Runs `program args` in the repository root and returns what it printed.
fn capture(program: &str, args: &[&str]) -> Result<String, String> {
    println!("$ {program} {}", args.join(" "));
    let output = Command::new(program)
        .args(args)
        .current_dir(root())
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("could not start {program}: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    print!(
        "{}",
        text.lines()
            .filter(|l| !l.starts_with("BENCH "))
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    );
    if output.status.success() {
        Ok(text)
    } else {
        Err(format!(
            "`{program} {}` failed ({})",
            args.join(" "),
            output.status
        ))
    }
}

/// The number after `BENCH key=` in a bench's output.
fn bench_figure(output: &str, key: &str) -> Option<f64> {
    output
        .lines()
        .filter_map(|line| line.strip_prefix("BENCH "))
        .find_map(|line| line.strip_prefix(key)?.strip_prefix('=')?.parse().ok())
}

/// Renders the pictures the README and docs/ show from the real page in
/// the tests' headless Chromium (`xtask/shots.mjs`), into `docs/pictures/`;
/// with `--sheet`, the contact sheet of every screen (`xtask/sheet.mjs`).
fn shots(args: &[String]) -> Result<(), String> {
    build()?;
    tools::ensure_npm_packages()?;
    tools::ensure_chromium()?;
    match args.first().map(String::as_str) {
        None => run("node", &["xtask/shots.mjs"]),
        Some("--sheet") => {
            let mut command = vec!["xtask/sheet.mjs", "--sheet"];
            command.extend(args[1..].iter().map(String::as_str));
            run("node", &command)
        }
        Some(other) => Err(format!("shots: unknown option {other} (known: --sheet)")),
    }
}

/// Times, in one run: LBS and DQS natively and as wasm in Node, three.js's
/// `applyBoneTransform` on the same mesh, a brush dab natively and as wasm,
/// bone heat and distance weights in wasm on the Fox, a 16,000-vertex figure
/// and `dense`, the page's time per frame and memory at 1,000,000 vertices,
/// the first frame from `www/` and `dist/`,
/// the wasm's size, the page's main-thread time per frame while a bone
/// is dragged on the 100,000-vertex example, and reading and playing a
/// 30,000-vertex, 65-joint character; then prints the ratios the
/// performance targets are stated in. Figures only: nothing is asserted.
fn bench() -> Result<(), String> {
    build()?;
    tools::ensure_npm_packages()?;
    let native = capture(
        "cargo",
        &[
            "bench",
            "--package",
            "skinlab",
            "--bench",
            "skinning",
            "--bench",
            "paint",
            "--bench",
            "memory",
            "--bench",
            "cor",
        ],
    )?;
    let node = capture("node", &["tests/bench/skinning-bench.mjs"])?;
    let dab = capture("node", &["tests/bench/paint-bench.mjs"])?;
    let heat = capture("node", &["tests/bench/heat-bench.mjs"])?;
    tools::ensure_chromium()?;
    let frames = capture("node", &["tests/bench/frame-bench.mjs"])?;
    let character = capture("node", &["tests/bench/character-bench.mjs"])?;
    let million = capture("node", &["tests/bench/million-bench.mjs"])?;
    // The first frame from www/ and from the bundled, precompressed dist/,
    // each through this crate's own server on a free port.
    dist(false)?;
    let mut urls = Vec::new();
    for dir in ["www", "dist"] {
        let listener = std::net::TcpListener::bind(("127.0.0.1", 0))
            .map_err(|e| format!("a port for {dir}: {e}"))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let folder = root().join(dir);
        std::thread::spawn(move || serve::serve_on(listener, &folder));
        urls.push(format!("http://127.0.0.1:{port}/"));
    }
    let first = capture(
        "node",
        &["tests/bench/first-frame-bench.mjs", &urls[0], &urls[1]],
    )?;
    let all = format!("{native}{node}{dab}{heat}{frames}{character}{million}{first}");
    let figure = |key: &str| bench_figure(&all, key);
    println!("\n=== ratios (one run, one core; higher is faster unless said)");
    for count in [10_000, 100_000, 1_000_000] {
        let get = |what: &str| figure(&format!("{what}_{count}"));
        let (Some(nl), Some(nd), Some(three)) =
            (get("native_lbs"), get("native_dqs"), get("three"))
        else {
            continue;
        };
        // wasm: the positions alone (as three.js gives them), and with the
        // normals (as the native figures are).
        let (Some(wl), Some(wd), Some(wln), Some(wdn)) = (
            get("wasm_lbs"),
            get("wasm_dqs"),
            get("wasm_lbs_normals"),
            get("wasm_dqs_normals"),
        ) else {
            continue;
        };
        println!(
            "{count:>9} vertices: wasm LBS {wl:.0} M/s, DQS {wd:.0} M/s positions (target ≥ 100), LBS {wln:.0} M/s with normals · \
             wasm LBS / three.js {:5.1}× (target ≥ 25×) · with normals wasm / native LBS {:.2} DQS {:.2} (target ≥ 0.5) · \
             native LBS {nl:.0} M/s (target ≥ 150) · DQS time / LBS time native {:.2} wasm {:.2} (target ≤ 1.4)",
            wl / three,
            wln / nl,
            wdn / nd,
            nl / nd,
            wln / wdn,
        );
    }
    if let (Some(native), Some(wasm)) = (figure("native_us"), figure("wasm_us")) {
        println!(
            "brush dab (20,000 vertices): wasm / native {:.2}× the time",
            wasm / native
        );
    }
    if let (Some(raw), Some(gzip)) = (figure("wasm_bytes"), figure("wasm_gzip_bytes")) {
        println!(
            "wasm: {:.0} KB raw, {:.0} KB gzip (target < 400 KB)",
            raw / 1000.0,
            gzip / 1000.0
        );
    }
    if let (Some(raw), Some(gzip)) = (
        figure("converters_wasm_bytes"),
        figure("converters_wasm_gzip_bytes"),
    ) {
        println!(
            "second wasm (file readers, automatic weights, templates, larger examples), loaded when first needed: {:.0} KB raw, {:.0} KB gzip",
            raw / 1000.0,
            gzip / 1000.0
        );
    }
    if let Some(centres) = figure("character_cor_centres_ms") {
        println!(
            "CoR centres of the 30,000-vertex, 65-joint character in wasm: {centres:.0} ms (target < 2000 ms: {})",
            if centres < 2000.0 { "met" } else { "missed" }
        );
    }
    if let (Some(lbs), Some(dqs), Some(cor)) = (
        figure("character_cpu_lbs_ms"),
        figure("character_cpu_dqs_ms"),
        figure("character_cpu_cor_ms"),
    ) {
        println!(
            "a CPU frame of the character in wasm: LBS {lbs:.2} ms, DQS {dqs:.2} ms, CoR {cor:.2} ms"
        );
    }
    if let (Some(read), Some(frame)) = (figure("character_read_ms"), figure("character_frame_ms")) {
        println!(
            "30,000-vertex, 65-joint character: read in {read:.1} ms in wasm (target < 150 ms); \
             {frame:.2} ms of main-thread time per clip frame in the page (target < 2 ms)"
        );
    }
    for method in ["lbs", "dqs", "cor"] {
        if let Some(ms) = figure(&format!("frame_ms_{method}")) {
            println!(
                "dragging a bone on 100,000 vertices ({}): {ms:.2} ms of main-thread time per frame (target < 2 ms)",
                method.to_uppercase()
            );
        }
    }
    // Software compositing (the tests' browser) reads every WebGL frame
    // back on the main thread; GPU compositing is what a graphics card gives.
    for (tag, what) in [
        ("lbs", "dense, a bone drag (LBS)"),
        ("dqs", "dense, a bone drag (DQS)"),
        ("cor", "dense, a bone drag (CoR)"),
        ("stroke", "dense, a paint stroke"),
        ("ik", "dense, an IK target drag"),
        ("playback", "the 30,000-vertex character's clip playing"),
        ("character_drag", "the 30,000-vertex character, a bone drag"),
        (
            "character_stroke",
            "the 30,000-vertex character, a paint stroke",
        ),
    ] {
        for (suffix, how) in [("", "software"), ("_gpu", "GPU")] {
            if let (Some(count), Some(longest)) = (
                figure(&format!("long_tasks_{tag}{suffix}")),
                figure(&format!("longest_task_ms_{tag}{suffix}")),
            ) {
                println!(
                    "{what} and 3 s after, {how} compositing: {count:.0} long task(s), \
                     longest {longest:.0} ms (goal: none over 50 ms: {})",
                    if count == 0.0 { "met" } else { "missed" }
                );
            }
        }
    }
    let goal = |ms: f64, limit: f64| if ms < limit { "met" } else { "missed" };
    if let (Some(frame), Some(memory), Some(first)) = (
        figure("million_frame_ms"),
        figure("million_memory_mib"),
        figure("million_first_frame_ms"),
    ) {
        println!(
            "1,000,000 vertices: {frame:.2} ms of main-thread time per frame while a bone is dragged \
             (goal < 8 ms: {}), {memory:.0} MiB of wasm memory, first frame after {:.1} s",
            goal(frame, 8.0),
            first / 1000.0
        );
    }
    if let (Some(build), Some(live), Some(json)) = (
        figure("memory_build_peak_mib"),
        figure("memory_build_live_mib"),
        figure("memory_json_peak_mib"),
    ) {
        println!(
            "1,000,000 vertices natively: building the scene peaks at {build:.0} MiB and keeps \
             {live:.0} MiB; writing its scene JSON (the autosave's mesh part) peaks at {json:.0} MiB"
        );
    }
    if let (Some(www), Some(dist)) = (figure("first_frame_www_ms"), figure("first_frame_dist_ms")) {
        println!(
            "first frame of the two-bone example: {www:.0} ms from www/, {dist:.0} ms from dist/ \
             (goal < 400 ms: {})",
            goal(dist, 400.0)
        );
        if let (Some(modules), Some(wasm), Some(core)) = (
            figure("first_frame_dist_modules_ms"),
            figure("first_frame_dist_wasm_ms"),
            figure("first_frame_dist_core_ms"),
        ) {
            println!(
                "  from dist/, it waits for the modules ({modules:.0} ms), the wasm's last byte \
                 ({wasm:.0} ms), the core compiled and started ({core:.0} ms), then the scene and \
                 its first draw ({:.0} ms more)",
                dist - core
            );
        }
    }
    for (key, name, limit) in [
        ("fox", "the Fox (1,728 vertices, 25 bones)", f64::INFINITY),
        ("figure", "a 16,014-vertex, 52-joint figure", 2000.0),
        (
            "dense",
            "dense (100,000 vertices, visibility tested)",
            2000.0,
        ),
    ] {
        if let (Some(heat), Some(distance)) = (
            figure(&format!("heat_{key}_ms")),
            figure(&format!("distance_{key}_ms")),
        ) {
            let target = if limit.is_finite() {
                format!(" (goal < {limit:.0} ms: {})", goal(heat, limit))
            } else {
                String::new()
            };
            let voxel = figure(&format!("voxel_{key}_ms"))
                .map_or_else(String::new, |ms| format!(", geodesic voxels {ms:.0} ms"));
            println!(
                "automatic weights on {name}: bone heat {heat:.0} ms{target}, distance {distance:.0} ms{voxel}"
            );
        }
    }
    Ok(())
}

/// Every check, in order, stopping at the first failure.
fn test() -> Result<(), String> {
    let started = Instant::now();
    let step = |name: &str, action: &dyn Fn() -> Result<(), String>| -> Result<(), String> {
        let begun = Instant::now();
        println!("\n=== {name}");
        action().map_err(|e| format!("{name}: {e}"))?;
        println!("=== {name}: ok ({:.1} s)", begun.elapsed().as_secs_f64());
        Ok(())
    };
    step("tools", &|| {
        tools::ensure_wasm_target()?;
        tools::ensure_wasm_bindgen()?;
        tools::ensure_npm_packages()?;
        tools::ensure_chromium()
    })?;
    step("format", &|| run("cargo", &["fmt", "--all", "--check"]))?;
    step("clippy (native)", &|| {
        run(
            "cargo",
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
        )
    })?;
    step("clippy (wasm32)", &|| {
        run(
            "cargo",
            &[
                "clippy",
                "--package",
                "skinlab",
                "--package",
                "skinlab-converters",
                "--lib",
                "--target",
                "wasm32-unknown-unknown",
                "--",
                "-D",
                "warnings",
            ],
        )
    })?;
    // --show-output prints what passing tests report, such as the tube's
    // radii under LBS and DQS.
    step("native tests", &|| {
        run("cargo", &["test", "--workspace", "--", "--show-output"])
    })?;
    step("wasm build", &build)?;
    step("dist", &|| dist(true))?;
    step("node tests", &|| node_tests("tests/node"))?;
    step("Blender import (optional)", &blender_import)?;
    step("browser tests", &|| node_tests("tests/e2e"))?;
    println!(
        "\nall checks passed in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
