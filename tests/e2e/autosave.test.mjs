// Autosave: an edited scene is kept in the browser's IndexedDB; after a
// reload the page offers it back, and Restore brings back the same scene
// (pose, painted weights, a keyed clip) in its mode. Discard deletes it;
// an embedded copy (ui=minimal) neither saves nor offers.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, useBrowser, waitForSkinlab, nextFrame } from './browser.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

test('edit, reload, restore: the same scene comes back in its mode', async () => {
  const { page, errors } = await openAt('?example=y-junction');
  await waitForSkinlab(page);
  assert.equal(await page.locator('#restore').isVisible(), false, 'nothing to offer on a first visit');
  // Real edits: a bone turned by mouse, weights typed, a key set.
  const grab = await page.evaluate(() => window.skinlab.boneScreenPoint(2));
  const box = await page.locator('#view').boundingBox();
  await page.mouse.move(box.x + grab[0], box.y + grab[1]);
  await page.mouse.down();
  for (let k = 1; k <= 8; k++) await page.mouse.move(box.x + grab[0] + 6 * k, box.y + grab[1] + 4 * k);
  await page.mouse.up();
  await nextFrame(page, () => page.evaluate(() => {
    window.skinlab.lab.setInfluences(3, [[0, 0.25], [1, 0.75]]);
    window.skinlab.setMode('animate');
    window.skinlab.selectBone(2);
    window.skinlab.setKeyHere();
  }));
  // Saved once the page is quiet.
  await page.waitForFunction(() => window.skinlab.autosaves() > 0, null, { timeout: 10_000 });
  // A pose change (the saved influences are reused), then a second weight
  // edit after a save (they must be written again), each saved in turn.
  for (const edit of [
    () => window.skinlab.lab.setBonePose(1, { rotation: [0, 0, 0.1, 0.995] }),
    () => window.skinlab.lab.setInfluences(5, [[0, 0.6], [2, 0.4]]),
  ]) {
    const saves = await page.evaluate(() => window.skinlab.autosaves());
    await nextFrame(page, () => page.evaluate(edit));
    await page.waitForFunction((n) => window.skinlab.autosaves() > n, saves, { timeout: 10_000 });
  }
  const scene = await page.evaluate(() => window.skinlab.lab.sceneJson());
  assert.ok(JSON.parse(scene).animations?.length > 0, 'the clip is part of the scene');
  await page.reload();
  await waitForSkinlab(page);
  await page.locator('#restore').waitFor({ state: 'visible' });
  // Saved seconds ago, and said so (not "1 min ago").
  assert.match(await page.locator('#restore-text').textContent(), /kept \(\d+ s ago\)/);
  await screenshot(page, 'autosave-offer');
  await page.locator('#restore-yes').click();
  // The saved scene is read from its Blob first (asynchronously); the
  // reload's link already set the mode, pose and weights, not the clip.
  await page.waitForFunction(() => /scene is back/.test(document.querySelector('#notice')?.textContent ?? ''));
  assert.equal(await page.evaluate(() => window.skinlab.lab.sceneJson()), scene, 'the same scene');
  assert.equal(await page.evaluate(() => window.skinlab.mode()), 'animate', 'in its mode');
  // Discard deletes it: the next visit offers nothing.
  await page.reload();
  await waitForSkinlab(page);
  await page.locator('#restore').waitFor({ state: 'visible' });
  await page.locator('#restore-no').click();
  // The deletion is an IndexedDB transaction: let it commit before the
  // reload, as any person's next visit would.
  await page.waitForTimeout(300);
  await page.reload();
  await waitForSkinlab(page);
  await page.waitForTimeout(300);
  assert.equal(await page.locator('#restore').isVisible(), false, 'discarded');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a textured character comes back through the autosave and Save scene wearing its texture', async () => {
  const { page, errors } = await openAt('?example=fox&lang=en');
  await waitForSkinlab(page);
  await page.evaluate(() => window.skinlab.textureReady());
  const look = await page.evaluate(() => JSON.stringify([window.skinlab.lab.materials(), window.skinlab.lab.textureImages().length]));
  // An edit to save: a bone turned.
  const saves = await page.evaluate(() => window.skinlab.autosaves());
  await nextFrame(page, () => page.evaluate(() => window.skinlab.lab.setBonePose(5, { rotation: [0, 0, 0.3826834, 0.9238795] })));
  await page.waitForFunction((n) => window.skinlab.autosaves() > n, saves, { timeout: 10_000 });
  // A fresh visit without the link: the Fox is back only from the autosave.
  await page.goto(`${fixture.server.url}?example=two-bone&lang=en`);
  await waitForSkinlab(page);
  await page.locator('#restore').waitFor({ state: 'visible' });
  await page.locator('#restore-yes').click();
  await page.waitForFunction(() => /scene is back/.test(document.querySelector('#notice')?.textContent ?? ''));
  assert.equal(await page.evaluate(() => JSON.stringify([window.skinlab.lab.materials(), window.skinlab.lab.textureImages().length])), look, 'its materials and texture');
  const size = await page.evaluate(() => window.skinlab.textureReady());
  assert.deepEqual(size, { width: 1024, height: 1024 }, 'the texture drawn again');
  // Save scene, then Load scene: the same.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  const { readFile } = await import('node:fs/promises');
  const text = await readFile(await download.path(), 'utf8');
  assert.ok(JSON.parse(text).look.textures.length > 0, 'the saved scene holds the texture');
  await page.locator('#import-file').setInputFiles({ name: 'fox-scene.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForFunction(() => /Loaded fox-scene\.json/.test(document.querySelector('#notice')?.textContent ?? ''));
  assert.equal(await page.evaluate(() => JSON.stringify([window.skinlab.lab.materials(), window.skinlab.lab.textureImages().length])), look);
  assert.deepEqual(await page.evaluate(() => window.skinlab.textureReady()), { width: 1024, height: 1024 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('an embedded copy neither saves nor offers', async () => {
  const { page, errors } = await openAt('?example=two-bone&ui=minimal');
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.lab.setBonePose(1, { rotation: [0, 0, 0.3, 0.954] })));
  await page.waitForTimeout(2500);
  assert.equal(await page.evaluate(() => window.skinlab.autosaves()), 0);
  assert.equal(await page.locator('#restore').isVisible(), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a 100,000-vertex scene is saved in chunks, between edits, and comes back whole', async () => {
  const { page, errors } = await openAt('?example=dense');
  await waitForSkinlab(page);
  // A checksum of the scene JSON (9 MB of text), computed in the page.
  const checksum = () => page.evaluate(() => {
    const text = window.skinlab.lab.sceneJson();
    let hash = 2166136261;
    for (let k = 0; k < text.length; k++) hash = Math.imul(hash ^ text.charCodeAt(k), 16777619);
    return `${text.length}:${hash >>> 0}`;
  });
  // Weights on vertices in the first and the last chunk of the list, and a pose.
  await nextFrame(page, () => page.evaluate(() => {
    const { lab } = window.skinlab;
    lab.setInfluences(5, [[0, 0.5], [1, 0.5]]);
    lab.setInfluences(lab.vertexCount() - 3, [[1, 0.3], [2, 0.7]]);
    lab.setBonePose(2, { rotation: [0, 0, 0.2, 0.98] });
  }));
  await page.waitForFunction(() => window.skinlab.autosaves() > 0, null, { timeout: 20_000 });
  // A pose change: the saved mesh and weights are reused.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.lab.setBonePose(1, { rotation: [0, 0, -0.1, 0.995] })));
  await page.waitForFunction(() => window.skinlab.autosaves() > 1, null, { timeout: 20_000 });
  const saved = await checksum();
  await page.reload();
  await waitForSkinlab(page);
  await page.locator('#restore').waitFor({ state: 'visible' });
  await page.locator('#restore-yes').click();
  // Read from its Blob first (asynchronously).
  await page.waitForFunction(() => /scene is back/.test(document.querySelector('#notice')?.textContent ?? ''), null, { timeout: 20_000 });
  assert.equal(await checksum(), saved, 'the same scene, mesh, weights and pose');
  assert.deepEqual(errors, []);
  await page.close();
});
