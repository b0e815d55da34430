// What a lecturer meets in front of a hall: a typo in a link gets a word on
// screen, the Weights mode shows a bone's weights at once and a click on a
// bone's glyph picks the bone to paint, a lesson gives back the overlays it
// turned on, and the caption can be hidden.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, waitForSkinlab, nextFrame } from './browser.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

test('an unknown example, mode or method in the link is named on screen with the known ones', async () => {
  const { page } = await openAt('?example=y-junktion&mode=wieghts&method=dqx&autosave=0&lang=de');
  await waitForSkinlab(page);
  const notice = page.locator('#notice');
  await notice.waitFor({ state: 'visible' });
  const text = await notice.textContent();
  for (const word of ['y-junktion', 'y-junction', 'wieghts', 'weights', 'dqx', 'dqs']) assert.ok(text.includes(word), `the notice names ${word}: ${text}`);
  assert.match(text, /Skinlab nicht kennt/, 'in the page\'s language');
  assert.equal(await page.evaluate(() => window.skinlab.example), 'two-bone', 'the default example instead');
  await page.close();
  // A known link says nothing.
  const { page: fine } = await openAt('?example=y-junction&autosave=0');
  await waitForSkinlab(fine);
  assert.equal(await fine.locator('#notice').isVisible(), false);
  await fine.close();
});

test('the Weights mode opens on a bone\'s weights, and a click on a bone\'s glyph picks it without painting', async () => {
  const { page, errors } = await openAt('?example=y-junction&autosave=0');
  await waitForSkinlab(page);
  assert.equal(await page.evaluate(() => window.skinlab.selectedBone()), null);
  await nextFrame(page, () => page.locator('[data-mode="weights"]').click());
  assert.equal(await page.evaluate(() => window.skinlab.selectedBone()), 0, 'the first bone that deforms');
  assert.equal(await page.evaluate(() => window.skinlab.viewer.weightView()), 'weights', 'its heat map at once');
  assert.equal(await page.locator('#bone-list li.selected').count(), 1, 'and chosen in the bone list');
  // The left branch's glyph, clicked with the brush: bone 1 is picked and no weight changes.
  const weightsBefore = await page.evaluate(() => window.skinlab.lab.sceneJson());
  const [x, y] = await page.evaluate(() => window.skinlab.boneScreenPoint(1));
  const box = await page.locator('#view').boundingBox();
  await nextFrame(page, () => page.mouse.click(box.x + x, box.y + y));
  assert.equal(await page.evaluate(() => window.skinlab.selectedBone()), 1);
  assert.equal(await page.evaluate(() => window.skinlab.tool()), 'paint', 'still painting');
  assert.equal(await page.evaluate(() => window.skinlab.lab.sceneJson()), weightsBefore, 'nothing painted');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a lesson gives back the overlays and method it turned on, but not what the student changed', async () => {
  const { page, errors } = await openAt('?autosave=0');
  await waitForSkinlab(page);
  const checked = (name) => page.locator(`[data-overlay="${name}"]`).isChecked();
  assert.equal(await checked('ownFrames'), false);
  await page.evaluate(() => window.skinlab.startLesson('bones', 1));
  assert.equal(await checked('ownFrames'), true, 'the Bones lesson shows the frames');
  await page.evaluate(() => window.skinlab.setMode('skin'));
  assert.equal(await checked('ownFrames'), false, 'given back when the lesson ends');
  assert.equal(await checked('childFrames'), false);
  // Changed by the student during the lesson: kept.
  await page.evaluate(() => window.skinlab.startLesson('bones', 1));
  await page.evaluate(() => window.skinlab.setOverlay('ghost', true));
  await page.evaluate(() => window.skinlab.setMode('skin'));
  assert.equal(await checked('ghost'), true, 'the student\'s own change stays');
  assert.equal(await checked('ownFrames'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the caption hides and comes back from its button, named for what it does', async () => {
  const { page, errors } = await openAt('?example=two-bone&autosave=0');
  await waitForSkinlab(page);
  const button = page.locator('#caption-hide');
  assert.equal(await button.getAttribute('aria-label'), 'Hide the caption');
  const viewBefore = (await page.locator('#view').boundingBox()).height;
  await nextFrame(page, () => button.click());
  assert.equal(await page.locator('#caption').isVisible(), false);
  assert.equal(await button.getAttribute('aria-expanded'), 'false');
  assert.ok((await page.locator('#view').boundingBox()).height > viewBefore, 'the view takes its place');
  await button.click();
  assert.equal(await page.locator('#caption').isVisible(), true);
  assert.deepEqual(errors, []);
  await page.close();
});
