// The Animate mode in the page (the animation talk): keys set with the keyboard and
// the mouse on the timeline, played back, moved, undone; clips surviving
// Save and Load; a path whose markers space evenly under uniform timing and
// bunch up under naive timing, with handles dragged by the mouse.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  openPage, screenshot, useBrowser, waitForSkinlab, nextFrame,
} from './browser.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

const angleOf = (page, bone) => page.evaluate((b) => {
  const [, , z, w] = window.skinlab.lab.bonePose(b).rotation;
  return (2 * Math.atan2(z, w) * 180) / Math.PI;
}, bone);

const click = async (page, point) => {
  await page.mouse.click(point.x, point.y);
  await nextFrame(page);
};

test('keys set by keyboard and mouse play back, move on the timeline, and undo', async () => {
  const { page, errors } = await openAt('?example=two-bone&mode=animate');
  await waitForSkinlab(page);
  assert.equal(await page.evaluate(() => window.skinlab.mode()), 'animate');
  // Pick bone 2 with the keyboard and key its rest pose at 0 s.
  await page.locator('#view').focus();
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  assert.equal(await page.evaluate(() => window.skinlab.selectedBone()), 1);
  await page.keyboard.press('k');
  await nextFrame(page);
  // Move the playhead to 1 s on the ruler, turn the bone by 45°, key it.
  await click(page, await page.evaluate(() => window.skinlab.rulerPoint(1)));
  assert.ok(Math.abs((await page.evaluate(() => window.skinlab.animTime())) - 1) < 0.02);
  await page.locator('#view').focus();
  for (let k = 0; k < 9; k++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('K');
  await nextFrame(page);
  const keys = await page.evaluate(() => Array.from(window.skinlab.lab.keyTimes(0, 1)));
  assert.equal(keys.length, 2);
  assert.equal(keys[0], 0);
  assert.ok(Math.abs(keys[1] - 1) < 0.02, `${keys}`);
  // Scrub to the middle: linear keys give half the angle.
  const middle = keys[1] / 2;
  await click(page, await page.evaluate((t) => window.skinlab.rulerPoint(t), middle));
  const time = await page.evaluate(() => window.skinlab.animTime());
  const expected = (45 * time) / keys[1];
  assert.ok(Math.abs((await angleOf(page, 1)) - expected) < 0.5, `${await angleOf(page, 1)} vs ${expected}`);
  // Play from 0: the pose moves while the clip runs.
  await click(page, await page.evaluate(() => window.skinlab.rulerPoint(0)));
  await page.locator('#anim-play').click();
  await page.waitForTimeout(400);
  const during = await angleOf(page, 1);
  assert.ok(during > 2, `the bone turns while playing: ${during}°`);
  await page.locator('#anim-play').click();
  assert.equal(await page.evaluate(() => window.skinlab.animPlaying()), false);
  await screenshot(page, 'animate-two-bone');
  // Drag the key at 1 s to about 1.5 s with the mouse.
  const from = await page.evaluate((t) => window.skinlab.timelinePoint(1, t), keys[1]);
  const to = await page.evaluate(() => window.skinlab.timelinePoint(1, 1.5));
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
  await nextFrame(page);
  const moved = await page.evaluate(() => Array.from(window.skinlab.lab.keyTimes(0, 1)));
  assert.ok(Math.abs(moved[1] - 1.5) < 0.05, `moved to ${moved}`);
  // Undo puts the key back; Delete removes the selected key.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.undo()));
  const back = await page.evaluate(() => Array.from(window.skinlab.lab.keyTimes(0, 1)));
  assert.deepEqual(back, keys);
  await click(page, await page.evaluate((t) => window.skinlab.timelinePoint(1, t), keys[1]));
  assert.deepEqual(await page.evaluate(() => window.skinlab.selectedKey()), { bone: 1, time: keys[1] });
  await page.locator('#view').focus();
  await page.keyboard.press('Delete');
  await nextFrame(page);
  assert.deepEqual(await page.evaluate(() => Array.from(window.skinlab.lab.keyTimes(0, 1))), [0]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the walk cycle survives Save scene and Load scene, and step, linear and smooth draw different angle graphs', async () => {
  const { page, errors } = await openAt('?example=walk&mode=animate');
  await waitForSkinlab(page);
  const positionsAt = (times) => page.evaluate((ts) => ts.map((t) => {
    window.skinlab.setAnimTime(t);
    return Array.from(window.skinlab.lab.skinnedPositions('lbs'));
  }), times);
  const times = [0.1, 0.33, 0.6, 0.9];
  const before = await positionsAt(times);
  const json = await page.evaluate(() => window.skinlab.lab.sceneJson());
  assert.ok(JSON.parse(json).animations[0].channels.some((c) => c.interpolation === 'CUBICSPLINE'));
  await nextFrame(page, () => page.evaluate((text) => window.skinlab.loadScene(text), json));
  assert.deepEqual(await page.evaluate(() => window.skinlab.lab.animationNames()), ['walk']);
  const after = await positionsAt(times);
  let worst = 0;
  before.forEach((p, k) => p.forEach((v, i) => { worst = Math.max(worst, Math.abs(v - after[k][i])); }));
  console.log(`# walk: worst |saved − loaded| over ${times.length} times = ${worst.toExponential(1)}`);
  assert.ok(worst < 1e-5);
  // The left knee's graph under each interpolation.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.selectBone(2)));
  const graphs = {};
  for (const how of ['smooth', 'linear', 'step']) {
    await page.locator('#anim-interp').selectOption(how);
    await nextFrame(page);
    assert.equal(await page.evaluate(() => window.skinlab.lab.keyInterpolation(0, 2)), { smooth: 'CUBICSPLINE', linear: 'LINEAR', step: 'STEP' }[how]);
    graphs[how] = await page.evaluate(() => document.querySelector('#anim-graph').toDataURL());
  }
  assert.notEqual(graphs.smooth, graphs.linear);
  assert.notEqual(graphs.linear, graphs.step);
  await screenshot(page, 'animate-walk-step');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a path: even markers under uniform timing, bunched under naive; the table size sets the error; handles drag', async () => {
  const { page, errors } = await openAt('?example=path&mode=animate');
  await waitForSkinlab(page);
  const spacing = async () => {
    const markers = await page.evaluate(() => window.skinlab.pathMarkers());
    const gaps = markers.slice(1).map((p, k) => Math.hypot(...p.map((v, c) => v - markers[k][c])));
    return Math.max(...gaps) / Math.min(...gaps);
  };
  // With a fine table, equal time steps are equal arc lengths (the chords
  // between markers a little shorter where the path bends).
  await page.locator('#path-entries').fill('8');
  await nextFrame(page);
  const uniform = await spacing();
  await page.locator('#path-timing').selectOption('naive');
  await nextFrame(page);
  const naive = await spacing();
  console.log(`# path markers, largest gap / smallest: uniform ${uniform.toFixed(3)}, naive ${naive.toFixed(1)}`);
  assert.ok(uniform < 1.1, `uniform ${uniform}`);
  assert.ok(naive > 3, `naive ${naive}`);
  await screenshot(page, 'animate-path-naive');
  // A coarse table is visibly off; a fine one is not.
  await page.locator('#path-entries').fill('2');
  await nextFrame(page);
  const coarse = await page.locator('#path-error').textContent();
  await page.locator('#path-entries').fill('9');
  await nextFrame(page);
  const fine = await page.locator('#path-error').textContent();
  console.log(`# ${coarse}\n# ${fine}`);
  assert.match(coarse, /^4 entries/);
  assert.match(fine, /^512 entries/);
  // Play moves the fish's origin along the path.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.setAnimTime(2)));
  const origin = await page.evaluate(() => Array.from(window.skinlab.lab.boneOrigin(0)));
  const expected = await page.evaluate(() => Array.from(window.skinlab.lab.pathPosition(0, 2, 512)));
  origin.forEach((v, c) => assert.ok(Math.abs(v - expected[c]) < 1e-4, `${origin} vs ${expected}`));
  // Drag the middle end point 40 px down.
  const handle = await page.evaluate(() => window.skinlab.pathHandlePoint(3));
  const before = await page.evaluate(() => Array.from(window.skinlab.lab.path(0).points).slice(9, 12));
  await page.mouse.move(handle.x, handle.y);
  await page.mouse.down();
  await page.mouse.move(handle.x, handle.y + 40, { steps: 6 });
  await page.mouse.up();
  await nextFrame(page);
  const moved = await page.evaluate(() => Array.from(window.skinlab.lab.path(0).points).slice(9, 12));
  assert.ok(moved[1] < before[1] - 0.1, `the point moved down: ${before} → ${moved}`);
  await screenshot(page, 'animate-path-dragged');
  await nextFrame(page, () => page.evaluate(() => window.skinlab.undo()));
  assert.deepEqual(await page.evaluate(() => Array.from(window.skinlab.lab.path(0).points).slice(9, 12)), before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('morph weights keyed on the timeline\'s morphs row, and the face saying "mama" from its clip', async () => {
  const { page, errors } = await openAt('?example=face&mode=morph');
  await waitForSkinlab(page);
  await page.locator('#morph-say').click();
  await page.waitForTimeout(450);
  const saying = await page.evaluate(() => Array.from(window.skinlab.lab.morphWeights()));
  assert.ok(saying.some((w) => w > 0.2), `the word moves the mouth: ${saying}`);
  await page.waitForTimeout(900);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.setMode('animate')));
  await nextFrame(page, () => page.locator('#anim-new').click());
  const clip = await page.evaluate(() => window.skinlab.lab.animationNames().length - 1);
  assert.equal(await page.locator('#anim-clip').inputValue(), String(clip));
  await nextFrame(page, () => page.evaluate(() => window.skinlab.lab.setMorphWeights(window.skinlab.lab.morphNames().map((_, k) => (k === 1 ? 1 : 0)))));
  await click(page, await page.evaluate(() => window.skinlab.rulerPoint(0.5)));
  await nextFrame(page, () => page.locator('#anim-morph-key').click());
  const keyed = await page.evaluate((c) => Array.from(window.skinlab.lab.morphKeyTimes(c)), clip);
  assert.equal(keyed.length, 1);
  // Drag the morphs row's diamond to 1 s.
  const from = await page.evaluate((t) => window.skinlab.timelinePoint('morphs', t), keyed[0]);
  const to = await page.evaluate(() => window.skinlab.timelinePoint('morphs', 1));
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 6 });
  await page.mouse.up();
  await nextFrame(page);
  const moved = await page.evaluate((c) => Array.from(window.skinlab.lab.morphKeyTimes(c)), clip);
  assert.ok(Math.abs(moved[0] - 1) < 0.05, `${moved}`);
  await screenshot(page, 'animate-face-morph-key');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a clip with a key at 10⁶ s or 10³⁰ s draws a bounded ruler and the page stays responsive', async () => {
  const { page, errors } = await openAt('?example=two-bone&mode=animate');
  await waitForSkinlab(page);
  for (const late of [1e6, 1e30]) {
    await page.evaluate((t) => {
      const scene = JSON.parse(window.skinlab.lab.sceneJson());
      scene.animations = [{ name: 'long', channels: [{ bone: 1, path: 'rotation', interpolation: 'LINEAR', times: [0, t], values: [0, 0, 0, 1, 0, 0, 1, 0] }] }];
      window.skinlab.loadScene(JSON.stringify(scene));
    }, late);
    await nextFrame(page);
    const ticks = await page.locator('#timeline line.tick').count();
    console.log(`# a key at ${late} s: ${ticks} ruler ticks`);
    assert.ok(ticks > 2 && ticks < 200, `${late}: ${ticks} ticks`);
    // Still responsive: a frame is drawn after a pose change.
    const before = await page.evaluate(() => window.skinlab.framesRendered());
    await page.evaluate(() => window.skinlab.lab.setBonePose(1, { rotation: [0, 0, 0.2, 0.98] }));
    await page.waitForFunction((n) => window.skinlab.framesRendered() > n, before, { timeout: 5000 });
  }
  assert.deepEqual(errors, []);
  await page.close();
});
