// Untrusted names: scene and glTF files whose bone, clip and file names
// carry script are shown as text, and the Content-Security-Policy stops
// inline script even if a slip let some into the page.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  openPage, root, screenshot, useBrowser, waitForSkinlab, nextFrame,
} from './browser.mjs';
import { serveTrapping } from './trap.mjs';

const fixture = useBrowser(before, after);

const HOSTILE = [
  '<img src=x onerror="window.__pwned = (window.__pwned || 0) + 1">',
  '<script>window.__pwned = (window.__pwned || 0) + 1</script>',
  'javascript:window.__pwned=1',
];

/** The two-bone strip as scene JSON, its bones named with script. */
async function hostileScene(page) {
  return page.evaluate((names) => {
    const scene = JSON.parse(window.skinlab.Lab.example('two-bone').sceneJson());
    scene.bones.forEach((bone, index) => { bone.name = names[index % names.length]; });
    return JSON.stringify(scene);
  }, HOSTILE);
}

/** SimpleSkin with script in every node, mesh, skin and animation name. */
async function hostileGltf() {
  const doc = JSON.parse(await readFile(join(root, 'www', 'models', 'SimpleSkin', 'SimpleSkin.gltf'), 'utf8'));
  doc.nodes.forEach((node, index) => { node.name = HOSTILE[index % HOSTILE.length]; });
  for (const list of [doc.meshes, doc.skins, doc.animations]) {
    list.forEach((item, index) => { item.name = HOSTILE[(index + 1) % HOSTILE.length]; });
  }
  return JSON.stringify(doc);
}

/** Clicks through every place a name shows: bone list, bone panel, a vertex, both modes, the clips. */
async function visitEverything(page) {
  const bones = await page.evaluate(() => window.skinlab.lab.boneCount());
  for (let bone = 0; bone < bones; bone++) {
    await nextFrame(page, () => page.locator(`#bone-list li[data-bone="${bone}"]`).click());
  }
  const box = await page.locator('#view').boundingBox();
  const point = await page.evaluate(() => window.skinlab.vertexScreenPoint(window.skinlab.lab.vertexCount() - 1));
  await page.mouse.click(box.x + point[0], box.y + point[1]);
  await nextFrame(page);
  await nextFrame(page, () => page.locator('#modes [data-mode="weights"]').click());
  await nextFrame(page, () => page.locator('#modes [data-mode="skin"]').click());
}

test('names carrying script are shown literally and never run', async () => {
  const { page, errors } = await openPage(fixture.browser, fixture.server.url);
  await waitForSkinlab(page);

  const scene = await hostileScene(page);
  await page.locator('#import-file').setInputFiles({ name: `${HOSTILE[0]}.json`, mimeType: 'application/json', buffer: Buffer.from(scene) });
  await page.waitForFunction(() => window.skinlab.example === null);
  await visitEverything(page);
  const listed = await page.locator('#bone-list').textContent();
  assert.ok(listed.includes(HOSTILE[0]) && listed.includes(HOSTILE[1]), `the bone list shows the names as text: ${listed}`);
  assert.ok((await page.locator('#vertex-steps').textContent()).includes(HOSTILE[1]), 'the three steps name the bone as text');
  assert.ok((await page.locator('#bone-name').textContent()).includes(HOSTILE[1]));
  assert.ok((await page.locator('#notice').textContent()).includes(`Loaded ${HOSTILE[0]}.json`), 'the file name too');
  await screenshot(page, 'hostile-scene');

  await page.locator('#import-file').setInputFiles({ name: `${HOSTILE[1]}.gltf`, mimeType: 'model/gltf+json', buffer: Buffer.from(await hostileGltf()) });
  await page.waitForFunction(() => window.skinlab.lab.animationNames().length === 1);
  await visitEverything(page);
  assert.deepEqual(await page.locator('#clip option').allTextContents(), [HOSTILE[1]], 'the clip name as text');

  // A bad file whose name carries script: the error quotes it as text.
  await page.locator('#import-file').setInputFiles({ name: `${HOSTILE[0]}.json`, mimeType: 'application/json', buffer: Buffer.from('{"bones": 5}') });
  await page.waitForFunction(() => document.querySelector('#notice').classList.contains('error'));
  assert.ok((await page.locator('#notice').textContent()).startsWith(`Could not load ${HOSTILE[0]}.json`));

  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'no script ran');
  assert.equal(await page.locator('#panel img, .panel img, #caption img, #notice img').count(), 0, 'no element was made from a name');
  assert.deepEqual(errors.filter((e) => !e.includes('Content Security Policy')), []);
  await page.close();
});

test('the Content-Security-Policy stops inline script the page did not ship', async () => {
  const { page, errors } = await openPage(fixture.browser, fixture.server.url);
  await waitForSkinlab(page);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/);
  const outcome = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.__inline = true;';
    document.body.append(script);
    const img = document.createElement('div');
    img.innerHTML = '<img src="data:," onerror="window.__handler = true">';
    document.body.append(img);
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { inline: window.__inline ?? false, handler: window.__handler ?? false };
  });
  // (eval cannot be tried from here: the test's own evaluate runs outside
  // the page's policy.)
  assert.deepEqual(outcome, { inline: false, handler: false });
  assert.ok(errors.some((e) => e.includes('Content Security Policy')), 'the browser reports the blocked script');
  // The page itself still works under the policy: it draws and takes a drag.
  assert.ok(await page.evaluate(() => window.skinlab.framesRendered()) > 0);
  await page.close();
});

test('a file over the size limit is refused before it is read, the limit named', async () => {
  const { page, errors } = await openPage(fixture.browser, fixture.server.url);
  await waitForSkinlab(page);
  await page.evaluate(() => {
    // A 65 MiB file, made in the page (cheaper than sending it).
    const big = new File([new Uint8Array(65 * 1024 * 1024)], 'huge.glb');
    const transfer = new DataTransfer();
    transfer.items.add(big);
    document.querySelector('#stage').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => document.querySelector('#notice').classList.contains('error'));
  assert.match(await page.locator('#notice').textContent(), /huge\.glb: 68157440 bytes, at most 67108864 \(64 MiB\)/);
  assert.equal(await page.evaluate(() => window.skinlab.example), 'two-bone');
  assert.deepEqual(errors, []);
  await page.close();
});


test('no page script assigns HTML; labels with subscripts are built as nodes', async () => {
  const { readdir, readFile } = await import('node:fs/promises');
  const { join: joinPath } = await import('node:path');
  const { root } = await import('./browser.mjs');
  const sources = [];
  const walk = async (dir) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = joinPath(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'pkg' && entry.name !== 'models') await walk(path);
      else if (entry.name.endsWith('.js')) sources.push(path);
    }
  };
  await walk(joinPath(root, 'www'));
  for (const path of sources) {
    const text = await readFile(path, 'utf8');
    assert.doesNotMatch(text, /(innerHTML|outerHTML)\s*=[^=]|insertAdjacentHTML|document\.write/, path);
  }
  // The pitfall and the morph note still show their subscripts.
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}?example=two-bone&lang=de`);
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.selectBone(1)));
  assert.ok(await page.locator('#matrices .pitfall sub').count() >= 4);
  assert.match(await page.locator('#matrices .pitfall').textContent(), /R′i · Ai · Ri−1/);
  assert.ok(await page.locator('[data-i18n-html="morph.forms"] sub').count() >= 4);
  assert.match(await page.locator('[data-i18n-html="morph.forms"]').textContent(), /^„Bones, IK, Morphing“ schreibt/);
  assert.deepEqual(errors, []);
  await page.close();
});

/** A PNG that is only a header declaring `width × height` pixels. */
function pngHeader(width, height) {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(bytes, 0);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes[24] = 8;
  bytes[25] = 6;
  return bytes;
}

test('a texture declaring 16384 × 16384 pixels is refused from its header, undecoded, and the model still loads', async () => {
  const { page, errors } = await openPage(fixture.browser, fixture.server.url);
  await waitForSkinlab(page);
  const doc = JSON.parse(await readFile(join(root, 'www', 'models', 'SimpleSkin', 'SimpleSkin.gltf'), 'utf8'));
  const primitive = doc.meshes[0].primitives[0];
  const vertices = doc.accessors[primitive.attributes.POSITION].count;
  doc.accessors.push({ componentType: 5126, count: vertices, type: 'VEC2' });
  primitive.attributes.TEXCOORD_0 = doc.accessors.length - 1;
  primitive.material = 0;
  doc.materials = [{ pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }];
  doc.textures = [{ source: 0 }];
  doc.images = [{ uri: `data:image/png;base64,${pngHeader(16384, 16384).toString('base64')}` }];
  await page.locator('#import-file').setInputFiles({
    name: 'huge-texture.gltf', mimeType: 'model/gltf+json', buffer: Buffer.from(JSON.stringify(doc)),
  });
  await page.waitForFunction(() => document.querySelector('#notice').textContent.includes('16384 × 16384'));
  assert.match(await page.locator('#notice').textContent(), /16384 × 16384 pixels; at most 2048 × 2048/);
  assert.equal(await page.evaluate(() => window.skinlab.textureReady()), null, 'no texture uploaded');
  assert.equal(await page.evaluate(() => window.skinlab.lab.boneCount()), 2, 'the model is shown, in its plain colour');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a file whose reading traps the core leaves the page, its scene and its core working', async () => {
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}?example=y-junction`);
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.lab.setBonePose(2, { rotation: [0, 0, -0.2, 0.98] })));
  const before = await page.evaluate(() => window.skinlab.lab.sceneJson());
  const text = await readFile(join(root, 'www', 'models', 'SimpleSkin', 'SimpleSkin.gltf'), 'utf8');
  // The worker's readers are served with their glTF reader trapping, as an
  // out-of-memory would stop it.
  const restore = await serveTrapping(fixture.server, 'skinlab_converters_bg.wasm', 'sceneFromGltfFiles');
  await page.evaluate((gltf) => window.skinlab.loadFiles([new File([gltf], 'SimpleSkin.gltf')]), text);
  await restore();
  const notice = await page.locator('#notice').textContent();
  assert.match(notice, /Could not load SimpleSkin\.gltf: reading it stopped Skinlab's core \(.*unreachable.*\).*nothing on screen was touched/);
  assert.equal(await page.evaluate(() => window.skinlab.lab.sceneJson()), before, 'the scene is as it was');
  // The page's core still works: pose, save, export, and the next file loads.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.lab.setBonePose(1, { rotation: [0, 0, 0.2, 0.98] })));
  assert.ok((await page.evaluate(async () => {
    await window.skinlab.loadConverters();
    return window.skinlab.lab.toGlb();
  })).length > 100);
  await page.evaluate((gltf) => window.skinlab.loadFiles([new File([gltf], 'SimpleSkin.gltf')]), text);
  assert.match(await page.locator('#notice').textContent(), /Loaded SimpleSkin\.gltf/);
  assert.equal(await page.evaluate(() => window.skinlab.lab.boneCount()), 2);
  await screenshot(page, 'trap-recovered');
  assert.deepEqual(errors, []);
  await page.close();
});
