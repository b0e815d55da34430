// Skinlab's core as a library (the npm package's main entry, `skinlab`):
// the wasm core's `Lab` and `Viewer` classes, started once for every lab
// on the page, and the second module (the file readers, the one-shot tools
// such as automatic weights, the larger examples), loaded on demand.
//
//   import { init, Lab, loadConverters } from 'skinlab';
//   await init();
//   const lab = Lab.example('y-junction');
//   lab.setBonePose(2, { rotation: [0, 0, 0.38, 0.92] });
//   lab.skinnedPositions('dqs');             // Float32Array, x y z a vertex
//   await loadConverters();                  // Lab.fromGlb, lab.toGlb, lab.autoWeights, …
//
// The wasm files are fetched beside this module (pkg/), as the page and
// <skin-lab> fetch them; with a bundler, see `skinlab/vite`.
import { startCore } from './assets.js';

export { Lab, Viewer } from './pkg/skinlab.js';
export { loadConverters } from './converters.js';
// Lab.modelNames() and Lab.model(name): the gallery's models, fetched beside this module.
import './gallery.js';

/** Starts the core once (its wasm fetched and compiled as it streams in); resolves when `Lab` and `Viewer` work. */
export async function init() {
  await startCore();
}
