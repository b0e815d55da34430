// Every case of the glTF corpus (tests/support/corpus.mjs) read by Skinlab
// gives, for every mesh, the world positions three.js draws, in the
// default pose and at several times of its clip.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Lab } from './wasm.mjs';
import { buildCase, threePositions, CASES } from '../support/corpus.mjs';
import { hausdorff } from '../support/three-points.mjs';

function worst(a, b) {
  let worstDistance = 0;
  let size = 0;
  for (let k = 0; k < a.length; k += 3) {
    const d = Math.hypot(a[k] - b[k], a[k + 1] - b[k + 1], a[k + 2] - b[k + 2]);
    worstDistance = Math.max(worstDistance, d);
    size = Math.max(size, Math.abs(b[k]), Math.abs(b[k + 1]), Math.abs(b[k + 2]));
  }
  return { worstDistance, size };
}

for (const [name, options, oracleOptions, how] of CASES) {
  test(`corpus: ${name} matches three.js`, async () => {
    const text = await buildCase(options);
    const oracle = oracleOptions ? await buildCase(oracleOptions) : text;
    const lab = Lab.fromGltf(text);
    const poses = how?.defaultPoseOnly ? [[null, 0]] : [[null, 0], [0, 0.5], [0, 1.3], [0, 2], [0, 3]];
    for (const [clip, time] of poses) {
      const three = await threePositions(oracle, clip, time);
      if (clip !== null) lab.setAnimationTime(clip, time);
      for (const method of ['lbs']) {
        const ours = lab.skinnedPositions(method);
        assert.equal(ours.length, three.positions.length, `${name}: every mesh's vertices (${lab.meshCount()} meshes)`);
        const { worstDistance, size } = worst(ours, three.positions);
        console.log(`# ${name}, ${clip === null ? 'default pose' : `t = ${time}`}: worst ${worstDistance.toExponential(2)} of size ${size.toFixed(2)}`);
        assert.ok(worstDistance <= 1e-4 * Math.max(size, 1e-3), `${name} at ${time}: ${worstDistance} (size ${size})`);
      }
    }
    let counted = 0;
    for (let mesh = 0; mesh < lab.meshCount(); mesh++) counted += lab.meshVertexRange(mesh)[1];
    assert.equal(counted, lab.vertexCount(), 'the meshes cover every vertex');
  });
}

test('corpus: a texture-only required extension loads and is named as not drawn', async () => {
  const lab = Lab.fromGltf(await buildCase({ required: ['EXT_texture_webp'] }));
  assert.deepEqual(lab.notDrawn(), ['EXT_texture_webp']);
  assert.deepEqual(Lab.fromGltf(await buildCase({ stripAndLines: true })).notDrawn(), ['points and lines']);
});

test('the shipped models match three.js in their default pose and mid-clip', async () => {
  const { readFileSync } = await import('node:fs');
  for (const name of ['SimpleSkin', 'RiggedSimple', 'RiggedFigure']) {
    const text = readFileSync(new URL(`../../www/models/${name}/${name}.gltf`, import.meta.url), 'utf8');
    const lab = Lab.fromGltf(text);
    const poses = lab.animationNames().length > 0 ? [[null, 0], [0, 0.4], [0, 0.77]] : [[null, 0]];
    for (const [clip, time] of poses) {
      const three = await threePositions(text, clip, time);
      if (clip !== null) lab.setAnimationTime(clip, time);
      const ours = lab.skinnedPositions('lbs');
      assert.equal(ours.length, three.positions.length, name);
      const { worstDistance, size } = worst(ours, three.positions);
      console.log(`# ${name}, ${clip === null ? 'default pose' : `t = ${time}`}: worst ${worstDistance.toExponential(2)} of size ${size.toFixed(2)}`);
      assert.ok(worstDistance <= 1e-4 * Math.max(size, 1e-3), `${name}: ${worstDistance}`);
    }
  }
});

for (const how of ['draco', 'meshopt']) {
  test(`corpus: ${how}-compressed geometry, decoded by the official decoder, matches three.js`, async () => {
    const { compressedCase } = await import('../support/corpus.mjs');
    const { decodeCompressed, splitGlb, compressionOf } = await import('../../www/decompress.js');
    const text = await buildCase({ rigid: true });
    const { glb, oracle, used } = await compressedCase(text, how);
    console.log(`# ${how}: ${glb.length} bytes, requires ${used.join(', ')}`);
    // The core alone names the extension it cannot read.
    assert.throws(() => Lab.fromGlb(glb), /required extension (KHR_draco_mesh_compression|EXT_meshopt_compression)/);
    const { json, bin } = splitGlb(glb);
    const needs = compressionOf(json);
    const decoders = {};
    if (needs.draco) decoders.draco = await (await import('draco3d')).default.createDecoderModule({});
    if (needs.meshopt) decoders.meshopt = (await import('meshoptimizer')).MeshoptDecoder;
    const lab = Lab.fromGlb(await decodeCompressed(json, bin, {}, decoders));
    for (const [clip, time] of [[null, 0], [0, 0.5], [0, 1.3]]) {
      const three = await threePositions(oracle, clip, time);
      if (clip !== null) lab.setAnimationTime(clip, time);
      const ours = lab.skinnedPositions('lbs');
      assert.equal(ours.length, three.positions.length, `${how}: every vertex`);
      const { worstDistance, size } = worst(ours, three.positions);
      console.log(`# ${how}, ${clip === null ? 'default pose' : `t = ${time}`}: worst ${worstDistance.toExponential(2)} of size ${size.toFixed(2)}`);
      assert.ok(worstDistance <= 1e-4 * Math.max(size, 1e-3), `${how} at ${time}: ${worstDistance}`);
    }
  });
}

test('Export glTF keeps scale, skins and rigid meshes: the Khronos validator finds no error and three.js reads back the same positions', async () => {
  const { createRequire } = await import('node:module');
  const validator = createRequire(import.meta.url)('gltf-validator');
  const { splitGlb } = await import('../../www/decompress.js');
  for (const [name, options] of CASES) {
    const text = await buildCase(options);
    const lab = Lab.fromGltf(text);
    lab.setAnimationTime(0, 1.3);
    const glb = lab.toGlb();
    const report = await validator.validateBytes(glb, { maxIssues: 50 });
    const errors = report.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} at ${m.pointer}: ${m.message}`);
    assert.deepEqual(errors, [], `${name}: the validator finds no errors`);
    // Every skin the file's meshes use stays a skin.
    const original = JSON.parse(text);
    const used = new Set(original.nodes.filter((n) => n.mesh !== undefined && n.skin !== undefined).map((n) => n.skin));
    const exported = splitGlb(glb).json;
    const exportedUsed = new Set(exported.nodes.filter((n) => n.mesh !== undefined && n.skin !== undefined).map((n) => n.skin));
    assert.equal(exportedUsed.size, used.size, `${name}: ${used.size} skins in use, ${exportedUsed.size} exported`);
    // three.js reads the .glb as an ArrayBuffer: the pose it opens in is the
    // pose it was exported in.
    const three = await threePositions(glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength));
    const ours = lab.skinnedPositions('lbs');
    assert.equal(three.positions.length, ours.length, `${name}: every vertex exported`);
    // A rigid part is written under its joint, so three.js meets the
    // meshes in another order: the point sets are compared.
    const { size } = worst(ours, three.positions);
    const { worstDistance } = hausdorff(ours, three.positions, Math.max(size, 1e-3) / 32);
    console.log(`# exported ${name}: ${glb.length} bytes, ${report.issues.numWarnings} warnings, worst ${worstDistance.toExponential(2)} of size ${size.toFixed(2)}`);
    assert.ok(worstDistance <= 1e-4 * Math.max(size, 1e-3), `${name}: ${worstDistance}`);
  }
});

test('automatic weights on a glTF character weight its skinned meshes to its joints and leave rigid parts alone', async () => {
  const lab = Lab.fromGltf(await buildCase({ unit: 100, armature: [[0, 0, 0], [0, 0, 0, 1], [0.01, 0.01, 0.01]], rigid: true }));
  const names = lab.boneNames();
  const joints = new Set(['joint 0', 'joint 1', 'joint 2'].map((n) => names.indexOf(n)));
  const meshes = [...Array(lab.meshCount()).keys()].map((m) => lab.meshVertexRange(m));
  const [boxFirst, boxCount] = meshes.find(([, n]) => n === 8);
  const boxBefore = lab.influences(boxFirst);
  for (const method of ['nearest', 'distance', 'heat']) {
    lab.autoWeights(method);
    for (const [first, count] of meshes) {
      for (let v = first; v < first + count; v++) {
        const pairs = lab.influences(v);
        if (first === boxFirst) assert.deepEqual(pairs, boxBefore, `${method}: the hand's box stays on its own bone`);
        else assert.ok(pairs.length > 0 && pairs.every(([b]) => joints.has(b)), `${method}: vertex ${v} weighted to joints only: ${JSON.stringify(pairs)}`);
      }
    }
    // The weights follow the joints: the strip's lowest vertex belongs to
    // joint 0 most, its highest to joint 2.
    const strip = meshes.find(([, n]) => n === 26)[0];
    const heaviest = (v) => lab.influences(v).reduce((a, b) => (b[1] > a[1] ? b : a))[0];
    assert.equal(heaviest(strip), names.indexOf('joint 0'), method);
    assert.equal(heaviest(strip + 25), names.indexOf('joint 2'), method);
  }
  assert.equal(boxCount, 8);
});
