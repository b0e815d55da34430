// Real characters in the page: a Mixamo-style rig under a 0.01, turned
// armature opens upright and framed, its bones drag, IK reaches with its
// limbs, its clip plays and the GPU follows the CPU; Draco- and
// meshopt-compressed files load through the file picker with the official
// decoders, fetched only then.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  openPage, screenshot, useBrowser, waitForSkinlab, nextFrame, gpuVersusCpu, canvasStats,
} from './browser.mjs';
import { buildCase, compressedCase } from '../support/corpus.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

// Centimetre joints under a 0.01 armature that also turns the rig about Y.
const MIXAMO = { unit: 100, armature: [[0, 0, 0], [0, Math.sin(0.3), 0, Math.cos(0.3)], [0.01, 0.01, 0.01]], rigid: true };

test('a 0.01-scaled, turned character opens upright and framed; a bone drags, IK reaches, a stroke paints, the clip plays, GPU = CPU', async () => {
  const text = await buildCase(MIXAMO);
  const { page, errors } = await openAt('');
  await waitForSkinlab(page);
  const requests = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.locator('#import-file').setInputFiles({ name: 'character.gltf', mimeType: 'model/gltf+json', buffer: Buffer.from(text) });
  await page.waitForFunction(() => document.querySelector('#notice').textContent.includes('character.gltf'));
  assert.match(await page.locator('#notice').textContent(), /Loaded character\.gltf/);
  await nextFrame(page);
  // Framed: drawn, and the strip spans a good part of the view's height;
  // upright: its top (last row) is drawn above its bottom.
  const { covered } = await canvasStats(page);
  const box = await page.locator('#view').boundingBox();
  const [bottom, top] = await page.evaluate(() => {
    // The strip is the mesh of 26 vertices (the hand's box comes first, in
    // the scene's order); its first vertex is at the bottom, its 25th at the top.
    const { lab } = window.skinlab;
    const strip = [...Array(lab.meshCount()).keys()].map((m) => lab.meshVertexRange(m)).find(([, n]) => n === 26);
    return [strip[0], strip[0] + 24].map((v) => {
      const [x, y] = window.skinlab.vertexScreenPoint(v);
      return { x, y };
    });
  });
  console.log(`# character: ${(covered * 100).toFixed(1)}% of the canvas, ${(bottom.y - top.y).toFixed(0)} of ${box.height.toFixed(0)} px tall`);
  await screenshot(page, 'real-rig-opened');
  assert.ok(covered > 0.005, `the character is drawn (${covered})`);
  assert.ok(bottom.y - top.y > 0.4 * box.height, `upright and framed: top ${top.y}, bottom ${bottom.y}`);
  assert.ok(top.y > 0 && bottom.y < box.height, 'inside the view');
  // The joints: "joint 1" is picked and dragged with the mouse.
  const bone = await page.evaluate(() => window.skinlab.lab.boneNames().indexOf('joint 1'));
  assert.ok(bone > 0);
  const point = await page.evaluate((b) => window.skinlab.boneScreenPoint(b), bone);
  const before = await page.evaluate(() => Array.from(window.skinlab.lab.skinnedPositions('lbs')));
  await page.mouse.move(box.x + point[0], box.y + point[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + point[0] + 60, box.y + point[1] + 10, { steps: 6 });
  await page.mouse.up();
  await nextFrame(page);
  const turned = await page.evaluate(() => window.skinlab.selectedBone());
  const after = await page.evaluate(() => Array.from(window.skinlab.lab.skinnedPositions('lbs')));
  const moved = after.some((v, k) => Math.abs(v - before[k]) > 1e-3);
  assert.ok(moved, `dragging bone ${turned} moves the skin`);
  for (const method of ['lbs', 'dqs']) {
    const { worst } = await gpuVersusCpu(page, method);
    assert.ok(worst < 1e-4, `GPU = CPU (${method}): ${worst}`);
  }
  // IK on the limb: the last joint's tip reaches a point within reach.
  const ik = await page.evaluate(() => {
    const { lab } = window.skinlab;
    const tip = lab.boneNames().indexOf('joint 2');
    const origin = lab.boneOrigin(tip - 1);
    const target = [origin[0] + 0.8, origin[1] + 0.9, origin[2]];
    const report = lab.solveIk({ tip, chain: 2, target, method: 'ccd' });
    return { report, target };
  });
  console.log(`# IK on the scaled rig: ${JSON.stringify(ik.report)}`);
  assert.ok(ik.report.reached, 'IK reaches');
  // Painting: a stroke across the strip with joint 2 selected adds to its
  // weights where the brush passes.
  await page.evaluate(() => { window.skinlab.lab.resetPose(); });
  await nextFrame(page);
  const painted = await page.evaluate(() => {
    const { lab } = window.skinlab;
    const strip = [...Array(lab.meshCount()).keys()].map((m) => lab.meshVertexRange(m)).find(([, n]) => n === 26)[0];
    window.skinlab.selectBone(lab.boneNames().indexOf('joint 2'));
    window.skinlab.setTool('paint');
    return { strip, point: window.skinlab.vertexScreenPoint(strip + 12), joint: lab.boneNames().indexOf('joint 2') };
  });
  const weightOf = (v) => page.evaluate(({ v, joint }) => (window.skinlab.lab.influences(v).find(([b]) => b === joint) ?? [0, 0])[1], { v, joint: painted.joint });
  const beforePaint = await weightOf(painted.strip + 12);
  await page.mouse.move(box.x + painted.point[0] - 30, box.y + painted.point[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + painted.point[0] + 30, box.y + painted.point[1], { steps: 8 });
  await page.mouse.up();
  const afterPaint = await weightOf(painted.strip + 12);
  console.log(`# painted joint 2 on the scaled rig: ${beforePaint.toFixed(3)} → ${afterPaint.toFixed(3)}`);
  assert.ok(afterPaint > beforePaint + 0.05, 'the stroke adds weight');
  await page.evaluate(() => window.skinlab.setTool('pose'));
  // The clip is listed and plays.
  assert.deepEqual(await page.locator('#clip option').allTextContents(), ['bend']);
  await page.evaluate(() => window.skinlab.lab.setAnimationTime(0, 1.0));
  await nextFrame(page);
  assert.ok((await gpuVersusCpu(page, 'lbs')).worst < 1e-4, 'GPU = CPU mid-clip');
  await screenshot(page, 'real-rig-mixamo-scale');
  assert.ok(!requests.some((url) => url.includes('/vendor/')), 'no decoder fetched for a plain file');
  assert.deepEqual(errors, []);
  await page.close();
});

for (const how of ['draco', 'meshopt']) {
  test(`a ${how}-compressed .glb loads through the file picker with the official decoder`, async () => {
    const { glb } = await compressedCase(await buildCase({ rigid: true }), how);
    const { page, errors } = await openAt('');
    await waitForSkinlab(page);
    const requests = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.locator('#import-file').setInputFiles({ name: `${how}.glb`, mimeType: 'model/gltf-binary', buffer: Buffer.from(glb) });
    await page.waitForFunction((name) => document.querySelector('#notice').textContent.includes(name), `${how}.glb`);
    assert.match(await page.locator('#notice').textContent(), new RegExp(`Loaded ${how}\\.glb`));
    assert.equal(await page.evaluate(() => window.skinlab.lab.meshCount()), 2);
    assert.ok(requests.some((url) => url.includes(`/vendor/${how}/`)), `the ${how} decoder is fetched`);
    await nextFrame(page);
    assert.ok((await gpuVersusCpu(page, 'lbs')).worst < 1e-4);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a skinned mesh stored in centimetres under a 0.01 armature is framed as it is drawn', async () => {
  const text = await buildCase({ unit: 100, armature: [[0, 0, 0], [0, 0, 0, 1], [0.01, 0.01, 0.01]], meshUnderArmature: true });
  const { page, errors } = await openAt('');
  await waitForSkinlab(page);
  await page.locator('#import-file').setInputFiles({ name: 'under.gltf', mimeType: 'model/gltf+json', buffer: Buffer.from(text) });
  await page.waitForFunction(() => document.querySelector('#notice').textContent.includes('under.gltf'));
  await nextFrame(page);
  const box = await page.locator('#view').boundingBox();
  const [bottom, top] = await page.evaluate(() => [0, 24].map((v) => {
    const [x, y] = window.skinlab.vertexScreenPoint(v);
    return { x, y };
  }));
  console.log(`# mesh under the armature: ${(bottom.y - top.y).toFixed(0)} of ${box.height.toFixed(0)} px tall`);
  assert.ok(bottom.y - top.y > 0.4 * box.height, `framed: top ${top.y}, bottom ${bottom.y}`);
  assert.ok(top.y > 0 && bottom.y < box.height, 'inside the view');
  assert.deepEqual(errors, []);
  await page.close();
});
