// Bone glyphs to scale on real rigs: with only the Bones layer on, the
// glyphs lie within the skin's extent on screen grown by a quarter, for a
// Maya character of 46 joints and a Z-up Blender fox read from FBX, the
// Fox and RiggedFigure from the gallery, and a model whose joints carry a
// scale of 100 (the glTF corpus's armature at 0.01 seen from the other
// side).
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPage, root, screenshot, useBrowser, waitForSkinlab, nextFrame } from './browser.mjs';

const fixture = useBrowser(before, after);

/** The screen box of everything drawn that differs from the corner's colour. */
async function drawnBox(page) {
  await nextFrame(page);
  return page.evaluate(() => {
    const { data, width, height } = window.testCanvasRgba();
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const k = 4 * (y * width + x);
        if (Math.abs(data[k] - data[0]) + Math.abs(data[k + 1] - data[1]) + Math.abs(data[k + 2] - data[2]) > 24) {
          x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
        }
      }
    }
    return { x0, y0, x1, y1 };
  });
}

async function only(page, layer) {
  for (const name of ['mesh', 'wireframe', 'dots', 'bones']) {
    await page.locator(`input[data-overlay="${name}"]`).setChecked(name === layer);
  }
}

const cases = [
  ['maya character (FBX)', { file: 'tests/fbx/ufbx-maya_kenney_character_7700_binary.fbx' }],
  ['Z-up fox (FBX)', { file: 'tests/fbx/fox-zup-blender.fbx' }],
  ['Fox', { example: 'fox' }],
  ['RiggedFigure', { example: 'rigged-figure' }],
  ['RiggedSimple x100 (FBX, UnitScaleFactor 1)', { file: 'tests/fbx/riggedsimple-x100-blender.fbx' }],
  ['joints scaled 100 (glTF)', { corpus: { jointScales: [[100, 100, 100], [1, 1, 1], [1, 1, 1]] } }],
];

for (const [name, how] of cases) {
  test(`${name}: with only the Bones layer on, the glyphs stay within the skin's extent grown by a quarter`, async () => {
    const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}${how.example ? `?example=${how.example}` : ''}`);
    await waitForSkinlab(page);
    if (how.corpus) {
      const { buildCase } = await import('../support/corpus.mjs');
      const text = await buildCase(how.corpus);
      await page.locator('#import-file').setInputFiles({ name: 'scaled.gltf', mimeType: 'model/gltf+json', buffer: Buffer.from(text) });
      await page.waitForFunction(() => document.querySelector('#notice').textContent.includes('Loaded'));
    } else if (how.file) {
      const buffer = await readFile(join(root, how.file));
      await page.locator('#import-file').setInputFiles({ name: how.file.split('/').pop(), mimeType: 'application/octet-stream', buffer });
      await page.waitForFunction(() => document.querySelector('#notice').textContent.includes('Loaded'));
    } else {
      await page.waitForFunction((e) => window.skinlab.example === e, how.example);
    }
    await only(page, 'mesh');
    const skin = await drawnBox(page);
    await only(page, 'bones');
    const bones = await drawnBox(page);
    await screenshot(page, `glyphs-${name.split(' ')[0].toLowerCase()}`);
    const [w, h] = [skin.x1 - skin.x0, skin.y1 - skin.y0];
    const grown = { x0: skin.x0 - w / 8, y0: skin.y0 - h / 8, x1: skin.x1 + w / 8, y1: skin.y1 + h / 8 };
    console.log(`# ${name}: skin ${JSON.stringify(skin)}, glyphs ${JSON.stringify(bones)}`);
    assert.ok(Number.isFinite(bones.x0), 'the glyphs are drawn');
    assert.ok(bones.x0 >= grown.x0 && bones.y0 >= grown.y0 && bones.x1 <= grown.x1 && bones.y1 <= grown.y1,
      `${name}: glyphs ${JSON.stringify(bones)} outside ${JSON.stringify(grown)}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
