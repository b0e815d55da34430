// A worker that reads a file with its own copy of the core before the page
// does: a file that makes the reader trap (out of memory, a bug) takes this
// instance down, never the page's, which holds the lecturer's scene. A
// glTF, .glb or BVH file is converted here by the file readers' module
// (www/converters.js), off the page's thread; the handover bytes it makes
// go back to the page, checked once by this instance's core.
import init, { Lab } from './pkg/skinlab.js';
import initReaders, * as readers from './pkg/skinlab_converters.js';
import { handoverOf, isFileJob } from './converters.js';

// Started by the first message, which brings the compiled modules in the
// single-file page (where the worker cannot fetch them).
let ready = null;
let readersReady = null;

/** The handover bytes of a file the readers' module reads; null for scene JSON. */
async function converted(data) {
  if (!isFileJob(data)) return null;
  readersReady ??= initReaders(data.readersWasm ? { module_or_path: data.readersWasm } : undefined);
  await readersReady;
  return handoverOf(data, readers);
}

self.onmessage = async ({ data }) => {
  try {
    ready ??= init(data.wasm ? { module_or_path: data.wasm } : undefined);
    await ready;
    const scene = await converted(data);
    const lab = scene ? Lab.fromHandover(scene) : Lab.fromSceneJson(data.text);
    lab.free();
    self.postMessage({ ok: true, scene }, scene ? [scene.buffer] : []);
  } catch (error) {
    self.postMessage({ ok: false, trapped: error instanceof WebAssembly.RuntimeError, message: String(error?.message ?? error) });
  }
};
