// Where the page's own files come from: beside the page (fetched, the wasm
// compiled as it streams in), or, in the single-file build
// (`cargo xtask dist --single-file`), from the table of base64 files that
// build puts in the page (window.SKINLAB_ASSETS), so nothing is fetched and
// the page works from file:// with no network.
import init, { restartSync } from './pkg/skinlab.js';

const table = globalThis.SKINLAB_ASSETS ?? null;

/**
 * The page's folder: this module's, which sits beside index.html in www/
 * and, bundled, at the top of dist/. Not the document's address, which on
 * a page holding <skin-lab> elements is the host page's.
 */
const FOLDER = new URL('./', import.meta.url);

/** Whether this is the single-file build. */
export const singleFile = table !== null;

const decoded = new Map();

/** The bytes of `path` (relative to the page's folder) from the table. */
function inlined(path) {
  if (!decoded.has(path)) {
    const base64 = table[path];
    if (base64 === undefined) throw new Error(`${path} is not in this single-file page`);
    decoded.set(path, Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  }
  return decoded.get(path);
}

/** The text of `path`: from the table, or fetched beside the page. */
export async function assetText(path) {
  if (singleFile) return new TextDecoder().decode(inlined(path));
  const response = await fetch(new URL(path, FOLDER));
  if (!response.ok) throw new Error(`${path} could not be fetched (${response.status})`);
  return response.text();
}

/** The bytes of `path`: from the table, or fetched beside the page. */
export async function assetBytes(path) {
  if (singleFile) return inlined(path);
  const response = await fetch(new URL(path, FOLDER));
  if (!response.ok) throw new Error(`${path} could not be fetched (${response.status})`);
  return new Uint8Array(await response.arrayBuffer());
}

let compiled = null;
let started = null;

/** The core's wasm compiled (the single file's workers are handed it). */
export function wasmModule() {
  compiled ??= WebAssembly.compile(inlined('pkg/skinlab_bg.wasm'));
  return compiled;
}

/**
 * Starts the core once for every lab on the page (they share its compiled
 * module and its instance): streamed from beside the page, or from the
 * table. Resolves to its exports.
 */
export function startCore() {
  started ??= (singleFile
    ? wasmModule().then((module) => init({ module_or_path: module }))
    : init({ module_or_path: new URL('pkg/skinlab_bg.wasm', FOLDER) })
  ).then((exports) => {
    // When the core was compiled and started (cargo xtask bench).
    performance.mark('skinlab:core-started');
    return exports;
  });
  return started;
}

/**
 * A fresh instance of the core, from the module already compiled, after a
 * trap left the old one unusable; every object of the old one must have
 * been dropped. Returns its exports.
 */
export function restartCore() {
  const exports = restartSync();
  started = Promise.resolve(exports);
  return exports;
}

let convertersCompiled = null;

/** The file readers' wasm (www/converters.js) compiled, in the single file. */
function convertersModule() {
  convertersCompiled ??= WebAssembly.compile(inlined('pkg/skinlab_converters_bg.wasm'));
  return convertersCompiled;
}

/** Where the file readers' wasm comes from: beside the page, or compiled from the table. */
export async function convertersSource() {
  if (!singleFile) return new URL('pkg/skinlab_converters_bg.wasm', FOLDER);
  return convertersModule();
}

/**
 * A module worker for `script` (a file beside this module, such as
 * 'weights-worker.js'); in the single file, its bundle from a Blob URL.
 * Messages to it carry `wasm` (see `workerMessage`).
 */
export function startWorker(script) {
  if (!singleFile) return new Worker(new URL(script, import.meta.url), { type: 'module' });
  const source = new TextDecoder().decode(inlined(script));
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  return new Worker(url, { type: 'module' });
}

/**
 * `message` with the compiled core added in the single file (its workers
 * cannot fetch it), and the file readers' too with `{ readers: true }`.
 */
export async function workerMessage(message, { readers = false } = {}) {
  if (!singleFile) return message;
  const added = { ...message, wasm: await wasmModule() };
  if (readers) added.readersWasm = await convertersModule();
  return added;
}

/** A link to the lecture-notes page: beside the page, or a Blob URL of the inlined one. */
export function sourcesHref() {
  if (!singleFile) return 'sources.html';
  return URL.createObjectURL(new Blob([inlined('sources.html')], { type: 'text/html' }));
}
