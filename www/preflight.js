// Reads a file once in a worker (preflight-worker.js) before the page's own
// core reads it: an error comes back as a message; a trap ends the worker
// (a fresh one serves the next file) and the page's scene and core are
// never touched. Where workers cannot start, the page reads directly.

import { startWorker, workerMessage } from './assets.js';

let worker = null;
// The read in progress: the next waits for it.
let queue = Promise.resolve();

/**
 * Reads `job` ({glb} bytes, {bvh} text, {text, files} a .gltf with its files, or {text}
 * scene JSON) in the worker; resolves to `{ok, trapped, message, scene}`, `scene`
 * the handover bytes the file readers made of a glTF or BVH file (null for
 * scene JSON), or `{ok: true, skipped: true}` where no worker could start.
 */
export function preflight(job) {
  // One read at a time: the worker answers in order, and several labs on
  // one page share it.
  const turn = queue.then(() => read(job));
  queue = turn;
  return turn;
}

/** Reads `job` in the worker (see `preflight`). */
function read(job) {
  try {
    worker ??= startWorker('preflight-worker.js');
  } catch {
    return Promise.resolve({ ok: true, skipped: true });
  }
  const current = worker;
  return new Promise((resolve) => {
    const finish = (result) => {
      // A trapped instance stays broken: the next file gets a new worker.
      if (!result.ok && result.trapped) {
        current.terminate();
        if (worker === current) worker = null;
      }
      resolve(result);
    };
    current.onmessage = ({ data }) => finish(data);
    // The worker could not start (a page opened from file://, a browser
    // without module workers): the page reads the file itself, as before.
    // Traps inside a read arrive as messages, not here.
    current.onerror = (event) => {
      event.preventDefault?.();
      current.terminate();
      if (worker === current) worker = null;
      resolve({ ok: true, skipped: true });
    };
    workerMessage(job, { readers: true }).then((message) => current.postMessage(message));
  });
}
