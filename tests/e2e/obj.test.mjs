// An OBJ opened in the page as a user opens it: chosen with its MTL in the
// file dialog, drawn in its materials' colours on one root bone, its
// missing MTL named, a bad file refused with the scene on screen kept; and
// a rig built on it through the API is drawn posed.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, waitForSkinlab, nextFrame, screenshot } from './browser.mjs';
import { tubeObj } from '../support/obj.mjs';

const fixture = useBrowser(before, after);

/** Pixels of the view that are clearly red and clearly blue. */
const redAndBlue = (page) => page.evaluate(() => {
  const { data } = window.testCanvasRgba();
  let red = 0;
  let blue = 0;
  for (let k = 0; k < data.length; k += 4) {
    const [r, g, b] = [data[k], data[k + 1], data[k + 2]];
    if (r > g + 60 && r > b + 60) red += 1;
    if (b > r + 60 && b > g + 30) blue += 1;
  }
  return { red, blue };
});

test('an OBJ chosen with its MTL opens in its colours on one root bone; without the MTL it says so; a bad one changes nothing', async () => {
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}?example=two-bone&autosave=0&lang=en`);
  await waitForSkinlab(page);
  const mtl = 'newmtl red\nKd 0.9 0.05 0.05\nnewmtl blue\nKd 0.05 0.1 0.9\n';
  await page.locator('#import-file').setInputFiles([
    { name: 'tube.obj', mimeType: 'text/plain', buffer: Buffer.from(tubeObj(8, 16, ['red', 'blue'])) },
    { name: 'tube.mtl', mimeType: 'text/plain', buffer: Buffer.from(mtl) },
  ]);
  await page.waitForFunction(() => window.skinlab.lab.meshCount() === 2, null, { timeout: 20000 });
  await nextFrame(page);
  assert.match(await page.locator('#notice').textContent(), /Loaded tube\.obj/);
  assert.equal(await page.evaluate(() => window.skinlab.lab.boneCount()), 1);
  const colours = await redAndBlue(page);
  assert.ok(colours.red > 200 && colours.blue > 200, `both materials drawn: ${JSON.stringify(colours)}`);
  await screenshot(page, 'obj-opened');
  // Bones added through the API, bound (by the readers' module's solvers)
  // and posed: the upper half bends.
  const bent = await page.evaluate(async () => {
    await window.skinlab.loadConverters();
    const lab = window.skinlab.lab;
    const lower = lab.addBone({ parent: 0, head: [0, 0, 0], tail: [0, 1, 0] });
    const upper = lab.addBone({ parent: lower, head: [0, 1, 0], tail: [0, 2, 0] });
    lab.autoWeights('nearest');
    lab.setBonePose(upper, { rotation: [0, 0, Math.sin(Math.PI / 6), Math.cos(Math.PI / 6)] });
    return Math.min(...lab.skinnedPositions('lbs').filter((_, k) => k % 3 === 0));
  });
  await nextFrame(page);
  assert.ok(bent < -0.5, `the top bent over: x ${bent}`);
  // The Bones list follows the new bones, and their undo.
  assert.equal(await page.locator('#bone-list li[data-bone]').count(), 3);
  await screenshot(page, 'obj-rigged');
  // Without its MTL: opened, and the notice names what it lacks.
  await page.locator('#import-file').setInputFiles({ name: 'plain.obj', mimeType: 'text/plain', buffer: Buffer.from(tubeObj(4, 8, ['red', 'blue'])) });
  await page.waitForFunction(() => /plain\.obj/.test(document.querySelector('#notice').textContent), null, { timeout: 20000 });
  assert.match(await page.locator('#notice').textContent(), /tube\.mtl/);
  // A face past the vertices: refused by name, the scene kept.
  const kept = await page.evaluate(() => window.skinlab.lab.sceneJson());
  await page.locator('#import-file').setInputFiles({ name: 'bad.obj', mimeType: 'text/plain', buffer: Buffer.from('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n') });
  await page.waitForFunction(() => /bad\.obj/.test(document.querySelector('#notice').textContent), null, { timeout: 20000 });
  assert.match(await page.locator('#notice').textContent(), /a face names a vertex past the vertices/);
  assert.equal(await page.evaluate(() => window.skinlab.lab.sceneJson()), kept);
  assert.deepEqual(errors, []);
  await page.close();
});
