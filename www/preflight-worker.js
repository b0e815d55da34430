// A worker that reads a file with its own copy of the core before the page
// does: a file that makes the reader trap (out of memory, a bug) takes this
// instance down, never the page's, which holds the lecturer's scene.
import init, { Lab } from './pkg/skinlab.js';

// Started by the first message, which brings the compiled core in the
// single-file page (where the worker cannot fetch it).
let ready = null;

self.onmessage = async ({ data }) => {
  try {
    ready ??= init(data.wasm ? { module_or_path: data.wasm } : undefined);
    await ready;
    if (data.trapForTest) Lab.trapForTest();
    let lab;
    if (data.glb) lab = Lab.fromGlb(data.glb);
    else if (data.bvh) lab = Lab.fromBvh(data.bvh);
    else if (data.files) lab = Lab.fromGltfFiles(data.text, data.files);
    else lab = Lab.fromSceneJson(data.text);
    lab.free();
    self.postMessage({ ok: true });
  } catch (error) {
    self.postMessage({ ok: false, trapped: error instanceof WebAssembly.RuntimeError, message: String(error?.message ?? error) });
  }
};
