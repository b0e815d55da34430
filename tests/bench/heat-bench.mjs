// Automatic weights in wasm in Node (the core the page's weights worker
// runs): bone heat, distance falloff and geodesic voxels on the Fox, on a 16,000-vertex,
// 52-joint figure (tests/support/figure.mjs) and on the 100,000-vertex
// `dense` example, each with its visibility test. Run by `cargo xtask bench`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lab } from '../node/wasm.mjs';
import { figureGlb } from '../support/figure.mjs';
import { root } from '../e2e/browser.mjs';

const fox = readFileSync(join(root, 'www/models/Fox/Fox.gltf'), 'utf8');
const cases = [
  ['fox', 'the Fox', () => Lab.fromGltf(fox)],
  ['figure', 'the figure', await (async () => { const glb = await figureGlb(); return () => Lab.fromGlb(glb); })()],
  ['dense', 'dense', () => Lab.example('dense')],
];
for (const [key, name, make] of cases) {
  for (const method of ['heat', 'distance', 'voxel']) {
    const lab = make();
    const started = performance.now();
    const report = lab.autoWeights(method);
    const ms = performance.now() - started;
    const visibility = method === 'heat' ? (report.visibilityChecked ? ', visibility tested' : ', no visibility') : '';
    console.log(`${method} on ${name} (${lab.vertexCount()} vertices, ${lab.boneCount()} bones${visibility}): ${ms.toFixed(0)} ms`);
    console.log(`BENCH ${method}_${key}_ms=${ms.toFixed(1)}`);
    lab.free();
  }
}
