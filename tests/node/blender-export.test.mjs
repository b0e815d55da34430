// Writes rigs made in Skinlab from meshes without skeletons to
// test-output/blender/, each .glb with a .json of what Skinlab made (bone
// names, the bones that deform, the clips, the positions as drawn at the
// end of the first clip), for
// tests/blender/import_rig.py to read with Blender's own glTF importer
// (`cargo xtask test` runs it where Blender's Python module is installed).
// Here, the Khronos validator reads each export.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Lab, aboutZ } from './wasm.mjs';
import { tubeObj } from '../support/obj.mjs';

const out = fileURLToPath(new URL('../../test-output/blender/', import.meta.url));

/** Writes `lab` as `name`.glb with what Blender must find in it. */
function write(lab, name) {
  mkdirSync(out, { recursive: true });
  const glb = lab.toGlb();
  writeFileSync(`${out}${name}.glb`, glb);
  const bones = lab.boneNames();
  writeFileSync(`${out}${name}.json`, JSON.stringify({
    bones,
    deforming: bones.filter((_, bone) => lab.boneDeforms(bone)),
    clips: lab.animationNames(),
    positions: (() => {
      lab.setAnimationTime(0, lab.animationDuration(0));
      return [...lab.skinnedPositions('lbs')];
    })(),
  }));
  return glb;
}

test('a tube rigged from a chain template, bound, keyed and posed, exports as the validator reads it and for Blender to import', async () => {
  const lab = Lab.fromObj(tubeObj(12, 16));
  lab.fitSkeleton('chain', { start: [0, 0.05, 0], end: [0, 1.95, 0], bones: 3 });
  lab.autoWeights('heat');
  const clip = lab.addAnimation('bend');
  lab.setKey(clip, 2, { time: 0 });
  lab.setBonePose(2, { rotation: aboutZ(0.8) });
  lab.setBonePose(3, { rotation: aboutZ(0.5) });
  lab.setKey(clip, 2, { time: 1 });
  lab.setKey(clip, 3, { time: 1 });
  lab.resetPose();
  const glb = write(lab, 'tube-chain');
  const validator = createRequire(import.meta.url)('gltf-validator');
  const report = await validator.validateBytes(glb, { maxIssues: 50 });
  const errors = report.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} at ${m.pointer}: ${m.message}`);
  assert.deepEqual(errors, []);
});

test('the mannequin rigged from humanoid markers, bound by voxels and walking the capture, exports as the validator reads it and for Blender to import', async () => {
  const lab = Lab.example('mannequin');
  // The markers the "Rig a mesh" lesson asks for, at the mannequin's joints.
  lab.fitSkeleton('humanoid', {
    chin: [0, 1.55, 0], groin: [0, 0.92, 0],
    leftElbow: [0.48, 1.42, 0], leftWrist: [0.78, 1.42, 0], leftKnee: [0.1, 0.48, 0],
    rightElbow: [-0.48, 1.42, 0], rightWrist: [-0.78, 1.42, 0], rightKnee: [-0.1, 0.48, 0],
  });
  lab.autoWeights('voxel');
  const capture = Lab.example('capture');
  const report = lab.retargetClip(capture, 0);
  assert.ok(report.matched >= 15, `the walk's joints found by name: ${report.matched}`);
  capture.free();
  const glb = write(lab, 'mannequin-walk');
  const validator = createRequire(import.meta.url)('gltf-validator');
  const validated = await validator.validateBytes(glb, { maxIssues: 50 });
  const errors = validated.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} at ${m.pointer}: ${m.message}`);
  assert.deepEqual(errors, []);
});
