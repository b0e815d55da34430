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

test('glTF weights channels: LINEAR, STEP and CUBICSPLINE keys of the morph weights, kept by Save scene and Export glTF', () => {
  const { text } = morphedSimpleSkin();
  const doc = JSON.parse(text);
  const meshNode = doc.nodes.findIndex((node) => node.mesh === 0);
  const times = [0, 1, 3];
  // Two weights per key; for CUBICSPLINE in-tangents, values, out-tangents.
  const values = [[0, 0], [1, 0], [0.5, 1]];
  const tangents = [[[0, 0], [2, 0]], [[0, 1], [0, -1]], [[0.5, 0], [0, 0]]];
  const cubic = times.flatMap((_, k) => [...tangents[k][0], ...values[k], ...tangents[k][1]]);
  const floats = [...times, ...values.flat(), ...cubic];
  const bytes = Buffer.from(new Float32Array(floats).buffer);
  doc.buffers.push({ uri: `data:application/octet-stream;base64,${bytes.toString('base64')}`, byteLength: bytes.length });
  const buffer = doc.buffers.length - 1;
  const accessor = (offset, count) => {
    doc.bufferViews.push({ buffer, byteOffset: 4 * offset, byteLength: 4 * count });
    doc.accessors.push({ bufferView: doc.bufferViews.length - 1, componentType: 5126, count, type: 'SCALAR' });
    return doc.accessors.length - 1;
  };
  const input = accessor(0, 3);
  doc.accessors[input].min = [0];
  doc.accessors[input].max = [3];
  const linear = accessor(3, 6);
  const spline = accessor(9, 18);
  doc.animations = ['LINEAR', 'STEP', 'CUBICSPLINE'].map((interpolation) => ({
    name: interpolation,
    channels: [{ sampler: 0, target: { node: meshNode, path: 'weights' } }],
    samplers: [{ input, output: interpolation === 'CUBICSPLINE' ? spline : linear, interpolation }],
  }));
  const lab = Lab.fromGltf(JSON.stringify(doc));
  assert.deepEqual(lab.animationNames(), ['LINEAR', 'STEP', 'CUBICSPLINE']);
  // glTF's sampling, by hand: t = 2 is halfway through the second interval (Δ = 2).
  const hermite = (s, span, a, outA, b, inB) => (2 * s ** 3 - 3 * s ** 2 + 1) * a + (s ** 3 - 2 * s ** 2 + s) * span * outA
    + (-2 * s ** 3 + 3 * s ** 2) * b + (s ** 3 - s ** 2) * span * inB;
  const expected = {
    LINEAR: { 0.5: [0.5, 0], 2: [0.75, 0.5], 9: [0.5, 1] },
    STEP: { 0.5: [0, 0], 2: [1, 0], 9: [0.5, 1] },
    CUBICSPLINE: {
      0.5: [0, 1].map((c) => hermite(0.5, 1, values[0][c], tangents[0][1][c], values[1][c], tangents[1][0][c])),
      2: [0, 1].map((c) => hermite(0.5, 2, values[1][c], tangents[1][1][c], values[2][c], tangents[2][0][c])),
      9: [0.5, 1],
    },
  };
  const copies = { saved: Lab.fromSceneJson(lab.sceneJson()), exported: Lab.fromGlb(lab.toGlb()) };
  ['LINEAR', 'STEP', 'CUBICSPLINE'].forEach((name, clip) => {
    for (const [time, weights] of Object.entries(expected[name])) {
      for (const [label, subject] of [['read', lab], ...Object.entries(copies)]) {
        subject.setAnimationTime(clip, Number(time));
        const got = Array.from(subject.morphWeights());
        got.forEach((w, k) => assert.ok(Math.abs(w - weights[k]) < 1e-6, `${label} ${name} at ${time}: ${got} vs ${weights}`));
      }
    }
  });
});

test('the face says "mama" through a keyed clip: morph weights and the jaw together', () => {
  const lab = Lab.example('face');
  assert.deepEqual(lab.animationNames(), ['mama']);
  assert.deepEqual(Array.from(lab.morphKeyTimes(0)).map((t) => Number(t.toFixed(2))), [0, 0.15, 0.35, 0.55, 0.8, 1.1]);
  lab.setAnimationTime(0, 0.35);
  const weights = Array.from(lab.morphWeights());
  assert.ok(Math.abs(weights[0] - 1) < 1e-6 && weights.slice(1).every((w) => w === 0), `A at 0.35 s: ${weights}`);
  assert.ok(Math.abs(lab.bonePose(1).translation[1] - 0.12) < 1e-6, 'the jaw is open on the A');
  lab.setAnimationTime(0, 0.25);
  const between = Array.from(lab.morphWeights());
  assert.ok(Math.abs(between[0] - 0.5) < 1e-5 && Math.abs(between[2] - 0.5) < 1e-5, `halfway from M to A: ${between}`);
});

test('lip-sync keyed by the readers\' module: "speech" replaces its own clip, "recording" is added, and the jaw follows the loudness', () => {
  const lab = Lab.example('face');
  const first = lab.sayText('mama', 'en');
  assert.deepEqual([...lab.animationNames()], ['mama', 'speech']);
  assert.equal(first.clip, 1);
  assert.equal(first.track[0].viseme, 'MBP');
  const again = lab.sayText('oma', 'de');
  assert.equal(again.clip, 1, 'the clip of the same name is replaced');
  assert.deepEqual([...lab.animationNames()], ['mama', 'speech']);
  assert.ok(Math.abs(lab.animationDuration(1) - (again.track.at(-1).time + again.track.at(-1).duration)) < 1e-6);
  // Quiet for the first half second, loud after.
  const rate = 48000;
  const samples = new Float32Array(rate).map((_, i) => Math.sin(i / 10) * (i < rate / 2 ? 0.01 : 1));
  const heard = lab.sayRecording(samples, rate);
  assert.equal(heard.clip, 2);
  assert.deepEqual([...lab.animationNames()], ['mama', 'speech', 'recording']);
  assert.equal(heard.openness.length, 30);
  assert.ok(heard.openness[5] < 0.2 && heard.openness[25] > 0.8, JSON.stringify(heard.openness));
});
