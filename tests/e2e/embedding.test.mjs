// Skinlab in lecture slides: a reveal.js deck of dist/ iframes, shared
// links, idling, lost graphics contexts, bad links and bad files.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  dragAcross, launchBrowser, openPage, serveStatic, screenshot, root, outputDir, waitForSkinlab, nextFrame, canvasStats, gpuVersusCpu,
} from './browser.mjs';

let server;
let browser;
before(async () => {
  server = await serveStatic(root);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const pageUrl = (query = '') => `${server.url}dist/index.html${query}`;

/** Share of canvas pixels unlike the background, inside a page or frame. */
async function covered(target) {
  return (await canvasStats(target)).covered;
}

test('a reveal.js deck of three instances renders each, and a drag poses only its own', async () => {
  const examples = ['two-bone', 'y-junction', 'tube'];
  const slides = examples.map((name) => `
    <section><h3>${name}</h3>
      <iframe src="/dist/index.html?example=${name}&amp;ui=minimal" width="900" height="520" style="border:0" title="Skinlab ${name}"></iframe>
    </section>`).join('');
  await mkdir(join(outputDir, 'deck'), { recursive: true });
  await writeFile(join(outputDir, 'deck', 'index.html'), `<!doctype html>
<html><head><meta charset="utf-8"><title>Skinning lecture</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/node_modules/reveal.js/dist/reveal.css">
<link rel="stylesheet" href="/node_modules/reveal.js/dist/theme/white.css"></head>
<body><div class="reveal"><div class="slides">${slides}</div></div>
<script src="/node_modules/reveal.js/dist/reveal.js"></script>
<script>Reveal.initialize({ hash: false, width: 1000, height: 700, minScale: 1, maxScale: 1, transition: 'none' });</script>
</body></html>`);
  const { page, errors } = await openPage(browser, `${server.url}test-output/deck/index.html`);
  await page.waitForFunction(() => window.Reveal?.isReady());
  const frameOf = (name) => page.frames().find((f) => f.url().includes(`example=${name}`));
  for (const [index, name] of examples.entries()) {
    await page.evaluate((i) => window.Reveal.slide(i), index);
    await page.waitForFunction((n) => [...document.querySelectorAll('iframe')].some((f) => f.src.includes(n)), name);
    const frame = frameOf(name);
    await frame.waitForFunction(() => window.skinlab && window.skinlab.framesRendered() > 0, null, { timeout: 30000 });
    const share = await covered(frame);
    console.log(`# slide ${index + 1} (${name}): ${(share * 100).toFixed(1)}% of the canvas drawn`);
    assert.ok(share > 0.02, `slide ${index + 1} shows its mesh`);
    await screenshot(page, `deck-slide-${index + 1}`);
  }

  // Drag bone 2 of the first slide's instance with the mouse.
  await page.evaluate(() => window.Reveal.slide(0));
  const frame = frameOf('two-bone');
  await frame.waitForFunction(() => window.skinlab.framesRendered() > 0);
  const grab = await frame.evaluate(() => {
    const rect = document.querySelector('#view').getBoundingClientRect();
    const p = window.skinlab.boneScreenPoint(1);
    return { x: rect.left + p[0], y: rect.top + p[1], scale: 1 };
  });
  const box = await page.locator('iframe').first().boundingBox();
  const inner = await frame.evaluate(() => window.innerWidth);
  const scale = box.width / inner;
  await page.mouse.move(box.x + grab.x * scale, box.y + grab.y * scale);
  await page.mouse.down();
  for (let step = 1; step <= 10; step++) await page.mouse.move(box.x + (grab.x - 3 * step) * scale, box.y + (grab.y - 9 * step) * scale);
  await page.mouse.up();
  const turned = await frame.evaluate(() => window.skinlab.lab.bonePose(1).rotation);
  assert.ok(Math.abs(turned[2]) > 0.1, `the drag turned bone 2 in slide 1: ${turned}`);
  for (const name of ['y-junction', 'tube']) {
    const untouched = await frameOf(name).evaluate(() => window.skinlab.lab.bonePose(1).rotation);
    assert.deepEqual(untouched, [0, 0, 0, 1], `${name} was not posed`);
  }
  await screenshot(page, 'deck-after-drag');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Share link restores pose, weights, camera and method exactly', async () => {
  const { page: a } = await openPage(browser, pageUrl('?example=y-junction-unweighted'));
  await waitForSkinlab(a);
  await nextFrame(a, () => a.evaluate(() => {
    window.skinlab.lab.setBonePose(2, { rotation: [0, 0, -0.3826834, 0.9238795], translation: [0.1, 0, 0], scale: [1, 1.2, 1] });
    window.skinlab.setMethod('dqs');
    window.skinlab.viewer.zoom(0.8);
    window.skinlab.selectBone(2);
    window.skinlab.setTool('paint');
    window.skinlab.setBrush({ radius: 25, strength: 0.7, falloff: 'smooth', mode: 'add' });
  }));
  // Paint over the fork with the mouse.
  await dragAcross(a, await a.evaluate(() => window.skinlab.vertexScreenPoint(10)));
  const sceneA = await a.evaluate(() => window.skinlab.lab.sceneJson());
  assert.notEqual(sceneA, await a.evaluate(() => window.skinlab.Lab.example('y-junction-unweighted').sceneJson()));
  const link = await a.evaluate(() => window.skinlab.shareLink());
  const cameraA = await a.evaluate(() => Array.from(window.skinlab.viewer.cameraState()));
  assert.match(link, /#s=/);

  const { page: b, errors } = await openPage(browser, link);
  await waitForSkinlab(b);
  assert.equal(await b.evaluate(() => window.skinlab.lab.sceneJson()), sceneA);
  assert.equal(await b.evaluate(() => window.skinlab.method()), 'dqs');
  assert.deepEqual(await b.evaluate(() => Array.from(window.skinlab.viewer.cameraState())), cameraA);
  // Relative to the slides by default (dist/ copied to skinlab/ beside them), absolute on request.
  const embed = await b.evaluate(() => window.skinlab.embedCode());
  assert.match(embed, /^<iframe src="skinlab\/index.html\?[^"]*ui=minimal[^"]*#s=[^"]*" width="960" height="600"/);
  const absolute = await b.evaluate(() => window.skinlab.embedCode(''));
  assert.match(absolute, /^<iframe src="http[^"]*ui=minimal[^"]*#s=[^"]*" width="960" height="600"/);
  assert.deepEqual(errors, []);
  await a.close();
  await b.close();
});

test('idle pages draw nothing; a drag draws', async () => {
  const { page } = await openPage(browser, pageUrl('?example=two-bone'));
  await waitForSkinlab(page);
  await page.waitForTimeout(300);
  const idleStart = await page.evaluate(() => window.skinlab.framesRendered());
  await page.waitForTimeout(2000);
  const idleEnd = await page.evaluate(() => window.skinlab.framesRendered());
  assert.equal(idleEnd, idleStart, 'no frame while nothing changes');
  const grab = await page.evaluate(() => window.skinlab.boneScreenPoint(1));
  const box = await page.locator('#view').boundingBox();
  await page.mouse.move(box.x + grab[0], box.y + grab[1]);
  await page.mouse.down();
  for (let step = 1; step <= 8; step++) {
    await page.mouse.move(box.x + grab[0], box.y + grab[1] - 8 * step);
    await page.waitForTimeout(30);
  }
  await page.mouse.up();
  const afterDrag = await page.evaluate(() => window.skinlab.framesRendered());
  console.log(`# frames: ${idleEnd - idleStart} while idle for 2 s, ${afterDrag - idleEnd} during an 8-step drag`);
  assert.ok(afterDrag >= idleEnd + 4, 'frames are drawn during the drag');

  // Scrolled out of sight, a change waits: it is drawn once the view is back.
  await page.evaluate(() => {
    const spacer = document.createElement('div');
    spacer.style.height = '3000px';
    document.body.prepend(spacer);
    document.body.style.height = 'auto';
    window.scrollTo(0, 0);
  });
  await page.waitForTimeout(300);
  const hidden = await page.evaluate(() => window.skinlab.framesRendered());
  await page.evaluate(() => window.skinlab.lab.setBonePose(1, { rotation: [0, 0, 0.2, 0.98] }));
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.skinlab.framesRendered()), hidden, 'nothing is drawn out of sight');
  await page.evaluate(() => document.querySelector('#view').scrollIntoView());
  await page.waitForFunction((n) => window.skinlab.framesRendered() > n, hidden);
  await page.close();
});

/** The share of the still's pixels that differ from its background (the last frame, not a blank). */
const stillCoverage = (page) => page.evaluate(() => {
  const still = document.querySelector('#still-image');
  const { data } = still.getContext('2d').getImageData(0, 0, still.width, still.height);
  let drawn = 0;
  for (let k = 0; k < data.length; k += 4) {
    if (Math.abs(data[k] - data[0]) + Math.abs(data[k + 1] - data[1]) + Math.abs(data[k + 2] - data[2]) > 30) drawn += 1;
  }
  return drawn / (data.length / 4);
});

/** What the viewer shows and how: camera, selection, tool, layers, colouring, GPU switches. */
const viewState = (page) => page.evaluate(() => {
  const v = window.skinlab.viewer;
  return {
    camera: Array.from(v.cameraState()),
    method: v.method(),
    tool: v.tool(),
    weightView: v.weightView(),
    bone: v.selectedBone(),
    vertex: v.selectedVertex(),
    frames: v.overlay('ownFrames'),
    wireframe: v.overlay('wireframe'),
    paletteFormat: v.paletteFormat(),
  };
});

test('a lost context is restored with pose, weights and the whole view intact', async () => {
  const { page, errors } = await openPage(browser, pageUrl('?example=two-bone-smooth'));
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => {
    const s = window.skinlab;
    s.lab.setBonePose(1, { rotation: [0, 0, 0.5, 0.8660254] });
    s.lab.setInfluences(4, [[0, 0.3], [1, 0.7]]);
    s.setMethod('dqs');
    s.selectBone(1);
    s.selectVertex(4);
    s.setOverlay('ownFrames', true);
    s.setOverlay('wireframe', false);
    s.setWeightView('weights');
    s.viewer.setCameraState(new Float32Array([0.3, 0.2, 0, 0.1, 0.2, 6]));
  }));
  const viewBefore = await viewState(page);
  await page.waitForTimeout(700); // let the still of the last frame be taken
  const before = await page.evaluate(() => window.skinlab.lab.sceneJson());
  await page.evaluate(() => {
    window.loseContextExtension = document.querySelector('#view').getContext('webgl2').getExtension('WEBGL_lose_context');
    window.loseContextExtension.loseContext();
  });
  await page.waitForFunction(() => window.skinlab.contextLost());
  assert.equal(await page.locator('#still').isVisible(), true, 'the last frame and a resume prompt show');
  assert.ok((await stillCoverage(page)) > 0.01, 'the still shows the last frame');
  await screenshot(page, 'context-lost');
  await page.evaluate(() => window.loseContextExtension.restoreContext());
  await page.waitForFunction(() => !window.skinlab.contextLost());
  await nextFrame(page);
  assert.equal(await page.evaluate(() => window.skinlab.lab.sceneJson()), before);
  assert.deepEqual(await viewState(page), viewBefore, 'the new surface shows what the old one did');
  const { worst } = await gpuVersusCpu(page, 'lbs');
  assert.ok(worst < 1e-4, `the restored GPU state matches: ${worst}`);

  // A context that stays lost (as when a deck holds too many) resumes on a
  // fresh canvas after a click.
  await page.evaluate(() => document.querySelector('#view').getContext('webgl2').getExtension('WEBGL_lose_context').loseContext());
  await page.waitForFunction(() => window.skinlab.contextLost());
  await page.locator('#resume').click();
  await page.waitForFunction(() => !window.skinlab.contextLost());
  await nextFrame(page);
  assert.equal(await page.evaluate(() => window.skinlab.lab.sceneJson()), before);
  assert.deepEqual(await viewState(page), viewBefore, 'and so does a fresh canvas');
  assert.ok((await covered(page)) > 0.02, 'the resumed canvas draws the mesh');
  assert.deepEqual(errors.filter((e) => !/CONTEXT_LOST_WEBGL/.test(e)), []);
  await page.close();
});

test('when the browser runs out of contexts, the instance shows its last frame and resumes on a click', async () => {
  const { page, errors } = await openPage(browser, pageUrl('?example=y-junction'));
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.lab.setBonePose(1, { rotation: [0, 0, 0.3, 0.954] })));
  await page.waitForTimeout(700);
  const before = await page.evaluate(() => window.skinlab.lab.sceneJson());
  // Other WebGL users on the page (other slides, say) take contexts until
  // the browser reclaims the oldest: this instance's.
  const taken = await page.evaluate(async () => {
    window.otherContexts = [];
    for (let k = 0; k < 64 && !window.skinlab.contextLost(); k++) {
      window.otherContexts.push(document.createElement('canvas').getContext('webgl2'));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return window.otherContexts.length;
  });
  assert.ok(await page.evaluate(() => window.skinlab.contextLost()), `lost after ${taken} other contexts`);
  assert.equal(await page.locator('#still').isVisible(), true);
  assert.ok((await stillCoverage(page)) > 0.01, 'the still shows the last frame');
  await screenshot(page, 'out-of-contexts');
  await page.locator('#resume').click();
  await page.waitForFunction(() => !window.skinlab.contextLost());
  await nextFrame(page);
  assert.equal(await page.evaluate(() => window.skinlab.lab.sceneJson()), before);
  assert.ok((await covered(page)) > 0.02, 'drawing again');
  assert.deepEqual(errors.filter((e) => !/CONTEXT_LOST_WEBGL/.test(e)), []);
  await page.close();
});

test('a malformed link and a bad file each say so and change nothing', async () => {
  const warnings = [];
  const { page, errors } = await openPage(browser, pageUrl('?example=nope&method=xyz&colour=red#s=not-base64!'));
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  await waitForSkinlab(page);
  const notice = page.locator('#notice');
  await notice.waitFor({ state: 'visible' });
  assert.match(await notice.textContent(), /could not be restored: the link is damaged/);
  const fresh = await page.evaluate(() => window.skinlab.Lab.example('two-bone').sceneJson());
  assert.equal(await page.evaluate(() => window.skinlab.lab.sceneJson()), fresh, 'the default scene, untouched');
  assert.equal(await page.evaluate(() => window.skinlab.method()), 'lbs');

  await page.evaluate(() => window.skinlab.lab.setBonePose(1, { rotation: [0, 0, 0.2, 0.98] }));
  const before = await page.evaluate(() => window.skinlab.lab.sceneJson());
  await page.locator('#import-file').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"bones": [{"parent": 3, "origin": [0,0,0], "orientation": [0,0,0,1], "length": 1}], "mesh": {"positions": []}, "influences": []}'),
  });
  await page.waitForFunction(() => document.querySelector('#notice').textContent.includes('broken.json'));
  assert.match(await notice.textContent(), /Could not load broken\.json: .*bones\[0\]\.parent: bone 3 does not exist.*unchanged/);
  assert.equal(await page.evaluate(() => window.skinlab.lab.sceneJson()), before);

  // Saving gives the scene as it is; the PNG is a PNG.
  const [saved] = await Promise.all([page.waitForEvent('download'), page.locator('#export-json').click()]);
  const savedText = await (await import('node:fs/promises')).readFile(await saved.path(), 'utf8');
  assert.equal(savedText, before);
  const [png] = await Promise.all([page.waitForEvent('download'), page.locator('#export-png').click()]);
  const pngBytes = await (await import('node:fs/promises')).readFile(await png.path());
  assert.deepEqual([...pngBytes.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG file');
  assert.match(png.suggestedFilename(), /^skinlab-two-bone\.png$/);

  // A good file loads.
  const scene = await page.evaluate(() => window.skinlab.Lab.example('y-junction').sceneJson());
  await page.locator('#import-file').setInputFiles({ name: 'good.json', mimeType: 'application/json', buffer: Buffer.from(scene) });
  await page.waitForFunction(() => window.skinlab.lab.boneCount() === 3);
  assert.deepEqual(errors, []);
  await page.close();
});

test('unknown URL parameters only warn', async () => {
  const { page, errors } = await openPage(browser, pageUrl('?example=tube&method=dqs&view=3d&overlays=bones,ghost,sparkles&ui=wide&zoom=2'));
  const warnings = [];
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  await page.reload();
  await waitForSkinlab(page);
  assert.equal(await page.evaluate(() => window.skinlab.example), 'tube');
  assert.equal(await page.evaluate(() => window.skinlab.method()), 'dqs');
  assert.equal(await page.evaluate(() => window.skinlab.viewer.overlay('ghost')), true);
  assert.equal(await page.evaluate(() => window.skinlab.viewer.overlay('mesh')), false);
  assert.ok(warnings.some((w) => w.includes("'sparkles'")), warnings.join('\n'));
  assert.ok(warnings.some((w) => w.includes('ui=wide')), warnings.join('\n'));
  assert.ok(warnings.some((w) => w.includes("'zoom'")), warnings.join('\n'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('screenshots: ui=none and lang=de', async () => {
  const { page: bare } = await openPage(browser, pageUrl('?example=y-junction&ui=none'));
  await waitForSkinlab(bare);
  await nextFrame(bare, () => bare.evaluate(() => window.skinlab.lab.setBonePose(2, { rotation: [0, 0, -0.3, 0.954] })));
  assert.equal(await bare.locator('.toolbar').isVisible(), false);
  assert.equal(await bare.locator('.panel').isVisible(), false);
  await screenshot(bare, 'ui-none');
  await bare.close();
  const { page: german } = await openPage(browser, pageUrl('?example=y-junction-unweighted&lang=de'));
  await waitForSkinlab(german);
  await nextFrame(german, () => german.evaluate(() => {
    window.skinlab.lab.setBonePose(2, { rotation: [0, 0, -0.3, 0.954] });
    window.skinlab.selectBone(2);
  }));
  assert.match(await german.locator('#caption').textContent(), /Scheitelpunkt/);
  assert.equal(await german.locator('#reset').textContent(), 'Zurücksetzen');
  await screenshot(german, 'lang-de');
  await german.close();
});

test('a link with a valid pose and a bad camera is restored not at all', async () => {
  const state = { v: 1, e: 'two-bone', p: [[1, 0, 0, 0.2, 0.98, 0, 0, 0, 1, 1, 1]], c: [0, 0, 0, 0, 0, -1] };
  const hash = `#s=${Buffer.from(JSON.stringify(state)).toString('base64url')}`;
  const { page, errors } = await openPage(browser, pageUrl(`?example=two-bone${hash}`));
  await waitForSkinlab(page);
  const notice = page.locator('#notice');
  await notice.waitFor({ state: 'visible' });
  assert.match(await notice.textContent(), /could not be restored: the camera .*Showing the default instead/);
  const fresh = await page.evaluate(() => window.skinlab.Lab.example('two-bone').sceneJson());
  assert.equal(await page.evaluate(() => window.skinlab.lab.sceneJson()), fresh, 'the pose was not applied either');
  assert.deepEqual(errors, []);
  await page.close();
});

test('weight edits in a link: as JSON (older links) and as bytes; damaged bytes change nothing', async () => {
  const pairs = [[0, 0.25], [1, 0.75]];
  // An older link: the edits as JSON numbers inside the state.
  const old = { v: 1, e: 'two-bone', w: [[3, pairs]] };
  const oldHash = `#s=${Buffer.from(JSON.stringify(old)).toString('base64url')}`;
  const { page, errors } = await openPage(browser, pageUrl(`?example=two-bone${oldHash}`));
  await waitForSkinlab(page);
  const read = () => page.evaluate(() => window.skinlab.lab.influences(3));
  assert.deepEqual(await read(), [[1, 0.75], [0, 0.25]], 'the older link sets the weights');
  // The page writes the same edit as bytes after a dot; opened again, the
  // bytes give the same weights.
  const link = await page.evaluate(() => window.skinlab.shareLink());
  assert.match(link, /#s=[\w-]+\.[\w-]+$/, 'edits travel after a dot');
  await page.goto('about:blank');
  await page.goto(link);
  await waitForSkinlab(page);
  assert.deepEqual(await read(), [[1, 0.75], [0, 0.25]], 'the bytes set the same weights');
  // Cut short: refused by name, the example shown as it opens.
  const cut = link.slice(0, -3);
  await page.goto('about:blank');
  await page.goto(cut);
  await waitForSkinlab(page);
  const notice = page.locator('#notice');
  await notice.waitFor({ state: 'visible' });
  assert.match(await notice.textContent(), /could not be restored: .*weight edits/);
  const fresh = await page.evaluate(() => window.skinlab.Lab.example('two-bone').influences(3));
  assert.deepEqual(await read(), fresh, 'nothing of the damaged link was applied');
  assert.deepEqual(errors, []);
  await page.close();
});
