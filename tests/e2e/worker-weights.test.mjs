// Automatic weights off the main thread: bone heat on the Fox runs in a
// worker with progress; the page keeps drawing and posing meanwhile, the
// result is the core's own, one undo step takes it back, and Cancel
// changes nothing.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, waitForSkinlab } from './browser.mjs';

const fixture = useBrowser(before, after);

test('bone heat on the Fox runs in a worker: the page keeps drawing, progress shows, the result equals the core\'s, Cancel leaves the weights', async () => {
  const { page: fox, errors } = await openPage(fixture.browser, `${fixture.server.url}?example=fox&mode=weights`);
  await waitForSkinlab(fox);
  await fox.evaluate(() => window.skinlab.textureReady());
  const before = await fox.evaluate(() => JSON.stringify(window.skinlab.lab.influenceArrays().weights));
  // Cancel first: nothing changes. Started and cancelled in one task, since
  // on a quick machine the Fox's bone heat may end before a second click
  // arrives (the work notice shows at once, before the worker answers).
  const shown = await fox.evaluate(() => {
    document.querySelector('[data-auto="heat"]').click();
    const visible = !document.querySelector('#work').hidden;
    document.querySelector('#work-cancel').click();
    return visible;
  });
  assert.equal(shown, true, 'the work notice with its Cancel showed');
  assert.equal(await fox.locator('#work').isVisible(), false);
  assert.equal(await fox.evaluate(() => JSON.stringify(window.skinlab.lab.influenceArrays().weights)), before, 'cancelled: as before');
  // Then to the end, posing meanwhile.
  const frames = await fox.evaluate(() => window.skinlab.framesRendered());
  await fox.locator('[data-auto="heat"]').click();
  await fox.locator('#work').waitFor({ state: 'visible' });
  await fox.evaluate(() => window.skinlab.lab.setBonePose(5, { rotation: [0, 0, 0.2, 0.98] }));
  await fox.waitForFunction((n) => window.skinlab.framesRendered() > n, frames);
  await fox.locator('#work').waitFor({ state: 'hidden', timeout: 120_000 });
  assert.match(await fox.locator('#notice').textContent(), /“Bone heat” weights applied/);
  const { worker, core } = await fox.evaluate(() => {
    const s = window.skinlab;
    const direct = s.Lab.fromSceneJson(s.lab.sceneJson());
    direct.autoWeights('heat');
    const result = { worker: Array.from(s.lab.influenceArrays().weights), core: Array.from(direct.influenceArrays().weights) };
    direct.free();
    return result;
  });
  assert.deepEqual(worker, core, 'the worker\'s weights are the core\'s');
  assert.notEqual(JSON.stringify(worker), before, 'and they changed');
  // One undo step gives the old weights back.
  await fox.evaluate(() => window.skinlab.undo());
  assert.equal(await fox.evaluate(() => JSON.stringify(window.skinlab.lab.influenceArrays().weights)), before);
  assert.deepEqual(errors, []);
  await fox.close();
});
