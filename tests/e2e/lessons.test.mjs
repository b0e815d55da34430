// The Lessons mode in detail: the two-bone and Y-junction lessons are
// completed with real mouse drags and a real brush stroke, each check
// turning done only after the student acts; the address is the step; the
// buttons of the keyframe, path, IK, morphing and GPU steps do what they
// say. (lesson-walk.test.mjs walks every step in both languages.)
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  openPage, screenshot, useBrowser, waitForSkinlab, nextFrame,
} from './browser.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

/** Drags from `from` about `pivot` by `degrees` counter-clockwise on screen, in 12 moves. */
async function turnDrag(page, from, pivot, degrees) {
  const box = await page.locator('#view').boundingBox();
  const arm = { x: from.x - pivot.x, y: from.y - pivot.y };
  await page.mouse.move(box.x + from.x, box.y + from.y);
  await page.mouse.down();
  for (let k = 1; k <= 12; k++) {
    const a = (degrees * Math.PI / 180) * k / 12;
    const x = pivot.x + arm.x * Math.cos(a) + arm.y * Math.sin(a);
    const y = pivot.y - arm.x * Math.sin(a) + arm.y * Math.cos(a);
    await page.mouse.move(box.x + x, box.y + y);
  }
  await page.mouse.up();
  await nextFrame(page);
}

/** Where a press grabs `bone`, and its origin on screen. */
const bonePoints = (page, bone) => page.evaluate((b) => {
  const [gx, gy] = window.skinlab.boneScreenPoint(b);
  const [x, y] = window.skinlab.viewer.screenPointOf(new Float32Array(window.skinlab.lab.boneOrigin(b)));
  return { grab: { x: gx, y: gy }, pivot: { x, y } };
}, bone);

const state = (page) => page.evaluate(() => window.skinlab.lessonState());

test('the two-bone lesson, done with the mouse: each check ticks only after the drag', async () => {
  const { page, errors } = await openAt('?lesson=two-bones');
  await waitForSkinlab(page);
  for (const step of [1, 2]) {
    assert.deepEqual(await state(page), { lesson: 'two-bones', step, steps: 2, done: false });
    // A small turn is not enough.
    let { grab, pivot } = await bonePoints(page, 1);
    await turnDrag(page, grab, pivot, 20);
    assert.equal((await state(page)).done, false, `step ${step}: 20° is not 45°`);
    // A mouse user gets no keyboard ring, keys over the view or keys in the card.
    assert.equal(await page.locator('.view-keys').isVisible(), false);
    assert.equal(await page.locator('.lesson-keys').isVisible(), false);
    ({ grab, pivot } = await bonePoints(page, 1));
    await turnDrag(page, grab, pivot, 40);
    assert.equal((await state(page)).done, true, `step ${step}: done after turning bone 2 by 60°`);
    assert.equal(await page.locator('#lesson-check').textContent(), '✓ Done');
    assert.equal(await page.locator('#lesson-notice').isVisible(), true, 'what to notice shows once done');
    await screenshot(page, `lesson-two-bones-${step}-done`);
    await nextFrame(page, () => page.locator('#lesson-next').click());
  }
  assert.equal((await state(page)).lesson, 'y-junction', 'Next at the end opens the next lesson');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Y-junction lesson: bend the branch by mouse, then heal the fork with a real brush stroke', async () => {
  const { page, errors } = await openAt('?lesson=y-junction');
  await waitForSkinlab(page);
  const { grab, pivot } = await bonePoints(page, 2);
  await turnDrag(page, grab, pivot, -40);
  assert.equal((await state(page)).done, true, 'the right branch bent by 40°');
  // PageDown, as a clicker sends it, goes to the next step.
  await page.locator('#view').focus();
  await page.evaluate(() => window.skinlab.selectBone(null));
  await nextFrame(page, () => page.keyboard.press('PageDown'));
  assert.deepEqual(await state(page), { lesson: 'y-junction', step: 2, steps: 2, done: false });
  assert.equal(await page.evaluate(() => window.skinlab.tool()), 'paint', 'the step hands the student the brush');
  const fork = await page.evaluate(() => {
    const positions = JSON.parse(window.skinlab.lab.sceneJson()).mesh.positions;
    for (let v = 0; v < positions.length / 3; v++) if (Math.abs(positions[3 * v]) < 1e-6 && positions[3 * v + 1] > 2) return v;
    return -1;
  });
  const point = await page.evaluate((v) => window.skinlab.vertexScreenPoint(v), fork);
  const box = await page.locator('#view').boundingBox();
  await page.mouse.move(box.x + point[0] - 12, box.y + point[1]);
  await page.mouse.down();
  for (let k = 0; k <= 8; k++) await page.mouse.move(box.x + point[0] - 12 + 3 * k, box.y + point[1] + (k % 2));
  await page.mouse.up();
  await nextFrame(page);
  assert.equal((await state(page)).done, true, 'the fork belongs to both branches now');
  const weights = await page.evaluate((v) => window.skinlab.lab.influences(v), fork);
  console.log(`# the fork after the stroke: ${JSON.stringify(weights)}`);
  await screenshot(page, 'lesson-y-junction-2-done');
  assert.deepEqual(errors, []);
  await page.close();
});

test('in a lesson the address is the step; leaving the lesson gives the usual link back', async () => {
  const { page, errors } = await openAt('?lesson=bones&step=2&lang=de');
  await waitForSkinlab(page);
  await nextFrame(page, () => page.locator('#lesson-next').click());
  await page.waitForFunction(() => location.search.includes('step=3'));
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('lesson'), 'bones');
  assert.equal(url.searchParams.get('lang'), 'de', 'the language stays');
  const { page: again } = await openPage(fixture.browser, page.url());
  await waitForSkinlab(again);
  assert.deepEqual(await again.evaluate(() => window.skinlab.lessonState()), { lesson: 'bones', step: 3, steps: 3, done: false });
  await again.close();
  await nextFrame(page, () => page.locator('#modes [data-mode="skin"]').click());
  const link = await page.evaluate(() => window.skinlab.shareLink());
  assert.doesNotMatch(link, /lesson=/);
  assert.match(link, /#s=/);
  assert.deepEqual(errors, []);
  await page.close();
});

const doneNow = async (page) => {
  await nextFrame(page);
  return page.evaluate(() => window.skinlab.lessonState().done);
};
const press = (page, label) => page.locator('#lesson-actions button', { hasText: label }).click();

test('the keyframe and path lessons are completed with their buttons and a drag', async () => {
  const { page, errors } = await openAt('?lesson=keyframes&step=1');
  await waitForSkinlab(page);
  assert.equal(await doneNow(page), false);
  await page.locator('#anim-play').click();
  await page.waitForTimeout(500);
  assert.equal(await doneNow(page), true, 'playing the walk');
  await page.evaluate(() => window.skinlab.startLesson('keyframes', 2));
  assert.equal(await doneNow(page), false);
  await press(page, 'Knee: step');
  assert.equal(await doneNow(page), true, 'the knee on step keys');
  await page.evaluate(() => window.skinlab.startLesson('keyframes', 4));
  await press(page, 'Key bone 2 here');
  await press(page, 'Playhead +1 s');
  assert.equal(await doneNow(page), false, 'one key is not a clip');
  const { grab, pivot } = await bonePoints(page, 1);
  await turnDrag(page, grab, pivot, 60);
  await press(page, 'Key bone 2 here');
  assert.equal(await doneNow(page), true, `two keys, 45° apart: ${await page.evaluate(() => Array.from(window.skinlab.lab.keyTimes(0, 1)))}`);
  await screenshot(page, 'lesson-keyframes-own-clip');
  await page.evaluate(() => window.skinlab.startLesson('paths', 2));
  assert.equal(await doneNow(page), false);
  await press(page, 'Timing: naive');
  assert.equal(await doneNow(page), true, 'naive timing');
  await screenshot(page, 'lesson-paths-naive');
  await page.evaluate(() => window.skinlab.startLesson('paths', 3));
  await press(page, 'Table: 4 entries');
  assert.equal(await doneNow(page), true, 'a coarse table');
  assert.equal(await page.locator('#paths .path-tick').count(), 4, 'the table\'s four entries drawn as dots');
  await screenshot(page, 'lesson-paths-coarse');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the FK/IK, morphing and GPU lessons are completed with their buttons and a drag', async () => {
  const { page, errors } = await openAt('?lesson=fk-ik&step=1');
  await waitForSkinlab(page);
  const { grab, pivot } = await bonePoints(page, 0);
  await turnDrag(page, grab, pivot, 40);
  assert.equal(await doneNow(page), true, 'the thigh turned by hand');
  await page.evaluate(() => window.skinlab.startLesson('fk-ik', 2));
  assert.equal(await doneNow(page), false);
  await press(page, 'Reach for the ring');
  assert.equal(await doneNow(page), true, `the foot reached: ${JSON.stringify(await page.evaluate(() => window.skinlab.ikReport()))}`);
  await page.evaluate(() => window.skinlab.startLesson('fk-ik', 3));
  await press(page, 'A target out of reach');
  assert.equal(await doneNow(page), true, 'out of reach, and said so');
  await screenshot(page, 'lesson-fk-ik-far');
  // Step 1: the button alone redraws the face and completes the step (the
  // page sees the lab's revision change; nothing else asks for a frame).
  await page.evaluate(() => window.skinlab.startLesson('morphing', 1));
  await nextFrame(page);
  const framesBefore = await page.evaluate(() => window.skinlab.framesRendered());
  await press(page, 'Viseme A');
  await page.waitForFunction(
    (n) => window.skinlab.framesRendered() > n && window.skinlab.lessonState().done,
    framesBefore,
    { timeout: 5000 },
  );
  await page.evaluate(() => window.skinlab.startLesson('morphing', 2));
  await press(page, 'Viseme A');
  assert.equal(await doneNow(page), false, 'A alone sums to 1');
  await press(page, 'Add a smile');
  assert.equal(await doneNow(page), true, 'past a sum of 1');
  await page.evaluate(() => window.skinlab.startLesson('morphing', 3));
  await press(page, 'Say “mama”');
  await page.waitForTimeout(400);
  assert.equal(await doneNow(page), true, 'the word was said');
  await page.evaluate(() => window.skinlab.startLesson('gpu', 2));
  await press(page, 'Stretch bone 2 ×1.5');
  assert.equal(await doneNow(page), false, 'stretched, still as 4×3 rows');
  await press(page, 'Palette: quaternion + translation');
  assert.equal(await doneNow(page), true);
  await screenshot(page, 'lesson-gpu-quat');
  await page.evaluate(() => window.skinlab.startLesson('gpu', 3));
  await press(page, '8-bit weights');
  assert.equal(await doneNow(page), true);
  await page.evaluate(() => window.skinlab.setMode('skin'));
  assert.equal(await page.evaluate(() => window.skinlab.viewer.paletteFormat()), '', 'leaving the lesson restores the palette');
  assert.deepEqual(errors, []);
  await page.close();
});
