// Morph targets read from a glTF file built here (SimpleSkin with two
// targets added), checked against positions computed independently.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Lab } from './wasm.mjs';

/** SimpleSkin's text with two POSITION targets and names; returns the file and the data used. */
function morphedSimpleSkin() {
  const doc = JSON.parse(readFileSync(new URL('../../www/models/SimpleSkin/SimpleSkin.gltf', import.meta.url), 'utf8'));
  const positionAccessor = doc.accessors[doc.meshes[0].primitives[0].attributes.POSITION];
  const count = positionAccessor.count;
  // Target 0 lifts every vertex by its index · 0.1 in z; target 1 moves x by −0.5.
  const offsets = [
    Array.from({ length: count }, (_, v) => [0, 0, 0.1 * v]),
    Array.from({ length: count }, () => [-0.5, 0, 0]),
  ];
  const bytes = Buffer.from(new Float32Array(offsets.flat(2)).buffer);
  doc.buffers.push({ uri: `data:application/octet-stream;base64,${bytes.toString('base64')}`, byteLength: bytes.length });
  const buffer = doc.buffers.length - 1;
  const targets = offsets.map((list, k) => {
    doc.bufferViews.push({ buffer, byteOffset: k * count * 12, byteLength: count * 12 });
    const min = [0, 1, 2].map((c) => Math.min(...list.map((d) => d[c])));
    const max = [0, 1, 2].map((c) => Math.max(...list.map((d) => d[c])));
    doc.accessors.push({ bufferView: doc.bufferViews.length - 1, componentType: 5126, count, type: 'VEC3', min, max });
    return { POSITION: doc.accessors.length - 1 };
  });
  doc.meshes[0].primitives[0].targets = targets;
  doc.meshes[0].weights = [0.25, 0];
  doc.meshes[0].extras = { targetNames: ['rise', 'shift'] };
  // The file's own positions, read independently of Skinlab.
  const view = doc.bufferViews[positionAccessor.bufferView];
  const raw = Buffer.from(doc.buffers[view.buffer].uri.split(';base64,')[1], 'base64');
  const start = (view.byteOffset ?? 0) + (positionAccessor.byteOffset ?? 0);
  const base = Array.from({ length: count }, (_, v) => [0, 1, 2].map((c) => raw.readFloatLE(start + 12 * v + 4 * c)));
  return { text: JSON.stringify(doc), base, offsets };
}

test('glTF morph targets: names, default weights, and positions for several weights', () => {
  const { text, base, offsets } = morphedSimpleSkin();
  const lab = Lab.fromGltf(text);
  assert.deepEqual(lab.morphNames(), ['rise', 'shift']);
  assert.deepEqual(Array.from(lab.morphWeights()), [0.25, 0]);
  lab.resetPose();
  for (const weights of [[0, 0], [1, 0], [0, 1], [0.3, 0.6], [1.5, -0.5]]) {
    lab.setMorphWeights(weights);
    for (const method of ['lbs', 'dqs']) {
      const positions = lab.skinnedPositions(method);
      let worst = 0;
      base.forEach((p, v) => {
        for (let c = 0; c < 3; c++) {
          const expected = p[c] + weights[0] * offsets[0][v][c] + weights[1] * offsets[1][v][c];
          worst = Math.max(worst, Math.abs(positions[3 * v + c] - expected));
        }
      });
      assert.ok(worst < 1e-5, `${weights} ${method}: ${worst}`);
    }
  }
  // Written back out and read again, the targets stay.
  const again = Lab.fromGlb(lab.toGlb());
  assert.deepEqual(again.morphNames(), ['rise', 'shift']);
  assert.deepEqual(Array.from(again.morphWeights()), [1.5, -0.5]);
});
