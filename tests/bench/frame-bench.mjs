// The page's own cost while a bone is dragged on the 100,000-vertex `dense`
// tube, in headless Chromium: the median main-thread time per frame (JS
// and wasm: the input, the palette, the uploads and the draw calls; the
// GPU, SwiftShader here, works in its own process) and per pointer move.
// Run by `cargo xtask bench`.
import { join } from 'node:path';
import { launchBrowser, openPage, root, serveStatic, waitForSkinlab, nextFrame } from '../e2e/browser.mjs';

const MOVES = 30;
const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const server = await serveStatic(join(root, 'www'));
const browser = await launchBrowser();
try {
  for (const [label, query] of [['dense tube, LBS', '?example=dense'], ['dense tube, DQS', '?example=dense&method=dqs']]) {
    const { page } = await openPage(browser, `${server.url}${query}`);
    await waitForSkinlab(page);
    await nextFrame(page);
    const box = await page.locator('#view').boundingBox();
    const grab = await page.evaluate(() => window.skinlab.boneScreenPoint(2));
    await page.mouse.move(box.x + grab.x, box.y + grab.y);
    await page.mouse.down();
    for (let k = 1; k <= MOVES; k++) {
      await page.mouse.move(box.x + grab.x + 120 * Math.sin(k / 15), box.y + grab.y + 40 * Math.cos(k / 15));
      await nextFrame(page);
    }
    await page.mouse.up();
    const { frames, inputs, vertices } = await page.evaluate(() => ({
      frames: window.skinlab.frameTimes(), inputs: window.skinlab.inputTimes(), vertices: window.skinlab.lab.vertexCount(),
    }));
    const frame = median(frames.slice(-MOVES));
    const input = median(inputs.slice(-MOVES));
    console.log(`chromium ${label} (${vertices} vertices): median frame ${frame.toFixed(2)} ms, pointer move ${input.toFixed(2)} ms, together ${(frame + input).toFixed(2)} ms on the main thread`);
    console.log(`BENCH frame_ms_${label.endsWith('LBS') ? 'lbs' : 'dqs'}=${(frame + input).toFixed(3)}`);
    // Pages stay open: closing the last page can end a persistent context.
  }
} finally {
  await browser.close();
  await server.close();
}
