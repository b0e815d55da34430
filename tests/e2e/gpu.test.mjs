// The GPU mode (the engine note): every palette format, as uniforms and as a
// texture, skins on the GPU exactly as its CPU reference says (read back by
// transform feedback); the formats without room for scale show their error
// on a stretched bone; the budget table has the engine note's "about 80" bones for
// 4x3 matrices at 256 vectors.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, useBrowser, waitForSkinlab, nextFrame } from './browser.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

test('each palette format, as uniforms and as a texture, equals its CPU reference on the GPU', async () => {
  const { page, errors } = await openAt('?example=arm&mode=gpu');
  await waitForSkinlab(page);
  assert.equal(await page.evaluate(() => window.skinlab.mode()), 'gpu');
  await nextFrame(page, () => page.evaluate(() => {
    const s = window.skinlab;
    s.lab.setBonePose(1, { rotation: [0, 0, Math.sin(0.4), Math.cos(0.4)], translation: [0, 0, 0], scale: [1, 1.5, 1] });
    s.lab.setBonePose(2, { rotation: [0, Math.sin(0.3), 0, Math.cos(0.3)] });
  }));
  for (const texture of [false, true]) {
    for (const format of ['mat4', 'mat4x3', 'quat-translation', 'dual-quat']) {
      await page.locator('#gpu-texture').setChecked(texture);
      await page.locator('#gpu-format').selectOption(format);
      await nextFrame(page);
      const { worst, storage, error } = await page.evaluate((f) => {
        const s = window.skinlab;
        const gpu = s.viewer.gpuSkinnedPositions(s.lab, s.method());
        const cpu = s.lab.formatPositions(f);
        let most = 0;
        for (let k = 0; k < cpu.length; k++) most = Math.max(most, Math.abs(gpu[k] - cpu[k]));
        return { worst: most, storage: s.viewer.paletteStorage(s.lab), error: s.lab.formatError(f) };
      }, format);
      console.log(`# ${format} as ${storage}: |GPU − CPU| ≤ ${worst.toExponential(1)}; distance from the full matrices ${error.toFixed(3)}`);
      assert.equal(storage, texture ? 'texture' : 'uniforms');
      assert.ok(worst < 1e-4, `${format} ${storage}: ${worst}`);
      if (format === 'quat-translation' || format === 'dual-quat') assert.ok(error > 0.1, `${format} loses the stretch`);
      else assert.ok(error < 1e-4, `${format} keeps it`);
    }
  }
  await screenshot(page, 'gpu-dual-quat-stretched');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the budget table: bones per draw for each format at 256 vectors, and the chain needing several draws', async () => {
  const { page, errors } = await openAt('?example=chain&mode=gpu');
  await waitForSkinlab(page);
  const figures = await page.evaluate(() => window.skinlab.gpuFigures());
  console.log(`# at 256 vectors: ${figures.map((f) => `${f.format} ${f.bonesPerDraw} bones/draw, ${f.draws} draws, ${f.bytesPerFrame} bytes`).join('; ')}`);
  assert.equal(figures.find((f) => f.format === 'mat4x3').bonesPerDraw, 80, 'the engine note: about 80 bones of 4x3');
  assert.ok(figures.every((f) => f.draws >= 3), 'the 300-bone chain needs several draws');
  const rows = await page.locator('#gpu-figures tr').count();
  assert.equal(rows, 5, 'a header and a row per format');
  await screenshot(page, 'gpu-chain-table');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the influence cap, 8-bit weights and uint8 joint indices: the GPU follows the CPU, and the error is shown as a heat map', async () => {
  const { page, errors } = await openAt('?example=two-bone-smooth&mode=gpu');
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.lab.setBonePose(1, { rotation: [0, 0, Math.sin(0.6), Math.cos(0.6)] })));
  const gpuVersusCpu = () => page.evaluate(() => {
    const s = window.skinlab;
    const gpu = s.viewer.gpuSkinnedPositions(s.lab, 'lbs');
    const cpu = s.lab.skinnedPositions('lbs');
    let worst = 0;
    for (let k = 0; k < cpu.length; k++) worst = Math.max(worst, Math.abs(gpu[k] - cpu[k]));
    return worst;
  });
  const before = await page.evaluate(() => Array.from(window.skinlab.lab.skinnedPositions('lbs')));
  await page.locator('#gpu-cap').fill('1');
  await page.locator('#gpu-joint-bytes').check();
  await nextFrame(page);
  assert.equal(await page.evaluate(() => window.skinlab.lab.influenceCap()), 1);
  const after = await page.evaluate(() => Array.from(window.skinlab.lab.skinnedPositions('lbs')));
  assert.ok(after.some((v, k) => Math.abs(v - before[k]) > 0.05), 'one influence a vertex moves the blended ones');
  const capped = await gpuVersusCpu();
  console.log(`# one influence, uint8 indices: |GPU − CPU| ≤ ${capped.toExponential(1)}`);
  assert.ok(capped < 1e-4);
  const text = await page.locator('#gpu-vertex-error').textContent();
  console.log(`# ${text}`);
  assert.match(text, /vertices moved: [1-9]\d* \/ \d+, at most \d/);
  await page.locator('#gpu-eight-bit').check();
  await page.locator('#gpu-heat').check();
  await nextFrame(page);
  assert.equal(await page.evaluate(() => window.skinlab.viewer.weightView()), 'error');
  assert.ok((await gpuVersusCpu()) < 1e-4, '8-bit weights too');
  await screenshot(page, 'gpu-influence-error');
  await nextFrame(page, () => page.evaluate(() => window.skinlab.setMode('skin')));
  assert.equal(await page.evaluate(() => window.skinlab.lab.influenceCap()), 4, 'leaving the mode lifts the cap');
  assert.equal(await page.evaluate(() => window.skinlab.viewer.weightView()), 'skin');
  assert.deepEqual(errors, []);
  await page.close();
});

test('drawn batch by batch within 256 vectors, the chain takes four draw calls and covers the same pixels as one call', async () => {
  const { page, errors } = await openAt('?example=chain&mode=gpu');
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => {
    const s = window.skinlab;
    for (let bone = 0; bone < s.lab.boneCount(); bone += 3) s.lab.setBonePose(bone, { rotation: [0, 0, Math.sin(0.01), Math.cos(0.01)] });
    s.setOverlay('wireframe', false);
    s.setOverlay('dots', false);
    s.setOverlay('bones', false);
    s.setPaletteFormat('mat4x3');
  }));
  const mask = () => page.evaluate(() => {
    const { data } = window.testCanvasRgba();
    const covered = [];
    for (let k = 0; k < data.length; k += 4) covered.push(Math.abs(data[k] - data[0]) + Math.abs(data[k + 1] - data[1]) + Math.abs(data[k + 2] - data[2]) > 24 ? 1 : 0);
    return covered;
  });
  const whole = await mask();
  assert.equal(await page.evaluate(() => window.skinlab.viewer.drawCalls()), 1);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.setBatchDrawing(true)));
  await nextFrame(page);
  const calls = await page.evaluate(() => window.skinlab.viewer.drawCalls());
  const batched = await mask();
  const skin = whole.reduce((a, b) => a + b, 0);
  const differ = whole.reduce((n, v, k) => n + (v !== batched[k] ? 1 : 0), 0);
  console.log(`# chain in batches of 80 bones (4x3 at 256 vectors): ${calls} draw calls; ${differ} of ${skin} covered pixels differ from one call`);
  assert.equal(calls, 4);
  assert.ok(skin > 1000 && differ < 0.02 * skin, `${differ} / ${skin}`);
  assert.match(await page.locator('#gpu-need').textContent(), /draw calls 4/);
  // Read back batch by batch through transform feedback: each batch's
  // vertices skinned with its own sub-palette equal the CPU's whole mesh.
  for (const format of ['mat4x3', 'dual-quat']) {
    await page.locator('#gpu-format').selectOption(format);
    await nextFrame(page);
    const worst = await page.evaluate((f) => {
      const s = window.skinlab;
      const gpu = s.viewer.gpuSkinnedPositions(s.lab, 'lbs');
      const cpu = s.lab.formatPositions(f);
      let most = 0;
      for (let k = 0; k < cpu.length; k++) most = Math.max(most, Math.abs(gpu[k] - cpu[k]));
      return most;
    }, format);
    console.log(`# ${format} in ${await page.evaluate(() => window.skinlab.viewer.drawCalls())} batches: |GPU − CPU| ≤ ${worst.toExponential(1)}`);
    assert.ok(worst < 1e-4, `${format}: ${worst}`);
  }
  await screenshot(page, 'gpu-chain-batches');
  await page.locator('#gpu-format').selectOption('mat4');
  await nextFrame(page);
  await nextFrame(page);
  assert.equal(await page.evaluate(() => window.skinlab.viewer.drawCalls()), 6, 'mat4: 60 bones a draw, six calls');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the 240-bone tail at 256 vectors: every format drawn in batches and as a texture equals its CPU reference; the draw calls follow the budget', async () => {
  const { page, errors } = await openAt('?example=tail&mode=gpu');
  await waitForSkinlab(page);
  assert.equal(await page.evaluate(() => window.skinlab.lab.boneCount()), 240);
  // Half-way through the swish: every vertebra turned a little.
  await nextFrame(page, () => page.evaluate(() => {
    window.restOfTheTail = window.skinlab.lab.formatPositions('mat4');
    window.skinlab.lab.setAnimationTime(0, 0.5);
    window.skinlab.setOverlay('dots', false);
    window.skinlab.setOverlay('wireframe', false);
  }));
  const compare = (format) => page.evaluate((f) => {
    const s = window.skinlab;
    const gpu = s.viewer.gpuSkinnedPositions(s.lab, 'lbs');
    const cpu = s.lab.formatPositions(f);
    let most = 0;
    for (let k = 0; k < cpu.length; k++) most = Math.max(most, Math.abs(gpu[k] - cpu[k]));
    return { worst: most, calls: s.viewer.drawCalls(), storage: s.viewer.paletteStorage(s.lab) };
  }, format);
  const moved = await page.evaluate(() => {
    const s = window.skinlab;
    const posed = s.lab.formatPositions('mat4');
    const rest = window.restOfTheTail;
    let most = 0;
    for (let k = 0; k < rest.length; k++) most = Math.max(most, Math.abs(posed[k] - rest[k]));
    return most;
  });
  assert.ok(moved > 0.2, `the swish moves the tail: ${moved}`);
  // The core's greedy split against the least possible: on a chain whose
  // joints are blended, neighbouring batches share a bone, so m bones a
  // draw cover n bones in no fewer than ⌈(n − 1)/(m − 1)⌉ batches.
  const figures = await page.evaluate(() => window.skinlab.gpuFigures());
  const expectedCalls = Object.fromEntries(figures.map((f) => [f.format, f.draws]));
  for (const f of figures) {
    const least = Math.ceil(239 / (f.bonesPerDraw - 1));
    console.log(`# tail, ${f.format}: ${f.bonesPerDraw} bones a draw, ${f.draws} batches (the least possible: ${least})`);
    assert.equal(f.draws, least, `${f.format}: the greedy split is the least here`);
  }
  for (const format of Object.keys(expectedCalls)) {
    await page.locator('#gpu-format').selectOption(format);
    // As uniforms within the engine note's 256 vectors: several batches.
    await page.locator('#gpu-texture').setChecked(false);
    await page.locator('#gpu-batches').setChecked(true);
    await nextFrame(page);
    await nextFrame(page);
    const batched = await compare(format);
    // As a texture the budget does not bind: one draw.
    await page.locator('#gpu-batches').setChecked(false);
    await page.locator('#gpu-texture').setChecked(true);
    await nextFrame(page);
    const texture = await compare(format);
    console.log(`# tail, ${format}: ${batched.calls} batches as uniforms |GPU − CPU| ≤ ${batched.worst.toExponential(1)}; as ${texture.storage} in ${texture.calls} draw ≤ ${texture.worst.toExponential(1)}`);
    assert.equal(batched.calls, expectedCalls[format], `${format}: draw calls at 256 vectors`);
    assert.ok(batched.worst < 1e-4, `${format} in batches: ${batched.worst}`);
    assert.equal(texture.storage, 'texture');
    assert.equal(texture.calls, 1);
    assert.ok(texture.worst < 1e-4, `${format} as a texture: ${texture.worst}`);
  }
  // A larger budget carries more bones a draw: fewer batches, recoloured.
  await page.locator('#gpu-texture').setChecked(false);
  await page.locator('#gpu-format').selectOption('mat4x3');
  await page.locator('#gpu-batches').setChecked(true);
  await nextFrame(page);
  await screenshot(page, 'gpu-tail-batches-256');
  const colours = () => page.evaluate(() => {
    const { data } = window.testCanvasRgba();
    const seen = new Set();
    for (let k = 0; k < data.length; k += 4) seen.add(`${data[k] >> 4},${data[k + 1] >> 4},${data[k + 2] >> 4}`);
    return seen.size;
  });
  const coloursAt256 = await colours();
  // WebGL2 promises 256; SwiftShader, which these tests run on, offers more.
  assert.ok(await page.evaluate(() => window.skinlab.viewer.maxUniformVectors()) >= 512);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.setGpuBudget(512)));
  await nextFrame(page);
  const calls = await page.evaluate(() => window.skinlab.viewer.drawCalls());
  const coloursAt512 = await colours();
  console.log(`# tail as 4x3 at 512 vectors: ${calls} draw calls (4 at 256); ${coloursAt512} colours on screen (${coloursAt256} at 256)`);
  assert.equal(calls, 2, '165 bones a draw: two batches');
  assert.ok(coloursAt512 < coloursAt256, 'one batch colour fewer');
  assert.match(await page.locator('#gpu-need').textContent(), /draw calls 2/);
  await screenshot(page, 'gpu-tail-batches-512');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a 9,000-bone chain, past MAX_TEXTURE_SIZE as one bone a row, skins on the GPU as on the CPU', async () => {
  const { page, errors } = await openAt('?example=two-bone');
  await waitForSkinlab(page);
  const limits = await page.evaluate(() => {
    const s = window.skinlab;
    const count = 9000;
    const length = 0.01;
    const bones = Array.from({ length: count }, (_, b) => ({
      name: `link ${b + 1}`, parent: b === 0 ? null : b - 1, origin: [0, 0, 0], orientation: [0, 0, 0, 1], length,
    }));
    const positions = [];
    const influences = [];
    for (let b = 0; b < count; b++) {
      positions.push(-0.05, b * length, 0, 0.05, b * length, 0);
      influences.push([[b, 1]], [[b, 1]]);
    }
    const indices = [];
    for (let b = 0; b + 1 < count; b++) indices.push(2 * b, 2 * b + 1, 2 * b + 2, 2 * b + 1, 2 * b + 3, 2 * b + 2);
    s.loadScene({ bones, mesh: { positions, indices }, influences });
    // A gentle curl all along: every bone turned a little.
    for (let b = 0; b < count; b += 1) s.lab.setBonePose(b, { rotation: [0, 0, Math.sin(0.0002), Math.cos(0.0002)] });
    const gl = document.querySelector('#view').getContext('webgl2');
    return { maxTexture: gl.getParameter(gl.MAX_TEXTURE_SIZE), storage: s.viewer.paletteStorage(s.lab) };
  });
  await nextFrame(page);
  assert.equal(limits.storage, 'texture');
  for (const method of ['lbs', 'dqs']) {
    const { worst, count } = await page.evaluate((m) => {
      const gpu = window.skinlab.gpuSkinnedPositions(m);
      const cpu = window.skinlab.lab.skinnedPositions(m);
      let most = 0;
      for (let k = 0; k < cpu.length; k++) most = Math.max(most, Math.abs(gpu[k] - cpu[k]));
      return { worst: most, count: cpu.length / 3 };
    }, method);
    console.log(`# 9,000 bones (MAX_TEXTURE_SIZE ${limits.maxTexture}), ${method}: ${count} vertices, |GPU − CPU| ≤ ${worst.toExponential(1)}`);
    assert.ok(worst < 1e-3, `${method}: the GPU skin follows the CPU's (${worst})`);
  }
  await screenshot(page, 'gpu-9000-bones');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a pose stretched by IK skins on the GPU as on the CPU, LBS and DQS', async () => {
  const { page, errors } = await openAt('?example=arm&mode=ik');
  await waitForSkinlab(page);
  const stretch = await page.evaluate(() => {
    const s = window.skinlab;
    const report = s.lab.solveIk({ tip: 3, chain: 3, target: [3.6, 0.5, 0], method: 'fabrik', stretch: 1.5 });
    return { reached: report.reached, factor: s.lab.boneStretch(3) };
  });
  assert.ok(stretch.reached && stretch.factor > 1.1, JSON.stringify(stretch));
  for (const method of ['lbs', 'dqs']) {
    await nextFrame(page, () => page.evaluate((m) => window.skinlab.setMethod(m), method));
    const worst = await page.evaluate((m) => {
      const s = window.skinlab;
      const gpu = s.viewer.gpuSkinnedPositions(s.lab, m);
      const cpu = s.lab.skinnedPositions(m);
      let most = 0;
      for (let k = 0; k < cpu.length; k++) most = Math.max(most, Math.abs(gpu[k] - cpu[k]));
      return most;
    }, method);
    console.log(`# stretched ×${stretch.factor.toFixed(3)}, ${method}: |GPU − CPU| ≤ ${worst.toExponential(1)}`);
    assert.ok(worst < 1e-4, `${method}: ${worst}`);
  }
  await screenshot(page, 'ik-stretched');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Export SVG: one path per front-facing triangle, labels as text, and the same pixels as the canvas', async () => {
  for (const example of ['two-bone', 'y-junction']) {
    const { page, errors } = await openAt(`?example=${example}`);
    await waitForSkinlab(page);
    // The skin and its wireframe only, bone 2 turned, the three steps' labels on.
    await nextFrame(page, () => page.evaluate(() => {
      const s = window.skinlab;
      for (const name of ['dots', 'bones', 'ownFrames', 'childFrames', 'ghost']) s.setOverlay(name, false);
      s.lab.setBonePose(1, { rotation: [0, 0, Math.sin(0.3), Math.cos(0.3)] });
    }));
    const result = await page.evaluate(async () => {
      const s = window.skinlab;
      const text = s.svgText();
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      const parsed = !doc.querySelector('parsererror');
      const paths = doc.querySelectorAll('g.skin path').length;
      // Rasterise the SVG at the canvas size and count the pixels that are not background, for both.
      const canvas = document.querySelector('#view');
      const [w, h] = [canvas.width, canvas.height];
      const image = new Image();
      image.src = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
      await image.decode();
      const scratch = new OffscreenCanvas(w, h);
      const context = scratch.getContext('2d');
      context.drawImage(image, 0, 0, w, h);
      const covered = (data) => {
        let n = 0;
        for (let k = 0; k < data.length; k += 4) {
          if (Math.abs(data[k] - 244) + Math.abs(data[k + 1] - 245) + Math.abs(data[k + 2] - 247) > 24) n += 1;
        }
        return n / (data.length / 4);
      };
      const fromSvg = covered(context.getImageData(0, 0, w, h).data);
      const shot = new OffscreenCanvas(w, h);
      const shotContext = shot.getContext('2d');
      s.requestRender();
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      shotContext.drawImage(canvas, 0, 0);
      const fromCanvas = covered(shotContext.getImageData(0, 0, w, h).data);
      const triangles = JSON.parse(s.lab.sceneJson()).mesh.indices.length / 3;
      return { parsed, paths, triangles, fromSvg, fromCanvas };
    });
    console.log(`# ${example}: ${result.paths} of ${result.triangles} triangles as paths; covered ${(100 * result.fromSvg).toFixed(2)} % (SVG) vs ${(100 * result.fromCanvas).toFixed(2)} % (canvas)`);
    assert.ok(result.parsed, 'the SVG parses');
    assert.equal(result.paths, result.triangles, 'a flat mesh facing the viewer: every triangle is front facing');
    assert.ok(Math.abs(result.fromSvg - result.fromCanvas) < 0.02 * Math.max(result.fromCanvas, 0.01) + 0.002,
      `coverage ${result.fromSvg} vs ${result.fromCanvas}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('Export SVG carries the three steps\' labels as real text', async () => {
  const { page, errors } = await openAt('?example=two-bone-smooth');
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => {
    const s = window.skinlab;
    s.setOverlay('ghost', true);
    s.selectBone(1);
    s.selectVertex(12);
    s.lab.setBonePose(1, { rotation: [0, 0, Math.sin(0.3), Math.cos(0.3)] });
  }));
  const labels = await page.evaluate(() => {
    const doc = new DOMParser().parseFromString(window.skinlab.svgText(), 'image/svg+xml');
    return [...doc.querySelectorAll('text')].map((n) => n.textContent);
  });
  const shown = await page.evaluate(() => [...document.querySelectorAll('#ghosts text')].map((n) => n.textContent));
  assert.ok(shown.length > 0, 'the page shows labels');
  for (const label of shown) assert.ok(labels.includes(label), `${label} is text in the SVG`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Side by side, the SVG and the PNG keep the comparison: both methods drawn, named and divided', async () => {
  const { page, errors } = await openAt('?example=tube');
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => {
    const s = window.skinlab;
    s.lab.setBonePose(1, { rotation: [0, 1, 0, 0] });
    s.setComparePair('lbs', 'dqs');
  }));
  const result = await page.evaluate(async () => {
    const s = window.skinlab;
    const text = s.svgText();
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const halves = [0, 1].map((k) => doc.querySelectorAll(`g.half-${k} g.skin path`).length);
    const names = [...doc.querySelectorAll('text')].map((n) => n.textContent);
    const canvas = document.querySelector('#view');
    const [w, h] = [canvas.width, canvas.height];
    // Covered pixels of each half: the SVG rasterised and the canvas as drawn.
    const covered = (context) => [0, 1].map((k) => {
      const { data } = context.getImageData(k * (w / 2) + 4, 0, w / 2 - 8, h);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - 244) + Math.abs(data[i + 1] - 245) + Math.abs(data[i + 2] - 247) > 24) n += 1;
      return n / (data.length / 4);
    });
    const image = new Image();
    image.src = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
    await image.decode();
    const scratch = new OffscreenCanvas(w, h).getContext('2d');
    scratch.drawImage(image, 0, 0, w, h);
    s.requestRender();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const shot = new OffscreenCanvas(w, h).getContext('2d');
    shot.drawImage(canvas, 0, 0);
    return { halves, names, fromSvg: covered(scratch), fromCanvas: covered(shot) };
  });
  console.log(`# side by side: ${result.halves.join(' + ')} paths; covered LBS ${(100 * result.fromSvg[0]).toFixed(2)} % / DQS ${(100 * result.fromSvg[1]).toFixed(2)} % (SVG), ${(100 * result.fromCanvas[0]).toFixed(2)} % / ${(100 * result.fromCanvas[1]).toFixed(2)} % (canvas)`);
  assert.ok(result.halves[0] > 0 && result.halves[1] > 0, 'a skin in each half');
  assert.ok(result.names.includes('LBS') && result.names.includes('DQS'), `both named: ${result.names}`);
  for (const k of [0, 1]) {
    assert.ok(Math.abs(result.fromSvg[k] - result.fromCanvas[k]) < 0.1 * result.fromCanvas[k] + 0.003, `half ${k}: ${result.fromSvg[k]} vs ${result.fromCanvas[k]}`);
  }
  assert.ok(result.fromSvg[1] > result.fromSvg[0], 'DQS keeps the volume LBS collapses');
  // The PNG: the divider down the middle and the names drawn on.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-png').click()]);
  const png = await download.createReadStream().then(async (stream) => {
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    return Buffer.concat(chunks);
  });
  const marks = await page.evaluate(async (bytes) => {
    const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }));
    const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
    context.drawImage(bitmap, 0, 0);
    const mid = Math.floor(bitmap.width / 2);
    // Rows whose two middle pixels hold the divider's grey (#aab3bd).
    const column = context.getImageData(mid - 1, 0, 2, bitmap.height).data;
    const grey = (i) => Math.abs(column[i] - 170) + Math.abs(column[i + 1] - 179) + Math.abs(column[i + 2] - 189) < 40;
    let divider = 0;
    for (let row = 0; row < bitmap.height; row++) if (grey(8 * row) || grey(8 * row + 4)) divider += 1;
    // Dark text pixels in the band where the names sit, in each half.
    const band = Math.round(bitmap.height / 10);
    const dark = [0, 1].map((k) => {
      const { data } = context.getImageData(k * mid + mid / 4, 0, mid / 2, band);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] < 90 && data[i + 1] < 90 && data[i + 2] < 100) n += 1;
      return n;
    });
    return { divider: divider / bitmap.height, dark };
  }, [...png]);
  assert.ok(marks.divider > 0.5, `a divider down the middle: ${marks.divider}`);
  assert.ok(marks.dark.every((n) => n > 20), `names over both halves: ${marks.dark}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the weights SVG reads on its own: whose weight, a scale from 0 to 1, the bones\' names, the selected bone orange, the blend, cropped', async () => {
  const { page, errors } = await openAt('?example=y-junction&mode=weights&lang=en');
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.selectBone(1)));
  const found = await page.evaluate(() => {
    const s = window.skinlab;
    const doc = new DOMParser().parseFromString(s.svgText(), 'image/svg+xml');
    const svg = doc.documentElement;
    const view = document.querySelector('#view').getBoundingClientRect();
    const skin = doc.querySelectorAll('g.skin path:not([fill="none"])');
    return {
      texts: [...doc.querySelectorAll('text')].map((n) => n.textContent),
      stops: doc.querySelectorAll('linearGradient stop').length,
      selected: [...doc.querySelectorAll('g.bones path')].filter((p) => p.getAttribute('fill') === '#f7940d').length,
      fills: new Set([...skin].map((p) => p.getAttribute('fill'))).size,
      pieces: skin.length,
      triangles: JSON.parse(s.lab.sceneJson()).mesh.indices.length / 3,
      sheet: [Number(svg.getAttribute('width')), Number(svg.getAttribute('height'))],
      view: [view.width, view.height],
    };
  });
  console.log(`# weights SVG: ${found.pieces} filled paths for ${found.triangles} triangles, ${found.fills} colours, sheet ${found.sheet.join('×')} of a ${found.view.map(Math.round).join('×')} view`);
  assert.ok(found.texts.includes('Weight of left branch'), `a title: ${found.texts}`);
  for (const name of ['stem', 'left branch', 'right branch', '0', '1']) assert.ok(found.texts.includes(name), `${name} among ${found.texts}`);
  assert.ok(found.stops >= 2, 'a colour scale');
  assert.equal(found.selected, 1, 'the selected bone in orange');
  assert.ok(found.pieces > found.triangles && found.fills > 10, 'the blend across the fork, in fine pieces');
  assert.ok(found.sheet[0] < found.view[0] && found.sheet[1] <= found.view[1], 'cropped to the figure');
  assert.deepEqual(errors, []);
  await page.close();
});
