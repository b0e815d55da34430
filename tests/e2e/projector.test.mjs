// The projector view: large type, thick lines and larger marks for a
// lecture hall, from the toolbar or ?projector=1, kept in the address.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, pressToolbar, screenshot, useBrowser, waitForSkinlab, nextFrame } from './browser.mjs';

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
  await nextFrame(page, () => pressToolbar(page, '#projector'));
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
  await nextFrame(linked, () => pressToolbar(linked, '#projector'));
  assert.equal(await linked.evaluate(() => window.skinlab.projector()), false);
  assert.equal(new URL(linked.url()).searchParams.has('projector'), false);
  await linked.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('the toolbar keeps to one row at 1280 px by folding Share, the projector and the language behind "⋯", and shows them in line on a wide screen', async () => {
  const { page, errors } = await openAt('?example=two-bone&lang=de&projector=1');
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForSkinlab(page);
  const more = page.locator('#more');
  assert.equal(await more.isVisible(), true);
  assert.equal(await more.getAttribute('aria-expanded'), 'false');
  assert.equal(await more.getAttribute('aria-label'), 'Teilen, Projektor, Sprache');
  assert.equal(await page.locator('#projector').isVisible(), false);
  // Reset, undo and redo are arrows that keep their words as their names.
  assert.equal(await page.locator('#undo').getAttribute('title'), 'Rückgängig (Strg+Z)');
  assert.equal((await page.locator('#undo').textContent()).trim(), 'Rückgängig');
  // One row in German at 1280 px, with the projector's type, nothing past its edge.
  const toolbar = await page.locator('.toolbar').boundingBox();
  const button = await page.locator('#compare').boundingBox();
  assert.ok(toolbar.height < 2 * button.height, `one row: the toolbar ${toolbar.height} px high, a button ${button.height} px`);
  assert.equal(await page.evaluate(() => document.querySelector('.toolbar').scrollWidth <= innerWidth), true);
  // Opened by the keyboard: Enter, then Tab reaches Share; Esc closes it and gives the focus back.
  await more.focus();
  await page.keyboard.press('Enter');
  assert.equal(await more.getAttribute('aria-expanded'), 'true');
  assert.equal(await page.locator('#language [data-lang="en"]').isVisible(), true);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'share');
  await page.keyboard.press('Escape');
  assert.equal(await more.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'more');
  // A choice closes it: the projector off, the menu shut.
  await nextFrame(page, () => pressToolbar(page, '#projector'));
  assert.equal(await page.evaluate(() => window.skinlab.projector()), false);
  assert.equal(await more.getAttribute('aria-expanded'), 'false');
  // A press elsewhere closes it too.
  await more.click();
  await page.locator('#caption').click();
  assert.equal(await more.getAttribute('aria-expanded'), 'false');
  // Wide: nothing folded.
  await page.setViewportSize({ width: 1600, height: 900 });
  assert.equal(await more.isVisible(), false);
  assert.equal(await page.locator('#projector').isVisible(), true);
  assert.equal((await page.locator('#undo').boundingBox()).width > 60, true, 'undo in words');
  assert.deepEqual(errors, []);
  await page.close();
});
