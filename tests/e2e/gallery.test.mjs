// The model gallery: the shipped sample models open from the Example menu
// and from ?example=NAME, show their credits, and share like the examples.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  dragAcross, openPage, screenshot, useBrowser, waitForSkinlab, nextFrame, gpuVersusCpu, canvasStats,
} from './browser.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

test('every gallery model opens from the Example menu, draws, and credits its authors', async () => {
  const { page, errors } = await openAt('');
  await waitForSkinlab(page);
  const names = await page.evaluate(() => window.skinlab.models());
  assert.deepEqual(names, ['fox', 'rigged-figure', 'rigged-figure-fbx', 'rigged-simple', 'simple-skin']);
  for (const name of names) {
    await page.locator('#example').selectOption(name);
    await page.waitForFunction((n) => window.skinlab.example === n, name);
    await nextFrame(page);
    const vertices = await page.evaluate(() => window.skinlab.lab.vertexCount());
    const bones = await page.evaluate(() => window.skinlab.lab.boneCount());
    const { covered } = await canvasStats(page);
    console.log(`# ${name}: ${vertices} vertices, ${bones} bones, ${(covered * 100).toFixed(1)}% of the canvas`);
    assert.ok(covered > 0.01, `${name} is drawn`);
    assert.ok((await gpuVersusCpu(page, 'lbs')).worst < 1e-3, `${name}: GPU = CPU`);
    assert.match(await page.locator('#caption .credit').textContent(), /Khronos/);
  }
  await screenshot(page, 'gallery-simple-skin');
  // The same gallery on the Lab class: names, and a fetched model.
  const fromClass = await page.evaluate(async () => {
    const { Lab } = window.skinlab;
    const fox = await Lab.model('fox');
    const result = { names: Lab.modelNames(), vertices: fox.vertexCount(), clips: fox.animationNames() };
    fox.free();
    let refused = '';
    try { await Lab.model('<img src=x>'); } catch (error) { refused = error.message; }
    return { ...result, refused };
  });
  assert.deepEqual(fromClass.names, names);
  assert.equal(fromClass.vertices, 1728);
  assert.deepEqual(fromClass.clips, ['Survey', 'Walk', 'Run']);
  assert.match(fromClass.refused, /unknown model '<img src=x>'; known: fox/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('?example=fox opens the Fox; its share link carries the pose and painted weights', async () => {
  const { page: a, errors } = await openAt('?example=fox&mode=weights');
  await waitForSkinlab(a);
  assert.equal(await a.evaluate(() => window.skinlab.example), 'fox');
  assert.equal(await a.locator('#message').isVisible(), false, 'no error while the model was fetched');
  assert.match(await a.locator('#caption .credit').textContent(), /PixelMannen/);
  await nextFrame(a, () => a.evaluate(() => {
    window.skinlab.lab.setBonePose(5, { rotation: [0, 0, 0.3826834, 0.9238795] });
    window.skinlab.selectBone(5);
    window.skinlab.setBrush({ radius: 60, strength: 1, mode: 'add' });
  }));
  const center = await a.evaluate(() => {
    const lab = window.skinlab.lab;
    let best = 0;
    for (let v = 0; v < lab.vertexCount(); v++) if (lab.influences(v).some(([b]) => b === 5)) best = v;
    return window.skinlab.vertexScreenPoint(best);
  });
  await dragAcross(a, center);
  await nextFrame(a);
  const sceneA = await a.evaluate(() => window.skinlab.lab.sceneJson());
  const pristine = await a.evaluate(async () => {
    const fox = await fetch('models/Fox/Fox.gltf').then((r) => r.text());
    return window.skinlab.Lab.fromGltf(fox).sceneJson();
  });
  assert.notEqual(JSON.parse(sceneA).influences.join(), JSON.parse(pristine).influences.join(), 'the stroke painted');
  await screenshot(a, 'gallery-fox-painted');
  const link = await a.evaluate(() => window.skinlab.shareLink());

  const { page: b } = await openPage(fixture.browser, link);
  await waitForSkinlab(b);
  await b.waitForFunction(() => window.skinlab.example === 'fox');
  assert.equal(await b.evaluate(() => window.skinlab.mode()), 'weights');
  assert.equal(await b.locator('#message').isVisible(), false);
  const sceneB = await b.evaluate(() => window.skinlab.lab.sceneJson());
  assert.deepEqual(JSON.parse(sceneB).pose, JSON.parse(sceneA).pose);
  assert.deepEqual(JSON.parse(sceneB).influences, JSON.parse(sceneA).influences);
  assert.deepEqual(errors, []);
  await Promise.all([a.close(), b.close()]);
});

test('a .glb chosen in the file picker loads like its .gltf', async () => {
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { root } = await import('./browser.mjs');
  const { glbFromGltf } = await import('../support/packing.mjs');
  const text = await readFile(join(root, 'www', 'models', 'Fox', 'Fox.gltf'), 'utf8');
  const { page, errors } = await openAt('');
  await waitForSkinlab(page);
  await page.locator('#import-file').setInputFiles({ name: 'fox.glb', mimeType: 'model/gltf-binary', buffer: Buffer.from(glbFromGltf(text)) });
  await page.waitForFunction(() => window.skinlab.lab.boneCount() === 25);
  await nextFrame(page);
  // The file was read in the worker: the page loads its own readers to compare.
  const same = await page.evaluate(async (gltf) => {
    await window.skinlab.loadConverters();
    return window.skinlab.lab.sceneJson() === window.skinlab.Lab.fromGltf(gltf).sceneJson();
  }, text);
  assert.ok(same, 'the .glb gives the same scene as the .gltf');
  assert.deepEqual(await page.locator('#clip option').allTextContents(), ['Survey', 'Walk', 'Run']);
  assert.match(await page.locator('#notice').textContent(), /Loaded fox\.glb/);
  // A .glb whose chunk lies is refused by name, and the Fox stays.
  const broken = Buffer.from(glbFromGltf(text));
  broken.writeUInt32LE(1 << 30, 12);
  await page.locator('#import-file').setInputFiles({ name: 'broken.glb', mimeType: 'model/gltf-binary', buffer: broken });
  await page.waitForFunction(() => document.querySelector('#notice').textContent.includes('broken.glb'));
  assert.match(await page.locator('#notice').textContent(), /glb: chunk 0 claims 1073741824 bytes/);
  assert.equal(await page.evaluate(() => window.skinlab.lab.boneCount()), 25);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a .gltf dropped with its .bin files loads; dropped alone, the message names the missing .bin', async () => {
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { root } = await import('./browser.mjs');
  const { splitGltf } = await import('../support/packing.mjs');
  const text = await readFile(join(root, 'www', 'models', 'RiggedFigure', 'RiggedFigure.gltf'), 'utf8');
  const { gltf, files } = splitGltf(text, 'figure');
  const { page, errors } = await openAt('');
  await waitForSkinlab(page);
  /** Drops files on the view as a file manager would: a real drop event with a DataTransfer. */
  const drop = (dropped) => page.evaluate((list) => {
    const transfer = new DataTransfer();
    for (const { name, bytes } of list) transfer.items.add(new File([new Uint8Array(bytes)], name));
    document.querySelector('#stage').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, dropped);
  const asList = (entries) => entries.map(([name, bytes]) => ({ name, bytes: Array.from(bytes) }));

  await drop(asList([['figure.gltf', Buffer.from(gltf)]]));
  await page.waitForFunction(() => document.querySelector('#notice').classList.contains('error'));
  const message = await page.locator('#notice').textContent();
  assert.match(message, /figure0\.bin', which was not given/, message);
  assert.equal(await page.evaluate(() => window.skinlab.example), 'two-bone', 'the scene stays');

  await drop(asList([['figure.gltf', Buffer.from(gltf)], ...Object.entries(files)]));
  await page.waitForFunction(() => window.skinlab.lab.boneCount() === 21);
  await nextFrame(page);
  const same = await page.evaluate(async (embedded) => {
    await window.skinlab.loadConverters();
    return window.skinlab.lab.sceneJson() === window.skinlab.Lab.fromGltf(embedded).sceneJson();
  }, text);
  assert.ok(same, 'the separate files give the embedded file\'s scene');
  assert.match(await page.locator('#notice').textContent(), /Loaded figure\.gltf with \d+ more file/);
  await screenshot(page, 'dropped-gltf-with-bins');
  assert.deepEqual(errors, []);
  await page.close();
});

/** Every vertex's influences and LBS position in the page's lab. */
function weightsAndPositions(page) {
  return page.evaluate(() => {
  const lab = window.skinlab.lab;
  const weights = [];
  for (let v = 0; v < lab.vertexCount(); v++) weights.push(lab.influences(v));
  return { weights, positions: Array.from(lab.skinnedPositions('lbs')) };
});
}

test('the Fox from the gallery: play Run, paint, Export glTF, load the export back, same weights and pose', async () => {
  const { page, errors } = await openAt('?example=fox');
  await waitForSkinlab(page);
  await page.waitForFunction(() => window.skinlab.example === 'fox');
  // Play "Run" for a moment, then pause.
  await page.locator('#clip').selectOption('2');
  await page.locator('#play').click();
  await page.waitForFunction(() => window.skinlab.framesRendered() > 10);
  await page.locator('#play').click();
  assert.equal(await page.evaluate(() => window.skinlab.playing()), false);
  // Paint the neck's weight with the mouse in Weights.
  await nextFrame(page, () => page.evaluate(() => {
    window.skinlab.setMode('weights');
    window.skinlab.selectBone(5);
    window.skinlab.setBrush({ radius: 50, strength: 1, mode: 'add' });
  }));
  const target = await page.evaluate(() => {
    const lab = window.skinlab.lab;
    for (let v = 0; v < lab.vertexCount(); v++) if (lab.influences(v).some(([b]) => b === 5)) return window.skinlab.vertexScreenPoint(v);
    return null;
  });
  await dragAcross(page, target);
  await nextFrame(page);
  const before = await weightsAndPositions(page);

  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-glb').click()]);
  assert.equal(download.suggestedFilename(), 'skinlab-fox.glb');
  const { readFile } = await import('node:fs/promises');
  const bytes = await readFile(await download.path());
  await page.locator('#import-file').setInputFiles({ name: 'skinlab-fox.glb', mimeType: 'model/gltf-binary', buffer: bytes });
  await page.waitForFunction(() => window.skinlab.example === null);
  await nextFrame(page);
  const after = await weightsAndPositions(page);
  // Bones are re-read from the file (same order), so weights compare per bone.
  let worstWeight = 0;
  for (let v = 0; v < before.weights.length; v++) {
    for (const [bone, weight] of before.weights[v]) {
      const found = after.weights[v].find(([b]) => b === bone)?.[1] ?? 0;
      worstWeight = Math.max(worstWeight, Math.abs(found - weight));
    }
  }
  let worstPosition = 0;
  for (let k = 0; k < before.positions.length; k++) worstPosition = Math.max(worstPosition, Math.abs(before.positions[k] - after.positions[k]));
  console.log(`# Fox round trip through Export glTF: weights within ${worstWeight.toExponential(1)}, positions within ${worstPosition.toExponential(1)} (a fox ~90 units long)`);
  assert.ok(worstWeight < 1e-6, `weights ${worstWeight}`);
  assert.ok(worstPosition < 1e-3, `positions ${worstPosition}`);
  await screenshot(page, 'fox-export-reloaded');
  // What is made of a file opened from disk takes the file's name.
  const [again] = await Promise.all([page.waitForEvent('download'), page.locator('#export-glb').click()]);
  assert.equal(again.suggestedFilename(), 'skinlab-fox.glb', 'the file opened was skinlab-fox.glb');
  await page.locator('#import-file').setInputFiles({ name: 'My Fox (v2).glb', mimeType: 'model/gltf-binary', buffer: bytes });
  await nextFrame(page);
  const [renamed] = await Promise.all([page.waitForEvent('download'), page.locator('#export-glb').click()]);
  assert.equal(renamed.suggestedFilename(), 'My-Fox-v2-.glb');
  assert.deepEqual(errors, []);
  await page.close();
});

/** The mean colour of the canvas' pixels that differ from its corner (the skin). */
const skinColour = (page) => page.evaluate(() => {
  const { data } = window.testCanvasRgba();
  const sum = [0, 0, 0];
  let n = 0;
  for (let k = 0; k < data.length; k += 4) {
    if (Math.abs(data[k] - data[0]) + Math.abs(data[k + 1] - data[1]) + Math.abs(data[k + 2] - data[2]) <= 24) continue;
    for (let c = 0; c < 3; c++) sum[c] += data[k + c];
    n += 1;
  }
  return sum.map((s) => s / Math.max(n, 1));
});

test('the Fox wears its base colour texture and RiggedSimple its green; the weight views still colour by weight', async () => {
  const { page, errors } = await openAt('?example=fox');
  await waitForSkinlab(page);
  const size = await page.evaluate(() => window.skinlab.textureReady());
  assert.deepEqual(size, { width: 1024, height: 1024 }, 'the PNG decoded');
  await nextFrame(page, () => page.evaluate(() => {
    for (const name of ['wireframe', 'dots', 'bones']) window.skinlab.setOverlay(name, false);
  }));
  const [r, g, b] = await skinColour(page);
  console.log(`# the Fox's mean skin colour: rgb(${r.toFixed(0)}, ${g.toFixed(0)}, ${b.toFixed(0)})`);
  assert.ok(r > b + 40 && r > g, 'an orange fox, not the lab\'s blue skin');
  await screenshot(page, 'gallery-fox-textured');
  // Painting shows weights, not the fur.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.setWeightView('weights')));
  const [wr, , wb] = await skinColour(page);
  assert.ok(Math.abs(wr - r) + Math.abs(wb - b) > 30, 'the weight view is not the texture');
  // RiggedSimple has no texture, a green base colour factor.
  await page.locator('#example').selectOption('rigged-simple');
  await page.waitForFunction(() => window.skinlab.example === 'rigged-simple');
  assert.equal(await page.evaluate(() => window.skinlab.textureReady()), null);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.setWeightView('skin')));
  const [gr, gg, gb] = await skinColour(page);
  console.log(`# RiggedSimple's mean skin colour: rgb(${gr.toFixed(0)}, ${gg.toFixed(0)}, ${gb.toFixed(0)})`);
  assert.ok(gg > gr + 20 && gg > gb + 20, 'green');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a large .glb loads with its progress shown, and one over the limit is refused with the limit named', async () => {
  const { page, errors } = await openAt('');
  await waitForSkinlab(page);
  // The 100,000-vertex example written as a .glb by the core (in Node).
  const { Lab } = await import('../node/wasm.mjs');
  const dense = Lab.example('dense');
  const glb = Buffer.from(dense.toGlb());
  dense.free();
  console.log(`# the dense tube as .glb: ${(glb.length / 1e6).toFixed(1)} MB`);
  assert.ok(glb.length > 4e6);
  await page.locator('#import-file').setInputFiles({ name: 'dense.glb', mimeType: 'model/gltf-binary', buffer: glb });
  await page.waitForFunction(() => window.skinlab.lab.vertexCount() === 100000, null, { timeout: 60000 });
  const progress = await page.evaluate(() => window.skinlab.loadProgress());
  console.log(`# progress reported ${progress.length} times: ${progress.map((p) => p.toFixed(2)).join(' ')}`);
  assert.ok(progress.length >= 2, 'read in several chunks, each reported');
  assert.equal(progress.at(-1), 1);
  assert.ok(progress.every((p, k) => k === 0 || p >= progress[k - 1]), 'progress only grows');
  await page.waitForFunction(() => document.querySelector('#loading').hidden);
  // Over 64 MiB: refused before a byte is read, the limit named, the scene kept.
  const { writeFile, mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const huge = join(await mkdtemp(join(tmpdir(), 'skinlab-')), 'huge.glb');
  await writeFile(huge, Buffer.alloc(64 * 1024 * 1024 + 1));
  await page.locator('#import-file').setInputFiles(huge);
  await page.waitForFunction(() => document.querySelector('#notice.error'));
  assert.match(await page.locator('#notice').textContent(), /at most 67108864 \(64 MiB\)/);
  assert.equal(await page.evaluate(() => window.skinlab.lab.vertexCount()), 100000, 'the scene is unchanged');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a loaded character opens with its skin and bones, without wireframe and dots; a built example gets them back', async () => {
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}?example=two-bone`);
  await waitForSkinlab(page);
  const layers = () => page.evaluate(() => Object.fromEntries(['mesh', 'wireframe', 'dots', 'bones']
    .map((name) => [name, window.skinlab.viewer.overlay(name)])));
  assert.deepEqual(await layers(), { mesh: true, wireframe: true, dots: true, bones: true });
  await page.evaluate(() => window.skinlab.loadExample('fox'));
  await page.waitForFunction(() => window.skinlab.example === 'fox');
  await nextFrame(page);
  assert.deepEqual(await layers(), { mesh: true, wireframe: false, dots: false, bones: true });
  assert.equal(await page.locator('[data-overlay="wireframe"]').isChecked(), false, 'the checkbox says so');
  await screenshot(page, 'gallery-fox-opened');
  await nextFrame(page, () => page.evaluate(() => window.skinlab.loadExample('two-bone')));
  assert.deepEqual(await layers(), { mesh: true, wireframe: true, dots: true, bones: true });
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * SimpleSkin with a second, static copy of its mesh beside it: the skinned
 * one in an opaque red material, the copy in a blue one (`copyMode`:
 * 'OPAQUE' or 'BLEND' at alpha 0.5, double-sided).
 */
async function twoMaterialFile(copyMode) {
  const { readFile } = await import('node:fs/promises');
  const doc = JSON.parse(await readFile(new URL('../../www/models/SimpleSkin/SimpleSkin.gltf', import.meta.url), 'utf8'));
  const primitive = doc.meshes[0].primitives[0];
  primitive.material = 0;
  doc.meshes.push({ name: 'copy', primitives: [{ attributes: { POSITION: primitive.attributes.POSITION }, indices: primitive.indices, material: 1 }] });
  doc.nodes.push({ name: 'copy', mesh: 1, translation: [1.5, 0, 0] });
  doc.scenes[0].nodes.push(doc.nodes.length - 1);
  doc.materials = [
    { name: 'red', pbrMetallicRoughness: { baseColorFactor: [0.9, 0.1, 0.1, 1] } },
    { name: 'blue', alphaMode: copyMode, doubleSided: copyMode === 'BLEND', pbrMetallicRoughness: { baseColorFactor: [0.1, 0.2, 0.9, copyMode === 'BLEND' ? 0.5 : 1] } },
  ];
  return JSON.stringify(doc);
}

test('each mesh is drawn in its own material: a red skin beside a blue copy, opaque or blended', async () => {
  const { page, errors } = await openAt('?example=two-bone');
  await waitForSkinlab(page);
  const found = {};
  for (const mode of ['OPAQUE', 'BLEND']) {
    const text = await twoMaterialFile(mode);
    await page.locator('#import-file').setInputFiles({ name: `two-materials-${mode}.gltf`, mimeType: 'model/gltf+json', buffer: Buffer.from(text) });
    await page.waitForFunction((m) => window.skinlab.lab.meshCount() === 2 && window.skinlab.lab.materials()[1]?.alphaMode === m, mode);
    const state = await page.evaluate(() => {
      const s = window.skinlab;
      for (const name of ['wireframe', 'dots', 'bones']) s.setOverlay(name, false);
      return { materials: s.lab.materials(), meshes: [0, 1].map((m) => s.lab.meshMaterial(m)) };
    });
    assert.deepEqual(state.materials.map((m) => [m.name, m.alphaMode, m.doubleSided]), [['red', 'OPAQUE', false], ['blue', mode, mode === 'BLEND']]);
    assert.deepEqual(state.meshes, [0, 1], 'each mesh its material');
    await nextFrame(page);
    // The middle of each mesh on screen: its first and last vertex rows' centre.
    const colours = await page.evaluate(() => {
      const s = window.skinlab;
      const positions = s.lab.skinnedPositions('lbs');
      const centre = (mesh) => {
        const [first, count] = s.lab.meshVertexRange(mesh);
        const sum = [0, 0, 0];
        for (let v = first; v < first + count; v++) for (let c = 0; c < 3; c++) sum[c] += positions[3 * v + c] / count;
        return s.viewer.screenPointOf(new Float32Array(sum));
      };
      const { data, width, ratio } = window.testCanvasRgba();
      return [0, 1].map((mesh) => {
        const [x, y] = centre(mesh);
        const k = 4 * (Math.round(y * ratio) * width + Math.round(x * ratio));
        return [data[k], data[k + 1], data[k + 2]];
      });
    });
    found[mode] = colours;
    const [[r0, , b0], [r1, g1, b1]] = colours;
    assert.ok(r0 > 2 * b0 && r0 > 100, `${mode}: the skinned mesh is red (${colours[0]})`);
    assert.ok(b1 > r1 + 60 && b1 > g1 + 60, `${mode}: the copy is blue (${colours[1]})`);
    if (mode === 'BLEND') {
      // Half of the view's grey-white background shows through.
      assert.ok(r1 > 80 && g1 > 80, `the blended copy lets the background through (${colours[1]})`);
    }
    await screenshot(page, `gallery-two-materials-${mode.toLowerCase()}`);
  }
  console.log(`# red and blue meshes: opaque ${JSON.stringify(found.OPAQUE)}, blended ${JSON.stringify(found.BLEND)}`);
  assert.ok(found.BLEND[1][0] > found.OPAQUE[1][0] + 40, 'blending lightens the blue copy');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an FBX file opens from Load scene, a skeleton-only FBX is applied to it by joint names and plays; a cut FBX is refused by name and the figure stays', async () => {
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { root } = await import('./browser.mjs');
  const fbx = (name) => readFile(join(root, 'tests', 'fbx', name));
  const { page, errors } = await openAt('');
  await waitForSkinlab(page);
  const figure = await fbx('riggedfigure-blender.fbx');
  await page.locator('#import-file').setInputFiles({ name: 'figure.fbx', mimeType: 'application/octet-stream', buffer: figure });
  await page.waitForFunction(() => document.querySelector('#notice').textContent.includes('figure.fbx'));
  assert.match(await page.locator('#notice').textContent(), /Loaded figure\.fbx/);
  const bones = await page.evaluate(() => window.skinlab.lab.boneCount());
  assert.ok(bones >= 19, `${bones} bones`);
  await nextFrame(page);
  const { covered } = await canvasStats(page);
  assert.ok(covered > 0.01, 'the figure is drawn');
  assert.ok((await gpuVersusCpu(page, 'lbs')).worst < 1e-3, 'GPU = CPU');
  const clipsBefore = await page.locator('#clip option').count();
  // Apply motion: the file picker of the button, with real input.
  const chooser = page.waitForEvent('filechooser');
  await page.locator('#apply-motion').click();
  await (await chooser).setFiles({ name: 'motion.fbx', mimeType: 'application/octet-stream', buffer: await fbx('riggedfigure-skeleton-blender.fbx') });
  await page.waitForFunction(() => document.querySelector('#notice').textContent.includes('motion.fbx'));
  assert.match(await page.locator('#notice').textContent(), /Played motion\.fbx on this model: \d+ bones moved by name; clips added: 1\./);
  assert.equal(await page.locator('#clip option').count(), clipsBefore + 1);
  assert.equal(await page.locator('#clip').inputValue(), String(clipsBefore));
  // Scrubbing the new clip moves the figure.
  const rest = await page.evaluate(() => [...window.skinlab.lab.skinnedPositions('lbs')]);
  await page.locator('#time').fill('0.5');
  await page.locator('#time').dispatchEvent('input');
  await nextFrame(page);
  const moved = await page.evaluate((before) => {
    const now = window.skinlab.lab.skinnedPositions('lbs');
    return Math.max(...before.map((c, k) => Math.abs(c - now[k])));
  }, rest);
  assert.ok(moved > 1e-3, `the applied clip moves the figure (${moved})`);
  await screenshot(page, 'fbx-figure-applied-motion');
  // A cut file is refused by name; the figure and its clips stay.
  await page.locator('#import-file').setInputFiles({ name: 'cut.fbx', mimeType: 'application/octet-stream', buffer: figure.subarray(0, 5000) });
  await page.waitForFunction(() => document.querySelector('#notice').textContent.includes('cut.fbx'));
  assert.match(await page.locator('#notice').textContent(), /FBX: .*(ends inside|record)/);
  assert.equal(await page.evaluate(() => window.skinlab.lab.boneCount()), bones);
  assert.deepEqual(errors, []);
  await page.close();
});
