// Loads the built wasm synchronously, as Node code and other tools do.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initSync, Lab } from '../../www/pkg/skinlab.js';

const wasmPath = fileURLToPath(new URL('../../www/pkg/skinlab_bg.wasm', import.meta.url));
const exports = initSync({ module: readFileSync(wasmPath) });

export { Lab };

/** Bytes of linear memory the wasm instance has grown to. */
export function wasmMemoryBytes() {
  return exports.memory.buffer.byteLength;
}

/** Quaternion [x, y, z, w] for a rotation of `angle` radians about Z. */
export function aboutZ(angle) {
  return [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];
}

/** Quaternion [x, y, z, w] for a rotation of `angle` radians about Y. */
export function aboutY(angle) {
  return [0, Math.sin(angle / 2), 0, Math.cos(angle / 2)];
}

/** Vertex `v` of a flat xyz array. */
export function vertexOf(positions, v) {
  return [positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]];
}
