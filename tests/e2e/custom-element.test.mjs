// <skin-lab> on a plain page with no iframes of its own: three elements of
// different examples and modes; the two on screen start and draw, the one
// far below does not start until scrolled to; each is posable by mouse;
// scrolled away, a lab draws nothing; changing an attribute changes the
// example; the page's API is on the element.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextFrame, screenshot, useBrowser } from './browser.mjs';

const fixture = useBrowser(before, after);

const HOST = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Three labs</title>
<style>body { margin: 0; font: 16px serif; } skin-lab { width: 600px; margin: 8px; } .row { display: flex; }</style>
<script type="module" src="skin-lab.js"></script></head>
<body>
  <h1>Skinning, three ways</h1>
  <div class="row">
    <skin-lab id="a" example="two-bone" mode="skin"></skin-lab>
    <skin-lab id="b" example="y-junction" mode="weights" lang="de"></skin-lab>
  </div>
  <div style="height: 3000px"></div>
  <skin-lab id="c" example="tube" method="dqs"></skin-lab>
</body></html>`;

/** Frames drawn by element `id`'s lab, or null before it starts. */
const frames = (page, id) => page.evaluate((id) => document.getElementById(id).skinlab?.framesRendered() ?? null, id);

test('three <skin-lab> elements: each its own lab, started on screen, posable, idle off screen, attributes live', async () => {
  const page = await fixture.browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  // The host page is served beside the module, as a site would put it.
  const url = `${fixture.server.url}three-labs.html`;
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: HOST }));
  await page.goto(url);
  assert.equal(await page.evaluate(() => document.querySelectorAll('iframe').length), 0, 'the host page has no iframes');

  await page.waitForFunction(() => ['a', 'b'].every((id) => document.getElementById(id).skinlab?.framesRendered() > 0), null, { timeout: 30000 });
  const [a, b] = await Promise.all([page.evaluate(() => document.getElementById('a').ready.then((api) => [api.example, api.mode(), api.language()])),
    page.evaluate(() => document.getElementById('b').ready.then((api) => [api.example, api.mode(), api.language()]))]);
  assert.deepEqual(a, ['two-bone', 'skin', 'en']);
  assert.deepEqual(b, ['y-junction', 'weights', 'de']);
  // Far below: not started at all.
  assert.equal(await page.evaluate(() => document.getElementById('c').started), false);
  assert.equal(await frames(page, 'c'), null);

  // Posable by mouse: drag bone 1 of the first lab.
  const element = await page.locator('#a').boundingBox();
  const canvasOffset = await page.evaluate(() => {
    const frame = document.getElementById('a').shadowRoot.querySelector('iframe');
    const rect = frame.contentDocument.querySelector('#view').getBoundingClientRect();
    return { x: rect.left, y: rect.top };
  });
  const grab = await page.evaluate(() => document.getElementById('a').boneScreenPoint(1));
  const start = { x: element.x + canvasOffset.x + grab[0], y: element.y + canvasOffset.y + grab[1] };
  const rotationBefore = await page.evaluate(() => document.getElementById('a').lab.bonePose(1).rotation);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x - 20, start.y - 60, { steps: 8 });
  await page.mouse.up();
  const rotationAfter = await page.evaluate(() => document.getElementById('a').lab.bonePose(1).rotation);
  assert.notDeepEqual(rotationAfter, rotationBefore, 'the drag turned the bone');
  // The other lab is untouched: each element is its own lab.
  assert.deepEqual(await page.evaluate(() => document.getElementById('b').lab.bonePose(1).rotation), [0, 0, 0, 1]);
  await screenshot(page, 'custom-element-two-labs');

  // An attribute changed: the example changes in place.
  await page.evaluate(() => { document.getElementById('b').example = 'tube'; });
  await page.waitForFunction(() => document.getElementById('b').skinlab.example === 'tube');
  assert.equal(await page.evaluate(() => document.getElementById('b').getAttribute('example')), 'tube');

  // Scrolled to the third: it starts and draws; the first two, now off
  // screen, draw nothing even when asked.
  await page.locator('#c').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.getElementById('c').skinlab?.framesRendered() > 0, null, { timeout: 30000 });
  assert.deepEqual(await page.evaluate(() => document.getElementById('c').ready.then((api) => [api.example, api.method()])), ['tube', 'dqs']);
  await page.waitForTimeout(300);
  const idle = await frames(page, 'a');
  await page.evaluate(() => {
    const lab = document.getElementById('a');
    lab.lab.setBonePose(1, { rotation: [0, 0, 0.3826834, 0.9238795] });
    lab.requestRender();
  });
  await page.waitForTimeout(500);
  assert.equal(await frames(page, 'a'), idle, 'off screen, the first lab drew nothing');
  // Back on screen, it draws the change.
  await page.locator('#a').scrollIntoViewIfNeeded();
  await page.waitForFunction((n) => document.getElementById('a').skinlab.framesRendered() > n, idle, { timeout: 10000 });
  assert.deepEqual(errors, []);
  await page.close();
});
