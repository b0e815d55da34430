// Exported .glb files checked by the Khronos glTF validator (an independent
// implementation of the specification), and read back by Skinlab.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Lab, aboutZ } from './wasm.mjs';

const validator = createRequire(import.meta.url)('gltf-validator');

async function validate(name, bytes) {
  const report = await validator.validateBytes(bytes, { maxIssues: 50 });
  const { numErrors, numWarnings, numInfos, messages } = report.issues;
  console.log(`# ${name}: ${bytes.length} bytes, ${numErrors} errors, ${numWarnings} warnings, ${numInfos} infos`);
  const errors = messages.filter((m) => m.severity === 0).map((m) => `${m.code} at ${m.pointer}: ${m.message}`);
  assert.deepEqual(errors, [], `${name}: the validator finds no errors`);
  return report;
}

test('every example, posed and painted, exports a .glb the Khronos validator accepts', async () => {
  for (const name of Lab.exampleNames()) {
    const lab = Lab.example(name);
    for (let bone = 0; bone < Math.min(lab.boneCount(), 4); bone++) lab.setBonePose(bone, { rotation: aboutZ(0.2 * (bone + 1)) });
    if (lab.boneCount() > 1) lab.setInfluences(0, [[0, 0.25], [1, 0.75]]);
    const glb = lab.toGlb();
    const report = await validate(name, glb);
    assert.equal(report.info.generator, 'Skinlab');
    const back = Lab.fromGlb(glb);
    const a = lab.skinnedPositions('lbs');
    const b = back.skinnedPositions('lbs');
    let worst = 0;
    let size = 0;
    for (let k = 0; k < a.length; k++) {
      worst = Math.max(worst, Math.abs(a[k] - b[k]));
      size = Math.max(size, Math.abs(a[k]));
    }
    // Relative to the model's size: the 300-bone chain sums 300 float
    // rounding errors on the way down.
    assert.ok(worst < 1e-5 * (1 + size), `${name}: read back within ${worst} (size ${size})`);
  }
});

test('the Fox mid-run exports a valid .glb with its three clips', async () => {
  const fox = Lab.fromGltf(readFileSync(new URL('../../www/models/Fox/Fox.gltf', import.meta.url), 'utf8'));
  fox.setAnimationTime(2, 0.3);
  const report = await validate('Fox', fox.toGlb());
  assert.equal(report.info.animationCount, 3);
  assert.deepEqual(Lab.fromGlb(fox.toGlb()).animationNames(), ['Survey', 'Walk', 'Run']);
  // Its texture goes out with it: the validator reads the embedded PNG's
  // header, and Skinlab reads back the same bytes and UVs.
  assert.equal(report.info.materialCount, 1);
  assert.equal(report.info.hasTextures, true);
  const image = report.info.resources.find((r) => r.image);
  console.log(`# Fox texture as exported: ${JSON.stringify(image)}`);
  assert.equal(image.mimeType, 'image/png');
  assert.ok(image.image.width > 0 && image.image.height > 0);
  const before = fox.baseColour();
  const after = Lab.fromGlb(fox.toGlb()).baseColour();
  assert.deepEqual(after.image, before.image);
  assert.deepEqual(after.uvs, before.uvs);
  assert.deepEqual(after.factor, before.factor);
});
