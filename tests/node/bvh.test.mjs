// BVH motion capture read by Skinlab and by three.js's BVHLoader (the
// oracle): random hierarchies with random channel orders, positions on
// random joints, every frame compared joint by joint; and key reduction
// checked frame by frame against the capture, here, not by the core.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as THREE from 'three';
import { BVHLoader } from 'three/examples/jsm/loaders/BVHLoader.js';
import { Lab } from './wasm.mjs';
import { walkBvh } from '../support/walk-bvh.mjs';

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AXES = ['X', 'Y', 'Z'];

/** A random BVH: a tree of `joints` joints, each with a random rotation
 * order (sometimes repeating an axis), positions on the root and on some
 * other joints, an end site on each leaf, and `frames` random frames. */
function randomBvh(seed, joints = 12, frames = 20) {
  const next = random(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const nodes = [];
  for (let k = 0; k < joints; k += 1) {
    const parent = k === 0 ? null : Math.floor(next() * k);
    const rotations = [0, 1, 2].map(() => pick(AXES)).map((a) => `${a}rotation`);
    const shuffled = ['X', 'Y', 'Z'].sort(() => next() - 0.5);
    const order = next() < 0.8 ? shuffled.map((a) => `${a}rotation`) : rotations;
    const positions = (k === 0 || next() < 0.2) ? ['X', 'Y', 'Z'].map((a) => `${a}position`) : [];
    const channels = next() < 0.5 ? [...positions, ...order] : [...order, ...positions];
    const offset = [next() * 4 - 2, next() * 4 - 2, next() * 4 - 2].map((v) => (k === 0 ? v * 0.1 : v));
    nodes.push({ name: `j${k}`, parent, channels, offset, children: [] });
    if (parent !== null) nodes[parent].children.push(k);
  }
  const lines = ['HIERARCHY'];
  const order = [];
  const write = (k, depth) => {
    const node = nodes[k];
    order.push(k);
    const pad = '  '.repeat(depth);
    lines.push(`${pad}${k === 0 ? 'ROOT' : 'JOINT'} ${node.name}`, `${pad}{`);
    lines.push(`${pad}  OFFSET ${node.offset.map((v) => v.toFixed(5)).join(' ')}`);
    lines.push(`${pad}  CHANNELS ${node.channels.length} ${node.channels.join(' ')}`);
    for (const child of node.children) write(child, depth + 1);
    if (node.children.length === 0) {
      lines.push(`${pad}  End Site`, `${pad}  {`, `${pad}    OFFSET 0.00000 ${(next() + 0.2).toFixed(5)} 0.00000`, `${pad}  }`);
    }
    lines.push(`${pad}}`);
  };
  write(0, 0);
  lines.push('MOTION', `Frames: ${frames}`, 'Frame Time: 0.0333333');
  for (let f = 0; f < frames; f += 1) {
    const values = [];
    for (const k of order) {
      for (const channel of nodes[k].channels) {
        values.push(channel.endsWith('rotation') ? next() * 360 - 180 : next() * 2 - 1);
      }
    }
    lines.push(values.map((v) => v.toFixed(4)).join(' '));
  }
  return lines.join('\n') + '\n';
}

/** three.js's joint positions at each frame: the clip played by a mixer. */
function threePositions(text) {
  const { skeleton, clip } = new BVHLoader().parse(text);
  const root = skeleton.bones[0];
  const mixer = new THREE.AnimationMixer(root);
  // Played once and held: a looping action wraps the last frame to the first.
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  const frameTime = clip.tracks[0].times[1] - clip.tracks[0].times[0];
  const frames = clip.tracks[0].times.length;
  const out = [];
  for (let f = 0; f < frames; f += 1) {
    mixer.setTime(clip.tracks[0].times[f]);
    root.updateMatrixWorld(true);
    out.push(skeleton.bones.map((bone) => bone.getWorldPosition(new THREE.Vector3())));
  }
  return { out, frameTime, times: clip.tracks[0].times };
}

function figureSize(positions) {
  const box = new THREE.Box3();
  for (const frame of positions) for (const p of frame) box.expandByPoint(p);
  return box.getSize(new THREE.Vector3()).length();
}

test('joint positions match three.js BVHLoader at every frame of random hierarchies', () => {
  for (let seed = 1; seed <= 12; seed += 1) {
    const text = randomBvh(seed, 6 + (seed % 10), 15);
    const { out: expected, times } = threePositions(text);
    const lab = Lab.fromBvh(text);
    assert.equal(lab.boneCount(), expected[0].length, `seed ${seed}: one bone per joint and end site`);
    const size = figureSize(expected);
    let worst = 0;
    times.forEach((time, f) => {
      lab.setAnimationTime(0, time);
      const found = lab.jointPositions();
      expected[f].forEach((p, j) => {
        const d = Math.hypot(found[3 * j] - p.x, found[3 * j + 1] - p.y, found[3 * j + 2] - p.z);
        worst = Math.max(worst, d / size);
      });
    });
    assert.ok(worst < 1e-5, `seed ${seed}: a joint is ${worst} of the figure's size from three.js`);
    lab.free();
  }
});

test('the shipped capture reads and its body is skinned to the joints', () => {
  const text = readFileSync(new URL('../../www/models/Walk/walk.bvh', import.meta.url), 'utf8');
  assert.equal(text, walkBvh(), 'walk.bvh is what tests/support/walk-bvh.mjs writes');
  const { out: expected, times } = threePositions(text);
  const lab = Lab.fromBvh(text);
  assert.deepEqual(lab.animationNames(), ['capture']);
  const size = figureSize(expected);
  for (const f of [0, Math.floor(times.length / 2), times.length - 1]) {
    lab.setAnimationTime(0, times[f]);
    const found = lab.jointPositions();
    expected[f].forEach((p, j) => {
      const d = Math.hypot(found[3 * j] - p.x, found[3 * j + 1] - p.y, found[3 * j + 2] - p.z);
      assert.ok(d < 1e-5 * size, `frame ${f} joint ${j}: ${d}`);
    });
  }
  // The body moves with the capture: skinned vertices differ between frames.
  lab.setAnimationTime(0, times[0]);
  const first = Float32Array.from(lab.skinnedPositions('lbs'));
  lab.setAnimationTime(0, times[Math.floor(times.length / 2)]);
  const middle = lab.skinnedPositions('lbs');
  let moved = 0;
  for (let k = 0; k < first.length; k += 1) moved = Math.max(moved, Math.abs(first[k] - middle[k]));
  assert.ok(moved > 0.05 * size, `the body moved ${moved}`);
  lab.free();
});

test('key reduction keeps every joint within its tolerance at every captured frame', () => {
  const text = readFileSync(new URL('../../www/models/Walk/walk.bvh', import.meta.url), 'utf8');
  const { out: captured, times } = threePositions(text);
  const size = figureSize(captured);
  let previousKeys = Infinity;
  for (const fraction of [0.001, 0.01, 0.05]) {
    const tolerance = fraction * size;
    const lab = Lab.fromBvh(text);
    const preview = lab.reduceKeys(0, tolerance, false);
    const report = lab.reduceKeys(0, tolerance);
    assert.deepEqual(preview, report, 'a dry run reports what applying does');
    assert.ok(report.after < report.before, `${fraction}: ${report.after} of ${report.before} keys`);
    assert.ok(report.after <= previousKeys, 'a looser bound keeps no more keys');
    previousKeys = report.after;
    let worst = 0;
    times.forEach((time, f) => {
      lab.setAnimationTime(0, time);
      const found = lab.jointPositions();
      captured[f].forEach((p, j) => {
        worst = Math.max(worst, Math.hypot(found[3 * j] - p.x, found[3 * j + 1] - p.y, found[3 * j + 2] - p.z));
      });
    });
    // three.js computes in f64: allow its rounding difference on top.
    assert.ok(worst <= tolerance + 1e-5 * size, `${fraction}: a joint strays ${worst} > ${tolerance}`);
    assert.ok(Math.abs(worst - report.maxError) <= 1e-5 * size, `reported ${report.maxError}, measured ${worst}`);
    lab.free();
  }
});

test('broken BVH files are refused with the line of the problem', () => {
  const good = randomBvh(3, 4, 2);
  const cases = [
    [good.replace('Zrotation', 'Wrotation'), /fromBvh: line \d+: 'Wrotation' is not a channel/],
    [good.replace('Frames: 2', 'Frames: 3'), /need \d+ values, the file has/],
    [good.replace('Frames: 2', 'Frames: 9999999999'), /more than \d+ values/],
    ['HIERARCHY\nMOTION\n', /expected ROOT/],
    ['', /expected HIERARCHY, found 'the end of the file'/],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => Lab.fromBvh(text), message);
  }
});

test('rotation samples: blended matrices collapse, slerp stays a rotation, Euler angles turn in proportion', () => {
  const half = Lab.rotationSamples({ method: 'matrix', from: [0, 0, 0], to: [Math.PI, 0, 0], steps: 3 });
  assert.ok(Math.abs(half[1].determinant) < 1e-12, `det at t = 0.5: ${half[1].determinant}`);
  const from = [0.4, -1.1, 2.2];
  const to = [-2.0, 0.9, -0.3];
  for (const sample of Lab.rotationSamples({ method: 'slerp', from: from, to: to, steps: 17 })) {
    assert.ok(Math.abs(sample.determinant - 1) < 1e-6);
    assert.ok(sample.orthonormalityError < 1e-6);
  }
  // R(x, y, z) = Rz(z) · Ry(y) · Rx(x), built here with three.js's Euler order 'ZYX' (matrix Rz · Ry · Rx)
  // which turns about X first.
  for (const sample of Lab.rotationSamples({ method: 'euler', from: from, to: to, steps: 5 })) {
    const angles = from.map((a, k) => a + (to[k] - a) * sample.t);
    const expected = new THREE.Matrix4().makeRotationFromEuler(new THREE.Euler(...angles, 'ZYX'));
    const e = expected.elements;
    const m = sample.matrix;
    const columnMajor3 = [e[0], e[1], e[2], e[4], e[5], e[6], e[8], e[9], e[10]];
    columnMajor3.forEach((v, k) => assert.ok(Math.abs(v - m[k]) < 1e-9, `t ${sample.t} entry ${k}: ${m[k]} vs ${v}`));
  }
  assert.throws(() => Lab.rotationSamples({ method: 'nlerp', from: from, to: to, steps: 3 }), /rotationSamples: method 'nlerp'/);
  assert.throws(() => Lab.rotationSamples({ method: 'slerp', from: [0, 0], to: to, steps: 3 }), /three finite Euler angles/);
});
