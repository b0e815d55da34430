// A trap in the page's core outside file loading: the page starts a fresh
// instance of the core and rebuilds the scene from its last saved state
// (the link), without a reload, and keeps working. The trap comes from a
// copy of the core whose `resetPose` is `unreachable` (tests/e2e/trap.mjs),
// so the Reset button stops the core as an out-of-memory would.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, openPage, screenshot, useBrowser, waitForSkinlab } from './browser.mjs';
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
