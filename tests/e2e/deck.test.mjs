// Skinlab in a reveal.js deck as a lecturer gives it: slides reached by the
// keyboard, a <skin-lab> and a framed lab among them, and a presenter's
// clicker (PageDown/PageUp) after a click into each. Each lab lies within
// its slide; the clicker moves the deck and leaves the lab as it was; a key
// the lab uses (an arrow turning its selected bone) stays in the lab.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, root, screenshot, useBrowser } from './browser.mjs';

// The whole tree: the deck reads reveal.js from node_modules/ and the lab from www/.
const fixture = useBrowser(before, after, root);

/**
 * A 960×700 deck: a title, a <skin-lab> of the Y in the Weights mode, a
 * framed tube, an end. The element's module arrives after the deck has laid
 * its slides out.
 */
const deck = `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><title>Skinning</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/node_modules/reveal.js/dist/reveal.css">
<link rel="stylesheet" href="/node_modules/reveal.js/dist/theme/white.css"></head>
<body><div class="reveal"><div class="slides">
  <section><h2>Skinning</h2></section>
  <section><h3>Der Scheitelpunkt</h3><skin-lab id="lab" example="y-junction" mode="weights" style="width: 800px"></skin-lab></section>
  <section><h3>LBS gegen DQS</h3><iframe id="frame" src="/www/index.html?example=tube&amp;ui=minimal&amp;autosave=0" width="800" height="500" style="border:0" title="Skinlab"></iframe></section>
  <section><h3>Ende</h3></section>
</div></div>
<script src="/node_modules/reveal.js/dist/reveal.js"></script>
<script>Reveal.initialize({ hash: false, width: 960, height: 700, transition: 'none' })
  // The element is defined after the deck has laid its slides out, as on a slow line.
  .then(() => import('/www/skin-lab.js'));</script>
</body></html>`;

test('a reveal.js deck: labs lie within their slides, the clicker drives the deck after a click into a lab, a key the lab uses stays there', async () => {
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}test-output/deck-keys.html`, { html: deck });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForFunction(() => window.Reveal?.isReady());
  const slide = () => page.evaluate(() => window.Reveal.getIndices().h);
  await page.locator('body').click({ position: { x: 5, y: 5 } });

  // Reached by the arrow key, the element's slide lies within the window.
  await page.keyboard.press('ArrowRight');
  assert.equal(await slide(), 1);
  await page.waitForFunction(() => document.getElementById('lab').skinlab?.framesRendered() > 0, null, { timeout: 30000 });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const box = await page.locator('#lab').boundingBox();
  const heading = await page.locator('section.present h3').boundingBox();
  assert.ok(box.height > 200, `the element has its size: ${JSON.stringify(box)}`);
  assert.ok(box.y >= 0 && box.y + box.height <= 800, `the element lies within the window: ${JSON.stringify(box)}`);
  assert.ok(heading.y >= 0 && heading.y + heading.height <= box.y + 1, 'the heading above it, on screen');
  await screenshot(page, 'deck-element-slide');

  // A click into the lab (the view's empty corner), then the clicker: the deck moves, the lab stays as it was.
  const lab = page.locator('#lab');
  const before = await page.evaluate(() => {
    const element = document.getElementById('lab');
    return { scene: element.lab.sceneJson(), bone: element.selectedBone(), tool: element.skinlab.tool() };
  });
  const view = await lab.locator('#view').boundingBox();
  await page.mouse.click(view.x + view.width - 10, view.y + 10);
  await page.keyboard.press('PageDown');
  assert.equal(await slide(), 2, 'PageDown moved the deck');
  await page.keyboard.press('PageUp');
  assert.equal(await slide(), 1, 'PageUp moved it back');
  const afterClicker = await page.evaluate(() => {
    const element = document.getElementById('lab');
    return { scene: element.lab.sceneJson(), bone: element.selectedBone(), tool: element.skinlab.tool() };
  });
  assert.deepEqual(afterClicker, before, 'the lab is as it was');

  // 'p' is the lab's (the Pose tool) while it has the focus.
  await page.evaluate(() => document.getElementById('lab').selectBone(1));
  await lab.locator('#view').focus();
  await page.keyboard.press('p');
  assert.equal(await slide(), 1);
  assert.equal(await page.evaluate(() => document.getElementById('lab').skinlab.tool()), 'pose');
  // An arrow the lab uses (turning its selected bone) stays in the lab.
  await page.keyboard.press('ArrowRight');
  assert.equal(await slide(), 1, 'the deck stayed');
  assert.notDeepEqual(await page.evaluate(() => document.getElementById('lab').lab.bonePose(1).rotation), [0, 0, 0, 1], 'the bone turned');

  // The framed lab: a click into it, then the clicker. Keys do not leave a
  // frame; the lab sends them on through reveal.js's postMessage API.
  await page.evaluate(() => window.Reveal.slide(2));
  const frame = page.frames().find((f) => f.url().includes('example=tube'));
  await frame.waitForFunction(() => window.skinlab?.framesRendered() > 0, null, { timeout: 30000 }).catch((e) => { throw new Error(`${e.message}: ${errors.join('; ')}`); });
  const framedBefore = await frame.evaluate(() => ({ scene: window.skinlab.lab.sceneJson(), bone: window.skinlab.selectedBone() }));
  const frameBox = await page.locator('#frame').boundingBox();
  assert.ok(frameBox.y >= 0 && frameBox.y + frameBox.height <= 800, 'the frame lies within the window');
  await page.mouse.click(frameBox.x + frameBox.width - 20, frameBox.y + frameBox.height / 2);
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => window.Reveal.getIndices().h === 3, null, { timeout: 5000 });
  // The focus went back to the deck: the next press reaches it directly.
  await page.keyboard.press('PageUp');
  await page.waitForFunction(() => window.Reveal.getIndices().h === 2, null, { timeout: 5000 });
  assert.deepEqual(await frame.evaluate(() => ({ scene: window.skinlab.lab.sceneJson(), bone: window.skinlab.selectedBone() })), framedBefore);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a <skin-lab> has its size before its lab starts, from a 16:10 default or its width and height, and tells its host when it changed', async () => {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head><body style="margin:0">
<p>Text before.</p>
<skin-lab id="plain" example="tube" style="width: 640px"></skin-lab>
<skin-lab id="sized" example="tube" width="500" height="300"></skin-lab>
<div style="height: 3000px"></div>
<script>window.resizes = 0; addEventListener('resize', () => { window.resizes += 1; });</script>
</body></html>`;
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}test-output/host-size.html`, { html });
  await page.setViewportSize({ width: 1000, height: 700 });
  // Laid out before the element is defined: no size of its own yet.
  assert.equal((await page.locator('#plain').boundingBox()).height, 0);
  await page.evaluate(() => { document.getElementById('sized').style.marginTop = '2000px'; });
  await page.evaluate(() => import('/www/skin-lab.js'));
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const plain = await page.locator('#plain').boundingBox();
  const sized = await page.locator('#sized').boundingBox();
  assert.equal(plain.height, 400, '640 px wide at 16:10');
  assert.deepEqual([sized.width, sized.height], [500, 300], 'from its attributes');
  assert.equal(await page.evaluate(() => document.getElementById('sized').started), false, 'sized before its lab starts (it is off screen)');
  assert.ok(await page.evaluate(() => window.resizes) >= 1, 'the host heard a resize');
  // A changed attribute changes the box.
  await page.evaluate(() => document.getElementById('sized').setAttribute('height', '250'));
  assert.equal((await page.locator('#sized').boundingBox()).height, 250);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a lesson step\'s embed code, put in a slide, shows the step: its instruction and its check under the view', async () => {
  const { page: source } = await openPage(fixture.browser, `${fixture.server.url}www/index.html?lesson=three-steps&step=2&autosave=0&lang=de`);
  await source.waitForFunction(() => window.skinlab !== undefined, null, { timeout: 30000 });
  const instruction = await source.locator('#lesson-do').textContent();
  // The slides sit at the server's root; the lab was copied to www/.
  const code = await source.evaluate(() => window.skinlab.embedCode('www/'));
  assert.match(code, /^<iframe src="www\/index.html\?[^"]*lesson=three-steps[^"]*step=2/);
  await source.close();
  const html = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Folie</title></head><body>${code}</body></html>`;
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}slide.html`, { html });
  const frame = page.frames().find((f) => f.url().includes('lesson=three-steps'));
  await frame.waitForFunction(() => window.skinlab?.framesRendered() > 0, null, { timeout: 30000 });
  const caption = frame.locator('#caption');
  assert.equal(await caption.isVisible(), true, 'the step under the view');
  const words = await caption.textContent();
  assert.ok(words.includes(instruction.trim()), `the step's instruction: ${words}`);
  assert.match(words, /Noch nicht/, 'and its check');
  assert.equal(await frame.locator('.caption-check').isVisible(), true);
  await screenshot(page, 'deck-embedded-step');
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a plain page, PageDown with the focus in a <skin-lab> scrolls the page and leaves the lab as it was', async () => {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Notes</title>
<script type="module" src="/www/skin-lab.js"></script></head><body style="margin:0">
<skin-lab id="lab" example="two-bone" style="width: 640px"></skin-lab><div style="height: 4000px"></div></body></html>`;
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}test-output/plain-host.html`, { html });
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.waitForFunction(() => document.getElementById('lab').skinlab?.framesRendered() > 0, null, { timeout: 30000 });
  const state = () => page.evaluate(() => ({ scene: document.getElementById('lab').lab.sceneJson(), bone: document.getElementById('lab').selectedBone() }));
  const before = await state();
  await page.locator('#lab').locator('#view').focus();
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => window.scrollY > 100, null, { timeout: 5000 });
  assert.deepEqual(await state(), before, 'no bone picked, nothing changed');
  assert.deepEqual(errors, []);
  await page.close();
});
