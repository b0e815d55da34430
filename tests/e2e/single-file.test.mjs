// The single-file page (`cargo xtask dist --single-file`, dist/skinlab.html)
// opened from file:// with every network request refused: the Fox from
// the gallery, a bone posed by mouse, a weight stroke painted by mouse, the
// weights worker started from its inlined bundle, the lecture notes linked,
// and no request leaving the page nor any CSP complaint.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dragAcross, launchBrowser, nextFrame, openPage, root, screenshot, waitForSkinlab } from './browser.mjs';

const file = join(root, 'dist', 'skinlab.html');
let browser = null;
const refused = [];

before(async () => {
  assert.ok(existsSync(file), `${file} is missing: run \`cargo xtask dist --single-file\` (cargo xtask test does)`);
  browser = await launchBrowser();
  // Nothing but the file itself may load: no server, no network.
  await browser.route((url) => !url.protocol.startsWith('file'), (route) => {
    refused.push(route.request().url());
    return route.abort();
  });
});
after(async () => browser?.close());

test('the single HTML file from file://, offline: the Fox from the gallery, posed and painted by mouse', async () => {
  const { page, errors } = await openPage(browser, pathToFileURL(file).href);
  await waitForSkinlab(page);
  assert.equal(await page.evaluate(() => window.location.protocol), 'file:');
  await page.locator('#example').selectOption('fox');
  await page.waitForFunction(() => window.skinlab.example === 'fox' && window.skinlab.lab.boneCount() === 25, null, { timeout: 30000 });
  assert.match(await page.locator('#caption .credit').textContent(), /PixelMannen/);
  await nextFrame(page);

  // Pose: a bone turned by a mouse drag in the Skin mode.
  const bone = 5;
  const before = await page.evaluate((b) => window.skinlab.lab.bonePose(b).rotation, bone);
  const grab = await page.evaluate((b) => window.skinlab.boneScreenPoint(b), bone);
  const box = await page.locator('#view').boundingBox();
  await page.mouse.move(box.x + grab[0], box.y + grab[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + grab[0] + 40, box.y + grab[1] + 30, { steps: 8 });
  await page.mouse.up();
  await nextFrame(page);
  const after = await page.evaluate((b) => window.skinlab.lab.bonePose(b).rotation, bone);
  assert.notDeepEqual(after, before, 'the dragged bone turned');

  // Paint: a stroke in the Weights mode on the selected bone's vertices.
  await page.locator('button[data-mode="weights"]').click();
  await page.locator('#mode-weights button[data-tool="paint"]').click();
  const weightsBefore = await page.evaluate(() => window.skinlab.lab.influencesRevision());
  const centre = await page.evaluate((b) => {
    const lab = window.skinlab.lab;
    window.skinlab.selectBone(b);
    let best = 0;
    for (let v = 0; v < lab.vertexCount(); v++) if (lab.influences(v).some(([k]) => k === b)) best = v;
    return window.skinlab.vertexScreenPoint(best);
  }, bone);
  await dragAcross(page, centre);
  await nextFrame(page);
  assert.ok(await page.evaluate((n) => window.skinlab.lab.influencesRevision() > n, weightsBefore), 'the stroke painted');
  await screenshot(page, 'single-file-fox');

  // The lecture notes open from the file too.
  const href = await page.locator('#lesson-sources').getAttribute('href');
  assert.match(href, /^blob:/);
  assert.deepEqual(refused, [], 'no request left the page');
  assert.deepEqual(errors, []);
});

test('in the single file, bone heat runs in its worker from the inlined bundle', async () => {
  const { page, errors } = await openPage(browser, `${pathToFileURL(file).href}?example=fox&mode=weights`);
  await waitForSkinlab(page);
  await page.waitForFunction(() => window.skinlab.example === 'fox', null, { timeout: 30000 });
  const before = await page.evaluate(() => window.skinlab.lab.influencesRevision());
  const [worker] = await Promise.all([page.waitForEvent('worker'), page.locator('[data-auto="heat"]').click()]);
  assert.match(worker.url(), /^blob:/);
  await page.waitForFunction((n) => window.skinlab.lab.influencesRevision() > n, before, { timeout: 60000 });
  assert.deepEqual(refused, []);
  assert.deepEqual(errors, []);
});
