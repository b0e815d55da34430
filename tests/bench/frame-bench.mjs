// The page's own cost while a bone is dragged, while a weight stroke is
// painted and while the IK target is dragged, on the 100,000-vertex `dense` tube, in headless Chromium: the median main-thread time per frame (JS
// and wasm: the input, the palette, the uploads and the draw calls; the
// GPU, SwiftShader here, works in its own process) and per pointer move;
// and the long tasks (over 50 ms, PerformanceObserver) during each and in
// the 3 s after it, when the page settles (the share link, the
// lost-context still). Run by `cargo xtask bench`.
import { join } from 'node:path';
import { launchBrowser, openPage, root, serveStatic, waitForSkinlab, nextFrame } from '../e2e/browser.mjs';
import { gesture, longTasksAfter, watchLongTasks } from './gestures.mjs';

const MOVES = 30;
const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const server = await serveStatic(join(root, 'www'));

/**
 * Drags, paints and counts in a browser whose compositor works in software
 * (the tests' browser) or on the (SwiftShader) GPU, as on a machine with a
 * graphics card: with software compositing every WebGL frame is read back
 * on the main thread, a long task as long as the software renderer draws.
 */
async function measure(gpuCompositing) {
  const browser = await launchBrowser({ gpuCompositing });
  const suffix = gpuCompositing ? '_gpu' : '';
  const how = gpuCompositing ? 'GPU compositing' : 'software compositing';
  try {
    const cases = [
      ['dense tube, LBS', '?example=dense', 'lbs'],
      ['dense tube, DQS', '?example=dense&method=dqs', 'dqs'],
      ['dense tube, CoR', '?example=dense&method=cor', 'cor'],
      ['dense tube, a paint stroke', '?example=dense&mode=weights', 'stroke'],
      ['dense tube, an IK drag', '?example=dense&mode=ik', 'ik'],
    ];
    for (const [label, query, tag] of cases) {
      const { page } = await openPage(browser, `${server.url}${query}`);
      await waitForSkinlab(page);
      await nextFrame(page);
      await page.waitForTimeout(1500); // the load's own work is not the drag's
      await watchLongTasks(page);
      if (!(await gesture(page, ['lbs', 'dqs', 'cor'].includes(tag) ? 'drag' : tag, MOVES))) throw new Error(`${label}: the gesture changed nothing`);
      const long = await longTasksAfter(page);
      console.log(`chromium ${label}, ${how}: ${long.length} long task(s) during it and 3 s after, longest ${Math.max(0, ...long).toFixed(0)} ms`);
      console.log(`BENCH long_tasks_${tag}${suffix}=${long.length}`);
      console.log(`BENCH longest_task_ms_${tag}${suffix}=${Math.max(0, ...long).toFixed(1)}`);
      if (gpuCompositing) continue;
      const { frames, inputs, vertices } = await page.evaluate(() => ({
        frames: window.skinlab.frameTimes(), inputs: window.skinlab.inputTimes(), vertices: window.skinlab.lab.vertexCount(),
      }));
      const frame = median(frames.slice(-MOVES));
      // The IK ring has its own pointer handler (the solve), not the
      // canvas's timed one: its frames are counted, its moves are not.
      if (!inputs.length) {
        console.log(`chromium ${label} (${vertices} vertices): median frame ${frame.toFixed(2)} ms on the main thread (pointer moves not timed)`);
        console.log(`BENCH frame_ms_${tag}=${frame.toFixed(3)}`);
        continue;
      }
      const input = median(inputs.slice(-MOVES));
      console.log(`chromium ${label} (${vertices} vertices): median frame ${frame.toFixed(2)} ms, pointer move ${input.toFixed(2)} ms, together ${(frame + input).toFixed(2)} ms on the main thread`);
      console.log(`BENCH frame_ms_${tag}=${(frame + input).toFixed(3)}`);
      // Pages stay open: closing the last page can end a persistent context.
    }
  } finally {
    await browser.close();
  }
}

try {
  await measure(false);
  await measure(true);
} finally {
  await server.close();
}
