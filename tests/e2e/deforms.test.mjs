// Bones that deform: the Fox's root at the floor (and the nodes above it)
// deform nothing, as its file gives them no weight. In the page the Bones
// list shows a "deforms" box per bone; bone heat leaves the skin off them;
// the brush on such a bone says so and offers to let it deform; the flag
// is one undo step and travels in scene JSON and the share link. A file
// whose copies of a vertex hold different weights is told so on loading.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { dragAcross, openPage, useBrowser, waitForSkinlab, nextFrame } from './browser.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

/** The bone named `name` in the page's lab. */
const boneNamed = (page, name) => page.evaluate((wanted) => window.skinlab.lab.boneNames().indexOf(wanted), name);

/** Skinned vertices whose largest weight is on a bone that deforms nothing. */
const largestOnStillBones = (page) => page.evaluate(() => {
  const { lab } = window.skinlab;
  let count = 0;
  for (let v = 0; v < lab.vertexCount(); v++) {
    const pairs = lab.influences(v);
    if (pairs.length && !lab.boneDeforms(pairs[0][0])) count++;
  }
  return count;
});

test('the Fox in the Weights mode: its root deforms nothing, bone heat leaves it out, the brush on it says so and offers to let it deform', async () => {
  const { page, errors } = await openAt('?example=fox&mode=weights&autosave=0&lang=en');
  await waitForSkinlab(page);
  await page.waitForFunction(() => window.skinlab.example === 'fox');
  const root = await boneNamed(page, 'b_Root_00');
  const row = page.locator(`#bone-list li[data-bone="${root}"]`);
  const box = row.locator('.deforms input');
  assert.equal(await box.isVisible(), true, 'the box shows in the Weights mode');
  assert.equal(await box.isChecked(), false, 'the root at the floor deforms nothing');
  assert.equal(await box.getAttribute('aria-label'), 'Deforms the skin: b_Root_00');
  assert.equal(await row.locator('.deforms input').count(), 1);
  const spine = await boneNamed(page, 'b_Spine01_02');
  assert.equal(await page.locator(`#bone-list li[data-bone="${spine}"] .deforms input`).isChecked(), true);

  // Bone heat: every vertex's largest weight on a bone that deforms.
  await page.evaluate(() => window.skinlab.autoWeights('heat'));
  await nextFrame(page);
  assert.equal(await largestOnStillBones(page), 0);
  assert.match(await page.locator('#notice').textContent(), /Bone heat.* (\d+) vertices lie nearest to bones that deform nothing/);
  // The vertices counted are ringed where they are.
  const counted = Number(/(\d+) vertices lie nearest/.exec(await page.locator('#notice').textContent())[1]);
  const marked = await page.evaluate(() => window.skinlab.markedVertices());
  assert.ok(marked.length >= counted && counted > 0, `${marked.length} marked, ${counted} counted`);
  assert.equal(await page.locator('#vertex-marks circle').count(), marked.length);
  const [x, y] = await page.evaluate((v) => window.skinlab.vertexScreenPoint(v), marked[0]);
  const ring = await page.locator('#vertex-marks circle').first().evaluate((c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]);
  assert.ok(Math.hypot(ring[0] - x, ring[1] - y) < 1, 'the ring sits on its vertex');

  // The brush on the root: nothing painted, a word said, an offer made.
  const before = await page.evaluate(() => window.skinlab.lab.sceneJson());
  await nextFrame(page, () => page.evaluate((bone) => {
    window.skinlab.setTool('paint');
    window.skinlab.selectBone(bone);
    window.skinlab.setBrush({ radius: 80, strength: 1, mode: 'add' });
  }, root));
  assert.equal(await page.locator('#deform-offer').isVisible(), true, 'the offer shows for the selected bone');
  assert.match(await page.locator('#deform-offer-text').textContent(), /b_Root_00 deforms nothing/);
  // On the skin, away from every bone's glyph (a press there picks the bone).
  const onSkin = await page.evaluate(() => {
    const { lab } = window.skinlab;
    const bones = Array.from({ length: lab.boneCount() }, (_, b) => window.skinlab.boneScreenPoint(b));
    let best = null;
    for (let v = 0; v < lab.vertexCount(); v += 7) {
      const [x, y] = window.skinlab.vertexScreenPoint(v);
      const clear = Math.min(...bones.map(([bx, by]) => Math.hypot(bx - x, by - y)));
      if (!best || clear > best.clear) best = { clear, at: [x, y] };
    }
    return best.at;
  });
  await dragAcross(page, onSkin);
  await nextFrame(page);
  assert.equal(await page.evaluate(() => window.skinlab.lab.sceneJson()), before, 'the stroke painted nothing');
  assert.match(await page.locator('#notice').textContent(), /b_Root_00 deforms nothing/);

  // "Let it deform": the flag on, the box ticked, said; Ctrl+Z takes it back.
  await nextFrame(page, () => page.locator('#deform-on').click());
  await nextFrame(page);
  assert.equal(await page.evaluate((bone) => window.skinlab.lab.boneDeforms(bone), root), true);
  assert.equal(await box.isChecked(), true);
  assert.equal(await page.locator('#deform-offer').isVisible(), false);
  assert.match(await page.locator('#notice').textContent(), /b_Root_00 deforms:/);
  await page.locator('#view').focus();
  await nextFrame(page, () => page.keyboard.press('Control+z'));
  await nextFrame(page);
  assert.equal(await page.evaluate((bone) => window.skinlab.lab.boneDeforms(bone), root), false, 'undone');
  assert.equal(await box.isChecked(), false, 'the box follows the undo');
  assert.equal(await page.locator('#notice').isVisible(), false, 'the undo takes the notice of what it undid with it');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bone unticked hands its skin up, is kept in scene JSON and in the share link', async () => {
  const { page: a, errors } = await openAt('?example=fox&mode=weights&autosave=0&lang=de');
  await waitForSkinlab(a);
  await a.waitForFunction(() => window.skinlab.example === 'fox');
  const head = await boneNamed(a, 'b_Head_05');
  const box = a.locator(`#bone-list li[data-bone="${head}"] .deforms input`);
  assert.equal(await box.isChecked(), true);
  await nextFrame(a, () => box.uncheck());
  await nextFrame(a);
  assert.equal(await a.evaluate((bone) => window.skinlab.lab.boneDeforms(bone), head), false);
  assert.match(await a.locator('#notice').textContent(), /b_Head_05 verformt jetzt nichts: sein Gewicht an \d+ Vertices/);
  const weightOnHead = await a.evaluate((bone) => {
    const { lab } = window.skinlab;
    let count = 0;
    for (let v = 0; v < lab.vertexCount(); v++) if (lab.influences(v).some(([b]) => b === bone)) count++;
    return count;
  }, head);
  assert.equal(weightOnHead, 0, 'no vertex keeps weight on the head');
  const bone = JSON.parse(await a.evaluate(() => window.skinlab.lab.sceneJson())).bones[head];
  assert.equal(bone.deforms, false, 'scene JSON writes the flag');
  const link = await a.evaluate(() => window.skinlab.shareLink());

  const { page: b } = await openPage(fixture.browser, link);
  await waitForSkinlab(b);
  await b.waitForFunction(() => window.skinlab.example === 'fox');
  assert.equal(await b.evaluate((bone) => window.skinlab.lab.boneDeforms(bone), head), false, 'the link keeps the flag');
  assert.equal(await b.evaluate(() => window.skinlab.lab.sceneJson()), await a.evaluate(() => window.skinlab.lab.sceneJson()));
  assert.deepEqual(errors, []);
  await Promise.all([a.close(), b.close()]);
});

test('a scene whose copies of a vertex hold different weights says so when it opens; the Fox as it comes does not', async () => {
  const { page, errors } = await openAt('?example=fox&autosave=0&lang=en');
  await waitForSkinlab(page);
  await page.waitForFunction(() => window.skinlab.example === 'fox');
  const whole = await page.evaluate(() => window.skinlab.lab.sceneJson());
  await page.locator('#import-file').setInputFiles({ name: 'fox.json', mimeType: 'application/json', buffer: Buffer.from(whole) });
  await page.waitForFunction(() => /Loaded fox\.json/.test(document.querySelector('#notice')?.textContent ?? ''));
  assert.doesNotMatch(await page.locator('#notice').textContent(), /Places/, 'the file keeps its copies together');
  // Two vertices at one place, typed apart.
  const apart = await page.evaluate(() => {
    const doc = JSON.parse(window.skinlab.lab.sceneJson());
    const p = doc.mesh.positions;
    const seen = new Map();
    for (let v = 0; v < p.length / 3; v++) {
      const key = `${p[3 * v]},${p[3 * v + 1]},${p[3 * v + 2]}`;
      if (seen.has(key)) {
        const other = doc.influences[seen.get(key)][0][0];
        doc.influences[v] = [[other === 3 ? 4 : 3, 1]];
        return JSON.stringify(doc);
      }
      seen.set(key, v);
    }
    return null;
  });
  await page.locator('#import-file').setInputFiles({ name: 'torn.json', mimeType: 'application/json', buffer: Buffer.from(apart) });
  await page.waitForFunction(() => /Loaded torn\.json/.test(document.querySelector('#notice')?.textContent ?? ''));
  assert.match(await page.locator('#notice').textContent(), /Places where the copies of a vertex .* hold different weights: 1;/);
  assert.deepEqual(errors, []);
  await page.close();
});
