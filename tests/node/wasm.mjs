// Loads the built wasm synchronously, as Node code and other tools do.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initSync, Lab } from '../../www/pkg/skinlab.js';
import { initSync as initReadersSync } from '../../www/pkg/skinlab_converters.js';
// Puts the file readers (Lab.fromGlb, lab.toGlb, ...) on Lab.
import { useConverters } from '../../www/converters.js';

const pkg = (name) => readFileSync(fileURLToPath(new URL(`../../www/pkg/${name}`, import.meta.url)));
const exports = initSync({ module: pkg('skinlab_bg.wasm') });
const readerExports = initReadersSync({ module: pkg('skinlab_converters_bg.wasm') });
useConverters();

export { Lab };

/** Bytes of linear memory the two wasm instances (core and file readers) have grown to. */
export function wasmMemoryBytes() {
  return exports.memory.buffer.byteLength + readerExports.memory.buffer.byteLength;
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
