// Skinning throughput as wasm in Node, and three.js's
// SkinnedMesh.applyBoneTransform on the same mesh and pose, side by side:
// 10k, 100k and 1M vertices, four influences each, a 64-bone chain.
// Prints `BENCH key=value` lines for `cargo xtask bench`, which also runs
// the native figures (benches/skinning.rs) and prints the ratios.
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as THREE from 'three';
import { Lab } from '../node/wasm.mjs';

const BONES = 64;
const LENGTH = 8 / BONES;
const SIZES = [10_000, 100_000, 1_000_000];
/**
 * Each figure is the best of this many rounds, the four wasm figures (and
 * three.js's) taken in turn in each round: on a shared machine a burst of
 * load lasting seconds would otherwise lower every timed call of one
 * figure (seen here: LBS on 10,000 vertices at 62 and 93 M vertices/s in
 * two runs a minute apart).
 */
const ROUNDS = 3;

/** The same cylinder as benches/skinning.rs: golden-angle points up the Y axis. */
function vertex(v, count) {
  const angle = v * 0.618034 * 2 * Math.PI;
  const height = (8 * v) / count;
  const bone = Math.min(Math.floor((v * BONES) / count), BONES - 4);
  return { position: [Math.cos(angle), height, Math.sin(angle)], bones: [bone, bone + 1, bone + 2, bone + 3] };
}
const WEIGHTS = [0.4, 0.3, 0.2, 0.1];
/** Each bone's turn in the pose: a bend and a twist growing along the chain. */
const turn = (b) => new THREE.Quaternion().setFromEuler(new THREE.Euler(0, (2 / BONES), (1.2 / BONES) * (b % 2 ? 1 : 0.5)));

function sceneJson(count) {
  const positions = new Array(3 * count);
  const influences = new Array(count);
  for (let v = 0; v < count; v++) {
    const { position, bones } = vertex(v, count);
    positions[3 * v] = position[0];
    positions[3 * v + 1] = position[1];
    positions[3 * v + 2] = position[2];
    influences[v] = bones.map((b, k) => [b, WEIGHTS[k]]);
  }
  const bones = Array.from({ length: BONES }, (_, b) => ({
    parent: b === 0 ? null : b - 1, origin: [0, 0, 0], orientation: [0, 0, 0, 1], length: LENGTH,
  }));
  return JSON.stringify({ bones, mesh: { positions, indices: [] }, influences });
}

/**
 * Calls `job` for a second before anything is timed: V8 first runs wasm
 * and JavaScript with its baseline compilers and moves a function to its
 * optimising compiler only after it has run a while (in the page, within
 * the first second of dragging). Both sides are measured in that steady
 * state.
 */
function warmUp(job) {
  const started = performance.now();
  do job(); while (performance.now() - started < 1000);
}

/** The fastest of `runs` calls, seconds, after a warm-up. */
function fastest(runs, job) {
  warmUp(job);
  let best = Infinity;
  for (let k = 0; k < runs; k++) {
    const started = performance.now();
    job();
    best = Math.min(best, (performance.now() - started) / 1000);
  }
  return best;
}

function wasmRates(count) {
  const lab = Lab.fromSceneJson(sceneJson(count));
  for (let b = 0; b < BONES; b++) {
    const q = turn(b);
    lab.setBonePose(b, { rotation: [q.x, q.y, q.z, q.w] });
  }
  // At least 20 timed calls: the fastest of a few is at the mercy of a
  // shared machine's load.
  const runs = Math.max(20, Math.min(100, Math.round(5e6 / count)));
  let flip = 0;
  // A changed pose makes the next call skin again: skinnedPositions the
  // positions alone (what applyBoneTransform gives), skinnedNormals the
  // positions and the normals.
  const rate = (method, read) => {
    const seconds = fastest(runs, () => {
      flip = 1 - flip;
      lab.setBonePose(BONES - 1, { rotation: [0, 0, 0.01 * flip, 1] });
      read(method);
    });
    return count / seconds / 1e6;
  };
  const positions = (method) => lab.skinnedPositions(method);
  const normals = (method) => lab.skinnedNormals(method);
  const result = { lbs: 0, dqs: 0, lbsNormals: 0, dqsNormals: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    result.lbs = Math.max(result.lbs, rate('lbs', positions));
    result.dqs = Math.max(result.dqs, rate('dqs', positions));
    result.lbsNormals = Math.max(result.lbsNormals, rate('lbs', normals));
    result.dqsNormals = Math.max(result.dqsNormals, rate('dqs', normals));
  }
  lab.free();
  return result;
}

function threeRate(count) {
  const geometry = new THREE.BufferGeometry();
  const positions = new Float32Array(3 * count);
  const skinIndex = new Uint16Array(4 * count);
  const skinWeight = new Float32Array(4 * count);
  for (let v = 0; v < count; v++) {
    const { position, bones } = vertex(v, count);
    positions.set(position, 3 * v);
    skinIndex.set(bones, 4 * v);
    skinWeight.set(WEIGHTS, 4 * v);
  }
  geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
  geometry.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(skinIndex, 4));
  geometry.setAttribute('skinWeight', new THREE.BufferAttribute(skinWeight, 4));
  const bones = [];
  for (let b = 0; b < BONES; b++) {
    const bone = new THREE.Bone();
    if (b > 0) {
      bone.position.y = LENGTH;
      bones[b - 1].add(bone);
    }
    bones.push(bone);
  }
  const mesh = new THREE.SkinnedMesh(geometry, new THREE.MeshBasicMaterial());
  mesh.add(bones[0]);
  mesh.updateMatrixWorld(true);
  mesh.bind(new THREE.Skeleton(bones));
  bones.forEach((bone, b) => bone.quaternion.copy(turn(b)));
  mesh.updateMatrixWorld(true);
  const point = new THREE.Vector3();
  const runs = Math.max(3, Math.min(20, Math.round(1e6 / count)));
  let sink = 0;
  const seconds = fastest(runs, () => {
    for (let v = 0; v < count; v++) {
      point.fromBufferAttribute(geometry.attributes.position, v);
      mesh.applyBoneTransform(v, point);
      sink += point.x;
    }
  });
  if (Number.isNaN(sink)) console.log('# (never)');
  return count / seconds / 1e6;
}

for (const count of SIZES) {
  const wasm = wasmRates(count);
  let three = 0;
  for (let round = 0; round < ROUNDS; round++) three = Math.max(three, threeRate(count));
  console.log(`wasm   ${String(count).padStart(9)} vertices: LBS ${wasm.lbs.toFixed(1).padStart(7)} M vertices/s, DQS ${wasm.dqs.toFixed(1).padStart(7)} M vertices/s (positions, copied out)`);
  console.log(`wasm   ${String(count).padStart(9)} vertices: LBS ${wasm.lbsNormals.toFixed(1).padStart(7)} M vertices/s, DQS ${wasm.dqsNormals.toFixed(1).padStart(7)} M vertices/s (positions and normals, the normals copied out)`);
  console.log(`three  ${String(count).padStart(9)} vertices: applyBoneTransform ${three.toFixed(1).padStart(7)} M vertices/s (positions only)`);
  console.log(`BENCH wasm_lbs_${count}=${wasm.lbs.toFixed(3)}`);
  console.log(`BENCH wasm_dqs_${count}=${wasm.dqs.toFixed(3)}`);
  console.log(`BENCH wasm_lbs_normals_${count}=${wasm.lbsNormals.toFixed(3)}`);
  console.log(`BENCH wasm_dqs_normals_${count}=${wasm.dqsNormals.toFixed(3)}`);
  console.log(`BENCH three_${count}=${three.toFixed(3)}`);
}
/**
 * Posing every bone of the 64-bone chain from JavaScript: a `setBonePose`
 * per bone (each makes the posed frames and palettes again) against one
 * `setPoseArrays`; microseconds per whole pose, the fastest of five rounds.
 */
function wholePoseMicros() {
  const lab = Lab.fromSceneJson(sceneJson(1000));
  const rotations = new Float32Array(4 * BONES);
  for (let b = 0; b < BONES; b++) {
    const q = turn(b);
    rotations.set([q.x, q.y, q.z, q.w], 4 * b);
  }
  const translations = new Float32Array(3 * BONES);
  const scales = new Float32Array(3 * BONES).fill(1);
  const perPose = (job) => fastest(5, () => { for (let k = 0; k < 200; k++) job(); }) / 200 * 1e6;
  const bone = perPose(() => {
    for (let b = 0; b < BONES; b++) lab.setBonePose(b, { rotation: Array.from(rotations.subarray(4 * b, 4 * b + 4)) });
  });
  const whole = perPose(() => lab.setPoseArrays(rotations, translations, scales));
  lab.free();
  return { bone, whole };
}
const pose = wholePoseMicros();
console.log(`wasm   posing all ${BONES} bones from JavaScript: ${pose.bone.toFixed(0)} µs with a setBonePose per bone, ${pose.whole.toFixed(1)} µs with one setPoseArrays`);
console.log(`BENCH pose_per_bone_us=${pose.bone.toFixed(1)}`);
console.log(`BENCH pose_arrays_us=${pose.whole.toFixed(2)}`);
const wasm = readFileSync(new URL('../../www/pkg/skinlab_bg.wasm', import.meta.url));
console.log(`BENCH wasm_bytes=${wasm.length}`);
console.log(`BENCH wasm_gzip_bytes=${gzipSync(wasm, { level: 9 }).length}`);
// The file readers' module, loaded when a file is opened or exported.
const readers = readFileSync(new URL('../../www/pkg/skinlab_converters_bg.wasm', import.meta.url));
console.log(`BENCH converters_wasm_bytes=${readers.length}`);
console.log(`BENCH converters_wasm_gzip_bytes=${gzipSync(readers, { level: 9 }).length}`);
