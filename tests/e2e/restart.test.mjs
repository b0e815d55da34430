// A trap in the page's core outside file loading: the page starts a fresh
// instance of the core and rebuilds the scene from its last saved state
// (the link), without a reload, and keeps working. The trap comes from a
// copy of the core whose `resetPose` is `unreachable` (tests/e2e/trap.mjs),
// so the Reset button stops the core as an out-of-memory would. On a page
// of <skin-lab> elements, which share the core, every lab comes back from
// its own link.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { labBonePoint, nextFrame, openPage, screenshot, useBrowser, waitForSkinlab } from './browser.mjs';
import { serveTrapping } from './trap.mjs';

const fixture = useBrowser(before, after);

test('a trap in the core restarts it from the last saved state, and the page goes on', async () => {
  const restore = await serveTrapping(fixture.server, 'skinlab_bg.wasm', 'lab_resetPose');
  try {
    const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}?example=two-bone-smooth`);
    await waitForSkinlab(page);
    // A reload would lose this.
    await page.evaluate(() => { window.sameDocument = true; });
    // A pose by mouse, saved in the link.
    const box = await page.locator('#view').boundingBox();
    const [x, y] = await page.evaluate(() => window.skinlab.boneScreenPoint(1));
    await page.mouse.move(box.x + x, box.y + y);
    await page.mouse.down();
    for (let k = 1; k <= 8; k++) await page.mouse.move(box.x + x - 4 * k, box.y + y - 10 * k);
    await page.mouse.up();
    await nextFrame(page);
    const posed = await page.evaluate(() => window.skinlab.lab.bonePose(1).rotation);
    assert.ok(Math.abs(posed[2]) > 0.05, `the drag turned bone 2: ${posed}`);
    await page.evaluate(() => window.skinlab.shareLink());
    // Reset pose traps the core.
    await page.locator('#reset').click();
    await page.waitForFunction(() => window.skinlab.restarts() === 1);
    await nextFrame(page);
    assert.match(await page.locator('#notice').textContent(), /core stopped \(.*unreachable.*\) and was restarted from the last saved state/);
    assert.equal(await page.evaluate(() => window.sameDocument), true, 'no reload');
    const back = await page.evaluate(() => window.skinlab.lab.bonePose(1).rotation);
    back.forEach((v, k) => assert.ok(Math.abs(v - posed[k]) < 1e-6, `the pose came back: ${back} vs ${posed}`));
    // The restarted core works: another drag poses, the frame draws.
    const frames = await page.evaluate(() => window.skinlab.framesRendered());
    const [x2, y2] = await page.evaluate(() => window.skinlab.boneScreenPoint(1));
    await page.mouse.move(box.x + x2, box.y + y2);
    await page.mouse.down();
    for (let k = 1; k <= 8; k++) await page.mouse.move(box.x + x2 + 4 * k, box.y + y2 + 10 * k);
    await page.mouse.up();
    await nextFrame(page);
    const after = await page.evaluate(() => window.skinlab.lab.bonePose(1).rotation);
    assert.ok(Math.abs(after[2] - back[2]) > 0.05, `a drag after the restart turns the bone: ${after}`);
    assert.ok(await page.evaluate((n) => window.skinlab.framesRendered() > n, frames), 'it draws');
    await screenshot(page, 'restarted-after-trap');
    // The only error is the trap itself.
    assert.deepEqual(errors.filter((e) => !/unreachable/.test(e)), []);
    await page.close();
  } finally {
    await restore();
  }
});

test('after a trap, a scene of one\'s own comes back as the autosave last kept it; never saved, the page says it is lost', async () => {
  const restore = await serveTrapping(fixture.server, 'skinlab_bg.wasm', 'lab_resetPose');
  try {
    for (const saves of [true, false]) {
      const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}?example=y-junction${saves ? '' : '&autosave=0'}`);
      await waitForSkinlab(page);
      // The Y-junction as a file of one's own, a bone turned, in Weights.
      await page.evaluate(() => {
        const s = window.skinlab;
        const scene = JSON.parse(s.lab.sceneJson());
        scene.bones[1].name = 'own branch';
        s.loadScene(JSON.stringify(scene));
        s.lab.setBonePose(1, { rotation: [0, 0, 0.2588190, 0.9659258] });
        s.setMode('weights');
      });
      await nextFrame(page);
      if (saves) await page.evaluate(() => window.skinlab.autosaveNow());
      await page.evaluate(() => document.querySelector('#reset').click());
      await page.waitForFunction(() => window.skinlab.restarts() === 1);
      await page.waitForFunction(() => window.skinlab.lab?.boneCount() > 0);
      await nextFrame(page);
      const back = await page.evaluate(() => ({
        example: window.skinlab.example, names: window.skinlab.lab.boneNames(), rotation: window.skinlab.lab.bonePose(1).rotation, mode: window.skinlab.mode(),
      }));
      const notice = await page.locator('#notice').textContent();
      if (saves) {
        assert.equal(back.example, null, 'a scene of one\'s own');
        assert.equal(back.names[1], 'own branch');
        assert.ok(Math.abs(back.rotation[2] - 0.2588190) < 1e-6, `its pose came back: ${back.rotation}`);
        assert.equal(back.mode, 'weights');
        assert.match(notice, /your scene came back as the autosave last kept it/);
      } else {
        assert.equal(back.example, 'two-bone');
        assert.match(notice, /your scene had not been saved yet and could not come back/);
      }
      assert.deepEqual(errors.filter((e) => !/unreachable/.test(e)), []);
      await page.close();
    }
  } finally {
    await restore();
  }
});

const LABS = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Three labs</title>
<style>body { margin: 0; } .row { display: flex; flex-wrap: wrap; } skin-lab { width: 420px; margin: 4px; }</style>
<script type="module" src="skin-lab.js"></script></head>
<body><div class="row">
  <skin-lab id="a" example="two-bone-smooth"></skin-lab>
  <skin-lab id="b" example="y-junction" lang="de"></skin-lab>
  <skin-lab id="c" example="tube" method="dqs"></skin-lab>
</div></body></html>`;

test('a trap in the core shared by three <skin-lab> elements: each lab comes back from its own link, and each goes on', async () => {
  const restore = await serveTrapping(fixture.server, 'skinlab_bg.wasm', 'lab_resetPose');
  try {
    const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}three-labs-trap.html`, { html: LABS });
    const ids = ['a', 'b', 'c'];
    await page.waitForFunction((ids) => ids.every((id) => document.getElementById(id).skinlab?.framesRendered() > 0), ids, { timeout: 60000 });
    await page.evaluate(() => { window.sameDocument = true; });
    /** Drags bone 1 of lab `id` by (dx, dy) with the mouse. */
    const drag = async (id, dx, dy) => {
      const start = await labBonePoint(page, id, 1);
      await page.mouse.move(start.x, start.y);
      await page.mouse.down();
      await page.mouse.move(start.x + dx, start.y + dy, { steps: 8 });
      await page.mouse.up();
    };
    const poses = () => page.evaluate((ids) => ids.map((id) => document.getElementById(id).lab.bonePose(1).rotation), ids);
    await drag('a', -30, -60);
    await drag('b', 30, -40);
    const posed = await poses();
    assert.ok(Math.abs(posed[0][2]) > 0.05 && Math.abs(posed[1][2]) > 0.05, `the drags turned bones: ${posed}`);
    await page.evaluate((ids) => ids.forEach((id) => document.getElementById(id).shareLink()), ids);
    // Reset pose in the first lab traps the core they share.
    await page.evaluate(() => document.getElementById('a').shadowRoot.querySelector('#reset').click());
    await page.waitForFunction(() => document.getElementById('a').skinlab.restarts() === 1);
    await page.waitForFunction((ids) => ids.every((id) => document.getElementById(id).skinlab.lab.boneCount() > 0), ids);
    assert.equal(await page.evaluate(() => window.sameDocument), true, 'no reload');
    const back = await poses();
    back.forEach((rotation, k) => rotation.forEach((v, i) => assert.ok(Math.abs(v - posed[k][i]) < 1e-6, `lab ${ids[k]} came back: ${rotation} vs ${posed[k]}`)));
    assert.deepEqual(await page.evaluate((ids) => ids.map((id) => document.getElementById(id).skinlab.example), ids), ['two-bone-smooth', 'y-junction', 'tube']);
    assert.deepEqual(await page.evaluate((ids) => ids.map((id) => document.getElementById(id).skinlab.language()), ids), ['en', 'de', 'en']);
    const notices = await page.evaluate((ids) => ids.map((id) => document.getElementById(id).shadowRoot.querySelector('#notice').textContent), ids);
    assert.match(notices[0], /core stopped \(.*unreachable.*\) and was restarted from the last saved state/);
    // Each goes on: a drag in the second lab turns its bone and draws (its
    // notice, over the bone in so small a lab, put away first).
    await page.evaluate(() => { document.getElementById('b').shadowRoot.querySelector('#notice').hidden = true; });
    const frames = await page.evaluate(() => document.getElementById('b').skinlab.framesRendered());
    await drag('b', -40, 40);
    const after = await poses();
    assert.ok(Math.abs(after[1][2] - back[1][2]) > 0.05, `a drag after the restart turns the bone: ${after[1]}`);
    await page.waitForFunction((n) => document.getElementById('b').skinlab.framesRendered() > n, frames);
    await screenshot(page, 'restarted-labs-after-trap');
    assert.deepEqual(errors.filter((e) => !/unreachable/.test(e)), []);
    await page.close();
  } finally {
    await restore();
  }
});
