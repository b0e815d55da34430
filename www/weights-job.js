// One job in the weights worker (weights-worker.js): automatic weights or
// the centres of rotation of a large mesh, computed off the main thread
// with progress, and ended at once by a cancel.
import { startWorker, workerMessage } from './assets.js';

/**
 * Starts `message` in a fresh weights worker; `onProgress(fraction)` hears
 * how far it is. Returns `{ result, cancel }`, or null where no worker can
 * be made. `result` resolves once, to the worker's answer (`{done: true,
 * …}` or `{failed: text}`), to `{unavailable: true}` where the worker could
 * not run (a page from file://: the caller computes on the main thread), or
 * to `{cancelled: true}` after `cancel()`, which ends the worker.
 */
export function weightsJob(message, onProgress) {
  let worker;
  try {
    worker = startWorker('weights-worker.js');
  } catch {
    return null;
  }
  let settle = null;
  const result = new Promise((resolve) => {
    settle = (answer) => {
      worker.terminate();
      resolve(answer);
    };
  });
  worker.onmessage = ({ data }) => {
    if (data.progress !== undefined) onProgress(data.progress);
    else settle(data);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    settle({ unavailable: true });
  };
  // Weights are solved by the file readers' module, the centres by the core.
  workerMessage(message, { readers: !message.centres }).then((sent) => worker.postMessage(sent));
  return { result, cancel: () => settle({ cancelled: true }) };
}
