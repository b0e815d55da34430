// The page's modes: one mode's controls at a time, opened by ?mode=NAME,
// kept by the share link, and a layout in which the view stays the largest
// thing, on a projector and on a phone.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  dragAcross, openPage, screenshot, useBrowser, waitForSkinlab, nextFrame,
} from './browser.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

const visible = (page, selector) => page.locator(selector).isVisible();

test('?mode=weights opens with the paint tools showing and the Skin controls hidden', async () => {
  const { page, errors } = await openAt('?example=y-junction&mode=weights');
  await waitForSkinlab(page);
  assert.equal(await page.evaluate(() => window.skinlab.mode()), 'weights');
  assert.equal(await page.evaluate(() => window.skinlab.tool()), 'paint');
  for (const selector of ['#paint-panel', '#brush-radius', '#brush-mode', '[data-auto="heat"]', '#weight-view']) {
    assert.equal(await visible(page, selector), true, `${selector} shows in Weights`);
  }
  for (const selector of ['#mode-skin', '.overlays', '#quantised', '#bone-panel']) {
    assert.equal(await visible(page, selector), false, `${selector} is hidden in Weights`);
  }
  assert.equal(await page.locator('#modes [data-mode="weights"]').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.evaluate(() => window.skinlab.viewer.weightView()), 'weights', 'the skin shows the weights');
  await screenshot(page, 'mode-weights');

  // Clicking "Skin" in the switcher brings the Skin controls back, alone.
  await nextFrame(page, () => page.locator('#modes [data-mode="skin"]').click());
  assert.equal(await page.evaluate(() => window.skinlab.mode()), 'skin');
  assert.equal(await page.evaluate(() => window.skinlab.tool()), 'pose');
  assert.equal(await visible(page, '.overlays'), true);
  assert.equal(await visible(page, '#paint-panel'), false);
  assert.equal(await page.evaluate(() => window.skinlab.viewer.weightView()), 'skin');
  // The W key paints, which is the Weights mode's job.
  await page.locator('#view').focus();
  await nextFrame(page, () => page.keyboard.press('w'));
  assert.equal(await page.evaluate(() => window.skinlab.mode()), 'weights');
  const refused = await page.evaluate(() => {
    try { window.skinlab.setMode('sculpt'); return null; } catch (error) { return error.message; }
  });
  assert.match(refused, /unknown mode 'sculpt'/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the share link of a page in Weights reopens in Weights with the painted weights', async () => {
  const { page: a } = await openAt('?example=y-junction-unweighted');
  await waitForSkinlab(a);
  await nextFrame(a, () => a.locator('#modes [data-mode="weights"]').click());
  await nextFrame(a, () => a.evaluate(() => window.skinlab.selectBone(2)));
  await dragAcross(a, await a.evaluate(() => window.skinlab.vertexScreenPoint(10)));
  await nextFrame(a);
  const sceneA = await a.evaluate(() => window.skinlab.lab.sceneJson());
  assert.notEqual(sceneA, await a.evaluate(() => window.skinlab.Lab.example('y-junction-unweighted').sceneJson()), 'the stroke painted');
  const link = await a.evaluate(() => window.skinlab.shareLink());
  assert.doesNotMatch(link, /mode=/, 'the mode travels in the state, not as a parameter');

  const { page: b, errors } = await openPage(fixture.browser, link);
  await waitForSkinlab(b);
  assert.equal(await b.evaluate(() => window.skinlab.mode()), 'weights');
  assert.equal(await visible(b, '#paint-panel'), true);
  assert.equal(await visible(b, '.overlays'), false);
  assert.equal(await b.evaluate(() => window.skinlab.lab.sceneJson()), sceneA);

  // And back: a link made in Skin reopens in Skin.
  await nextFrame(b, () => b.evaluate(() => window.skinlab.setMode('skin')));
  const skinLink = await b.evaluate(() => window.skinlab.shareLink());
  const { page: c } = await openPage(fixture.browser, skinLink);
  await waitForSkinlab(c);
  assert.equal(await c.evaluate(() => window.skinlab.mode()), 'skin');
  assert.deepEqual(errors, []);
  await Promise.all([a.close(), b.close(), c.close()]);
});

/** Areas of the canvas, the panel and the page, and whether anything overflows sideways. */
async function layout(page) {
  return page.evaluate(() => {
    const area = (selector) => {
      const rect = document.querySelector(selector).getBoundingClientRect();
      return rect.width * rect.height;
    };
    return {
      canvas: area('#view'),
      panel: area('.panel'),
      toolbar: area('.toolbar'),
      page: window.innerWidth * window.innerHeight,
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      canvasWidth: document.querySelector('#view').getBoundingClientRect().width,
    };
  });
}

test('the view is the largest thing at 1280×800 and on a phone, in every mode', async () => {
  for (const [name, viewport] of [['projector', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
    for (const mode of ['skin', 'weights']) {
      const { page, errors } = await openAt(`?example=fingers&mode=${mode}&lang=de`);
      await page.setViewportSize(viewport);
      await waitForSkinlab(page);
      await nextFrame(page);
      const sizes = await layout(page);
      await screenshot(page, `layout-${name}-${mode}`);
      console.log(`# ${name} ${mode}: canvas ${(100 * sizes.canvas / sizes.page).toFixed(0)}% of the page, panel ${(100 * sizes.panel / sizes.page).toFixed(0)}%`);
      assert.ok(sizes.canvas > sizes.panel, `${name} ${mode}: the view is larger than the panel`);
      assert.ok(sizes.canvas > sizes.toolbar, `${name} ${mode}: the view is larger than the toolbar`);
      assert.ok(sizes.canvas > 0.3 * sizes.page, `${name} ${mode}: the view takes ${sizes.canvas / sizes.page} of the page`);
      assert.ok(sizes.overflow <= 0, `${name} ${mode}: nothing sticks out sideways (${sizes.overflow} px)`);
      if (name === 'phone') assert.ok(sizes.canvasWidth >= viewport.width - 1, 'the view spans the phone');
      assert.deepEqual(errors, []);
      await page.close();
    }
  }
});

test('the twist lab on the tube: a slider, the volume each method keeps, and its plot', async () => {
  const { page, errors } = await openAt('?example=tube');
  await waitForSkinlab(page);
  assert.equal(await visible(page, '#twist-lab'), true);
  await nextFrame(page, () => page.locator('#twist-angle').fill('180'));
  const figures = await page.locator('#twist-figures').textContent();
  const [, lbs, dqs] = figures.match(/LBS ([\d.]+)% · DQS ([\d.]+)%/).map(Number);
  console.log(`# tube at 180°: volume kept LBS ${lbs}%, DQS ${dqs}% (${figures})`);
  assert.ok(Math.abs(dqs - 100) < 5, `DQS keeps the volume: ${dqs}`);
  assert.ok(lbs < 90, `LBS loses volume: ${lbs}`);
  const [, ringLbs, ringDqs] = figures.match(/joint ring radius LBS ([\d.]+) · DQS ([\d.]+)/).map(Number);
  assert.ok(ringLbs < 0.5 * ringDqs, `the LBS joint collapses: ring radius ${ringLbs} against DQS ${ringDqs}`);
  const curve = await page.evaluate(() => window.skinlab.twistCurve());
  assert.equal(curve.length, 19);
  assert.ok(curve.every((p, k) => k === 0 || p.lbs <= curve[k - 1].lbs + 1e-3), 'LBS loses more the more it twists');
  await screenshot(page, 'twist-lab');
  // Elsewhere it is not shown.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.loadExample('two-bone')));
  assert.equal(await visible(page, '#twist-lab'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a dense mesh opens with the skin alone; the next smaller scene gets its wire and dots back; ?overlays= decides instead', async () => {
  const { page, errors } = await openAt('?example=dense');
  await waitForSkinlab(page);
  const checked = () => page.evaluate(() => ['wireframe', 'dots', 'mesh']
    .map((name) => document.querySelector(`[data-overlay="${name}"]`).checked));
  assert.deepEqual(await checked(), [false, false, true], 'dense: skin alone');
  // A person may bring the wire back by its checkbox.
  await page.locator('[data-overlay="wireframe"]').check();
  assert.deepEqual(await checked(), [true, false, true]);
  await page.locator('#example').selectOption('two-bone');
  await page.waitForFunction(() => window.skinlab.example === 'two-bone');
  assert.deepEqual(await checked(), [true, true, true], 'a small scene: wire and dots');
  const { page: asked } = await openAt('?example=dense&overlays=mesh,wireframe,bones');
  await waitForSkinlab(asked);
  assert.deepEqual(await asked.evaluate(() => ['wireframe', 'dots']
    .map((name) => document.querySelector(`[data-overlay="${name}"]`).checked)), [true, false], 'the parameter decides');
  assert.deepEqual(errors, []);
  await Promise.all([page.close(), asked.close()]);
});
