// Reading a 30,000-vertex, 65-joint character (a .glb under a 0.01
// armature, tests/support/character.mjs) in wasm in Node, one clip frame of
// it (pose from the clip, and the CPU skin as an upper bound of what the
// page does before the GPU skins), and the page's main-thread time per
// frame while the clip plays in headless Chromium. Run by `cargo xtask bench`.
import { join } from 'node:path';
import { Lab } from '../node/wasm.mjs';
import { characterGlb } from '../support/character.mjs';
import { launchBrowser, openPage, root, serveStatic, waitForSkinlab, nextFrame } from '../e2e/browser.mjs';
import { gesture, longTasksAfter, watchLongTasks } from './gestures.mjs';

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const glb = await characterGlb();
const reads = [];
let lab = null;
for (let k = 0; k < 7; k++) {
  lab?.free();
  const started = performance.now();
  lab = Lab.fromGlb(glb);
  reads.push(performance.now() - started);
}
const read = median(reads);
console.log(`character (${lab.vertexCount()} vertices, ${lab.boneCount()} bones, ${(glb.length / 1e6).toFixed(1)} MB): read in wasm, median ${read.toFixed(1)} ms (target < 150 ms)`);
console.log(`BENCH character_read_ms=${read.toFixed(3)}`);
const poses = [];
const skins = [];
for (let k = 0; k < 60; k++) {
  const started = performance.now();
  lab.setAnimationTime(0, (k % 29) / 10 + 0.05);
  const posed = performance.now();
  lab.skinnedPositions('lbs');
  poses.push(posed - started);
  skins.push(performance.now() - posed);
}
console.log(`character clip frame in wasm: pose ${median(poses).toFixed(3)} ms, CPU skin ${median(skins).toFixed(3)} ms`);
console.log(`BENCH character_pose_ms=${median(poses).toFixed(3)}`);
// The centres of rotation of its weights (CoR's precompute), and a CPU
// frame of each method with them.
const centresStarted = performance.now();
lab.updateCentres();
const centres = performance.now() - centresStarted;
console.log(`character CoR centres in wasm: ${centres.toFixed(0)} ms (target < 2000 ms)`);
console.log(`BENCH character_cor_centres_ms=${centres.toFixed(1)}`);
for (const method of ['lbs', 'dqs', 'cor']) {
  const times = [];
  for (let k = 0; k < 20; k++) {
    lab.setAnimationTime(0, (k % 29) / 10 + 0.05);
    const started = performance.now();
    lab.skinnedPositions(method);
    times.push(performance.now() - started);
  }
  console.log(`character CPU skin in wasm, ${method.toUpperCase()}: median ${median(times).toFixed(2)} ms`);
  console.log(`BENCH character_cpu_${method}_ms=${median(times).toFixed(3)}`);
}

const server = await serveStatic(join(root, 'www'));

/**
 * Plays the character's clip for 2 s in a browser with software compositing
 * (the tests' browser: every WebGL frame read back on the main thread) or
 * with the compositor on the (SwiftShader) GPU, as with a graphics card.
 */
async function play(gpuCompositing) {
  const browser = await launchBrowser({ gpuCompositing });
  const suffix = gpuCompositing ? '_gpu' : '';
  const how = gpuCompositing ? 'GPU compositing' : 'software compositing';
  try {
    const { page } = await openPage(browser, server.url);
    await waitForSkinlab(page);
    await page.locator('#import-file').setInputFiles({ name: 'character.glb', mimeType: 'model/gltf-binary', buffer: Buffer.from(glb) });
    await page.waitForFunction(() => document.querySelector('#notice').textContent.includes('character.glb'));
    await nextFrame(page);
    const before = await page.evaluate(() => window.skinlab.frameTimes().length);
    // Long tasks (over 50 ms) while the clip plays and in the 3 s after.
    await watchLongTasks(page);
    await page.locator('#play').click();
    await page.waitForTimeout(2000);
    await page.locator('#play').click();
    const frames = await page.evaluate((n) => window.skinlab.frameTimes().slice(n), before);
    const frame = median(frames);
    console.log(`chromium, ${how}: the character's clip playing, ${frames.length} frames, median main-thread time per frame ${frame.toFixed(2)} ms (target < 2 ms)`);
    if (!gpuCompositing) console.log(`BENCH character_frame_ms=${frame.toFixed(3)}`);
    await page.waitForTimeout(3000);
    const long = await page.evaluate(() => window.longTasks);
    console.log(`chromium, ${how}: the character's clip playing and 3 s after: ${long.length} long task(s), longest ${Math.max(0, ...long).toFixed(0)} ms`);
    console.log(`BENCH long_tasks_playback${suffix}=${long.length}`);
    console.log(`BENCH longest_task_ms_playback${suffix}=${Math.max(0, ...long).toFixed(1)}`);
    // A bone drag and a weight stroke on the character, where long tasks
    // are the page's own (with software compositing every frame is one).
    if (!gpuCompositing) return;
    for (const tag of ['drag', 'stroke']) {
      await watchLongTasks(page);
      if (!(await gesture(page, tag, 30))) throw new Error(`the character's ${tag} changed nothing`);
      const during = await longTasksAfter(page);
      console.log(`chromium, ${how}: the character, a ${tag === 'drag' ? 'bone drag' : 'paint stroke'} and 3 s after: ${during.length} long task(s), longest ${Math.max(0, ...during).toFixed(0)} ms`);
      console.log(`BENCH long_tasks_character_${tag}${suffix}=${during.length}`);
      console.log(`BENCH longest_task_ms_character_${tag}${suffix}=${Math.max(0, ...during).toFixed(1)}`);
    }
  } finally {
    await browser.close();
  }
}

try {
  await play(false);
  await play(true);
} finally {
  server.close();
}
