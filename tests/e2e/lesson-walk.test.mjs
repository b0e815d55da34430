// Every step of every lesson, walked as a student would in English, German
// and Chinese: the step opens from its address, is not done before the student
// acts, shows every control it declares (its buttons, the panel it names),
// and is done within a second of real pointer and keyboard input. One
// lesson is walked again on a phone with touch. Screenshots of every step,
// every language, land in test-output/.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  openPage, screenshot, useBrowser, waitForSkinlab, nextFrame, canvasStats,
} from './browser.mjs';

import { englishOnlyWords, words } from './english-words.mjs';
import { DE } from '../../www/labels/de.js';
import { ZH } from '../../www/labels/zh.js';

const fixture = useBrowser(before, after);
/** Per translated language, the words only the English page uses. */
const ENGLISH_ONLY = { de: englishOnlyWords(DE, 'de'), zh: englishOnlyWords(ZH, 'zh') };
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

/** Client coordinates of a point of the view. */
async function inView(page, { x, y }) {
  const box = await page.locator('#view').boundingBox();
  return { x: box.x + x, y: box.y + y };
}

/** Where a press grabs `bone`, and its origin, in view coordinates. */
const bonePoints = (page, bone) => page.evaluate((b) => {
  const [gx, gy] = window.skinlab.boneScreenPoint(b);
  const [x, y] = window.skinlab.viewer.screenPointOf(new Float32Array(window.skinlab.lab.boneOrigin(b)));
  return { grab: { x: gx, y: gy }, pivot: { x, y } };
}, bone);

/** A model point on screen, in view coordinates. */
const screenOf = (page, point) => page.evaluate((p) => {
  const [x, y] = window.skinlab.viewer.screenPointOf(new Float32Array(p));
  return { x, y };
}, point);

/** Drags bone `bone` about its origin by `degrees` counter-clockwise on screen, in 12 mouse moves. */
async function turnBone(page, bone, degrees) {
  const { grab, pivot } = await bonePoints(page, bone);
  const arm = { x: grab.x - pivot.x, y: grab.y - pivot.y };
  const start = await inView(page, grab);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (let k = 1; k <= 12; k++) {
    const a = (degrees * Math.PI / 180) * k / 12;
    const to = await inView(page, {
      x: pivot.x + arm.x * Math.cos(a) + arm.y * Math.sin(a),
      y: pivot.y - arm.x * Math.sin(a) + arm.y * Math.cos(a),
    });
    await page.mouse.move(to.x, to.y);
  }
  await page.mouse.up();
}

/** Clicks a point of the view with the mouse. */
async function clickView(page, point) {
  const at = await inView(page, point);
  await page.mouse.click(at.x, at.y);
}

/** Drags the element `selector` (its centre) to `to`, view coordinates, in 10 moves. */
async function dragElement(page, selector, to) {
  const box = await page.locator(selector).boundingBox();
  const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const end = await inView(page, to);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let k = 1; k <= 10; k++) await page.mouse.move(from.x + (end.x - from.x) * k / 10, from.y + (end.y - from.y) * k / 10);
  await page.mouse.up();
}

/** Presses the step's `index`-th button (they are labelled in the page's language). */
const action = (page, index) => page.locator('#lesson-actions button').nth(index).click();

/** The fork vertex of the Y-junction, from the scene as loaded. */
const forkVertex = (page) => page.evaluate(() => {
  const positions = JSON.parse(window.skinlab.lab.sceneJson()).mesh.positions;
  for (let v = 0; v < positions.length / 3; v++) if (Math.abs(positions[3 * v]) < 1e-6 && positions[3 * v + 1] > 2) return v;
  return -1;
});

/**
 * What a student does for each step, with real input only (the page's own
 * controls, the mouse and the keyboard). `lang` lets a step use the other
 * path to the same goal in the other language (a button or a key).
 */
const DO = {
  'bones/1': async (page) => clickView(page, (await bonePoints(page, 1)).grab),
  'bones/2': (page) => turnBone(page, 0, 30),
  'bones/3': async (page) => {
    const { grab } = await bonePoints(page, 1);
    const from = await inView(page, grab);
    await page.keyboard.down('Shift');
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let k = 1; k <= 8; k++) await page.mouse.move(from.x + 10 * k, from.y - 4 * k);
    await page.mouse.up();
    await page.keyboard.up('Shift');
  },
  'two-bones/1': (page) => turnBone(page, 1, 60),
  'two-bones/2': (page) => turnBone(page, 1, 60),
  'y-junction/1': (page) => turnBone(page, 2, -40),
  'y-junction/2': async (page) => {
    const point = await page.evaluate((v) => window.skinlab.vertexScreenPoint(v), await forkVertex(page));
    const from = await inView(page, { x: point[0] - 12, y: point[1] });
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let k = 0; k <= 8; k++) await page.mouse.move(from.x + 3 * k, from.y + (k % 2));
    await page.mouse.up();
  },
  'three-steps/1': async (page) => {
    // A vertex at the far end of bone 2, where nothing else is near.
    const vertex = await page.evaluate(() => {
      const s = window.skinlab;
      let best = -1;
      let far = -Infinity;
      for (let v = 0; v < s.lab.vertexCount(); v++) {
        const x = s.lab.skinnedVertex('lbs', v)[0];
        if (s.lab.influences(v).some(([b]) => b === 1) && x > far) { far = x; best = v; }
      }
      return best;
    });
    const [x, y] = await page.evaluate((v) => window.skinlab.vertexScreenPoint(v), vertex);
    await clickView(page, { x, y });
  },
  'three-steps/2': async (page) => clickView(page, (await bonePoints(page, 1)).grab),
  'weights/1': (page) => action(page, 0),
  'weights/2': (page) => action(page, 0),
  'lbs-dqs/1': (page) => action(page, 0),
  'lbs-dqs/2': (page) => page.locator('[data-method="dqs"]').click(),
  'lbs-dqs/3': async (page) => {
    await action(page, 0);
    await page.locator('[data-method="dqs"]').click();
  },
  'lbs-dqs/4': (page) => page.locator('[data-method="cor"]').click(),
  'keyframes/1': async (page, lang) => {
    if (lang === 'de') {
      await page.locator('#view').focus();
      await page.keyboard.press('Space');
    } else {
      await page.locator('#anim-play').click();
    }
  },
  'keyframes/2': (page) => action(page, 0),
  'keyframes/3': async (page) => {
    await action(page, 0);
    await action(page, 1);
  },
  'keyframes/4': async (page) => {
    await action(page, 0);
    await action(page, 1);
    await turnBone(page, 1, 60);
    // K keys the selected bone (the drag selected it).
    await page.locator('#view').focus();
    await page.keyboard.press('k');
  },
  'paths/1': (page) => page.locator('#anim-play').click(),
  'paths/2': (page) => page.locator('#path-timing').selectOption('naive'),
  'paths/3': (page) => action(page, 0),
  'speed-curve/1': async (page) => {
    const from = await page.evaluate(() => window.skinlab.speedHandlePoint(1));
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let k = 1; k <= 10; k++) await page.mouse.move(from.x, from.y - 8 * k);
    await page.mouse.up();
  },
  'pursuit/1': async (page) => {
    const box = await page.locator('#pursuit-car').boundingBox();
    await page.mouse.click(box.x + box.width * 0.9, box.y + box.height / 2);
  },
  'time/1': async (page) => {
    await page.locator('#clock-slow').check();
    await page.locator('#anim-play').click();
  },
  'time/2': async (page) => {
    await page.locator('#clock-frames').check();
    await page.locator('#anim-play').click();
  },
  'rotations/1': async (page) => {
    const box = await page.locator('#rot-t').boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  },
  'rotations/2': (page) => page.locator('#rot-preset').selectOption('yz'),
  'vertex-keys/1': (page) => page.locator('#anim-play').click(),
  'capture/1': (page) => page.locator('#anim-play').click(),
  'capture/2': (page) => page.locator('#reduce-apply').click(),
  'stretch/1': async (page) => {
    const box = await page.locator('#ik-stretch').boundingBox();
    await page.mouse.click(box.x + box.width * 0.6, box.y + box.height / 2);
  },
  'robot/1': async (page) => dragElement(page, '#ik-target', await screenOf(page, [1.2, -1.1, 0])),
  'swing/1': async (page) => {
    await page.locator('#swing-toggle').click();
    await turnBone(page, 0, 40);
  },
  'fk-ik/1': (page) => turnBone(page, 0, 40),
  'fk-ik/2': async (page) => dragElement(page, '#ik-target', await screenOf(page, [0.6, -1.5, 0])),
  'fk-ik/3': async (page, lang) => {
    if (lang === 'de') await action(page, 0);
    else await dragElement(page, '#ik-target', await screenOf(page, [0.6, -2.5, 0]));
  },
  'morphing/1': async (page, lang) => {
    if (lang === 'de') {
      // The slider for A, pulled to its right end with the mouse.
      const slider = page.locator('#morph-sliders input[type="range"]').first();
      const box = await slider.boundingBox();
      await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
    } else {
      await action(page, 0);
    }
  },
  'morphing/2': async (page) => {
    await action(page, 0);
    await action(page, 1);
  },
  'morphing/3': (page) => action(page, 0),
  'lip-sync/1': async (page, lang) => {
    await page.locator('#speech-text').fill({ de: 'Hallo Oma', zh: 'ni hao mama' }[lang] ?? 'hello moon');
    await page.locator('#speech-say').click();
  },
  'rigging/1': async (page) => {
    await page.locator('#rig-markers').click();
    // The chin, the groin, and the mannequin's left elbow, wrist and knee.
    for (const point of [[0, 1.55, 0], [0, 0.92, 0], [0.48, 1.42, 0], [0.78, 1.42, 0], [0.1, 0.48, 0]]) {
      const at = await inView(page, await screenOf(page, point));
      await page.mouse.click(at.x, at.y);
    }
    await page.locator('#rig-fit').click();
  },
  'rigging/2': (page) => action(page, 0),
  'rigging/3': (page) => action(page, 0),
  'rigging/4': async (page) => turnBone(page, await page.evaluate(() => window.skinlab.lab.boneNames().indexOf('LeftForeArm')), 50),
  'rigging/5': async (page) => {
    // Strokes along the left forearm's skin where it is still left behind,
    // each from its wrist's end (at the elbow's end lie the bones' glyphs,
    // where a press picks a bone), a little below its axis.
    for (let stroke = 0; stroke < 4; stroke++) {
      const behind = await page.evaluate(() => {
        const s = window.skinlab;
        const positions = JSON.parse(s.lab.sceneJson()).mesh.positions;
        const forearm = s.lab.boneNames().indexOf('LeftForeArm');
        const points = [];
        for (let v = 0; v < positions.length / 3; v++) {
          const x = positions[3 * v];
          if (x <= 0.5 || x >= 0.76 || positions[3 * v + 1] <= 1.3) continue;
          const largest = s.lab.influences(v).reduce((best, pair) => (pair[1] > best[1] ? pair : best), [-1, 0]);
          if (largest[0] !== forearm) points.push(s.vertexScreenPoint(v));
        }
        return points;
      });
      if (behind.length === 0) break;
      const byX = [...behind].sort((p, q) => q[0] - p[0]);
      const [from, to] = [byX[0], byX[byX.length - 1]];
      const y = behind.reduce((sum, p) => sum + p[1], 0) / behind.length + 8;
      const start = await inView(page, { x: from[0], y });
      await page.mouse.move(start.x, start.y);
      await page.mouse.down();
      for (let k = 1; k <= 10; k++) {
        const at = await inView(page, { x: from[0] + (to[0] - from[0]) * k / 10, y });
        await page.mouse.move(at.x, at.y);
      }
      await page.mouse.up();
    }
  },
  'rigging/6': (page) => action(page, 0),
  'gpu/1': (page) => action(page, 0),
  'gpu/2': async (page) => {
    await action(page, 0);
    await action(page, 1);
  },
  'gpu/3': (page) => action(page, 0),
};

/** Waits until the step is done, at most `ms` after the action; the time it took, or null. */
async function doneWithin(page, ms) {
  const started = Date.now();
  try {
    await page.waitForFunction(() => window.skinlab.lessonState().done, null, { timeout: ms, polling: 20 });
    return Date.now() - started;
  } catch {
    return null;
  }
}

const lessonsOf = async () => {
  const { page } = await openAt('');
  await waitForSkinlab(page);
  const lessons = await page.evaluate(() => window.skinlab.lessons());
  await page.close();
  return lessons;
};

for (const lang of ['en', 'de', 'zh']) {
  test(`every step of every lesson, done with real input (${lang})`, async () => {
    const lessons = await lessonsOf();
    assert.ok(lessons.length >= 11, 'the lecture\'s lessons');
    let walked = 0;
    for (const { name, steps } of lessons) {
      for (let step = 1; step <= steps; step++) {
        const where = `${name}/${step} ${lang}`;
        const { page, errors } = await openAt(`?lesson=${name}&step=${step}&lang=${lang}`);
        await waitForSkinlab(page);
        await nextFrame(page);
        const state = await page.evaluate(() => window.skinlab.lessonState());
        assert.deepEqual({ lesson: state.lesson, step: state.step, done: state.done }, { lesson: name, step, done: false },
          `${where}: opened, and not done before the student acts`);
        // Chinese says in 10 characters what takes 20 letters elsewhere.
        assert.ok((await page.locator('#lesson-do').textContent()).length > (lang === 'zh' ? 10 : 20), `${where}: says what to do`);
        assert.ok((await canvasStats(page)).covered > 0.01, `${where}: the view is not blank`);
        // What the step declares is on screen: its buttons and the panel it names.
        const declared = await page.evaluate(([n, k]) => window.skinlab.lessons().find((l) => l.name === n).parts[k - 1], [name, step]);
        for (let k = 0; k < declared.actions; k++) {
          assert.ok(await page.locator('#lesson-actions button').nth(k).isVisible(), `${where}: button ${k + 1} visible`);
        }
        if (declared.panel) assert.ok(await page.locator(`#mode-${declared.panel}`).isVisible(), `${where}: the ${declared.panel} panel shows`);
        const act = DO[`${name}/${step}`];
        assert.ok(act, `${where}: the test knows how to do it`);
        await act(page, lang);
        const took = await doneWithin(page, 1000);
        assert.notEqual(took, null, `${where}: done within a second of the action (${JSON.stringify(await page.evaluate(() => window.skinlab.lessonState()))})`);
        assert.equal(await page.locator('#lesson-check.done').isVisible(), true, `${where}: the tick shows`);
        assert.equal(await page.locator('#lesson-notice').isVisible(), true, `${where}: what to notice shows`);
        // A notice's numbers are filled in from the core, never left as {placeholders}.
        assert.doesNotMatch(await page.locator('#lesson-notice').textContent(), /\{\w+\}/, `${where}: the notice's numbers`);
        await nextFrame(page);
        await nextFrame(page);
        // The figures the text names are on screen, not scrolled away.
        for (const selector of declared.shows) {
          const seen = await page.evaluate((sel) => {
            const figure = document.querySelector(sel).getBoundingClientRect();
            const panel = document.querySelector('.panel').getBoundingClientRect();
            return figure.height > 0 && figure.top < Math.min(panel.bottom, innerHeight) && figure.bottom > panel.top;
          }, selector);
          assert.ok(seen, `${where}: ${selector} is in view`);
        }
        // No English is left on the translated page, step by step, apart
        // from the bones' own names (a motion capture's Hips and Head).
        if (ENGLISH_ONLY[lang]) {
          const { text, bones } = await page.evaluate(() => ({ text: document.body.innerText, bones: window.skinlab.lab.boneNames().join(' ') }));
          const own = new Set(words(bones));
          const left = [...new Set(words(text).filter((word) => ENGLISH_ONLY[lang].has(word) && !own.has(word)))];
          assert.deepEqual(left, [], `${where}: English words on the page`);
        }
        await screenshot(page, `lesson-${name}-${step}-${lang}`);
        assert.deepEqual(errors, [], where);
        await page.close();
        walked += 1;
      }
    }
    console.log(`# ${walked} steps walked and photographed (${lang})`);
  });
}

test('the figures the steps name are on screen once done', async () => {
  const { page, errors } = await openAt('?lesson=gpu&step=1');
  await waitForSkinlab(page);
  await action(page, 0);
  await doneWithin(page, 1000);
  // “This chain needs 4 draw calls”: the table's 4×3 row says so.
  const row = await page.locator('#gpu-figures tr[data-format="mat4x3"] td').allTextContents();
  assert.deepEqual(row.slice(0, 4), ['mat4x3', '3', '80', '4'], `the 4×3 row: ${row}`);
  await page.evaluate(() => window.skinlab.startLesson('paths', 3));
  await action(page, 0);
  await doneWithin(page, 1000);
  const figures = await page.locator('#path-error').textContent();
  const short = Number(/, ([\d.]+) % short/.exec(figures)?.[1]);
  assert.ok(short > 1, `“several percent short”: ${figures}`);
  await page.evaluate(() => window.skinlab.startLesson('fk-ik', 3));
  await action(page, 0);
  await doneWithin(page, 1000);
  assert.match(await page.locator('#ik-report').textContent(), /not reached · distance/, 'the report says it did not reach');
  await page.evaluate(() => window.skinlab.startLesson('keyframes', 1));
  await page.locator('#anim-play').click();
  await doneWithin(page, 1000);
  assert.equal(await page.locator('#anim-play').textContent(), 'Pause', 'the player says it plays');
  await page.locator('#anim-play').click();
  const stopped = await page.evaluate(() => window.skinlab.animTime());
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => window.skinlab.animTime()), stopped, 'and stops when asked');
  assert.ok(stopped > 0, 'its time moved');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the last step of the last lesson starts the lecture over; ?mode=lessons opens lesson 1', async () => {
  const { page, errors } = await openAt('?lesson=rigging&step=6');
  await waitForSkinlab(page);
  assert.equal(await page.locator('#lesson-next').textContent(), 'Start over');
  await nextFrame(page, () => page.locator('#lesson-next').click());
  assert.deepEqual(await page.evaluate(() => window.skinlab.lessonState()), { lesson: 'bones', step: 1, steps: 3, done: false });
  await page.close();
  const { page: plain } = await openAt('?mode=lessons');
  await waitForSkinlab(plain);
  assert.equal((await plain.evaluate(() => window.skinlab.lessonState())).lesson, 'bones');
  assert.ok((await plain.locator('#lesson-do').textContent()).length > 20, 'the panel is not empty');
  assert.deepEqual(errors, []);
  await plain.close();
});

/** One finger turns bone `bone` about its origin by `degrees`, through the DevTools protocol's touch input. */
async function touchTurn(page, cdp, bone, degrees) {
  const { grab, pivot } = await bonePoints(page, bone);
  const arm = { x: grab.x - pivot.x, y: grab.y - pivot.y };
  const at = async (a) => inView(page, {
    x: pivot.x + arm.x * Math.cos(a) + arm.y * Math.sin(a),
    y: pivot.y - arm.x * Math.sin(a) + arm.y * Math.cos(a),
  });
  const start = await at(0);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [start] });
  for (let k = 1; k <= 12; k++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [await at((degrees * Math.PI / 180) * k / 12)] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

test('on a 390×844 phone the two-bone lesson is done by touch', async () => {
  const { page, errors } = await openAt('?lesson=two-bones&lang=de');
  await page.setViewportSize({ width: 390, height: 844 });
  await waitForSkinlab(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 2 });
  for (const step of [1, 2]) {
    await nextFrame(page);
    await touchTurn(page, cdp, 1, 60);
    assert.notEqual(await doneWithin(page, 1000), null, `step ${step}: done by touch`);
    assert.ok(await page.locator('#lesson-next').isVisible(), 'Next is on screen');
    await screenshot(page, `lesson-phone-two-bones-${step}`);
    // A tap on Next, scrolled to as a finger would; on a busy machine the
    // panel may still be laying out, so a finger that sees nothing happen
    // taps again (at most three times).
    let moved = false;
    for (let attempt = 0; attempt < 3 && !moved; attempt++) {
      await page.locator('#lesson-next').scrollIntoViewIfNeeded();
      await nextFrame(page);
      await nextFrame(page);
      const next = await page.locator('#lesson-next').boundingBox();
      const centre = { x: next.x + next.width / 2, y: next.y + next.height / 2 };
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [centre] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      moved = await page.waitForFunction(
        (k) => window.skinlab.lessonState().step !== k || window.skinlab.lessonState().lesson !== 'two-bones',
        step,
        { timeout: 5000 },
      ).then(() => true, () => false);
    }
    assert.ok(moved, `step ${step}: a tap on Next moves on`);
  }
  assert.equal((await page.evaluate(() => window.skinlab.lessonState())).lesson, 'y-junction');
  assert.deepEqual(errors, []);
  await page.close();
});
