// Automatic weights and the centres of rotation off the main thread: the
// worker rebuilds the scene from its JSON in its own core, computes the
// weights (four (bone, weight) slots a vertex back) or, for `{centres:
// true}`, each vertex's centre of rotation (four numbers a vertex back),
// posting progress. The page stays usable, and Cancel simply ends the worker.
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
    if (data.centres) {
      lab.updateCentresProgress((done, total) => {
        const now = performance.now();
        if (now - last > 50) {
          last = now;
          self.postMessage({ progress: done / total });
        }
      });
      const { centres } = lab.centresArray();
      lab.free();
      self.postMessage({ done: true, centres }, [centres.buffer]);
      return;
    }
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
