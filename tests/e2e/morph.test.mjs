// The Morph mode in the page: a slider changes the drawn face, the base
// weight shown is 1 − Σ, and the GPU's morph-then-skin (offsets read by
// gl_VertexID from a float texture) equals the CPU by transform feedback.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  openPage, screenshot, useBrowser, waitForSkinlab, nextFrame, gpuVersusCpu,
} from './browser.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

/** The canvas' pixels, kept in the page under `name` for `changedBytes`. */
const keepPicture = (page, name) => page.evaluate((key) => {
  window[key] = window.testCanvasRgba().data;
}, name);

/** Bytes that differ between two kept pictures. */
const changedBytes = (page, a, b) => page.evaluate(([x, y]) => {
  let n = 0;
  for (let k = 0; k < window[x].length; k++) if (window[x][k] !== window[y][k]) n += 1;
  return n;
}, [a, b]);

test('moving a slider changes the drawn face, and the base weight is 1 − Σ', async () => {
  const { page, errors } = await openAt('?example=face&mode=morph');
  await waitForSkinlab(page);
  assert.deepEqual(await page.evaluate(() => window.skinlab.lab.morphNames()), ['A', 'O', 'M', 'F', 'smile', 'frown']);
  await keepPicture(page, 'before');
  const slider = page.locator('#morph-sliders input[data-morph="0"]');
  await nextFrame(page, () => slider.fill('0.9'));
  await keepPicture(page, 'after');
  const changed = await changedBytes(page, 'before', 'after');
  console.log(`# the "A" slider at 0.9 changed ${changed} pixel bytes`);
  assert.ok(changed > 200, 'the face changed');
  assert.equal(await page.evaluate(() => window.skinlab.lab.morphWeights()[0]), 0.8999999761581421);
  await nextFrame(page, () => page.locator('#morph-sliders input[data-morph="4"]').fill('0.6'));
  assert.equal(await page.locator('#morph-base').textContent(), 'base weight 1 − Σ mₖ = 1 − 1.50 = -0.50');
  assert.equal(await page.locator('#morph-extrapolation').isVisible(), true, 'past a sum of 1 the page explains extrapolation');
  await screenshot(page, 'morph-face');
  // One undo per slider drag.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.undo()));
  assert.deepEqual(Array.from(await page.evaluate(() => window.skinlab.lab.morphWeights())).map((w) => Number(w.toFixed(2))), [0.9, 0, 0, 0, 0, 0]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('GPU morph-then-skin equals the CPU for random weights with a posed jaw, LBS and DQS', async () => {
  const { page, errors } = await openAt('?example=face&mode=morph');
  await waitForSkinlab(page);
  let seed = 7;
  const random = () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
  for (let trial = 0; trial < 4; trial++) {
    const weights = Array.from({ length: 6 }, () => (random() < 0.3 ? 0 : 1.4 * random() - 0.2));
    const angle = 0.6 * random();
    await nextFrame(page, () => page.evaluate(({ weights, angle }) => {
      window.skinlab.lab.setMorphWeights(weights);
      window.skinlab.lab.setBonePose(1, [Math.sin(angle / 2), 0, 0, Math.cos(angle / 2)], [0, 0.1, 0.05]);
      window.skinlab.lab.setBonePose(0, [0, 0, Math.sin(angle / 4), Math.cos(angle / 4)]);
    }, { weights, angle }));
    for (const method of ['lbs', 'dqs']) {
      const { worst, normals, count } = await gpuVersusCpu(page, method);
      console.log(`# trial ${trial} ${method}: ${count} vertices, |GPU − CPU| ≤ ${worst.toExponential(1)} (normals ${normals.toExponential(1)})`);
      assert.ok(worst < 1e-4, `${method}: ${worst}`);
      assert.ok(normals < 1e-4, `${method} normals: ${normals}`);
    }
  }
  // And the morph really moved something: the weights matter on the GPU.
  const moved = await page.evaluate(() => {
    const withMorph = Array.from(window.skinlab.gpuSkinnedPositions('lbs'));
    window.skinlab.lab.setMorphWeights([0, 0, 0, 0, 0, 0]);
    const without = window.skinlab.gpuSkinnedPositions('lbs');
    return withMorph.reduce((m, v, k) => Math.max(m, Math.abs(v - without[k])), 0);
  });
  assert.ok(moved > 0.02, `the GPU morphs (${moved})`);
  assert.deepEqual(errors, []);
  await page.close();
});
