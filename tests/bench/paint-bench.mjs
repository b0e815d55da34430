// Time per brush dab on a 20,000-vertex mesh, as wasm in Node: the same
// grid, brush and path as benches/paint.rs. Run by `cargo xtask bench`.
import { performance } from 'node:perf_hooks';
import { Lab } from '../node/wasm.mjs';

const COLUMNS = 142;
const ROWS = 141;
const DABS = 400;

function gridScene() {
  const positions = [];
  const influences = [];
  for (let row = 0; row < ROWS; row++) {
    for (let column = 0; column < COLUMNS; column++) {
      const x = (column / (COLUMNS - 1)) * 4;
      positions.push(x, (row / (ROWS - 1)) * 4 - 2, 0);
      const toSecond = Math.min(Math.max(x / 4, 0), 1);
      influences.push([[0, 1 - toSecond], [1, toSecond]].filter(([, w]) => w > 0));
    }
  }
  const indices = [];
  for (let row = 0; row < ROWS - 1; row++) {
    for (let column = 0; column < COLUMNS - 1; column++) {
      const v = row * COLUMNS + column;
      indices.push(v, v + 1, v + COLUMNS + 1, v, v + COLUMNS + 1, v + COLUMNS);
    }
  }
  const half = Math.SQRT1_2;
  return {
    bones: [
      { name: '', parent: null, origin: [0, 0, 0], orientation: [0, 0, -half, half], length: 2 },
      { name: '', parent: 0, origin: [0, 0, 0], orientation: [0, 0, 0, 1], length: 2 },
    ],
    mesh: { positions, indices },
    influences,
  };
}

const scene = gridScene();
const lab = Lab.fromSceneJson(JSON.stringify(scene));
const points = new Float32Array(2 * lab.vertexCount());
for (let v = 0; v < lab.vertexCount(); v++) {
  points[2 * v] = Math.fround(scene.mesh.positions[3 * v]) * 200;
  points[2 * v + 1] = Math.fround(scene.mesh.positions[3 * v + 1]) * 200;
}
lab.paintDab({ points, bone: 1, at: [0, 0], radius: 40, strength: 0.1, mirror: true });
let touched = 0;
const started = performance.now();
for (let k = 0; k < DABS; k++) {
  const t = k / DABS;
  touched += lab.paintDab({ points, bone: 1, at: [100 + 600 * t, 150 * Math.sin(t * 12)], radius: 40, strength: 0.1, mirror: true });
}
const perDab = (performance.now() - started) / DABS;
console.log(`paint-dab wasm (Node ${process.version}): ${(perDab * 1000).toFixed(1)} µs per dab (${lab.vertexCount()} vertices, radius 40 px, X-mirror on, ${(touched / DABS).toFixed(0)} vertices changed per dab)`);
console.log(`BENCH wasm_us=${(perDab * 1000).toFixed(3)}`);
