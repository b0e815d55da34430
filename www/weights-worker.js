// Automatic weights and the centres of rotation off the main thread. For
// weights the worker hands the scene (handover bytes) to its own copy of
// the file readers' module, which holds the weights' solvers, and posts
// back four (bone, weight) slots a vertex; for `{centres: true}` it
// rebuilds the scene from its JSON in its own core and posts each vertex's
// centre of rotation (four numbers a vertex). It posts progress as it
// goes; the page stays usable, and Cancel simply ends the worker.
import init, { Lab } from './pkg/skinlab.js';
import initReaders, { autoWeights } from './pkg/skinlab_converters.js';

// Started by the first message, which brings the compiled modules in the
// single-file page (where the worker cannot fetch them).
let ready = null;
let readersReady = null;

self.onmessage = async ({ data }) => {
  try {
    let last = 0;
    if (data.centres) {
      ready ??= init(data.wasm ? { module_or_path: data.wasm } : undefined);
      await ready;
      const lab = Lab.fromSceneJson(data.scene);
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
    readersReady ??= initReaders(data.readersWasm ? { module_or_path: data.readersWasm } : undefined);
    await readersReady;
    const { report, bones, weights } = autoWeights(data.handover, data.method, (done, total) => {
      // At most every 50 ms: progress is for eyes, not for every bone.
      const now = performance.now();
      if (now - last > 50 || done === total) {
        last = now;
        self.postMessage({ progress: done / total });
      }
    });
    self.postMessage({ done: true, report, bones, weights }, [bones.buffer, weights.buffer]);
  } catch (error) {
    self.postMessage({ failed: String(error?.message ?? error) });
  }
};
