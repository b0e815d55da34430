// Automatic weights off the main thread: the worker rebuilds the scene from
// its JSON in its own core, computes the weights (posting progress), and
// sends back four (bone, weight) slots a vertex. The page stays usable, and
// Cancel simply ends the worker.
import init, { Lab } from './pkg/skinlab.js';

// Started by the first message, which brings the compiled core in the
// single-file page (where the worker cannot fetch it).
let ready = null;

self.onmessage = async ({ data }) => {
  try {
    ready ??= init(data.wasm ? { module_or_path: data.wasm } : undefined);
    await ready;
    const lab = Lab.fromSceneJson(data.scene);
    let last = 0;
    const report = lab.autoWeightsProgress(data.method, (done, total) => {
      // At most every 50 ms: progress is for eyes, not for every bone.
      const now = performance.now();
      if (now - last > 50 || done === total) {
        last = now;
        self.postMessage({ progress: done / total });
      }
    });
    const { bones, weights } = lab.influenceArrays();
    lab.free();
    self.postMessage({ done: true, report, bones, weights }, [bones.buffer, weights.buffer]);
  } catch (error) {
    self.postMessage({ failed: String(error?.message ?? error) });
  }
};
