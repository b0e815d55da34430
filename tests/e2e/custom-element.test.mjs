// <skin-lab> on a plain page, with no frame anywhere: three elements of
// different examples and modes; the two on screen start and draw, the one
// far below does not start until scrolled to; each is posable by mouse;
// scrolled away, a lab draws nothing; changing an attribute changes the
// example; the page's API is on the element. Then five elements on one
// page, each posed by mouse and keyboard on its own, sharing one core, with
// the memory they take reported beside the page's own lab.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { labBonePoint, openPage, root, screenshot, useBrowser } from './browser.mjs';

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
  // The host page is served beside the module, as a site would put it.
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}three-labs.html`, { html: HOST });
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
  assert.equal(await page.evaluate(() => document.getElementById('a').shadowRoot.querySelectorAll('iframe').length), 0, 'no frame inside');
  const start = await labBonePoint(page, 'a', 1);
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
  // Any other attribute starts the lab again with it: ui=none hides the toolbar.
  await page.evaluate(() => { document.getElementById('b').ui = 'none'; });
  await page.waitForFunction(() => document.getElementById('b').skinlab?.framesRendered() > 0, null, { timeout: 30000 });
  const restarted = await page.evaluate(async () => {
    const element = document.getElementById('b');
    const api = await element.ready;
    return [api.example, api.language(), getComputedStyle(element.shadowRoot.querySelector('.toolbar')).display, element.shadowRoot.querySelectorAll('.skinlab').length];
  });
  assert.deepEqual(restarted, ['tube', 'de', 'none', 1]);
  // Keys reach the new lab alone: the closed one listens to nothing.
  await page.evaluate(() => document.getElementById('b').lab.setBonePose(1, { rotation: [0, 0, 0.3826834, 0.9238795] }));
  await page.evaluate(() => document.getElementById('b').shadowRoot.querySelector('#view').focus());
  await page.keyboard.press('r');
  assert.equal(await page.evaluate(() => document.getElementById('b').lab.bonePose(1).rotation[3]), 1, 'R reset the pose');

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

  // Moved within the page, a lab goes on as it was; taken off the page, it
  // is closed after a moment and starts again when put back.
  const kept = await page.evaluate(() => {
    const lab = document.getElementById('a');
    const api = lab.skinlab;
    document.querySelector('.row').append(lab);
    return new Promise((resolve) => setTimeout(() => resolve(lab.skinlab === api && lab.started), 1500));
  });
  assert.equal(kept, true, 'a moved element keeps its lab');
  const released = await page.evaluate(() => {
    const lab = document.getElementById('a');
    lab.remove();
    window.removedLab = lab;
    return new Promise((resolve) => setTimeout(() => resolve([lab.skinlab, lab.started, lab.shadowRoot.querySelector('canvas')]), 1500));
  });
  assert.deepEqual(released, [null, false, null], 'taken off the page, the lab is closed and its canvas gone');
  await page.evaluate(() => document.querySelector('.row').prepend(window.removedLab));
  await page.waitForFunction(() => document.getElementById('a').skinlab?.framesRendered() > 0, null, { timeout: 30000 });
  assert.equal(await page.evaluate(() => document.getElementById('a').skinlab.example), 'two-bone');
  assert.deepEqual(errors, []);
  await page.close();
});

const FIVE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Five labs</title>
<style>body { margin: 0; font: 16px serif; } .grid { display: flex; flex-wrap: wrap; } skin-lab { width: 400px; margin: 4px; }</style>
<script type="module" src="../skin-lab.js"></script></head>
<body><main><h1>Five labs</h1><div class="grid">
  <skin-lab id="l1" example="two-bone"></skin-lab>
  <skin-lab id="l2" example="y-junction" mode="gpu" lang="de"></skin-lab>
  <skin-lab id="l3" example="two-bone" method="dqs" lang="zh"></skin-lab>
  <skin-lab id="l4" example="y-junction" projector="1"></skin-lab>
  <skin-lab id="l5" example="two-bone" mode="ik"></skin-lab>
</div></main></body></html>`;

test('five <skin-lab> elements on one plain page: each posed by mouse on its own, one core for all, memory reported', async () => {
  const ids = ['l1', 'l2', 'l3', 'l4', 'l5'];
  // A site's page in a folder of its own, the lab's files one folder up.
  const url = `${fixture.server.url}course/five-labs.html`;
  const { page, errors } = await openPage(fixture.browser, url, { html: FIVE });
  await page.waitForFunction((ids) => ids.every((id) => document.getElementById(id).skinlab?.framesRendered() > 0), ids, { timeout: 60000 });
  assert.equal(await page.evaluate(() => document.querySelectorAll('iframe').length), 0);
  assert.equal(await page.evaluate((ids) => ids.reduce((n, id) => n + document.getElementById(id).shadowRoot.querySelectorAll('iframe').length, 0), ids), 0);

  // Each its own example, mode, method and language.
  const states = await page.evaluate((ids) => ids.map((id) => {
    const api = document.getElementById(id).skinlab;
    return [api.example, api.mode(), api.method(), api.language(), api.projector()];
  }), ids);
  assert.deepEqual(states, [
    ['two-bone', 'skin', 'lbs', 'en', false],
    ['y-junction', 'gpu', 'lbs', 'de', false],
    ['two-bone', 'skin', 'dqs', 'zh', false],
    ['y-junction', 'skin', 'lbs', 'en', true],
    ['two-bone', 'ik', 'lbs', 'en', false],
  ]);
  // Each speaks its own language in its own markup.
  const modeLabels = await page.evaluate((ids) => ids.map((id) => document.getElementById(id).shadowRoot.querySelector('#modes [data-mode="weights"]').textContent), ids);
  assert.deepEqual([modeLabels[0], modeLabels[1], modeLabels[3]], ['Weights', 'Gewichte', 'Weights']);
  assert.match(modeLabels[2], /\p{Script=Han}/u);
  // Its links are the lab's own, not the host page's: the lecture notes beside index.html.
  const notes = await page.evaluate(() => document.getElementById('l1').shadowRoot.querySelector('#lesson-sources').href);
  assert.equal(notes, `${fixture.server.url}sources.html`);
  // One compiled core and one instance of it: the same classes, the same memory.
  assert.equal(await page.evaluate((ids) => ids.every((id) => document.getElementById(id).skinlab.Lab === document.getElementById(ids[0]).skinlab.Lab), ids), true);

  // Posed by mouse, one after the other: each drag turns its own lab's bone and no other's.
  const turned = [];
  for (const id of ids) {
    const bone = 1;
    const before = await page.evaluate((ids) => ids.map((id) => document.getElementById(id).lab.bonePose(1).rotation), ids);
    const start = await labBonePoint(page, id, bone);
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x - 25, start.y - 50, { steps: 8 });
    await page.mouse.up();
    const after = await page.evaluate((ids) => ids.map((id) => document.getElementById(id).lab.bonePose(1).rotation), ids);
    ids.forEach((other, k) => {
      if (other === id) assert.notDeepEqual(after[k], before[k], `the drag on ${id} turned its bone`);
      else assert.deepEqual(after[k], before[k], `the drag on ${id} left ${other} alone`);
    });
    turned.push(id);
  }
  // Keys go to the lab that has the focus: R resets the third lab's pose alone.
  await page.evaluate(() => document.getElementById('l3').shadowRoot.querySelector('#view').focus());
  await page.keyboard.press('r');
  const resets = await page.evaluate((ids) => ids.map((id) => document.getElementById(id).lab.bonePose(1).rotation[3] === 1), ids);
  assert.deepEqual(resets, [false, false, true, false, false]);
  // Each keeps its own link, and the page's address stays the host's.
  const links = await page.evaluate((ids) => ids.map((id) => document.getElementById(id).shareLink()), ids);
  assert.ok(links.every((link) => new URL(link).pathname.endsWith('/index.html')), links.join(' '));
  assert.equal(new Set(links).size, 5);
  assert.equal(page.url(), url);
  await page.waitForTimeout(300);
  await screenshot(page, 'custom-element-five-labs');

  // Memory: the five labs against the page's own lab alone.
  const client = await page.context().newCDPSession(page);
  const measure = async (target, cdp) => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    const wasm = await target.evaluate(() => {
      const labs = [...document.querySelectorAll('skin-lab')].map((element) => element.skinlab);
      return (labs[0] ?? window.skinlab).wasmMemoryBytes();
    });
    const nodes = await target.evaluate(() => {
      let count = document.querySelectorAll('*').length;
      for (const element of document.querySelectorAll('skin-lab')) count += element.shadowRoot.querySelectorAll('*').length;
      return count;
    });
    return { heap: usedSize, wasm, nodes };
  };
  const five = await measure(page, client);
  const { page: single } = await openPage(fixture.browser, `${fixture.server.url}index.html?example=two-bone&autosave=0`);
  await single.waitForFunction(() => window.skinlab?.framesRendered() > 0, null, { timeout: 30000 });
  const one = await measure(single, await single.context().newCDPSession(single));
  const mb = (bytes) => (bytes / 1048576).toFixed(1);
  console.log(`# memory, five <skin-lab> elements: JS heap ${mb(five.heap)} MB, one wasm instance of ${mb(five.wasm)} MB, ${five.nodes} DOM nodes`);
  console.log(`# memory, the page's own lab alone: JS heap ${mb(one.heap)} MB, wasm ${mb(one.wasm)} MB, ${one.nodes} DOM nodes`);
  // Five labs share the core: its memory is one instance's, not five.
  assert.ok(five.wasm < 3 * one.wasm, `wasm ${five.wasm} against ${one.wasm} for one lab`);
  assert.ok(five.nodes >= 5 * (one.nodes - 50), 'each element has the whole page markup');
  await single.close();
  // axe-core reads the labs inside their shadow roots: no violation on the host page.
  await page.evaluate(await readFile(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a <skin-lab> without a lang speaks the host page\'s language; its own lang wins', async () => {
  const body = `<!doctype html><html lang="de-AT"><head><meta charset="utf-8"><title>Kurs</title>
<script type="module" src="skin-lab.js"></script></head>
<body><main><h1>Skinning</h1><skin-lab id="x" example="two-bone"></skin-lab><skin-lab id="y" example="two-bone" lang="zh"></skin-lab></main></body></html>`;
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}german-course.html`, { html: body });
  await page.waitForFunction(() => ['x', 'y'].every((id) => document.getElementById(id).skinlab?.framesRendered() > 0), null, { timeout: 30000 });
  const spoken = await page.evaluate(() => ['x', 'y'].map((id) => document.getElementById(id).skinlab.language()));
  assert.deepEqual(spoken, ['de', 'zh']);
  assert.equal(await page.evaluate(() => document.getElementById('x').shadowRoot.querySelector('#reset').textContent), 'Zurücksetzen');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a <skin-lab> keeps its own sizes whatever root font its host page sets', async () => {
  /** The sizes inside lab `x` on a host whose root font is `rootFont`. */
  const sizesOn = async (rootFont) => {
    const body = `<!doctype html><html lang="en" style="font-size: ${rootFont}"><head><meta charset="utf-8"><title>Host</title>
<script type="module" src="skin-lab.js"></script></head>
<body><skin-lab id="x" example="two-bone" style="width: 800px"></skin-lab></body></html>`;
    const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}root-font-${rootFont.replace('%', 'pc')}.html`, { html: body });
    await page.waitForFunction(() => document.getElementById('x').skinlab?.framesRendered() > 0, null, { timeout: 30000 });
    const sizes = await page.evaluate(() => {
      const root = document.getElementById('x').shadowRoot;
      const style = (selector) => getComputedStyle(root.querySelector(selector));
      return {
        toolbarPadding: style('.toolbar').paddingLeft,
        toolbarFont: style('.toolbar').fontSize,
        resetWidth: style('#reset').minWidth,
        caption: style('.caption').fontSize,
        view: root.querySelector('#view').getBoundingClientRect().height,
      };
    });
    assert.deepEqual(errors, []);
    await page.close();
    return sizes;
  };
  const small = await sizesOn('62.5%');
  const large = await sizesOn('40px');
  const usual = await sizesOn('16px');
  // style.css: .ui-minimal .toolbar { padding: 0.3rem 0.5rem; font-size: 0.9rem }, the reset arrow 2.2rem wide, at 15px to the rem.
  assert.equal(usual.toolbarPadding, '7.5px');
  assert.equal(usual.toolbarFont, '13.5px');
  assert.equal(usual.resetWidth, '33px');
  assert.deepEqual(small, usual, 'a 10px root font changes nothing inside the lab');
  assert.deepEqual(large, usual, 'a 40px root font changes nothing inside the lab');
});
