// Told apart by more than colour: each vertex dot takes the shape of its
// largest bone's mark (a circle, a square, a diamond, a triangle, in turn),
// as the Bones list draws each bone. Measured in the view's pixels: how
// much of a dot's bounding box it fills.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, waitForSkinlab, nextFrame } from './browser.mjs';

const fixture = useBrowser(before, after);

/** Per vertex: its largest bone and the share of its dot's bounding box the dot fills. */
const dotFills = (page) => page.evaluate(async () => {
  const canvas = document.querySelector('#view');
  const { lab } = window.skinlab;
  const bitmap = await createImageBitmap(canvas);
  const copy = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = copy.getContext('2d');
  context.drawImage(bitmap, 0, 0);
  const scale = bitmap.width / canvas.clientWidth;
  const fills = [];
  for (let v = 0; v < lab.vertexCount(); v++) {
    const [x, y] = window.skinlab.vertexScreenPoint(v);
    const r = 12;
    const { data } = context.getImageData(Math.round(x * scale) - r, Math.round(y * scale) - r, 2 * r, 2 * r);
    let count = 0;
    const box = { left: 2 * r, right: -1, top: 2 * r, bottom: -1 };
    for (let j = 0; j < 2 * r; j++) {
      for (let i = 0; i < 2 * r; i++) {
        const k = 4 * (j * 2 * r + i);
        // A dot's colour, not the grey ground.
        if (Math.max(data[k], data[k + 1], data[k + 2]) - Math.min(data[k], data[k + 1], data[k + 2]) > 60) {
          count++;
          box.left = Math.min(box.left, i); box.right = Math.max(box.right, i);
          box.top = Math.min(box.top, j); box.bottom = Math.max(box.bottom, j);
        }
      }
    }
    fills.push({ bone: lab.influences(v)[0][0], fill: count / ((box.right - box.left + 1) * (box.bottom - box.top + 1)) });
  }
  return fills;
});

test("each vertex dot has its largest bone's shape, the one the Bones list shows", async () => {
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}?example=y-junction&autosave=0&lang=en&projector=1`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => { for (const name of ['mesh', 'wireframe', 'bones']) window.skinlab.setOverlay(name, false); }));
  await nextFrame(page);
  const fills = await dotFills(page);
  const mean = (bone) => {
    const own = fills.filter((f) => f.bone === bone).map((f) => f.fill);
    return own.reduce((a, b) => a + b, 0) / own.length;
  };
  const [circle, square, diamond] = [mean(0), mean(1), mean(2)];
  console.log(`# dots fill their box: stem (circle) ${circle.toFixed(2)}, left branch (square) ${square.toFixed(2)}, right branch (diamond) ${diamond.toFixed(2)}`);
  assert.ok(circle > 0.7 && circle < 0.9, `a circle fills about π/4: ${circle}`);
  assert.ok(square > 0.93, `a square fills its box: ${square}`);
  assert.ok(diamond > 0.4 && diamond < 0.7, `a diamond about half: ${diamond}`);
  const marks = await page.locator('#bone-list .dot').evaluateAll((dots) => dots.map((d) => d.className));
  assert.deepEqual(marks, ['dot shape-0', 'dot shape-1', 'dot shape-2']);
  assert.deepEqual(errors, []);
  await page.close();
});
