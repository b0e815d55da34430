// The Morph mode in the page: a slider changes the drawn face, the base
// weight shown is 1 − Σ, and the GPU's morph-then-skin (offsets read by
// gl_VertexID from a float texture) equals the CPU by transform feedback.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  openPage, screenshot, useBrowser, waitForSkinlab, nextFrame, gpuVersusCpu,
} from './browser.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

/** The canvas' pixels, kept in the page under `name` for `changedBytes`. */
const keepPicture = (page, name) => page.evaluate((key) => {
  window[key] = window.testCanvasRgba().data;
}, name);

/** Bytes that differ between two kept pictures. */
const changedBytes = (page, a, b) => page.evaluate(([x, y]) => {
  let n = 0;
  for (let k = 0; k < window[x].length; k++) if (window[x][k] !== window[y][k]) n += 1;
  return n;
}, [a, b]);

test('moving a slider changes the drawn face, and the base weight is 1 − Σ', async () => {
  const { page, errors } = await openAt('?example=face&mode=morph');
  await waitForSkinlab(page);
  assert.deepEqual(await page.evaluate(() => window.skinlab.lab.morphNames()), ['A', 'O', 'M', 'F', 'smile', 'frown', 'E', 'I', 'U', 'brows up']);
  await keepPicture(page, 'before');
  const slider = page.locator('#morph-sliders input[data-morph="0"]');
  await nextFrame(page, () => slider.fill('0.9'));
  await keepPicture(page, 'after');
  const changed = await changedBytes(page, 'before', 'after');
  console.log(`# the "A" slider at 0.9 changed ${changed} pixel bytes`);
  assert.ok(changed > 200, 'the face changed');
  assert.equal(await page.evaluate(() => window.skinlab.lab.morphWeights()[0]), 0.8999999761581421);
  await nextFrame(page, () => page.locator('#morph-sliders input[data-morph="4"]').fill('0.6'));
  assert.equal(await page.locator('#morph-base').textContent(), 'base weight 1 − Σ mₖ = 1 − 1.50 = -0.50');
  assert.equal(await page.locator('#morph-extrapolation').isVisible(), true, 'past a sum of 1 the page explains extrapolation');
  await screenshot(page, 'morph-face');
  // One undo per slider drag.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.undo()));
  const restored = Array.from(await page.evaluate(() => window.skinlab.lab.morphWeights())).map((w) => Number(w.toFixed(2)));
  assert.deepEqual(restored, restored.map((_, k) => (k === 0 ? 0.9 : 0)));
  assert.deepEqual(errors, []);
  await page.close();
});

test('GPU morph-then-skin equals the CPU for random weights with a posed jaw, LBS and DQS', async () => {
  const { page, errors } = await openAt('?example=face&mode=morph');
  await waitForSkinlab(page);
  let seed = 7;
  const random = () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
  for (let trial = 0; trial < 4; trial++) {
    const count = await page.evaluate(() => window.skinlab.lab.morphNames().length);
    const weights = Array.from({ length: count }, () => (random() < 0.3 ? 0 : 1.4 * random() - 0.2));
    const angle = 0.6 * random();
    await nextFrame(page, () => page.evaluate(({ weights, angle }) => {
      window.skinlab.lab.setMorphWeights(weights);
      window.skinlab.lab.setBonePose(1, { rotation: [Math.sin(angle / 2), 0, 0, Math.cos(angle / 2)], translation: [0, 0.1, 0.05] });
      window.skinlab.lab.setBonePose(0, { rotation: [0, 0, Math.sin(angle / 4), Math.cos(angle / 4)] });
    }, { weights, angle }));
    for (const method of ['lbs', 'dqs']) {
      const { worst, normals, count } = await gpuVersusCpu(page, method);
      console.log(`# trial ${trial} ${method}: ${count} vertices, |GPU − CPU| ≤ ${worst.toExponential(1)} (normals ${normals.toExponential(1)})`);
      assert.ok(worst < 1e-4, `${method}: ${worst}`);
      assert.ok(normals < 1e-4, `${method} normals: ${normals}`);
    }
  }
  // And the morph really moved something: the weights matter on the GPU.
  const moved = await page.evaluate(() => {
    const withMorph = Array.from(window.skinlab.gpuSkinnedPositions('lbs'));
    window.skinlab.lab.setMorphWeights(window.skinlab.lab.morphNames().map(() => 0));
    const without = window.skinlab.gpuSkinnedPositions('lbs');
    return withMorph.reduce((m, v, k) => Math.max(m, Math.abs(v - without[k])), 0);
  });
  assert.ok(moved > 0.02, `the GPU morphs (${moved})`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('100 morph targets on 100,002 vertices (past MAX_TEXTURE_SIZE all at once) morph on the GPU as on the CPU', async () => {
  const { page, errors } = await openAt('?example=two-bone&mode=morph');
  await waitForSkinlab(page);
  // One offset accessor, zeros with three sparse values, shared by all 100
  // targets; the mesh hangs under an animated node (a rigid mesh).
  const vertices = 100_002; // a whole number of triangles
  const sparseIndices = new Uint32Array([0, 50_000, 99_999]);
  const sparseValues = new Float32Array([0, 1, 0, 0.5, 0.5, 0, 0, 0, 2]);
  const keyTime = new Float32Array([0]);
  const keyValue = new Float32Array([0, 0, 0]);
  const bytes = Buffer.concat([sparseIndices, sparseValues, keyTime, keyValue].map((a) => Buffer.from(a.buffer)));
  const doc = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ children: [1] }, { mesh: 0 }],
    meshes: [{
      primitives: [{ attributes: { POSITION: 0 }, targets: Array.from({ length: 100 }, () => ({ POSITION: 1 })) }],
      weights: new Array(100).fill(0),
    }],
    buffers: [{ byteLength: bytes.length, uri: `data:application/octet-stream;base64,${bytes.toString('base64')}` }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: 12 },
      { buffer: 0, byteOffset: 12, byteLength: 36 },
      { buffer: 0, byteOffset: 48, byteLength: 4 },
      { buffer: 0, byteOffset: 52, byteLength: 12 },
    ],
    accessors: [
      { componentType: 5126, count: vertices, type: 'VEC3', min: [0, 0, 0], max: [0, 0, 0] },
      {
        componentType: 5126, count: vertices, type: 'VEC3',
        sparse: { count: 3, indices: { bufferView: 0, componentType: 5125 }, values: { bufferView: 1 } },
      },
      { bufferView: 2, componentType: 5126, count: 1, type: 'SCALAR', min: [0], max: [0] },
      { bufferView: 3, componentType: 5126, count: 1, type: 'VEC3' },
    ],
    animations: [{ samplers: [{ input: 2, output: 3 }], channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }] }],
  };
  await page.locator('#import-file').setInputFiles({
    name: 'many-targets.gltf', mimeType: 'model/gltf+json', buffer: Buffer.from(JSON.stringify(doc)),
  });
  await page.waitForFunction(() => window.skinlab.lab.morphNames().length === 100, null, { timeout: 60_000 });
  const result = await page.evaluate(async () => {
    const s = window.skinlab;
    const weights = new Array(100).fill(0);
    weights[3] = 0.5;
    weights[40] = 0.25;
    weights[97] = 1;
    s.lab.setMorphWeights(weights);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const gpu = s.gpuSkinnedPositions('lbs');
    const cpu = s.lab.skinnedPositions('lbs');
    let worst = 0;
    for (let k = 0; k < cpu.length; k++) worst = Math.max(worst, Math.abs(gpu[k] - cpu[k]));
    return { worst, moved: [cpu[1], gpu[1], gpu[3 * 99_999 + 2]], dropped: s.viewer.morphsDropped() };
  });
  console.log(`# 100 targets × 100,002 vertices, 3 weighted: |GPU − CPU| ≤ ${result.worst.toExponential(1)}, vertex 0 y: CPU ${result.moved[0]}, GPU ${result.moved[1]}`);
  assert.ok(result.moved[0] > 1.7, `the CPU morphs vertex 0 by 1.75: ${result.moved[0]}`);
  assert.ok(result.worst < 1e-5, `the GPU draws the morphs too: ${result.worst}`);
  assert.equal(result.dropped, 0, 'all three weighted targets drawn');
  assert.equal(await page.locator('#morph-dropped').isVisible(), false);
  assert.deepEqual(errors, []);
  await page.close();
});

/** A mono 16-bit WAV at `rate`: `bursts` of a 180 Hz tone, each followed by as long a silence. */
function toneBursts(rate = 16000, burst = 0.3, bursts = 3) {
  const count = Math.round(rate * burst * 2 * bursts);
  const data = Buffer.alloc(44 + 2 * count);
  data.write('RIFF', 0);
  data.writeUInt32LE(36 + 2 * count, 4);
  data.write('WAVEfmt ', 8);
  data.writeUInt32LE(16, 16);
  data.writeUInt16LE(1, 20);
  data.writeUInt16LE(1, 22);
  data.writeUInt32LE(rate, 24);
  data.writeUInt32LE(2 * rate, 28);
  data.writeUInt16LE(2, 32);
  data.writeUInt16LE(16, 34);
  data.write('data', 36);
  data.writeUInt32LE(2 * count, 40);
  for (let k = 0; k < count; k++) {
    const time = k / rate;
    const loud = Math.floor(time / burst) % 2 === 0;
    const value = loud ? 0.4 * Math.sin(2 * Math.PI * 180 * time) : 0;
    data.writeInt16LE(Math.round(value * 32767), 44 + 2 * k);
  }
  return data;
}

test('a recording chosen as a file opens the jaw where it is loud and closes it in the silences', async () => {
  const { page, errors } = await openAt('?example=face&mode=morph');
  await waitForSkinlab(page);
  await page.locator('#speech-file').setInputFiles({ name: 'bursts.wav', mimeType: 'audio/wav', buffer: toneBursts() });
  await page.waitForFunction(() => window.skinlab.lab.animationNames().includes('recording'));
  const heard = await page.evaluate(() => {
    const s = window.skinlab;
    const clip = s.lab.animationNames().indexOf('recording');
    s.pauseAnimation?.();
    const jawAt = (time) => {
      s.lab.setAnimationTime(clip, time);
      return s.lab.bonePose(1).translation[1];
    };
    return { loud: [0.15, 0.75, 1.35].map(jawAt), quiet: [0.45, 1.05].map(jawAt), line: document.querySelector('#speech-heard').textContent };
  });
  console.log(`# jaw on the tone ${heard.loud.map((v) => v.toFixed(3))}, in the silence ${heard.quiet.map((v) => v.toFixed(3))}`);
  assert.ok(heard.loud.every((y) => y > 0.1), `open on the tone: ${heard.loud}`);
  assert.ok(heard.quiet.every((y) => y < 0.01), `closed in the silence: ${heard.quiet}`);
  assert.match(heard.line, /bursts\.wav: 1\.80 s/);
  assert.ok((await page.locator('#clip option').allTextContents()).includes('recording'), 'the player under the view lists it');
  assert.deepEqual(errors, []);
  await page.close();
});

test('no text of the Morph panel is cut off at 1280 × 800 or on a phone, in English, German and Chinese', async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    for (const lang of ['en', 'de', 'zh']) {
      const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}?example=face&mode=morph&lang=${lang}`);
      await page.setViewportSize({ width, height });
      await waitForSkinlab(page);
      await nextFrame(page);
      const cut = await page.evaluate(() => {
        const panel = document.querySelector('#mode-morph');
        const right = panel.getBoundingClientRect().right;
        return [...panel.querySelectorAll('output, span, button, label')]
          .filter((element) => element.offsetParent !== null)
          .filter((element) => element.getBoundingClientRect().right > right + 0.5 || element.scrollWidth > element.clientWidth + 1)
          .map((element) => `${element.tagName} "${element.textContent.trim().slice(0, 30)}"`);
      });
      assert.deepEqual(cut, [], `${width}×${height} ${lang}`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  }
});
