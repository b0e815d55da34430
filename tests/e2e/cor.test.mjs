// Skinning about optimized centres of rotation in the page: the CoR button
// draws it, the GPU's CoR equals the CPU's (read back by transform feedback,
// palette as uniforms and as a texture), the twist lab plots its volume
// beside LBS and DQS, and a paint stroke's centres are brought up to date
// when the stroke ends.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { dragAcross, gpuVersusCpu, nextFrame, openPage, screenshot, useBrowser, waitForSkinlab } from './browser.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

test('the CoR button draws CoR, and the GPU skins it as the CPU does', async () => {
  const { page, errors } = await openAt('?example=tube');
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => {
    const s = window.skinlab;
    s.lab.setBonePose(1, { rotation: [0, Math.sin(1.3), 0, Math.cos(1.3)] });
  }));
  await nextFrame(page, () => page.locator('[data-method="cor"]').click());
  assert.equal(await page.evaluate(() => window.skinlab.method()), 'cor');
  assert.equal(await page.locator('[data-method="cor"]').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.evaluate(() => window.skinlab.lab.centresCurrent()), true, 'the frame ran the centres job');
  for (const texture of [false, true]) {
    await nextFrame(page, () => page.evaluate((on) => window.skinlab.viewer.setPaletteTexture(on), texture));
    const { worst, normals, count, gpuLength } = await gpuVersusCpu(page, 'cor');
    const storage = await page.evaluate(() => window.skinlab.viewer.paletteStorage(window.skinlab.lab));
    console.log(`# CoR as ${storage}: |GPU − CPU| ≤ ${worst.toExponential(1)} over ${count} vertices, normals ${normals.toExponential(1)}`);
    assert.equal(gpuLength, 3 * count);
    assert.equal(storage, texture ? 'texture' : 'uniforms');
    assert.ok(worst < 1e-4 && normals < 1e-3, `${storage}: ${worst} ${normals}`);
  }
  // CoR keeps the twisted tube's volume, LBS does not.
  const kept = await page.evaluate(() => {
    const { lab } = window.skinlab;
    return { cor: lab.volume('cor') / lab.restVolume(), lbs: lab.volume('lbs') / lab.restVolume() };
  });
  assert.ok(kept.cor > 0.95 && kept.lbs < 0.9, JSON.stringify(kept));
  await screenshot(page, 'cor-tube-twisted');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the twist lab plots CoR beside LBS and DQS, with its figures', async () => {
  const { page, errors } = await openAt('?example=tube');
  await waitForSkinlab(page);
  await page.locator('#twist-angle').fill('150');
  await nextFrame(page);
  const figures = await page.locator('#twist-figures').textContent();
  assert.match(figures, /LBS [\d.]+% · DQS [\d.]+% · CoR [\d.]+%/);
  const cor = Number(figures.match(/CoR ([\d.]+)%/)[1]);
  assert.ok(cor > 95, `CoR keeps the volume: ${figures}`);
  await screenshot(page, 'cor-twist-lab');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a stroke with CoR drawn leaves the centres stale until it ends, then brings them up to date', async () => {
  const { page, errors } = await openAt('?example=two-bone-smooth&method=cor&mode=weights');
  await waitForSkinlab(page);
  await nextFrame(page);
  assert.equal(await page.evaluate(() => window.skinlab.lab.centresCurrent()), true);
  const before = await page.evaluate(() => window.skinlab.lab.revision());
  await nextFrame(page, () => page.evaluate(() => window.skinlab.selectBone(1)));
  await dragAcross(page, await page.evaluate(() => window.skinlab.vertexScreenPoint(8)));
  await nextFrame(page);
  await nextFrame(page);
  assert.ok(await page.evaluate((n) => window.skinlab.lab.revision() > n, before), 'the stroke painted');
  assert.equal(await page.evaluate(() => window.skinlab.lab.centresCurrent()), true, 'current once the stroke ended');
  const { worst } = await gpuVersusCpu(page, 'cor');
  assert.ok(worst < 1e-4, `GPU follows the new centres: ${worst}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('side by side takes any two of LBS, DQS and CoR, and the link keeps the pair', async () => {
  const { page, errors } = await openAt('?example=tube');
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.lab.setBonePose(1, { rotation: [0, Math.sin(1.4), 0, Math.cos(1.4)] })));
  await nextFrame(page, () => page.locator('#compare').click());
  assert.deepEqual(await page.evaluate(() => window.skinlab.comparePair()), ['lbs', 'dqs']);
  // Clicking CoR puts it on the right, DQS moves to the left.
  await nextFrame(page, () => page.locator('[data-method="cor"]').click());
  assert.deepEqual(await page.evaluate(() => window.skinlab.comparePair()), ['dqs', 'cor']);
  assert.deepEqual(await page.locator('#compare-labels span').allTextContents(), ['DQS', 'CoR']);
  for (const [method, pressed] of [['lbs', 'false'], ['dqs', 'true'], ['cor', 'true']]) {
    assert.equal(await page.locator(`[data-method="${method}"]`).getAttribute('aria-pressed'), pressed, method);
  }
  // The right half is drawn with CoR: its joint ring keeps the tube's girth,
  // so the two halves differ.
  const halves = await page.evaluate(() => {
    const { data, width } = window.testCanvasRgba();
    const half = Math.floor(width / 2);
    const counts = { left: 0, right: 0 };
    for (let k = 0; k < data.length; k += 4) {
      if (data[k] > 150 && data[k] - data[k + 2] > 40) counts[(k / 4) % width < half ? 'left' : 'right'] += 1;
    }
    return counts;
  });
  assert.ok(halves.left > 0 && halves.right > 0, JSON.stringify(halves));
  const link = await page.evaluate(() => window.skinlab.shareLink());
  const { page: again } = await openPage(fixture.browser, link);
  await waitForSkinlab(again);
  assert.deepEqual(await again.evaluate(() => [window.skinlab.viewer.compare(), ...window.skinlab.comparePair()]), [true, 'dqs', 'cor']);
  await screenshot(page, 'cor-side-by-side');
  const refused = await page.evaluate(() => {
    try { window.skinlab.setComparePair('cor', 'cor'); return null; } catch (error) { return error.message; }
  });
  assert.match(refused, /setComparePair: side by side needs two different methods/);
  assert.deepEqual(errors, []);
  await again.close();
  await page.close();
});

test('the centres layer draws each centre of rotation as a dot where the pose puts it', async () => {
  const { page, errors } = await openAt('?example=tube&overlays=mesh,centres');
  await waitForSkinlab(page);
  await nextFrame(page);
  assert.equal(await page.locator('[data-overlay="centres"]').isChecked(), true);
  assert.equal(await page.evaluate(() => window.skinlab.lab.centresCurrent()), true, 'the layer ran the centres job');
  // Reddish purple dots (the layer's colour, apart from the frames' green
  // and red) on the tube's axis, where the joint's centres are.
  const green = async () => page.evaluate(() => {
    const { data } = window.testCanvasRgba();
    let count = 0;
    for (let k = 0; k < data.length; k += 4) if (data[k] > 170 && data[k + 1] < 150 && data[k + 2] > 140 && data[k + 2] < 200) count += 1;
    return count;
  });
  const shown = await green();
  await nextFrame(page, () => page.locator('[data-overlay="centres"]').click());
  const hidden = await green();
  console.log(`# centres layer: ${shown} purple pixels shown, ${hidden} hidden`);
  assert.ok(shown > 50 && hidden < shown / 4, `${shown} vs ${hidden}`);
  await nextFrame(page, () => page.locator('[data-overlay="centres"]').click());
  await screenshot(page, 'cor-centres-layer');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a large mesh gets its centres of rotation from a worker, the same as computed in the page', async () => {
  const { page, errors } = await openAt('?example=dense&overlays=mesh');
  await waitForSkinlab(page);
  const workers = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await nextFrame(page, () => page.locator('[data-method="cor"]').click());
  await page.waitForFunction(() => window.skinlab.lab.centresCurrent(), null, { timeout: 60000 });
  assert.ok(workers.some((url) => url.includes('weights-worker')), `a worker computed them: ${workers}`);
  const same = await page.evaluate(() => {
    const mine = window.skinlab.lab.centresArray().centres;
    const here = window.skinlab.Lab.example('dense');
    here.updateCentres();
    const theirs = here.centresArray().centres;
    here.free();
    let worst = 0;
    for (let k = 0; k < mine.length; k++) worst = Math.max(worst, Math.abs(mine[k] - theirs[k]));
    return { worst, length: mine.length };
  });
  assert.equal(same.length, 4 * 100000);
  assert.equal(same.worst, 0, 'bit for bit the centres the page would compute');
  const refused = await page.evaluate(() => {
    const { lab } = window.skinlab;
    const { centres, revision } = lab.centresArray();
    lab.setInfluences(5, [[0, 0.5], [1, 0.5]]);
    try { lab.setCentresArray(centres, revision); return null; } catch (error) { return error.message; }
  });
  assert.match(refused, /setCentresArray: the centres were computed for weights revision/);
  assert.deepEqual(errors, []);
  await page.close();
});
