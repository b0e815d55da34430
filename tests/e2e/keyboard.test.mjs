// The lab by keyboard alone and as a screen reader reads it: the first
// lessons finished with keys on the view ([ ] pick a bone, arrows turn it,
// G and the arrows move the root); the view's description and the live
// reports read from the accessibility tree; the focus ring on the view;
// shortcuts that act on the view but not on a focused button; the timeline
// by keys; and the view's size at 200 % zoom and at 320 px.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, waitForSkinlab, nextFrame } from './browser.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

/** Presses `key` `times` times, a frame after each. */
async function press(page, key, times = 1) {
  for (let k = 0; k < times; k++) await nextFrame(page, () => page.keyboard.press(key));
}

const lessonState = (page) => page.evaluate(() => window.skinlab.lessonState());

/**
 * Waits (up to 5 s) for the lesson step to be done; fails naming the step,
 * the selected bone and the pose as they are.
 */
async function stepDone(page, what) {
  try {
    await page.waitForFunction(() => window.skinlab.lessonState().done, null, { timeout: 5000 });
  } catch {
    const state = await page.evaluate(() => ({
      ...window.skinlab.lessonState(),
      mode: window.skinlab.mode(),
      selected: window.skinlab.selectedBone(),
      pose: Array.from({ length: window.skinlab.lab.boneCount() }, (_, bone) => window.skinlab.lab.bonePose(bone)),
    }));
    assert.fail(`${what}: not done: ${JSON.stringify(state)}`);
  }
}

test('the first lessons, finished with the keyboard alone', async () => {
  const { page, errors } = await openAt('?lesson=bones&step=1&autosave=0&lang=en');
  await waitForSkinlab(page);
  // Tab reaches the view; nothing is clicked from here on.
  await page.locator('#view').focus();
  assert.equal(await page.locator('.lesson-keys').isVisible(), false, 'no keys in the card before the keyboard is used');
  // Bones 1: pick bone 2.
  await press(page, ']', 2);
  // With the keyboard in use, the step's card names the keys.
  await page.locator('.lesson-keys').waitFor({ state: 'visible', timeout: 5000 });
  await stepDone(page, 'bone 2 picked by ]');
  await press(page, 'PageDown');
  // Bones 2: turn bone 1 by at least 20°: ] picks it (the first, or the
  // next after bone 2), four presses of ← turn 20°.
  await press(page, ']');
  await press(page, 'ArrowLeft', 4);
  await stepDone(page, 'four presses reach 20°');
  await press(page, 'PageDown');
  // Bones 3: move the root: G, then the arrows, then Enter.
  await press(page, ']');
  await press(page, 'g');
  await press(page, 'ArrowRight', 8);
  await press(page, 'Enter');
  await stepDone(page, 'the root moved by keys');
  await press(page, 'PageDown');
  // Two bones 1 and 2: turn bone 2 by 45°, nine presses of 5°.
  for (const step of [1, 2]) {
    assert.deepEqual([(await lessonState(page)).lesson, (await lessonState(page)).step], ['two-bones', step]);
    await press(page, ']', 2);
    await press(page, 'ArrowLeft', 9);
    await stepDone(page, `two-bones ${step}: nine presses are 45°`);
    await press(page, 'PageDown');
  }
  // Y-junction 1: bend the right branch by 30°.
  assert.equal((await lessonState(page)).lesson, 'y-junction');
  await press(page, ']', 3);
  await press(page, 'ArrowRight', 6);
  await stepDone(page, 'y-junction 1 by keys');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the view is told: its name and description in the accessibility tree, each keyed change reported once', async () => {
  const { page, errors } = await openAt('?example=two-bone&autosave=0&lang=en');
  await waitForSkinlab(page);
  await page.locator('#view').focus();
  const described = async () => page.evaluate(() => {
    const view = document.querySelector('#view');
    return document.getElementById(view.getAttribute('aria-describedby')).textContent;
  });
  assert.match(await described(), /Two bones, rigid, Skin mode, drawn with LBS/);
  assert.match(await described(), /No bone selected/);
  await press(page, ']', 2);
  await press(page, 'ArrowLeft', 3);
  await page.waitForFunction(() => /Selected: bone 2, turned 15(\.0)?° from rest/.test(document.querySelector('#view-description').textContent), null, { timeout: 5000 })
    .catch(async () => assert.fail(`the description after three turns: ${await described()}`));
  // The live region says the turn once it is made.
  await page.waitForFunction(() => /bone 2, turned 15/.test(document.querySelector('#announce').textContent));
  const tree = await page.locator('#announce').ariaSnapshot();
  assert.match(tree, /status/, `a status region: ${tree}`);
  // The time that runs while a clip plays is not a live region.
  assert.equal(await page.locator('#time-label').getAttribute('aria-live'), 'off');
  assert.equal(await page.locator('#anim-time').getAttribute('aria-live'), 'off');
  // The view turned and zoomed by keys: O and the arrows pan this flat view, + zooms in.
  const camera = () => page.evaluate(() => Array.from(window.skinlab.viewer.cameraState()));
  const before = await camera();
  await press(page, 'o');
  await press(page, 'ArrowRight', 2);
  await press(page, 'Enter');
  await press(page, '+');
  const after = await camera();
  assert.ok(after[0] !== before[0], `panned: ${before} → ${after}`);
  assert.ok(after[5] < before[5], 'zoomed in');
  // The matrices' tables name their rows and columns.
  const headers = await page.locator('#mode-skin table th').count();
  assert.ok(headers >= 8, `row and column headers: ${headers}`);
  // The focus ring on the view.
  const ring = await page.locator('#view').evaluate((view) => getComputedStyle(view).outlineStyle + ' ' + getComputedStyle(view).outlineWidth);
  assert.match(ring, /solid 3px/, `a ring on the focused view: ${ring}`);
  assert.equal(await page.locator('.view-keys').isVisible(), true, 'the keys shown while the view has the focus');
  // Locks, deform boxes and groups named for themselves.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.setMode('weights')));
  const boxes = await page.locator('#bone-list input[type=checkbox]').evaluateAll((list) => list.map((b) => b.getAttribute('aria-label')));
  assert.deepEqual(boxes, ['Deforms the skin: bone 1', 'Lock bone 1', 'Deforms the skin: bone 2', 'Lock bone 2']);
  const groups = await page.locator('.segmented[role=group]').evaluateAll((list) => list.map((g) => g.getAttribute('aria-label')));
  assert.equal(new Set(groups).size, groups.length, `each group its own name: ${groups}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('single keys act on the view, not on a focused button, and can be turned off', async () => {
  const { page, errors } = await openAt('?example=two-bone&autosave=0');
  await waitForSkinlab(page);
  // "5" with the focus on a toolbar button opens nothing.
  await page.locator('#compare').focus();
  await press(page, '5');
  assert.equal(await page.evaluate(() => window.skinlab.example), 'two-bone');
  // On the view it does.
  await page.locator('#view').focus();
  await press(page, '5');
  assert.notEqual(await page.evaluate(() => window.skinlab.example), 'two-bone');
  // Turned off, not even on the view.
  await page.locator('#shortcuts').uncheck();
  const example = await page.evaluate(() => window.skinlab.example);
  await page.locator('#view').focus();
  await press(page, '1');
  assert.equal(await page.evaluate(() => window.skinlab.example), example);
  // The choice is kept for the next visit; turned on again for the tests after this one.
  const { page: next } = await openAt('?example=two-bone&autosave=0');
  await waitForSkinlab(next);
  assert.equal(await next.locator('#shortcuts').isChecked(), false, 'kept');
  await next.locator('#shortcuts').check();
  await next.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('the timeline by keyboard: a second key set through the time slider, keys walked and moved, Space on a button presses the button', async () => {
  const { page, errors } = await openAt('?example=two-bone&mode=animate&autosave=0&lang=en');
  await waitForSkinlab(page);
  await page.locator('#view').focus();
  await press(page, ']', 2);
  await press(page, 'k');
  // The time slider, by keys, to 1 s; a turn; a second key.
  await page.locator('#anim-scrub').focus();
  for (let k = 0; k < 100; k++) await page.keyboard.press('ArrowRight');
  await nextFrame(page);
  assert.ok(Math.abs(await page.evaluate(() => window.skinlab.animTime()) - 1) < 1e-6, 'the playhead at 1 s');
  await page.locator('#view').focus();
  await press(page, 'ArrowLeft', 6);
  await press(page, 'k');
  const keys = () => page.evaluate(() => Array.from(window.skinlab.lab.keyTimes(0, 1)));
  assert.deepEqual(await keys(), [0, 1]);
  // On the timeline: ← goes to the key before, Shift+→ moves it by 0.1 s.
  await page.locator('#timeline').focus();
  await press(page, 'ArrowLeft');
  assert.deepEqual(await page.evaluate(() => window.skinlab.selectedKey()), { bone: 1, time: 0 });
  await press(page, 'ArrowRight');
  await press(page, 'Shift+ArrowRight');
  const moved = await keys();
  assert.equal(moved.length, 2);
  assert.ok(moved[0] === 0 && Math.abs(moved[1] - 1.1) < 1e-6, `the key at 1.1 s: ${moved}`);
  // Space on a focused button presses it, and does not play.
  await page.locator('#anim-new').focus();
  const clips = await page.evaluate(() => window.skinlab.lab.animationNames().length);
  await press(page, ' ');
  assert.equal(await page.evaluate(() => window.skinlab.lab.animationNames().length), clips + 1, 'New clip made a clip');
  assert.equal(await page.evaluate(() => window.skinlab.animPlaying()), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('at 200 % zoom and at 320 px the view keeps a usable size and the panel goes below it', async () => {
  for (const [width, height, zoom] of [[1280, 800, 2], [320, 640, 1]]) {
    const { page, errors } = await openAt('?example=two-bone&autosave=0&lang=de');
    // 200 %: a 1280 × 800 window whose CSS pixels are twice as large is a 640 × 400 CSS viewport.
    await page.setViewportSize({ width: width / zoom, height: height / zoom });
    await waitForSkinlab(page);
    await nextFrame(page);
    const sizes = await page.evaluate(() => {
      const view = document.querySelector('#view').getBoundingClientRect();
      const panel = document.querySelector('.panel').getBoundingClientRect();
      const cut = [...document.querySelectorAll('.toolbar button, .toolbar select')]
        .filter((e) => e.offsetParent !== null)
        .filter((e) => { const r = e.getBoundingClientRect(); return r.left < -1 || r.right > innerWidth + 1; }).length;
      return { view: [view.width, view.height], panelTop: panel.top, viewBottom: view.bottom, cut, scrollWidth: document.documentElement.scrollWidth, innerWidth };
    });
    console.log(`# ${width}×${height} at ${zoom * 100} %: view ${sizes.view.map(Math.round).join('×')} CSS px`);
    assert.ok(sizes.view[0] >= 0.9 * (width / zoom) && sizes.view[1] >= 200, `a usable view: ${JSON.stringify(sizes)}`);
    assert.ok(sizes.panelTop >= sizes.viewBottom - 1, 'the panel below the view');
    assert.equal(sizes.cut, 0, 'no toolbar control cut off');
    assert.ok(sizes.scrollWidth <= sizes.innerWidth + 1, 'no sideways scrolling');
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('a path\'s control points and an IK limit\'s ends are controls: Tab reaches them, the arrows move them, the focus stays', async () => {
  const { page, errors } = await openAt('?example=path&mode=animate&autosave=0&lang=en');
  await waitForSkinlab(page);
  await nextFrame(page);
  const handle = page.locator('#paths [data-point="1"]');
  assert.equal(await handle.getAttribute('aria-label'), 'Path point 2: the arrows move it');
  const point = () => page.evaluate(() => Array.from(window.skinlab.lab.path(0).points.slice(3, 6)));
  const before = await point();
  await handle.focus();
  await press(page, 'ArrowRight', 3);
  const after = await point();
  assert.ok(after[0] > before[0] + 0.01, `moved right: ${before} → ${after}`);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-point')), '1', 'the focus stays on the point through the redraws');
  // One undo a press.
  await page.evaluate(() => window.skinlab.lab.undo());
  assert.ok((await point())[0] < after[0]);

  // The leg's knee: its hinge's ends.
  await nextFrame(page, () => page.evaluate(async () => {
    await window.skinlab.loadExample('leg');
    window.skinlab.setMode('ik');
    const lab = window.skinlab.lab;
    const knee = [...Array(lab.boneCount()).keys()].find((b) => lab.limits(b)?.hinge);
    window.skinlab.selectBone(knee);
  }));
  await nextFrame(page);
  const max = page.locator('#ik-layer [data-limit="max"]');
  assert.match(await max.getAttribute('aria-label'), /Limit, max/);
  const limits = () => page.evaluate(() => JSON.stringify(window.skinlab.lab.limits(window.skinlab.selectedBone())));
  const was = await limits();
  await max.focus();
  await press(page, 'ArrowUp', 4);
  assert.notEqual(await limits(), was, 'the hinge limit moved');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-limit')), 'max');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the characteristic curve lesson by keyboard: Tab reaches its points, ↑ lifts the second and the step is done', async () => {
  const { page, errors } = await openAt('?lesson=speed-curve&step=1&autosave=0&lang=de');
  await waitForSkinlab(page);
  await nextFrame(page);
  assert.match(await page.locator('.lesson-do').innerText(), /mit Tab erreichen und ↑ drücken/, 'the step names its keys');
  const handle = page.locator('#speed-graph [data-point="1"]');
  assert.match(await handle.getAttribute('aria-label'), /^Kurvenpunkt 2 \(Zeit /);
  const lifted = () => page.evaluate(() => window.skinlab.lab.pathSpeed(0).distances[1]);
  const was = await lifted();
  await handle.focus();
  await press(page, 'ArrowUp', 6);
  assert.ok(await lifted() > was + 0.1, `lifted: ${was} → ${await lifted()}`);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-point')), '1', 'the focus stays on the point');
  assert.equal((await lessonState(page)).done, true, JSON.stringify(await lessonState(page)));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the steps that ask for the pointer, done by keys: a vertex, the thigh, the robot\'s ring, a swinging shin', async () => {
  const { page, errors } = await openAt('?lesson=three-steps&step=1&autosave=0&lang=en');
  await waitForSkinlab(page);
  const done = (where) => stepDone(page, where);
  // Three steps 1: a vertex of bone 2's half, by V and Shift+V.
  await page.locator('#view').focus();
  await press(page, 'Shift+V');
  for (let k = 0; k < 20 && !(await lessonState(page)).done; k++) await press(page, 'Shift+V');
  await done('three steps, a vertex');
  // FK/IK 1: the thigh turned 30° by [ ] and the arrows.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.startLesson('fk-ik', 1)));
  await page.locator('#view').focus();
  await press(page, ']');
  if (await page.evaluate(() => window.skinlab.selectedBone()) !== 0) await press(page, '[');
  await press(page, 'ArrowLeft', 6);
  await done('the thigh');
  // The robot: Tab to the ring, the arrows bring it down onto the table.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.startLesson('robot', 1)));
  await page.locator('#ik-target').focus();
  for (let k = 0; k < 80 && !(await lessonState(page)).done; k++) {
    const [x, y] = await page.evaluate(() => window.skinlab.ikTarget());
    await press(page, y > -0.9 ? 'ArrowDown' : x <= 0 ? 'ArrowRight' : 'ArrowLeft');
  }
  await done('the robot\'s ring');
  // Swinging limbs: the button by keyboard, then the thigh by [ and the arrows.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.startLesson('swing', 1)));
  await page.locator('#swing-box button').first().focus();
  await press(page, 'Enter');
  await page.locator('#view').focus();
  await press(page, '[');
  for (let k = 0; k < 12 && !(await lessonState(page)).done; k++) await press(page, k % 6 < 3 ? 'ArrowLeft' : 'ArrowRight', 3);
  await done('the swing');
  assert.deepEqual(errors, []);
  await page.close();
});

test('painting by keyboard: with the Paint tool the arrows move the brush over the view and Enter paints a dab there', async () => {
  const { page, errors } = await openAt('?example=y-junction-unweighted&mode=weights&autosave=0&lang=en');
  await waitForSkinlab(page);
  await page.locator('#view').focus();
  // The mode opens on the stem; ] twice picks the right branch.
  await press(page, ']', 2);
  assert.equal(await page.evaluate(() => window.skinlab.selectedBone()), 2);
  assert.equal(await page.evaluate(() => window.skinlab.tool()), 'paint');
  const before = await page.evaluate(() => window.skinlab.lab.sceneJson());
  const pose = await page.evaluate(() => JSON.stringify(window.skinlab.lab.bonePose(2)));
  // From the right branch (where the brush starts) to the fork, which only the left branch holds.
  const [from, fork] = await page.evaluate(() => {
    const s = window.skinlab;
    const positions = JSON.parse(s.lab.sceneJson()).mesh.positions;
    let fork = 0;
    for (let v = 0; v < positions.length / 3; v++) if (Math.abs(positions[3 * v]) < 1e-6 && positions[3 * v + 1] > positions[3 * fork + 1]) fork = v;
    return [Array.from(s.boneScreenPoint(2)), Array.from(s.vertexScreenPoint(fork))];
  });
  const [dx, dy] = [Math.round((fork[0] - from[0]) / 10), Math.round((fork[1] - from[1]) / 10)];
  await press(page, dx < 0 ? 'ArrowLeft' : 'ArrowRight', Math.abs(dx));
  await press(page, dy < 0 ? 'ArrowUp' : 'ArrowDown', Math.abs(dy));
  assert.equal(await page.locator('#brush-cursor').isVisible(), true, 'the brush shows where it is');
  assert.equal(await page.evaluate(() => JSON.stringify(window.skinlab.lab.bonePose(2))), pose, 'the arrows moved the brush, not the bone');
  await press(page, 'Enter');
  assert.notEqual(await page.evaluate(() => window.skinlab.lab.sceneJson()), before, 'a dab painted weights');
  await page.waitForFunction(() => /Painted \d+ vertices/.test(document.querySelector('#announce').textContent));
  // One undo takes the dab back.
  await nextFrame(page, () => page.keyboard.press('Control+z'));
  assert.equal(await page.evaluate(() => window.skinlab.lab.sceneJson()), before);
  assert.deepEqual(errors, []);
  await page.close();
});
