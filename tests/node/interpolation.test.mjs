// A glTF clip with STEP, LINEAR and CUBICSPLINE channels (built here on
// SimpleSkin), sampled by Skinlab and checked against glTF's formulas and
// skinning computed independently in this test.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Lab } from './wasm.mjs';

const quatZ = (a) => [0, 0, Math.sin(a / 2), Math.cos(a / 2)];

/** The keys of the three channels: [times, values] (CUBICSPLINE: [in, value, out] per key). */
const CHANNELS = {
  rotation: { node: 2, path: 'rotation', interpolation: 'CUBICSPLINE', times: [0, 1, 2],
    keys: [[[0, 0, 0, 0], quatZ(0), [0, 0, 0.4, 0]], [[0, 0, 0.1, 0], quatZ(0.8), [0, 0, -0.2, 0]], [[0, 0, 0, 0], quatZ(0.2), [0, 0, 0, 0]]] },
  translation: { node: 2, path: 'translation', interpolation: 'STEP', times: [0, 1.5], keys: [[0, 0, 0], [0.3, 0, 0]] },
  scale: { node: 1, path: 'scale', interpolation: 'LINEAR', times: [0, 2], keys: [[1, 1, 1], [1.5, 1.5, 1.5]] },
};

function buildFile() {
  const doc = JSON.parse(readFileSync(new URL('../../www/models/SimpleSkin/SimpleSkin.gltf', import.meta.url), 'utf8'));
  const floats = [];
  const add = (values, type) => {
    const start = floats.length;
    floats.push(...values.flat(2));
    return { start, type, length: values.flat(2).length };
  };
  const pieces = [];
  const samplers = [];
  const channels = [];
  for (const channel of Object.values(CHANNELS)) {
    const input = add(channel.times.map((t) => [t]), 'SCALAR');
    const flatKeys = channel.interpolation === 'CUBICSPLINE' ? channel.keys.flat() : channel.keys;
    const output = add(flatKeys, channel.path === 'rotation' ? 'VEC4' : 'VEC3');
    pieces.push(input, output);
    samplers.push({ input: pieces.length - 2, output: pieces.length - 1, interpolation: channel.interpolation });
    channels.push({ sampler: samplers.length - 1, target: { node: channel.node, path: channel.path } });
  }
  const bytes = Buffer.from(new Float32Array(floats).buffer);
  doc.buffers.push({ uri: `data:application/octet-stream;base64,${bytes.toString('base64')}`, byteLength: bytes.length });
  const buffer = doc.buffers.length - 1;
  const base = doc.accessors.length;
  pieces.forEach((piece, k) => {
    doc.bufferViews.push({ buffer, byteOffset: piece.start * 4, byteLength: piece.length * 4 });
    const width = piece.type === 'SCALAR' ? 1 : piece.type === 'VEC3' ? 3 : 4;
    const accessor = { bufferView: doc.bufferViews.length - 1, componentType: 5126, count: piece.length / width, type: piece.type };
    if (k % 2 === 0) {
      const times = floats.slice(piece.start, piece.start + piece.length);
      accessor.min = [Math.min(...times)];
      accessor.max = [Math.max(...times)];
    }
    doc.accessors.push(accessor);
  });
  doc.animations = [{ name: 'mixed', samplers: samplers.map((s) => ({ ...s, input: base + s.input, output: base + s.output })), channels }];
  return doc;
}

/** glTF's sampling of one channel at time t. */
function sample(channel, t) {
  const { times, keys, interpolation, path } = channel;
  const value = (k) => (interpolation === 'CUBICSPLINE' ? keys[k][1] : keys[k]);
  if (t <= times[0]) return value(0);
  if (t >= times[times.length - 1]) return value(times.length - 1);
  let k = 0;
  while (times[k + 1] <= t) k += 1;
  const span = times[k + 1] - times[k];
  const s = (t - times[k]) / span;
  if (interpolation === 'STEP') return value(k);
  if (interpolation === 'LINEAR') return value(k).map((v, c) => v + (value(k + 1)[c] - v) * s);
  const out = keys[k][2];
  const into = keys[k + 1][0];
  const p = value(k).map((v, c) => (2 * s ** 3 - 3 * s ** 2 + 1) * v + (s ** 3 - 2 * s ** 2 + s) * span * out[c]
    + (-2 * s ** 3 + 3 * s ** 2) * value(k + 1)[c] + (s ** 3 - s ** 2) * span * into[c]);
  if (path !== 'rotation') return p;
  const n = Math.hypot(...p);
  return p.map((v) => v / n);
}

// Column-major 4x4 helpers.
const multiply = (a, b) => Array.from({ length: 16 }, (_, i) => {
  const row = i % 4; const col = Math.floor(i / 4);
  let sum = 0;
  for (let k = 0; k < 4; k++) sum += a[k * 4 + row] * b[col * 4 + k];
  return sum;
});
function trs([tx, ty, tz], [x, y, z, w], [sx, sy, sz]) {
  const r = [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
    2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
    2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)];
  return [r[0] * sx, r[1] * sx, r[2] * sx, 0, r[3] * sy, r[4] * sy, r[5] * sy, 0, r[6] * sz, r[7] * sz, r[8] * sz, 0, tx, ty, tz, 1];
}

/** Reads accessor `index` (float or unsigned short), any stride. */
function read(doc, index, width) {
  const accessor = doc.accessors[index];
  const view = doc.bufferViews[accessor.bufferView];
  const raw = Buffer.from(doc.buffers[view.buffer].uri.split(';base64,')[1], 'base64');
  const size = accessor.componentType === 5123 ? 2 : 4;
  const stride = view.byteStride ?? size * width;
  const start = (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
  return Array.from({ length: accessor.count }, (_, e) => Array.from({ length: width }, (_, c) => {
    const at = start + e * stride + c * size;
    return size === 2 ? raw.readUInt16LE(at) : raw.readFloatLE(at);
  }));
}

test('STEP, LINEAR and CUBICSPLINE channels pose the skin as glTF says, between keys too', () => {
  const doc = buildFile();
  const lab = Lab.fromGltf(JSON.stringify(doc));
  assert.deepEqual(lab.animationNames(), ['mixed']);
  const primitive = doc.meshes[0].primitives[0].attributes;
  const positions = read(doc, primitive.POSITION, 3);
  const joints = read(doc, primitive.JOINTS_0, 4);
  const weights = read(doc, primitive.WEIGHTS_0, 4);
  const binds = read(doc, doc.skins[0].inverseBindMatrices, 16);
  let worst = 0;
  for (const t of [0.3, 0.5, 0.99, 1.2, 1.6, 1.95, 2.5]) {
    lab.setAnimationTime(0, t);
    const got = lab.skinnedPositions('lbs');
    const local1 = trs(doc.nodes[1].translation, [0, 0, 0, 1], sample(CHANNELS.scale, t));
    const local2 = trs(sample(CHANNELS.translation, t), sample(CHANNELS.rotation, t), [1, 1, 1]);
    const globals = [local1, multiply(local1, local2)];
    const jointMatrices = [0, 1].map((j) => multiply(globals[j], binds[j]));
    positions.forEach((p, v) => {
      const z = [0, 0, 0];
      for (let k = 0; k < 4; k++) {
        const m = jointMatrices[joints[v][k]];
        for (let c = 0; c < 3; c++) z[c] += weights[v][k] * (m[c] * p[0] + m[4 + c] * p[1] + m[8 + c] * p[2] + m[12 + c]);
      }
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(got[3 * v + c] - z[c]));
    });
  }
  console.log(`# mixed clip: worst |Skinlab − glTF by hand| = ${worst.toExponential(1)} over 7 times`);
  assert.ok(worst < 1e-4, `${worst}`);
});

/** Largest |a − b| over the skinned positions of two labs at the same clip time. */
function worstDifference(a, b, clip, times) {
  let worst = 0;
  for (const t of times) {
    a.setAnimationTime(clip, t);
    b.setAnimationTime(clip, t);
    const [p, q] = [a.skinnedPositions('lbs'), b.skinnedPositions('lbs')];
    for (let k = 0; k < p.length; k++) worst = Math.max(worst, Math.abs(p[k] - q[k]));
  }
  return worst;
}

test('Save scene keeps every clip: the mixed clip and the Fox\'s Survey, Walk and Run replay alike from the scene JSON', () => {
  const mixed = Lab.fromGltf(JSON.stringify(buildFile()));
  const mixedCopy = Lab.fromSceneJson(mixed.sceneJson());
  assert.deepEqual(mixedCopy.animationNames(), ['mixed']);
  assert.ok(worstDifference(mixed, mixedCopy, 0, [0.3, 0.99, 1.6, 2.5]) < 1e-5);
  const fox = Lab.fromGltf(readFileSync(new URL('../../www/models/Fox/Fox.gltf', import.meta.url), 'utf8'));
  const copy = Lab.fromSceneJson(fox.sceneJson());
  assert.deepEqual(copy.animationNames(), fox.animationNames());
  fox.animationNames().forEach((name, clip) => {
    const duration = fox.animationDuration(clip);
    assert.equal(copy.animationDuration(clip), duration);
    const worst = worstDifference(fox, copy, clip, [0.1, 0.37, 0.5, 0.81].map((f) => f * duration));
    console.log(`# Fox ${name}: worst |saved − loaded| = ${worst.toExponential(1)}`);
    assert.ok(worst < 1e-4, `${name}: ${worst}`);
  });
});

test('keys authored through the API: step holds, linear and smooth pass through the keys, and the smooth curve differs between them', () => {
  const lab = Lab.example('two-bone');
  const clip = lab.addAnimation('bend');
  const angles = [0, 1.2, -0.4];
  angles.forEach((angle, k) => {
    lab.setBonePose(1, { rotation: [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)], translation: [0, 0, 0], scale: [1, 1, 1] });
    lab.setKey(clip, 1, { time: k, interpolation: 'linear' });
  });
  assert.deepEqual(Array.from(lab.keyTimes(clip, 1)), [0, 1, 2]);
  const at = (how, t) => {
    lab.setKeyInterpolation(clip, 1, how);
    lab.setAnimationTime(clip, t);
    const [, , z, w] = lab.bonePose(1).rotation;
    return 2 * Math.atan2(z, w);
  };
  assert.ok(Math.abs(at('step', 0.9) - 0) < 1e-6);
  assert.ok(Math.abs(at('linear', 0.5) - 0.6) < 1e-5);
  assert.ok(Math.abs(at('linear', 1) - 1.2) < 1e-5);
  assert.ok(Math.abs(at('smooth', 1) - 1.2) < 1e-5);
  assert.equal(lab.keyInterpolation(clip, 1), 'CUBICSPLINE');
  assert.ok(Math.abs(at('smooth', 0.5) - at('linear', 0.5)) > 0.01, 'Catmull-Rom tangents bend the curve');
  assert.throws(() => lab.setKey(clip, 1, { time: 0, interpolation: 'bouncy' }), /setKey: interpolation 'bouncy' is not step, linear or smooth/);
  assert.throws(() => lab.setKey(5, 1, { time: 0 }), /setKey: animation 5 does not exist \(the scene has 1\)/);
});
