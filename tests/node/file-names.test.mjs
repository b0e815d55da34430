// What is made of an opened file takes the file's name: exports of a
// character opened from `Walk Cycle (v2).fbx` are `Walk-Cycle-v2-.glb`,
// `.png` and so on, not one name for every file.
import test from 'node:test';
import assert from 'node:assert/strict';
import { fileStem } from '../../www/files.js';

test("a file's name, without its folder and extension, safe as a file name", () => {
  assert.equal(fileStem('Fox.glb'), 'Fox');
  assert.equal(fileStem('Walk Cycle (v2).fbx'), 'Walk-Cycle-v2-');
  assert.equal(fileStem('C:\\models\\Robot.gltf'), 'Robot');
  assert.equal(fileStem('chars/角色.vrm'), '角色');
  assert.equal(fileStem('my.scene.json'), 'my.scene');
  assert.equal(fileStem('.glb'), 'scene');
  assert.equal(fileStem(`${'a'.repeat(200)}.glb`).length, 80);
});
