// A million vertices in the page: the `million` tube (the `dense` tube at
// 1,000,000 vertices) opened in headless Chromium — how long until its
// first frame, the wasm memory it takes, and the median main-thread time
// per frame while a bone is dragged (JS and wasm: the input, the palette,
// the uploads, the draw calls; the GPU, SwiftShader here, works in its own
// process). Run by `cargo xtask bench`.
import { join } from 'node:path';
import { launchBrowser, openPage, root, serveStatic } from '../e2e/browser.mjs';

const MOVES = 8;
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const server = await serveStatic(join(root, 'www'));
const browser = await launchBrowser();
try {
  const { page } = await openPage(browser, `${server.url}?example=million&autosave=0`);
  await page.waitForFunction(() => window.skinlab?.firstFrameMs() > 0, null, { timeout: 300000 });
  const opened = await page.evaluate(() => ({
    first: window.skinlab.firstFrameMs(), vertices: window.skinlab.lab.vertexCount(), memory: window.skinlab.wasmMemoryBytes(),
  }));
  console.log(`million: ${opened.vertices} vertices, first frame ${(opened.first / 1000).toFixed(1)} s after navigation, wasm memory ${(opened.memory / 2 ** 20).toFixed(0)} MiB`);
  console.log(`BENCH million_first_frame_ms=${opened.first.toFixed(0)}`);
  console.log(`BENCH million_memory_mib=${(opened.memory / 2 ** 20).toFixed(0)}`);
  const box = await page.locator('#view').boundingBox();
  const grab = await page.evaluate(() => window.skinlab.boneScreenPoint(2));
  const drawn = () => page.evaluate(() => window.skinlab.framesRendered());
  await page.mouse.move(box.x + grab[0], box.y + grab[1]);
  await page.mouse.down();
  for (let k = 1; k <= MOVES; k++) {
    const before = await drawn();
    await page.mouse.move(box.x + grab[0] + 100 * Math.sin(k / 4), box.y + grab[1] + 30 * Math.cos(k / 4));
    await page.waitForFunction((n) => window.skinlab.framesRendered() > n, before, { timeout: 120000 });
  }
  await page.mouse.up();
  const { frames, inputs } = await page.evaluate(() => ({ frames: window.skinlab.frameTimes(), inputs: window.skinlab.inputTimes() }));
  const frame = median(frames.slice(-MOVES)) + median(inputs.slice(-MOVES));
  console.log(`million, dragging a bone: median ${frame.toFixed(2)} ms of main-thread time per frame (goal < 8 ms)`);
  console.log(`BENCH million_frame_ms=${frame.toFixed(3)}`);
} finally {
  await browser.close();
  await server.close();
}
