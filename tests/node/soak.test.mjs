// A long lecture in fast motion, on the real wasm: thousands of drags and
// strokes and hundreds of example switches leave the wasm memory and the JS
// heap within a bound. Printed before and after; asserted with slack.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Lab, aboutZ, wasmMemoryBytes } from './wasm.mjs';

const MiB = 1 << 20;
/** The bounds asserted: far above what the session needs, far below a leak. */
const WASM_BOUND = 96 * MiB;
const HEAP_GROWTH_BOUND = 64 * MiB;

function heapUsed() {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
}

test('5,000 drags, 2,000 strokes and 200 example switches stay within a memory bound', () => {
  const wasmBefore = wasmMemoryBytes();
  const heapBefore = heapUsed();
  const examples = Lab.exampleNames();
  let lab = Lab.example('fingers');

  // 5,000 drags: each one undo step and a dozen pose updates.
  for (let drag = 0; drag < 5000; drag++) {
    lab.checkpoint();
    const bone = drag % lab.boneCount();
    for (let move = 1; move <= 12; move++) lab.setBonePose(bone, { rotation: aboutZ(0.01 * move * ((drag % 7) - 3)) });
    lab.skinnedPositions('lbs');
  }
  const afterDrags = wasmMemoryBytes();

  // 2,000 strokes of 10 dabs on the fingers' screen points.
  const vertices = lab.vertexCount();
  const positions = lab.skinnedPositions('lbs');
  const points = new Float32Array(2 * vertices);
  for (let v = 0; v < vertices; v++) {
    points[2 * v] = 400 + 300 * positions[3 * v];
    points[2 * v + 1] = 500 - 300 * positions[3 * v + 1];
  }
  for (let stroke = 0; stroke < 2000; stroke++) {
    lab.checkpoint();
    const bone = stroke % lab.boneCount();
    for (let dab = 0; dab < 10; dab++) {
      const v = (stroke * 13 + dab * 7) % vertices;
      lab.paintDab({ points, bone, at: [points[2 * v], points[2 * v + 1]], radius: 30, strength: 0.3, mode: stroke % 2 ? 'add' : 'subtract' });
    }
  }
  const undoBytes = lab.undoBytes();
  const afterStrokes = wasmMemoryBytes();

  // One round through every example first: the largest (the 100,000-vertex
  // tube) sets the memory's high-water mark once.
  for (const name of examples) {
    lab.free();
    lab = Lab.example(name);
    lab.skinnedPositions('dqs');
  }
  const afterOneRound = wasmMemoryBytes();
  // 200 example switches, each scene freed as the page frees it.
  for (let k = 0; k < 200; k++) {
    lab.free();
    lab = Lab.example(examples[k % examples.length]);
    lab.skinnedPositions(k % 2 ? 'dqs' : 'lbs');
  }
  lab.free();
  const wasmAfter = wasmMemoryBytes();
  const heapAfter = heapUsed();

  const mb = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
  console.log(`# wasm memory: ${mb(wasmBefore)} before, ${mb(afterDrags)} after the drags, ${mb(afterStrokes)} after the strokes, ${mb(afterOneRound)} after one round of examples, ${mb(wasmAfter)} after the switches`);
  console.log(`# undo history after the strokes: ${mb(undoBytes)}`);
  console.log(`# JS heap: ${mb(heapBefore)} before, ${mb(heapAfter)} after`);
  assert.ok(wasmAfter <= WASM_BOUND, `wasm memory ${mb(wasmAfter)} exceeds ${mb(WASM_BOUND)}`);
  assert.ok(heapAfter - heapBefore <= HEAP_GROWTH_BOUND, `the JS heap grew by ${mb(heapAfter - heapBefore)}`);
  // wasm memory never shrinks; after the first example switches it must not
  // keep growing with every switch.
  assert.ok(wasmAfter - afterOneRound <= 8 * MiB, `switching examples grew the memory by ${mb(wasmAfter - afterOneRound)}`);
});
