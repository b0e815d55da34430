// Hostile glTF files that are small on disk but ask for gigabytes: each is
// refused by name before its memory is allocated (wasm memory measured),
// and the scene loaded before keeps posing and saving as it did.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Lab, wasmMemoryBytes, aboutZ } from './wasm.mjs';

const MiB = 1 << 20;

/**
 * A skinned triangle (two joints) whose buffer 0 holds the triangle and
 * `extra` bytes after it (at byte 48), with `more(doc)` adding accessors,
 * animations or targets; the buffer travels as a data URI.
 */
function hostile(extra, more) {
  const base = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const joints = new Uint8Array([0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0]);
  const weights = new Float32Array([1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0]);
  const head = 36 + 12 + 48;
  const bytes = new Uint8Array(head + extra.length);
  bytes.set(new Uint8Array(base.buffer), 0);
  bytes.set(joints, 36);
  bytes.set(new Uint8Array(weights.buffer), 48);
  bytes.set(extra, head);
  const doc = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0, 1] }],
    nodes: [{ mesh: 0, skin: 0 }, { children: [2] }, { translation: [0, 1, 0] }],
    skins: [{ joints: [1, 2] }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, JOINTS_0: 1, WEIGHTS_0: 2 } }] }],
    buffers: [{ byteLength: bytes.length, uri: `data:application/octet-stream;base64,${Buffer.from(bytes).toString('base64')}` }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: 36 },
      { buffer: 0, byteOffset: 36, byteLength: 12 },
      { buffer: 0, byteOffset: 48, byteLength: 48 },
      { buffer: 0, byteOffset: head, byteLength: extra.length },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 1, componentType: 5121, count: 3, type: 'VEC4' },
      { bufferView: 2, componentType: 5126, count: 3, type: 'VEC4' },
    ],
  };
  more(doc);
  return JSON.stringify(doc);
}

/** A lab posed and saved, to compare after a hostile load fails. */
function previousScene() {
  const lab = Lab.example('y-junction');
  lab.setBonePose(1, { rotation: aboutZ(0.4) });
  return { lab, saved: lab.sceneJson(), glb: lab.toGlb() };
}

/** Loads `text`, expecting a refusal matching `pattern`; the memory it grew by, in bytes. */
function refuses(text, pattern) {
  const before = wasmMemoryBytes();
  assert.throws(() => Lab.fromGltf(text), pattern);
  return wasmMemoryBytes() - before;
}

test('250 animations sharing one sampler of 200,000 keys are refused before they are read', () => {
  const { lab, saved, glb } = previousScene();
  const keys = 200_000;
  const times = new Float32Array(keys).map((_, k) => k / 30);
  const rotations = new Float32Array(4 * keys).map((_, k) => (k % 4 === 3 ? 1 : 0));
  const extra = new Uint8Array(times.byteLength + rotations.byteLength);
  extra.set(new Uint8Array(times.buffer), 0);
  extra.set(new Uint8Array(rotations.buffer), times.byteLength);
  const text = hostile(extra, (doc) => {
    doc.bufferViews.push({ buffer: 0, byteOffset: doc.bufferViews[3].byteOffset + times.byteLength, byteLength: rotations.byteLength });
    doc.bufferViews[3].byteLength = times.byteLength;
    doc.accessors.push(
      { bufferView: 3, componentType: 5126, count: keys, type: 'SCALAR', min: [0], max: [times[keys - 1]] },
      { bufferView: 4, componentType: 5126, count: keys, type: 'VEC4' },
    );
    doc.animations = Array.from({ length: 250 }, () => ({
      samplers: [{ input: 3, output: 4 }],
      channels: [{ sampler: 0, target: { node: 2, path: 'rotation' } }],
    }));
  });
  const grew = refuses(text, /accessors\[[34]\] would take \d+ bytes to read, bringing the scene to \d+ bytes or more; at most 268435456 \(256 MiB\)/);
  console.log(`# ${(text.length / MiB).toFixed(1)} MiB of glTF asking for ${(250 * 20 * keys / MiB).toFixed(0)} MiB: memory grew by ${(grew / MiB).toFixed(0)} MiB`);
  assert.ok(grew < 32 * MiB, `refused before the buffers are decoded: grew ${grew}`);
  assert.equal(lab.sceneJson(), saved, 'the scene before is untouched');
  assert.deepEqual(lab.toGlb(), glb, 'and exports byte for byte as before');
  lab.setBonePose(2, { rotation: aboutZ(-0.3) });
  assert.notEqual(lab.sceneJson(), saved, 'and still poses');
  lab.free();
});

test('a byteStride of 0 (or below the element) is refused by name', () => {
  for (const stride of [0, 4, 8]) {
    const text = hostile(new Uint8Array(0), (doc) => {
      doc.bufferViews[0].byteStride = stride;
    });
    refuses(text, new RegExp(`bufferViews\\[0\\]\\.byteStride ${stride} is below the element size 12`));
  }
});

test('a POSITION count of 40,000,000 over a 12-byte view is refused before it is read', () => {
  const { lab, saved } = previousScene();
  const text = hostile(new Uint8Array(0), (doc) => {
    doc.accessors[0].count = 40_000_000;
  });
  const grew = refuses(text, /would take 480000000 bytes to read/);
  assert.ok(grew < 16 * MiB, `nothing of the declared 480 MB allocated: grew ${grew}`);
  assert.equal(lab.sceneJson(), saved);
  lab.free();
});

test('1000 morph targets sharing one 100,000-vertex accessor are refused before they are read', () => {
  const { lab, saved } = previousScene();
  // The targets' offsets: zeros without a buffer view, 100,000 × 3 each.
  const text = hostile(new Uint8Array(0), (doc) => {
    doc.accessors[0].count = 3;
    doc.accessors.push({ componentType: 5126, count: 100_000, type: 'VEC3' });
    // The base mesh has 100,000 vertices too (zeros), so the targets fit it.
    doc.accessors.push({ componentType: 5126, count: 100_000, type: 'VEC3' });
    doc.meshes[0].primitives[0].attributes = { POSITION: 4 };
    doc.meshes[0].primitives[0].targets = Array.from({ length: 1000 }, () => ({ POSITION: 3 }));
    doc.meshes[0].weights = new Array(1000).fill(0);
    doc.nodes[0] = { mesh: 0 };
  });
  const grew = refuses(text, /accessors\[3\] would take 1200000 bytes to read, bringing the scene to 1201200000 bytes or more; at most 268435456/);
  assert.ok(grew < 16 * MiB, `refused before a byte is read: grew ${grew}`);
  assert.equal(lab.sceneJson(), saved);
  lab.free();
});

test('a path of 100,000 Bézier segments is refused by name, from a file and from the API', () => {
  const lab = Lab.example('path');
  const doc = JSON.parse(lab.sceneJson());
  const segments = 100_000;
  doc.paths[0].points = Array.from({ length: 3 * (3 * segments + 1) }, (_, k) => (k % 3 === 0 ? k / 9 : 0));
  const text = JSON.stringify(doc);
  assert.ok(text.length > 2 * MiB, 'megabytes of JSON');
  const saved = lab.sceneJson();
  assert.throws(() => Lab.fromSceneJson(text), /100000 segments; at most 4096 are read/);
  assert.throws(() => lab.addPath({ points: doc.paths[0].points, bone: null, duration: 4, timing: 'uniform' }), /100000 segments; at most 4096/);
  assert.equal(lab.sceneJson(), saved, 'the scene is as it was');
  // At the limit the diagnostics stay quick: one pass of the integral.
  const index = lab.addPath({ points: doc.paths[0].points.slice(0, 3 * (3 * 4096 + 1)), bone: null, duration: 4, timing: 'uniform' });
  const started = process.hrtime.bigint();
  const error = lab.pathError(index, 256);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(`# pathError on 4096 segments: ${ms.toFixed(0)} ms`);
  assert.ok(Number.isFinite(error.exactLength) && error.exactLength > 0);
  lab.free();
});

/** A strip of `rungs` rungs along x and a chain of `bones` bones along it, as scene JSON. */
function longStrip(rungs, bones) {
  const positions = [];
  const indices = [];
  const influences = [];
  for (let k = 0; k < rungs; k++) {
    positions.push(k / rungs, -0.01, 0, k / rungs, 0.01, 0);
    influences.push([[0, 1]], [[0, 1]]);
    if (k + 1 < rungs) indices.push(2 * k, 2 * k + 2, 2 * k + 1, 2 * k + 1, 2 * k + 2, 2 * k + 3);
  }
  const length = 1 / bones;
  const chain = Array.from({ length: bones }, (_, b) => ({
    name: `link ${b + 1}`,
    parent: b === 0 ? null : b - 1,
    origin: [0, 0, 0],
    // The first bone turns +Y onto +X; the rest follow along.
    orientation: b === 0 ? [0, 0, -Math.SQRT1_2, Math.SQRT1_2] : [0, 0, 0, 1],
    length,
  }));
  return JSON.stringify({ bones: chain, mesh: { positions, indices }, influences });
}

test('distance weights for 4,000 bones on 20,000 vertices keep only each vertex\'s four largest', () => {
  const lab = Lab.fromSceneJson(longStrip(10_000, 4000));
  const before = wasmMemoryBytes();
  const report = lab.autoWeights('distance');
  const grew = wasmMemoryBytes() - before;
  console.log(`# distance weights, 4,000 bones × 20,000 vertices: wasm memory grew by ${(grew / MiB).toFixed(1)} MiB`);
  // A table of every bone for every vertex would be 80 million pairs (640 MB).
  assert.ok(grew < 64 * MiB, `grew ${grew}`);
  assert.equal(report.prunedVertices, 20_000, 'every vertex had more than four bones to choose from');
  // Each vertex's heaviest bone is the one it lies on (the chain runs along the strip).
  for (const v of [0, 4999, 10_000, 19_999]) {
    const [x] = lab.skinnedVertex('lbs', v);
    const [bone] = lab.influences(v).reduce((a, b) => (b[1] > a[1] ? b : a));
    assert.ok(Math.abs(bone - Math.min(3999, Math.floor(x * 4000))) <= 1, `vertex ${v} at x ${x}: bone ${bone}`);
  }
  lab.free();
});
