// A mesh rigged in Skinlab from nothing: an OBJ read as three.js's
// OBJLoader reads it, bones added on it, bound, posed and exported; the
// export passes the Khronos validator and three.js's GLTFLoader draws it
// where Skinlab does. And the skeleton editing API's refusals.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { Lab, aboutZ } from './wasm.mjs';
import { hausdorff } from '../support/three-points.mjs';
import { threePositions } from '../support/corpus.mjs';
import { tubeObj } from '../support/obj.mjs';


test('an OBJ opens with the triangles and places three.js\'s OBJLoader reads', () => {
  const text = tubeObj();
  const lab = Lab.fromObj(text);
  const group = new OBJLoader().parse(text);
  const three = [];
  group.traverse((node) => {
    if (node.isMesh) three.push(...node.geometry.getAttribute('position').array);
  });
  assert.equal(lab.indexCount(), three.length / 3, 'one triangle per three.js triangle');
  assert.equal(lab.meshCount(), 2, 'a mesh per group');
  assert.equal(group.children.length, 2, 'two groups in three.js');
  const { worstDistance } = hausdorff([...lab.skinnedPositions('lbs')], three, 0.1);
  assert.ok(worstDistance < 1e-6, `the same places: ${worstDistance}`);
  assert.equal(lab.boneCount(), 1, 'one root bone to build on');
});

test('Spot, an OBJ from the wild, opens with the triangles and places three.js\'s OBJLoader reads', () => {
  const text = readFileSync(new URL('../obj/spot.obj', import.meta.url), 'utf8');
  const lab = Lab.fromObj(text);
  const group = new OBJLoader().parse(text);
  const three = [];
  group.traverse((node) => {
    if (node.isMesh) three.push(...node.geometry.getAttribute('position').array);
  });
  assert.equal(three.length / 9, 5856, 'three.js: the file\'s 5,856 triangles');
  assert.equal(lab.indexCount(), three.length / 3, 'one triangle per three.js triangle');
  const { worstDistance } = hausdorff([...lab.skinnedPositions('lbs')], three, 0.1);
  assert.ok(worstDistance < 1e-6, `the same places: ${worstDistance}`);
  // Corners with their own texture coordinates are vertices of their own:
  // more than the 2,930 positions, welded again for binding.
  const report = lab.meshReport();
  assert.ok(lab.vertexCount() > 2930, `${lab.vertexCount()} vertices`);
  assert.equal(lab.vertexCount() - report.duplicateVertices, 2930, 'welded: the file\'s positions');
  assert.deepEqual([report.looseParts, report.openEdges, report.nonManifoldEdges], [1, 0, 0], 'one closed surface');
  lab.free();
});

test('a humanoid fitted with five fingers a hand: Mixamo\'s finger chains from each hand', () => {
  const lab = Lab.fromObj(tubeObj());
  const markers = {
    chin: [0, 1.8, 0], groin: [0, 1, 0],
    leftElbow: [0.12, 1.6, 0], leftWrist: [0.18, 1.6, 0], rightElbow: [-0.12, 1.6, 0], rightWrist: [-0.18, 1.6, 0],
    leftKnee: [0.08, 0.5, 0], rightKnee: [-0.08, 0.5, 0],
  };
  const plain = Lab.fromObj(tubeObj());
  const without = plain.fitSkeleton('humanoid', markers);
  assert.equal(lab.fitSkeleton('humanoid', { ...markers, fingers: 5 }), without + 30);
  const names = lab.boneNames();
  for (const name of ['LeftHandThumb1', 'LeftHandIndex3', 'RightHandPinky2']) assert.ok(names.includes(name), name);
  assert.equal(lab.boneParents()[names.indexOf('LeftHandIndex1')], names.indexOf('LeftHand'));
  assert.throws(() => Lab.fromObj(tubeObj()).fitSkeleton('humanoid', { ...markers, fingers: 4 }), /0, 3 or 5 fingers, not 4/);
});

test('a tube rigged by the API is bound, posed, exported, and three.js draws the export where Skinlab does', async () => {
  const lab = Lab.fromObj(tubeObj());
  lab.checkpoint();
  const lower = lab.addBone({ parent: 0, head: [0, 0, 0], tail: [0, 1, 0], name: 'lower' });
  const upper = lab.addBone({ parent: lower, head: [0, 1, 0], tail: [0, 2, 0] });
  assert.deepEqual([lower, upper], [1, 2]);
  assert.deepEqual(lab.boneNames(), ['root', 'lower', 'Bone 2']);
  assert.equal(lab.boneDeforms(0), false, 'the root point takes no skin');
  const rest = lab.boneRest(upper);
  assert.deepEqual(rest.head.map((c) => Math.round(c * 1e5) / 1e5), [0, 1, 0]);
  assert.deepEqual(rest.tail.map((c) => Math.round(c * 1e5) / 1e5), [0, 2, 0]);
  const report = lab.autoWeights('heat');
  assert.equal(report.unreachedVertices, 0);
  // Each vertex's largest weight is on the bone of its half.
  const positions = lab.skinnedPositions('lbs');
  for (let v = 0; v < lab.vertexCount(); v++) {
    const y = positions[3 * v + 1];
    if (Math.abs(y - 1) < 0.3) continue;
    const [largest] = lab.influences(v).sort((a, b) => b[1] - a[1]);
    assert.equal(largest[0], y < 1 ? lower : upper, `vertex ${v} at y ${y}`);
  }
  lab.setBonePose(upper, { rotation: aboutZ(Math.PI / 3) });
  const glb = lab.toGlb();
  const validator = createRequire(import.meta.url)('gltf-validator');
  const validation = await validator.validateBytes(glb, { maxIssues: 50 });
  const errors = validation.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} at ${m.pointer}: ${m.message}`);
  assert.deepEqual(errors, []);
  const three = await threePositions(glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength));
  const ours = [...lab.skinnedPositions('lbs')];
  const { worstDistance } = hausdorff(three.positions, ours, 0.1);
  assert.ok(worstDistance < 1e-4, `three.js draws the posed rig where Skinlab does: ${worstDistance}`);
  // The tip bent over: the top ring moved.
  assert.ok(Math.min(...ours.filter((_, k) => k % 3 === 0)) < -0.5);
});

test('the skeleton edits keep their bones where they rest, and undo takes them back', () => {
  const lab = Lab.fromObj(tubeObj());
  const arm = lab.addBone({ parent: 0, head: [0, 0, 0], tail: [0, 1, 0] });
  const hand = lab.addBone({ parent: arm, head: [0, 1, 0], tail: [0, 2, 0] });
  const before = lab.boneRest(hand);
  lab.checkpoint();
  lab.setBoneRest(arm, { tail: [0.5, 1, 0], roll: 0.3 });
  const moved = Math.hypot(...lab.boneRest(hand).head.map((c, k) => c - before.head[k]));
  assert.ok(moved < 1e-5, `the child stays: moved ${moved}`);
  assert.ok(Math.abs(lab.boneRest(arm).roll - 0.3) < 1e-4);
  lab.renameBone(hand, 'LeftHand');
  assert.equal(lab.boneNames()[hand], 'LeftHand');
  // A cycle, a zero length, a bad name and an unknown bone are refused by name.
  assert.throws(() => lab.setBoneParent(arm, hand), /setBoneParent: .*cycle/);
  assert.throws(() => lab.addBone({ parent: arm, head: [0, 1, 0], tail: [0, 1, 0] }), /addBone: .*needs a length/);
  assert.throws(() => lab.renameBone(hand, ''), /renameBone: .*1 to 200 characters/);
  assert.throws(() => lab.removeBone(9), /removeBone: bone 9 is out of range/);
  assert.throws(() => lab.addBone({ parent: 0, head: [0, 0, 0], tail: [0, 1, 0], colour: 'red' }), /addBone: .*colour/);
  // Reparented to the root, the hand comes right after it; removed, its weights go to the root's next bone.
  assert.equal(lab.setBoneParent(hand, 0), hand);
  assert.equal(lab.boneParents()[hand], 0);
  lab.autoWeights('nearest');
  lab.checkpoint();
  lab.removeBone(arm);
  assert.equal(lab.boneCount(), 2);
  assert.deepEqual(lab.boneNames(), ['root', 'LeftHand']);
  assert.ok(lab.undo());
  assert.equal(lab.boneCount(), 3);
});

test('a chain template fitted to a tube, and a humanoid whose markers are out of place refused by name', () => {
  const lab = Lab.fromObj(tubeObj());
  lab.checkpoint();
  assert.equal(lab.fitSkeleton('chain', { start: [0, 0.1, 0], end: [0, 1.9, 0], bones: 3 }), 3);
  assert.deepEqual(lab.boneNames(), ['root', 'Chain1', 'Chain2', 'Chain3']);
  assert.deepEqual(lab.boneParents(), [null, 0, 1, 2]);
  assert.equal(lab.boneDeforms(0), false);
  assert.throws(() => lab.fitSkeleton('chain', { start: [0, 0.1, 0], end: [0, 1.9, 0], bones: 3 }), /fitSkeleton: the scene has 4 bones already/);
  assert.ok(lab.undo());
  assert.equal(lab.boneCount(), 1);
  const markers = {
    chin: [0, 1.8, 0], groin: [0, 1, 0], leftElbow: [0.1, 1.5, 0], rightElbow: [-0.1, 1.5, 0],
    leftWrist: [0.15, 1.95, 0], rightWrist: [-0.15, 1.3, 0], leftKnee: [0.1, 0.5, 0], rightKnee: [-0.1, 0.5, 0],
  };
  assert.throws(() => lab.fitSkeleton('humanoid', markers), /fitSkeleton: marker 'leftWrist' must be below 'chin'/);
  assert.throws(() => lab.fitSkeleton('humanoid', { ...markers, leftWrist: [9, 1.4, 0] }), /fitSkeleton: marker 'leftWrist' is outside the mesh/);
  assert.throws(() => lab.fitSkeleton('humanoid', { chin: [0, 1.8, 0] }), /needs the marker 'groin'/);
  assert.equal(lab.fitSkeleton('humanoid', { ...markers, leftWrist: [0.15, 1.3, 0] }) > 20, true);
  assert.ok(lab.boneNames().includes('LeftForeArm') && lab.boneNames().includes('RightToeBase'));
});
