// What `cargo xtask serve` serves (dist/) holds every file the page can
// fetch: every gallery entry opens from the served tree, the FBX one
// included, and an error of a failed open goes once another scene opens.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, root, useBrowser, waitForSkinlab, nextFrame } from './browser.mjs';

const fixture = useBrowser(before, after, join(root, 'dist'));

test('every gallery entry opens from the served tree', async () => {
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}index.html?autosave=0&lang=en`);
  await waitForSkinlab(page);
  const models = await page.evaluate(() => window.skinlab.models());
  assert.ok(models.includes('rigged-figure-fbx'), `the gallery: ${models}`);
  for (const name of [...models, 'capture']) {
    await page.evaluate((model) => window.skinlab.loadExample(model), name);
    await page.waitForFunction((model) => window.skinlab.example === model
      || document.querySelector('#notice')?.classList.contains('error'), name, { timeout: 30_000 });
    const notice = await page.locator('#notice').evaluate((n) => (n.hidden ? '' : n.textContent));
    assert.equal(await page.evaluate(() => window.skinlab.example), name, `${name} opened (notice: ${notice})`);
    assert.ok(await page.evaluate(() => window.skinlab.lab.boneCount()) > 0, name);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the notice of a failed open goes when another scene opens', async () => {
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}index.html?autosave=0&lang=en`);
  await waitForSkinlab(page);
  await page.locator('#import-file').setInputFiles({ name: 'broken.glb', mimeType: 'model/gltf-binary', buffer: Buffer.from('glTF not really') });
  await page.waitForFunction(() => document.querySelector('#notice')?.classList.contains('error') && !document.querySelector('#notice').hidden);
  assert.match(await page.locator('#notice').textContent(), /broken\.glb/);
  await nextFrame(page, () => page.locator('#example').selectOption('two-bone-smooth'));
  await page.waitForFunction(() => window.skinlab.example === 'two-bone-smooth');
  assert.equal(await page.locator('#notice').isVisible(), false, 'the failed open is behind us');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the first frame waits for the page\'s module alone; the readers\' module comes with an example of its own or the Weights mode', async () => {
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}index.html?autosave=0&lang=en`);
  const fetched = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  const readers = () => fetched.filter((path) => path.endsWith('skinlab_converters_bg.wasm')).length;
  await waitForSkinlab(page);
  // The lecture notes' figures are built by the page's module.
  for (const name of ['two-bone', 'y-junction', 'chain', 'dense']) {
    assert.equal(await page.evaluate((example) => window.skinlab.Lab.exampleBuiltHere(example), name), true, name);
    await page.evaluate((example) => window.skinlab.loadExample(example), name);
    await page.waitForFunction((example) => window.skinlab.example === example, name);
  }
  assert.equal(readers(), 0, `fetched: ${fetched.join(', ')}`);
  // The robot is built by the readers' module and handed over.
  assert.equal(await page.evaluate(() => window.skinlab.Lab.exampleBuiltHere('robot')), false);
  await page.evaluate(() => window.skinlab.loadExample('robot'));
  await page.waitForFunction(() => window.skinlab.example === 'robot', null, { timeout: 30_000 });
  assert.equal(readers(), 1);
  assert.ok(await page.evaluate(() => window.skinlab.lab.boneCount()) > 3);
  await page.close();

  // Entering the Weights mode loads it before a button asks for it.
  const second = await openPage(fixture.browser, `${fixture.server.url}index.html?autosave=0&lang=en`);
  const asked = [];
  second.page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await waitForSkinlab(second.page);
  assert.equal(asked.filter((path) => path.endsWith('skinlab_converters_bg.wasm')).length, 0);
  await second.page.evaluate(() => window.skinlab.setMode('weights'));
  await second.page.waitForFunction(() => performance.getEntriesByType('resource').some((r) => r.name.endsWith('skinlab_converters_bg.wasm')));
  const report = await second.page.evaluate(() => window.skinlab.autoWeights('heat'));
  assert.ok(report && report.iterations >= 0, JSON.stringify(report));
  assert.deepEqual([...errors, ...second.errors], []);
  await second.page.close();
});

test('the rotation lab fetches the readers\' module when it first draws, and then draws its three bodies', async () => {
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}index.html?autosave=0&lang=en&lesson=rotations&step=1`);
  await waitForSkinlab(page);
  await page.waitForFunction(() => window.skinlab.rotationLab().determinant !== null, null, { timeout: 30_000 });
  assert.ok(await page.evaluate(() => performance.getEntriesByType('resource').some((r) => r.name.endsWith('skinlab_converters_bg.wasm'))));
  // Three bodies of twelve edges each, over the view.
  assert.ok(await page.locator('#rot-views .rot-edge').count() >= 36);
  assert.deepEqual(errors, []);
  await page.close();
});
