// Weight painting in the page: a real mouse stroke over the Y-junction's
// fork, the heat map, undo, direct editing and automatic weights.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  usePage, screenshot, nextFrame,
  canvasPatch, maxDifference, gpuVersusCpu, loadModel,
} from './browser.mjs';

let page;
let errors;
usePage(before, after, (opened) => ({ page, errors } = opened));

/** The fork's index, its weights and the stretch of its edges under a bend. */
async function forkState() {
  return page.evaluate(() => {
    const lab = window.skinlab.lab;
    const scene = JSON.parse(lab.sceneJson());
    const rest = scene.mesh.positions;
    let fork = -1;
    for (let v = 0; v < rest.length / 3; v++) if (Math.abs(rest[3 * v]) < 1e-6 && rest[3 * v + 1] > 2) fork = v;
    const sums = [];
    for (let v = 0; v < lab.vertexCount(); v++) sums.push(lab.influences(v).reduce((s, [, w]) => s + w, 0));
    const posed = window.skinlab.gpuSkinnedPositions('lbs');
    const length = (p, a, b) => Math.hypot(p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]);
    let stretch = 0;
    const indices = scene.mesh.indices;
    for (let t = 0; t < indices.length; t += 3) {
      for (const [a, b] of [[0, 1], [1, 2], [2, 0]]) {
        const [u, v] = [indices[t + a], indices[t + b]];
        if (u === fork || v === fork) stretch = Math.max(stretch, length(posed, u, v) / length(rest, u, v) - 1);
      }
    }
    return { fork, influences: lab.influences(fork), sums, stretch, all: scene.influences };
  });
}

test('painting the fork onto the bent branch: weights, sums, stretch, heat map and undo', async () => {
  await nextFrame(page, () => page.evaluate(() => {
    window.skinlab.loadExample('y-junction-unweighted');
    window.skinlab.lab.setBonePose(2, { rotation: [0, 0, -Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)] });
    window.skinlab.selectBone(2);
    window.skinlab.setTool('paint');
    window.skinlab.setWeightView('weights');
    // Share the fork half and half, as the weighted Y does.
    window.skinlab.setBrush({ radius: 20, strength: 1, falloff: 'smooth', mode: 'set', value: 0.5 });
    window.skinlab.setOverlay('bones', false);
  }));
  const before = await forkState();
  assert.deepEqual(before.influences, [[1, 1]], 'the fork starts on the left branch only');
  const forkPoint = await page.evaluate((v) => window.skinlab.vertexScreenPoint(v), before.fork);
  const probe = { x: forkPoint[0], y: forkPoint[1] + 18 };
  const heatBefore = await canvasPatch(page, probe.x, probe.y, 2);
  await screenshot(page, 'paint-before');

  const box = await page.locator('#view').boundingBox();
  await page.mouse.move(box.x + forkPoint[0] - 12, box.y + forkPoint[1]);
  await page.mouse.down();
  for (let step = 0; step <= 8; step++) {
    await page.mouse.move(box.x + forkPoint[0] - 12 + 3 * step, box.y + forkPoint[1] + (step % 2));
  }
  await page.mouse.up();
  await nextFrame(page);

  const after = await forkState();
  const gained = after.influences.find(([bone]) => bone === 2)?.[1] ?? 0;
  assert.ok(gained > 0.3, `the fork gained the right branch's weight: ${JSON.stringify(after.influences)}`);
  for (const [v, sum] of after.sums.entries()) assert.ok(Math.abs(sum - 1) < 1e-6, `vertex ${v} sums to ${sum}`);
  console.log(`# fork stretch after painting: ${(before.stretch * 100).toFixed(0)}% → ${(after.stretch * 100).toFixed(0)}%`);
  assert.ok(after.stretch < before.stretch - 0.1, 'the stretch at the fork drops');
  const heatAfter = await canvasPatch(page, probe.x, probe.y, 2);
  assert.ok(maxDifference(heatAfter, heatBefore) > 30, 'the heat map changed under the stroke');
  await screenshot(page, 'paint-after');

  await page.keyboard.press('Control+z');
  await nextFrame(page);
  const undone = await forkState();
  assert.deepEqual(undone.all, before.all, 'one undo restores every weight exactly');
  await page.evaluate(() => {
    window.skinlab.setTool('pose');
    window.skinlab.setWeightView('skin');
    window.skinlab.setOverlay('bones', true);
  });
});

test('a locked bone keeps its weights under the brush', async () => {
  await nextFrame(page, () => page.evaluate(() => {
    window.skinlab.loadExample('two-bone-smooth');
    window.skinlab.setTool('paint');
    window.skinlab.selectBone(1);
    window.skinlab.lockBone(0, true);
    window.skinlab.setBrush({ radius: 60, strength: 1, falloff: 'constant', mode: 'add' });
  }));
  const weightsBefore = await page.evaluate(() => JSON.parse(window.skinlab.lab.sceneJson()).influences);
  const centre = await page.evaluate(() => window.skinlab.vertexScreenPoint(8));
  const box = await page.locator('#view').boundingBox();
  await page.mouse.move(box.x + centre[0], box.y + centre[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + centre[0] + 10, box.y + centre[1]);
  await page.mouse.up();
  const weightsAfter = await page.evaluate(() => JSON.parse(window.skinlab.lab.sceneJson()).influences);
  assert.deepEqual(weightsAfter, weightsBefore, 'with bone 1 locked, bone 2 cannot take its weight');
  await page.evaluate(() => { window.skinlab.lockBone(0, false); window.skinlab.setTool('pose'); });
});

test('clicking a vertex shows its weights, and typing a value changes them', async () => {
  await nextFrame(page, () => page.evaluate(() => window.skinlab.loadExample('two-bone')));
  const point = await page.evaluate(() => window.skinlab.vertexScreenPoint(6));
  const box = await page.locator('#view').boundingBox();
  await page.mouse.click(box.x + point[0], box.y + point[1]);
  await nextFrame(page);
  assert.equal(await page.evaluate(() => window.skinlab.selectedVertex()), 6);
  assert.equal(await page.locator('#vertex-title').textContent(), 'Vertex 6');
  const inputs = page.locator('#vertex-weights input');
  assert.equal(await inputs.nth(0).inputValue(), '1.000');
  // The skinning note's three steps for the vertex, ending where the vertex is drawn.
  const steps = await page.locator('#vertex-steps').textContent();
  assert.match(steps, /Q = R.*T = A.*Z/s);
  assert.match(steps, /Z = Σ wi Zi = \(1\.50, -0\.50, 0\.00\)/);
  // Give bone 2 a weight of 1 next to bone 1's 1: normalised to half each.
  await page.locator('#vertex-weights select').nth(1).selectOption('1');
  await inputs.nth(1).fill('1');
  await inputs.nth(1).press('Enter');
  await nextFrame(page);
  const pairs = await page.evaluate(() => window.skinlab.lab.influences(6));
  assert.deepEqual(pairs, [[0, 0.5], [1, 0.5]]);
  await screenshot(page, 'vertex-panel');
});

test('automatic weights: nearest bone fails on the fingers, bone heat does not', async () => {
  await nextFrame(page, () => page.evaluate(() => window.skinlab.loadExample('fingers')));
  const stolen = async () => page.evaluate(() => {
    const lab = window.skinlab.lab;
    const rest = JSON.parse(lab.sceneJson()).mesh.positions;
    let count = 0;
    for (let v = 0; v < lab.vertexCount(); v++) {
      const onIndexFinger = rest[3 * v] > 0.05 && rest[3 * v + 1] > 1.01;
      const middle = lab.influences(v).find(([bone]) => bone === 1)?.[1] ?? 0;
      if (onIndexFinger && middle > 0.5) count++;
    }
    return count;
  });
  await page.getByRole('button', { name: 'Nearest bone' }).click();
  await nextFrame(page);
  const nearest = await stolen();
  await page.evaluate(() => {
    window.skinlab.lab.setBonePose(1, { rotation: [0, 0, Math.sin(0.35), Math.cos(0.35)] });
    window.skinlab.setWeightView('bones');
  });
  await nextFrame(page);
  await screenshot(page, 'fingers-nearest');
  await page.getByRole('button', { name: 'Bone heat' }).click();
  await nextFrame(page);
  const heat = await stolen();
  await screenshot(page, 'fingers-heat');
  console.log(`# index-finger vertices following the middle finger: nearest bone ${nearest}, bone heat ${heat}`);
  assert.ok(nearest >= 2);
  assert.equal(heat, 0);
  // Each automatic weighting is one undo step.
  await page.keyboard.press('Control+z');
  await nextFrame(page);
  assert.equal(await stolen(), nearest);
  await page.evaluate(() => window.skinlab.setWeightView('skin'));
  assert.deepEqual(errors, []);
});

test('a glTF model loads through the file picker and skins on the GPU like the CPU', async () => {
  await loadModel(page, 'RiggedFigure');
  await page.waitForFunction(() => window.skinlab.lab.boneCount() === 21);
  await nextFrame(page, () => page.evaluate(() => {
    const lab = window.skinlab.lab;
    lab.setBonePose(5, { rotation: [0, 0, Math.sin(0.4), Math.cos(0.4)] });
    lab.setBonePose(12, { rotation: [Math.sin(0.3), 0, 0, Math.cos(0.3)] });
    window.skinlab.setWeightView('bones');
  }));
  for (const method of ['lbs', 'dqs']) {
    const { worst, normals } = await gpuVersusCpu(page, method);
    assert.ok(worst < 1e-4 && normals < 1e-4, `RiggedFigure/${method}: ${worst}, normals ${normals}`);
  }
  assert.equal(await page.evaluate(() => window.skinlab.viewer.view()), '3d');
  await screenshot(page, 'gltf-rigged-figure');
  await page.evaluate(() => window.skinlab.setWeightView('skin'));
  assert.deepEqual(errors, []);
});

test('the Fox from glTF plays its clips, and the GPU follows the CPU', async () => {
  await loadModel(page, 'Fox');
  await page.waitForFunction(() => window.skinlab.lab.boneCount() === 25);
  assert.equal(await page.locator('#player').isVisible(), true);
  assert.deepEqual(await page.locator('#clip option').allTextContents(), ['Survey', 'Walk', 'Run']);
  await page.locator('#clip').selectOption('2');
  const restPose = await page.evaluate(() => window.skinlab.lab.sceneJson());
  const before = await page.evaluate(() => window.skinlab.framesRendered());
  await page.locator('#play').click();
  await page.waitForTimeout(600);
  await page.locator('#play').click();
  const after = await page.evaluate(() => window.skinlab.framesRendered());
  console.log(`# Fox "Run": ${after - before} frames drawn in 0.6 s of playback`);
  assert.ok(after - before >= 5, 'playback draws frames');
  assert.equal(await page.evaluate(() => window.skinlab.playing()), false);
  assert.notEqual(await page.evaluate(() => window.skinlab.lab.sceneJson()), restPose, 'the fox moved');
  for (const method of ['lbs', 'dqs']) {
    const { worst } = await gpuVersusCpu(page, method);
    console.log(`# Fox "Run" ${method}: max |GPU − CPU| = ${worst.toExponential(2)} (the fox is about 150 units long)`);
    assert.ok(worst < 1e-4, `Fox/${method}: ${worst}`);
  }
  await nextFrame(page);
  await screenshot(page, 'gltf-fox-run');
  const idle = await page.evaluate(() => window.skinlab.framesRendered());
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.skinlab.framesRendered()), idle, 'paused means idle');
  // Undo goes back to the pose before playing.
  await page.keyboard.press('Control+z');
  await nextFrame(page);
  assert.equal(await page.evaluate(() => window.skinlab.lab.sceneJson()), restPose);
  assert.deepEqual(errors, []);
});
