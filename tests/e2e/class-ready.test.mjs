// What a lecturer meets in front of a hall: a typo in a link gets a word on
// screen, the Weights mode shows a bone's weights at once, a click on a
// bone's glyph picks the bone to paint and a stroke from there paints, a lesson gives back the overlays it
// turned on, the caption can be hidden, and the rotations lesson draws its
// bodies in the main view.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, waitForSkinlab, nextFrame } from './browser.mjs';
import { openElement } from '../support/screens.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

/** Bone `bone`'s weight summed over the skin. */
const boneWeightTotal = (page, bone) => page.evaluate((b) => {
  const { lab } = window.skinlab;
  let sum = 0;
  for (let v = 0; v < lab.vertexCount(); v++) sum += lab.influences(v).find(([k]) => k === b)?.[1] ?? 0;
  return sum;
}, bone);

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

test('a stroke that starts on a bone\'s glyph paints the selected bone from the press on', async () => {
  // On a slender character the glyphs' reach covers most of the skin.
  const { page, errors } = await openAt('?example=tube&autosave=0');
  await waitForSkinlab(page);
  await nextFrame(page, () => page.locator('[data-mode="weights"]').click());
  await nextFrame(page, () => page.evaluate(() => {
    window.skinlab.selectBone(0);
    window.skinlab.setBrush({ radius: 30, strength: 1, mode: 'add' });
  }));
  // A point of the skin under another bone's glyph: a click there would pick that bone.
  const [glyph, x, y] = await page.evaluate(() => {
    const { lab, viewer } = window.skinlab;
    for (let v = 0; v < lab.vertexCount(); v++) {
      const [vx, vy] = window.skinlab.vertexScreenPoint(v);
      const bone = viewer.pickBone(lab, vx, vy);
      if (bone !== null && bone !== 0) return [bone, vx, vy];
    }
    return [null, 0, 0];
  });
  assert.notEqual(glyph, null, 'the skin lies under another bone\'s glyph');
  const before = await boneWeightTotal(page, 0);
  const box = await page.locator('#view').boundingBox();
  await page.mouse.move(box.x + x, box.y + y);
  await page.mouse.down();
  for (let k = 1; k <= 6; k++) await nextFrame(page, () => page.mouse.move(box.x + x + 2 * k, box.y + y));
  await nextFrame(page, () => page.mouse.up());
  assert.equal(await page.evaluate(() => window.skinlab.selectedBone()), 0, `bone ${glyph}, under the press, is not picked`);
  const after = await boneWeightTotal(page, 0);
  assert.ok(after > before + 1, `bone 0's weight over the skin grew: ${before} → ${after}`);
  assert.ok(await page.evaluate(() => window.skinlab.viewer.lastStrokeTouched()) > 0, 'the stroke touched vertices');
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a phone a finger that wavers on a bone\'s glyph picks the bone, and a finger drawn from it paints', async () => {
  const { page, errors } = await openAt('?example=tube&autosave=0');
  await page.setViewportSize({ width: 390, height: 844 });
  await waitForSkinlab(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 2 });
  await nextFrame(page, () => page.evaluate(() => {
    window.skinlab.setTool('paint');
    window.skinlab.selectBone(0);
    window.skinlab.setBrush({ radius: 30, strength: 1, mode: 'add' });
  }));
  await nextFrame(page);
  const box = await page.locator('#view').boundingBox();
  const [x, y] = await page.evaluate(() => window.skinlab.boneScreenPoint(1));
  const touch = async (points) => {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [points[0]] });
    for (const point of points.slice(1)) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
      await nextFrame(page);
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await nextFrame(page);
  };
  const before = await boneWeightTotal(page, 0);
  // A tap that wavers 6 px: a click, which picks bone 1 and paints nothing.
  const at = (dx) => ({ x: box.x + x + dx, y: box.y + y });
  await touch([at(0), at(3), at(6)]);
  assert.equal(await page.evaluate(() => window.skinlab.selectedBone()), 1, 'the tap picked bone 1');
  assert.equal(await boneWeightTotal(page, 0), before, 'the tap painted nothing');
  // Bone 0 again, then a finger drawn 30 px from bone 1's glyph: a stroke.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.selectBone(0)));
  await touch([0, 6, 12, 18, 24, 30].map(at));
  assert.equal(await page.evaluate(() => window.skinlab.selectedBone()), 0, 'the stroke picked no bone');
  const after = await boneWeightTotal(page, 0);
  assert.ok(after > before + 1, `bone 0's weight grew under the finger: ${before} → ${after}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a lesson gives back the overlays, method and sections it turned on when it ends or another example opens, but not what the student changed', async () => {
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
  // Another example opened in the middle of a step leaves the step: its
  // overlays are given back, and the section it opened closes.
  await page.evaluate(() => window.skinlab.startLesson('bones', 1));
  assert.equal(await checked('ownFrames'), true);
  await page.evaluate(() => window.skinlab.loadExample('tube'));
  assert.equal(await checked('ownFrames'), false, 'given back when another example opens');
  await page.evaluate(() => window.skinlab.startLesson('rotations', 1));
  assert.equal(await page.locator('#rotations').getAttribute('open'), '');
  await page.evaluate(() => window.skinlab.loadExample('tube'));
  assert.equal(await page.locator('#rotations').getAttribute('open'), null, 'the section the step opened closes');
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

test('the rotations lesson draws its three bodies large over the view, and they go back to the panel when it ends', async () => {
  const { page, errors } = await openAt('?lesson=rotations&step=1&autosave=0&lang=de');
  await waitForSkinlab(page);
  await nextFrame(page);
  const placed = () => page.evaluate(() => {
    const views = document.querySelector('#rot-views');
    const view = document.querySelector('#view').getBoundingClientRect();
    const box = views.getBoundingClientRect();
    return { onStage: views.parentElement.id === 'stage', width: box.width / view.width, top: box.top - view.top, height: box.height / view.height };
  });
  // Where the bodies are, once the page has drawn the change (a frame or two).
  const settlesOnStage = (want) => page.waitForFunction((w) => (document.querySelector('#rot-views').parentElement.id === 'stage') === w, want, { timeout: 5000 });
  await settlesOnStage(true);
  const onStage = await placed();
  assert.equal(onStage.onStage, true, 'over the view');
  assert.ok(onStage.width > 0.99 && onStage.height > 0.99 && Math.abs(onStage.top) < 1, `it covers the view: ${JSON.stringify(onStage)}`);
  // The step's slider stays in the panel, in sight below the lesson card.
  assert.equal(await page.locator('#rot-t').isVisible(), true);
  // Another mode: the view shows the scene again, the bodies are back in the (hidden) panel.
  await nextFrame(page, () => page.locator('[data-mode="skin"]').click());
  await settlesOnStage(false);
  // The lesson closed the section it opened. In the Animate mode, opened,
  // the bodies take the view; closed, they leave it.
  await nextFrame(page, () => page.locator('[data-mode="animate"]').click());
  await nextFrame(page);
  assert.equal((await placed()).onStage, false);
  await nextFrame(page, () => page.locator('#rotations > summary').click());
  await settlesOnStage(true);
  await nextFrame(page, () => page.locator('#rotations > summary').click());
  await settlesOnStage(false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a <skin-lab> in the Weights mode has a bone chooser over its view; its hint names what is on screen', async () => {
  const { page, errors } = await openElement(fixture.browser, fixture.server.url, 640, 'de', ['weights', 'y-junction']);
  const lab = page.locator('#lab');
  const chooser = lab.locator('#bone-chooser');
  assert.equal(await chooser.isVisible(), true, 'the chooser shows where no Bones list does');
  assert.equal(await lab.locator('#chooser-bone').inputValue(), '0', 'on the bone whose weights show');
  await lab.locator('#chooser-bone').selectOption({ label: 'linker Schenkel' });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(done)));
  assert.equal(await page.evaluate(() => document.getElementById('lab').skinlab.selectedBone()), 1);
  await chooser.getByRole('button', { name: 'Posieren' }).click();
  assert.equal(await page.evaluate(() => document.getElementById('lab').skinlab.tool()), 'pose');
  // No bone, then Paint: the hint points at the chooser, not at a list the element does not show.
  await lab.locator('#chooser-bone').selectOption('');
  await chooser.getByRole('button', { name: 'Malen' }).click();
  const hint = await lab.locator('#notice').textContent();
  assert.match(hint, /Menü unten links/, hint);
  assert.doesNotMatch(hint, /Liste/, hint);
  // The chooser sits inside the view, clear of the toolbar.
  const [box, view] = [await chooser.boundingBox(), await lab.locator('#view').boundingBox()];
  assert.ok(box.y >= view.y && box.y + box.height <= view.y + view.height, 'inside the view');
  // Other modes have no chooser.
  await page.evaluate(() => document.getElementById('lab').skinlab.setMode('skin'));
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(done)));
  assert.equal(await chooser.isVisible(), false);
  assert.deepEqual(errors, []);
  await page.close();
  // The full page lists its bones in the panel: no chooser over the view.
  const { page: full } = await openAt('?example=y-junction&mode=weights&autosave=0');
  await waitForSkinlab(full);
  await nextFrame(full);
  assert.equal(await full.locator('#bone-chooser').isVisible(), false);
  await full.close();
});

/** What a lesson step sets up on screen: mode, scene, view, settings, open sections, time, tool. */
const stepState = (page) => page.evaluate(() => {
  const s = window.skinlab;
  const overlays = [...document.querySelectorAll('[data-overlay]')].map((box) => [box.dataset.overlay, box.checked]);
  return {
    mode: s.mode(), example: s.example, method: s.viewer.method(), compare: s.viewer.compare(), view: s.viewer.view(),
    camera: Array.from(s.viewer.cameraState(), (x) => Number(x.toFixed(3))), tool: s.tool(), weightView: s.viewer.weightView(),
    selected: s.selectedBone(), overlays, scene: s.lab.sceneJson(), time: s.animTime(), rotations: s.rotationLab(),
    lesson: s.lessonState(), quantised: s.lab.isQuantised(),
    open: [...document.querySelectorAll('details[open]')].map((d) => d.id),
  };
});

/** Waits for the step's scene and two frames. */
async function settled(page) {
  await page.waitForFunction(() => document.querySelector('#loading').hidden, null, { timeout: 30000 });
  await nextFrame(page);
  await nextFrame(page);
}

test('every lesson step reached from the lesson menu and Next looks as its own link opens it', async () => {
  const { page: menu, errors } = await openAt('?autosave=0');
  await waitForSkinlab(menu);
  const lessons = await menu.evaluate(() => window.skinlab.lessons());
  const differences = [];
  for (const lesson of lessons) {
    await menu.evaluate(() => window.skinlab.setMode('lessons'));
    await menu.selectOption('#lesson-picker', lesson.name);
    for (let step = 1; step <= lesson.steps; step++) {
      if (step > 1) await menu.click('#lesson-next');
      await settled(menu);
      const byMenu = await stepState(menu);
      const { page: linked } = await openAt(`?lesson=${lesson.name}&step=${step}&autosave=0`);
      await waitForSkinlab(linked);
      await settled(linked);
      const byLink = await stepState(linked);
      await linked.close();
      for (const key of Object.keys(byMenu)) {
        if (JSON.stringify(byMenu[key]) !== JSON.stringify(byLink[key])) {
          differences.push(`${lesson.name} ${step} ${key}: by the menu ${JSON.stringify(byMenu[key]).slice(0, 120)}, by the link ${JSON.stringify(byLink[key]).slice(0, 120)}`);
        }
      }
    }
  }
  assert.deepEqual(differences, []);
  assert.deepEqual(errors, []);
  await menu.close();
});

test('each example\'s caption says what the mode on screen shows', async () => {
  const { page, errors } = await openAt('?autosave=0&lang=en');
  await waitForSkinlab(page);
  const captionIn = async (example, mode) => {
    await page.evaluate(async ([e, m]) => { await window.skinlab.loadExample(e); window.skinlab.setMode(m); }, [example, mode]);
    await nextFrame(page);
    return page.locator('#caption').textContent();
  };
  // The path's own caption speaks of the timing menu, which only Animate shows.
  const pathInSkin = await captionIn('path', 'skin');
  assert.doesNotMatch(pathInSkin, /timing/, pathInSkin);
  assert.match(pathInSkin, /Path \(arc length\).*Animate mode/, pathInSkin);
  assert.match(await captionIn('path', 'animate'), /timing to naive/);
  assert.equal(await page.locator('#path-timing').isVisible(), true, 'the menu it names is on screen');
  // The leg's ring is the IK mode's; in Skin it is not drawn.
  assert.doesNotMatch(await captionIn('leg', 'skin'), /ring/);
  assert.match(await captionIn('leg', 'ik'), /ring/);
  // No sliders to move where a scene has no morph targets.
  assert.doesNotMatch(await captionIn('two-bone', 'morph'), /slider/);
  assert.match(await captionIn('face', 'morph'), /sliders/);
  // The dense tube has no clips to play: not the gallery models' caption.
  assert.doesNotMatch(await captionIn('dense', 'skin'), /clips/);
  assert.deepEqual(errors, []);
  await page.close();
});
