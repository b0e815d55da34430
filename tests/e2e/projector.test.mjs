// The projector view: large type, thick lines and larger marks for a
// lecture hall, from the toolbar or ?projector=1, kept in the address.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, useBrowser, waitForSkinlab, nextFrame } from './browser.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

/** Pixels of the view in the bone dots' and frames' strong colours (orange, blue, green, red). */
const markPixels = (page) => page.evaluate(() => {
  const { data } = window.testCanvasRgba();
  const marks = [[213, 94, 0], [0, 114, 178], [26, 158, 64], [217, 38, 38]];
  let count = 0;
  for (let k = 0; k < data.length; k += 4) {
    if (marks.some(([r, g, b]) => Math.abs(data[k] - r) + Math.abs(data[k + 1] - g) + Math.abs(data[k + 2] - b) < 60)) count++;
  }
  return count;
});

const captionSize = (page) => page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('#caption')).fontSize));

test('the projector view enlarges type and marks, from the toolbar and from the address', async () => {
  const { page, errors } = await openAt('?example=two-bone&overlays=mesh,dots,bones,ownFrames,childFrames');
  await waitForSkinlab(page);
  await nextFrame(page);
  const plain = { caption: await captionSize(page), drawn: await markPixels(page) };
  await nextFrame(page, () => page.locator('#projector').click());
  assert.equal(await page.evaluate(() => window.skinlab.projector()), true);
  assert.equal(await page.locator('#projector').getAttribute('aria-pressed'), 'true');
  assert.equal(new URL(page.url()).searchParams.get('projector'), '1', 'kept in the address');
  const big = { caption: await captionSize(page), drawn: await markPixels(page) };
  console.log(`# caption ${plain.caption} px → ${big.caption} px; ${plain.drawn} → ${big.drawn} pixels of dots and frames`);
  assert.ok(big.caption >= 1.3 * plain.caption, 'larger type');
  assert.ok(big.drawn > 1.3 * plain.drawn, 'larger dots and thicker frames');
  await screenshot(page, 'projector-two-bone');
  // A link with ?projector=1 opens in it; the toolbar turns it off again.
  const { page: linked } = await openAt('?example=y-junction&projector=1');
  await waitForSkinlab(linked);
  assert.equal(await linked.evaluate(() => document.querySelector('.skinlab').classList.contains('projector')), true);
  await nextFrame(linked, () => linked.locator('#projector').click());
  assert.equal(await linked.evaluate(() => window.skinlab.projector()), false);
  assert.equal(new URL(linked.url()).searchParams.has('projector'), false);
  await linked.close();
  assert.deepEqual(errors, []);
  await page.close();
});
