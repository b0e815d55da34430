// The interactive page in headless Chromium: rendering, dragging a bone with
// the mouse, and the GPU skinning checked against the CPU reference.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  usePage, screenshot, nextFrame,
  canvasPatch, canvasPixels, canvasStats, maxDifference, gpuVersusCpu as gpuVersusCpuOn,
} from './browser.mjs';

let page;
let errors;
usePage(before, after, (opened) => ({ page, errors } = opened));

const EXAMPLES = ['two-bone', 'two-bone-smooth', 'y-junction', 'y-junction-unweighted', 'tube', 'chain', 'fingers'];

/** A reproducible pose: each bone turned and moved a little, scaled mildly. */
async function randomPose(seed) {
  await page.evaluate((seed) => {
    let state = seed;
    const random = () => {
      state = (state * 1664525 + 1013904223) % 4294967296;
      return state / 4294967296;
    };
    const lab = window.skinlab.lab;
    for (let bone = 0; bone < lab.boneCount(); bone++) {
      const axis = [random() - 0.5, random() - 0.5, random() - 0.5];
      const norm = Math.hypot(...axis) || 1;
      const half = (random() - 0.5) * 1.2;
      const s = Math.sin(half) / norm;
      lab.setBonePose(bone, { rotation: [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(half)], translation: [(random() - 0.5) * 0.2, (random() - 0.5) * 0.2, (random() - 0.5) * 0.2], scale: [0.8 + 0.4 * random(), 0.8 + 0.4 * random(), 0.8 + 0.4 * random()] });
    }
  }, seed);
}

const gpuVersusCpu = (method) => gpuVersusCpuOn(page, method);

test('the page loads with no console error and draws the strip', async () => {
  const stats = await canvasStats(page);
  assert.ok(stats.colours > 20, `the canvas shows ${stats.colours} colours`);
  assert.ok(stats.covered > 0.03, `the mesh covers ${(stats.covered * 100).toFixed(1)}% of the canvas`);
  assert.deepEqual(errors, []);
});

test('a mouse drag on bone 2 turns it, and bone 1’s vertices stay put', async () => {
  await nextFrame(page, () => page.evaluate(() => window.skinlab.loadExample('two-bone')));
  const box = await page.locator('#view').boundingBox();
  const grab = await page.evaluate(() => window.skinlab.boneScreenPoint(1));
  const boneOneVertices = await page.evaluate(() => {
    const lab = window.skinlab.lab;
    const vertices = [];
    for (let v = 0; v < lab.vertexCount(); v++) {
      const list = lab.influences(v);
      if (list.length === 1 && list[0][0] === 0) {
        const [x, y] = window.skinlab.vertexScreenPoint(v);
        vertices.push({ v, x, y });
      }
    }
    return vertices;
  });
  assert.equal(boneOneVertices.length, 8);
  const beforeBone = await canvasPatch(page, grab[0], grab[1], 3);
  const beforeVertices = await Promise.all(boneOneVertices.map((p) => canvasPatch(page, p.x, p.y, 1)));
  const poseBefore = await page.evaluate(() => window.skinlab.lab.bonePose(1).rotation);

  // Drag upward from the grab point: a counter-clockwise turn about bone 2's origin.
  await page.mouse.move(box.x + grab[0], box.y + grab[1]);
  await page.mouse.down();
  for (let step = 1; step <= 12; step++) {
    await page.mouse.move(box.x + grab[0] - 4 * step, box.y + grab[1] - 10 * step);
  }
  await page.mouse.up();
  await nextFrame(page);

  const poseAfter = await page.evaluate(() => window.skinlab.lab.bonePose(1).rotation);
  assert.notDeepEqual(poseAfter, poseBefore, 'bone 2 turned');
  assert.ok(poseAfter[2] > 0.2, `a counter-clockwise turn about Z: ${poseAfter}`);
  assert.equal(await page.evaluate(() => window.skinlab.selectedBone()), 1);
  const bonePose0 = await page.evaluate(() => window.skinlab.lab.bonePose(0).rotation);
  assert.deepEqual(bonePose0, [0, 0, 0, 1], 'bone 1 was not touched');

  const afterBone = await canvasPatch(page, grab[0], grab[1], 3);
  assert.ok(maxDifference(afterBone, beforeBone) > 40, 'pixels near bone 2 changed');
  const afterVertices = await Promise.all(boneOneVertices.map((p) => canvasPatch(page, p.x, p.y, 1)));
  afterVertices.forEach((patch, k) => {
    assert.ok(maxDifference(patch, beforeVertices[k]) <= 2, `pixels over bone 1's vertex ${boneOneVertices[k].v} did not change`);
  });
  await screenshot(page, 'drag-two-bone');

  // One drag is one undo step.
  await page.keyboard.press('Control+z');
  await nextFrame(page);
  assert.deepEqual(await page.evaluate(() => window.skinlab.lab.bonePose(1).rotation), [0, 0, 0, 1]);
  await page.keyboard.press('Control+Shift+z');
  await nextFrame(page);
  assert.deepEqual(await page.evaluate(() => window.skinlab.lab.bonePose(1).rotation), poseAfter);
});

test('Shift-drag moves the root, R resets, and number keys switch examples', async () => {
  await nextFrame(page, () => page.evaluate(() => window.skinlab.loadExample('two-bone')));
  const grab = await page.evaluate(() => window.skinlab.boneScreenPoint(1));
  const box = await page.locator('#view').boundingBox();
  await page.keyboard.down('Shift');
  await page.mouse.move(box.x + grab[0], box.y + grab[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + grab[0] + 60, box.y + grab[1] + 30, { steps: 6 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await nextFrame(page);
  const root = await page.evaluate(() => window.skinlab.lab.bonePose(0));
  assert.deepEqual(root.rotation, [0, 0, 0, 1], 'the root is moved, not turned');
  assert.ok(Math.hypot(...root.translation) > 0.3, `the root moved: ${root.translation}`);
  // The model-space motion follows the mouse: right and down on screen.
  const origin = await page.evaluate(() => Array.from(window.skinlab.lab.skinningMatrix(0)).slice(12, 15));
  assert.ok(origin[0] > 0.3 && origin[1] < -0.1, `moved right and down: ${origin}`);
  await page.locator('#view').focus();
  await page.keyboard.press('r');
  await nextFrame(page);
  assert.deepEqual((await page.evaluate(() => window.skinlab.lab.bonePose(0))).translation, [0, 0, 0]);
  // PageDown picks bone 1 then bone 2; each ← turns it 5° counter-clockwise.
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  assert.equal(await page.evaluate(() => window.skinlab.selectedBone()), 1);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await nextFrame(page);
  const [, , z, w] = await page.evaluate(() => window.skinlab.lab.bonePose(1).rotation);
  assert.ok(Math.abs((2 * Math.atan2(z, w) * 180) / Math.PI - 10) < 1e-3, 'two presses turn bone 2 by 10°');
  await page.keyboard.press('5');
  await nextFrame(page);
  assert.equal(await page.evaluate(() => window.skinlab.example), 'tube');
  await page.keyboard.press('1');
  await nextFrame(page);
});

test('Alt-drag pulls the tip of bone 2 by two-bone IK', async () => {
  await nextFrame(page, () => page.evaluate(() => window.skinlab.loadExample('two-bone')));
  // The tip of bone 2 is midway between the strip's two rightmost vertices.
  const tipOnScreen = () => page.evaluate(() => {
    const [a, b] = [window.skinlab.vertexScreenPoint(16), window.skinlab.vertexScreenPoint(17)];
    return { x: (a[0] + b[0]) / 2, y: (a[1] + b[1]) / 2 };
  });
  const before = await tipOnScreen();
  const grab = await page.evaluate(() => window.skinlab.boneScreenPoint(1));
  const box = await page.locator('#view').boundingBox();
  await page.keyboard.down('Alt');
  await page.mouse.move(box.x + grab[0], box.y + grab[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + grab[0] - 80, box.y + grab[1] - 90, { steps: 8 });
  await page.mouse.up();
  await page.keyboard.up('Alt');
  await nextFrame(page);
  const after = await tipOnScreen();
  console.log(`# IK: tip moved by (${(after.x - before.x).toFixed(1)}, ${(after.y - before.y).toFixed(1)}) px for a drag of (-80, -90)`);
  assert.ok(Math.abs(after.x - before.x + 80) < 1.5 && Math.abs(after.y - before.y + 90) < 1.5, 'the tip follows the pointer');
  const poses = await page.evaluate(() => [0, 1].map((b) => window.skinlab.lab.bonePose(b).rotation));
  assert.notDeepEqual(poses[0], [0, 0, 0, 1], 'bone 1 turned');
  assert.notDeepEqual(poses[1], [0, 0, 0, 1], 'bone 2 turned');
  // One IK drag is one undo step.
  await page.keyboard.press('Control+z');
  await nextFrame(page);
  assert.deepEqual(await page.evaluate(() => window.skinlab.lab.bonePose(0).rotation), [0, 0, 0, 1]);
});

test('GPU skinning equals the CPU reference for every example and both methods', async () => {
  for (const [index, name] of EXAMPLES.entries()) {
    await page.evaluate((name) => window.skinlab.loadExample(name), name);
    await randomPose(1000 + index);
    for (const method of ['lbs', 'dqs']) {
      const { worst, normals, count, gpuLength } = await gpuVersusCpu(method);
      assert.equal(gpuLength, 3 * count, `${name}/${method}: one position per vertex`);
      assert.ok(worst < 1e-4, `${name}/${method}: GPU and CPU differ by ${worst}`);
      assert.ok(normals < 1e-4, `${name}/${method}: GPU and CPU normals differ by ${normals}`);
      console.log(`# ${name} ${method}: ${count} vertices, max |GPU − CPU| = ${worst.toExponential(2)} (normals ${normals.toExponential(2)})`);
    }
  }
});

test('with 8-bit weights the GPU (unorm8 attributes) still equals the CPU reference', async () => {
  for (const name of ['two-bone-smooth', 'tube', 'fingers']) {
    await page.evaluate((name) => { window.skinlab.loadExample(name); window.skinlab.setQuantised(true); }, name);
    await randomPose(77);
    for (const method of ['lbs', 'dqs']) {
      const { worst } = await gpuVersusCpu(method);
      assert.ok(worst < 1e-4, `${name}/${method} with unorm8 weights: ${worst}`);
    }
    const report = await page.evaluate(() => window.skinlab.lab.quantisationReport('lbs'));
    console.log(`# ${name}: unorm8 weights move vertices by up to ${report.maxPositionError.toExponential(2)} (weight error ≤ ${report.maxWeightError.toFixed(4)})`);
    assert.ok(report.maxWeightError <= 1 / 255 + 1e-7);
  }
  await nextFrame(page);
  assert.match(await page.locator('#quantisation').textContent(), /Largest weight error/);
  await page.evaluate(() => window.skinlab.setQuantised(false));
});

test('side by side: the twisted tube collapses under LBS (left) and keeps its width under DQS (right)', async () => {
  await nextFrame(page, () => page.evaluate(() => {
    window.skinlab.loadExample('tube');
    window.skinlab.setOverlay('bones', false);
    window.skinlab.setCompare(true);
    window.skinlab.lab.setBonePose(1, { rotation: [0, 1, 0, 0] });
  }));
  // Count the mesh's pixels across the joint ring's row in each half.
  const joint = await page.evaluate(() => window.skinlab.vertexScreenPoint(8 * 24));
  const { data: row, width } = await canvasPixels(page, { x: 0, y: joint[1] });
  const [r0, g0, b0] = row;
  const drawn = (from, to) => {
    let n = 0;
    for (let x = from; x < to; x++) {
      if (Math.abs(row[4 * x] - r0) + Math.abs(row[4 * x + 1] - g0) + Math.abs(row[4 * x + 2] - b0) > 24) n++;
    }
    return n;
  };
  const middle = Math.floor(width / 2);
  const widths = { lbs: drawn(0, middle), dqs: drawn(middle, width) };
  console.log(`# side by side, tube twisted 180°: joint row ${widths.lbs} px wide under LBS, ${widths.dqs} px under DQS`);
  assert.ok(widths.dqs > 3 * Math.max(widths.lbs, 1), 'LBS pinches the joint, DQS does not');
  await screenshot(page, 'compare-tube');
  // A drag in the right half turns the same bone.
  const grab = await page.evaluate(() => window.skinlab.boneScreenPoint(1));
  const half = await page.evaluate(() => document.querySelector('#view').clientWidth / 2);
  assert.equal(await page.evaluate(({ x, y }) => window.skinlab.viewer.pickBone(window.skinlab.lab, x, y), { x: grab[0] + half, y: grab[1] }), 1);
  await page.evaluate(() => { window.skinlab.setCompare(false); window.skinlab.setOverlay('bones', true); });
});

test('the palette texture path agrees too, forced on a small example', async () => {
  await page.evaluate(() => window.skinlab.loadExample('tube'));
  await randomPose(7);
  await page.evaluate(() => window.skinlab.viewer.setPaletteTexture(true));
  try {
    for (const method of ['lbs', 'dqs']) {
      const { worst } = await gpuVersusCpu(method);
      assert.ok(worst < 1e-4, `texture path, ${method}: ${worst}`);
    }
  } finally {
    await page.evaluate(() => window.skinlab.viewer.setPaletteTexture(false));
  }
});

test('the fork stretches on y-junction-unweighted and stays bounded on y-junction', async () => {
  const stretch = {};
  for (const name of ['y-junction-unweighted', 'y-junction']) {
    await nextFrame(page, () => page.evaluate((name) => {
      window.skinlab.loadExample(name);
      // The right branch bent by 45° towards the stem.
      window.skinlab.lab.setBonePose(2, { rotation: [0, 0, -Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)] });
    }, name));
    stretch[name] = await page.evaluate(() => {
      const lab = window.skinlab.lab;
      const scene = JSON.parse(lab.sceneJson());
      const rest = scene.mesh.positions;
      const posed = window.skinlab.gpuSkinnedPositions('lbs');
      let fork = -1;
      for (let v = 0; v < rest.length / 3; v++) if (Math.abs(rest[3 * v]) < 1e-6 && rest[3 * v + 1] > 2) fork = v;
      const length = (p, a, b) => Math.hypot(p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]);
      let worst = 0;
      const indices = scene.mesh.indices;
      for (let t = 0; t < indices.length; t += 3) {
        for (const [a, b] of [[0, 1], [1, 2], [2, 0]]) {
          const [u, v] = [indices[t + a], indices[t + b]];
          if (u !== fork && v !== fork) continue;
          worst = Math.max(worst, length(posed, u, v) / length(rest, u, v) - 1);
        }
      }
      return worst;
    });
    await screenshot(page, `fork-${name}`);
  }
  console.log(`# fork edge stretch after bending the right branch 45°: unweighted ${(stretch['y-junction-unweighted'] * 100).toFixed(0)}%, weighted ${(stretch['y-junction'] * 100).toFixed(0)}%`);
  assert.ok(stretch['y-junction-unweighted'] > 0.6, 'the unweighted fork tears');
  assert.ok(stretch['y-junction'] < 0.5 * stretch['y-junction-unweighted'], 'the weighted fork stays bounded');
});

test('the 300-bone chain renders through the palette texture and matches the CPU', async () => {
  await nextFrame(page, () => page.evaluate(() => {
    window.skinlab.loadExample('chain');
    const lab = window.skinlab.lab;
    // A gentle S-curve: each link turns a little, the sign following a sine.
    for (let bone = 0; bone < lab.boneCount(); bone++) {
      const half = 0.006 * Math.sin((bone / lab.boneCount()) * 2 * Math.PI);
      lab.setBonePose(bone, { rotation: [0, 0, Math.sin(half), Math.cos(half)] });
    }
  }));
  const { bones, storage } = await page.evaluate(() => ({
    bones: window.skinlab.lab.boneCount(),
    storage: window.skinlab.viewer.paletteStorage(window.skinlab.lab),
  }));
  assert.equal(bones, 300);
  assert.equal(storage, 'texture');
  const stats = await canvasStats(page);
  assert.ok(stats.covered > 0.01, `the chain covers ${(stats.covered * 100).toFixed(1)}% of the canvas`);
  for (const method of ['lbs', 'dqs']) {
    const { worst } = await gpuVersusCpu(method);
    assert.ok(worst < 1e-4, `chain/${method}: ${worst}`);
  }
  await screenshot(page, 'example-chain');
});

test('a screenshot of each example, posed', async () => {
  const poses = {
    'two-bone': [[1, 0.6]],
    'two-bone-smooth': [[1, 0.6]],
    'y-junction': [[2, -0.7]],
    'y-junction-unweighted': [[2, -0.7]],
  };
  for (const name of EXAMPLES.slice(0, 4)) {
    await nextFrame(page, () => page.evaluate(({ name, pose }) => {
      window.skinlab.loadExample(name);
      for (const [bone, angle] of pose) {
        window.skinlab.lab.setBonePose(bone, { rotation: [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)] });
      }
      window.skinlab.selectBone(pose[0][0]);
    }, { name, pose: poses[name] }));
    await screenshot(page, `example-${name}`);
  }
  for (const method of ['lbs', 'dqs']) {
    await nextFrame(page, () => page.evaluate((method) => {
      window.skinlab.loadExample('tube');
      window.skinlab.setMethod(method);
      window.skinlab.lab.setBonePose(1, { rotation: [0, 1, 0, 0] });
    }, method));
    await screenshot(page, `example-tube-${method}`);
  }
  await page.evaluate(() => window.skinlab.setMethod('lbs'));
  assert.deepEqual(errors, [], 'no console error during the whole run');
});

/** Clicks the first vertex two bones share; returns its index. */
async function clickSharedVertex(page) {
  const vertex = await page.evaluate(() => {
    const lab = window.skinlab.lab;
    for (let v = 0; v < lab.vertexCount(); v++) if (lab.influences(v).length === 2) return v;
    return -1;
  });
  const point = await page.evaluate((v) => window.skinlab.vertexScreenPoint(v), vertex);
  const box = await page.locator('#view').boundingBox();
  await page.mouse.click(box.x + point[0], box.y + point[1]);
  await nextFrame(page);
  return vertex;
}

test('the three steps and the weighted mean drawn: P, R_i·T, the ghosts M_i·P and Z, where the core says, within a pixel', async () => {
  await nextFrame(page, () => page.evaluate(() => {
    window.skinlab.loadExample('two-bone-smooth');
    window.skinlab.lab.setBonePose(1, { rotation: [0, 0, Math.sin(Math.PI / 6), Math.cos(Math.PI / 6)] });
  }));
  // A vertex shared by both bones: click it.
  const vertex = await clickSharedVertex(page);
  assert.equal(await page.evaluate(() => window.skinlab.selectedVertex()), vertex);
  const { drawn, expected } = await page.evaluate((v) => {
    const lab = window.skinlab.lab;
    const rest = JSON.parse(lab.sceneJson()).mesh.positions.slice(3 * v, 3 * v + 3);
    const project = (p) => Array.from(window.skinlab.viewer.screenPointOf(new Float32Array(p)));
    const ghosts = lab.influences(v).map(([bone]) => {
      const m = lab.skinningMatrix(bone);
      const p = [0, 1, 2].map((r) => m[r] * rest[0] + m[4 + r] * rest[1] + m[8 + r] * rest[2] + m[12 + r]);
      return { bone, at: project(p) };
    });
    const skinned = lab.skinnedPositions('lbs');
    return { drawn: window.skinlab.ghosts(), expected: { ghosts, blended: project([0, 1, 2].map((k) => skinned[3 * v + k])) } };
  }, vertex);
  assert.equal(drawn.ghosts.length, 2);
  for (const { bone, at } of expected.ghosts) {
    const ghost = drawn.ghosts.find((g) => g.bone === bone);
    assert.ok(Math.hypot(ghost.x - at[0], ghost.y - at[1]) < 1, `bone ${bone}'s ghost`);
  }
  assert.ok(Math.hypot(drawn.blended.x - expected.blended[0], drawn.blended.y - expected.blended[1]) < 1, 'Z');
  // The skinning note's middle step, T = A_i·Q, drawn in the bone's rest frame: R_i·T.
  const animated = await page.evaluate((v) => {
    const lab = window.skinlab.lab;
    return lab.influences(v).map(([bone]) => {
      const r = lab.restFrame(bone);
      const t = lab.threeSteps(bone, v).inBoneAnimated;
      const p = [0, 1, 2].map((k) => r[k] * t[0] + r[4 + k] * t[1] + r[8 + k] * t[2] + r[12 + k]);
      return { bone, at: Array.from(window.skinlab.viewer.screenPointOf(new Float32Array(p))) };
    });
  }, vertex);
  for (const { bone, at } of animated) {
    const drawnStep = drawn.ghosts.find((g) => g.bone === bone).animated;
    assert.ok(Math.hypot(drawnStep.x - at[0], drawnStep.y - at[1]) < 1, `bone ${bone}'s T`);
  }
  const rest = await page.evaluate((v) => Array.from(window.skinlab.viewer.screenPointOf(
    new Float32Array(JSON.parse(window.skinlab.lab.sceneJson()).mesh.positions.slice(3 * v, 3 * v + 3)))), vertex);
  assert.ok(Math.hypot(drawn.rest.x - rest[0], drawn.rest.y - rest[1]) < 1, 'P');
  // The SVG circles are where the page says it drew them: 2 ghosts, 2 steps, Z.
  const circles = await page.locator('#ghosts circle').evaluateAll((list) => list.map((c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]));
  assert.equal(circles.length, 5);
  // Each point named (the rest point as such), no label over another.
  const texts = await page.locator('#ghosts text').allTextContents();
  for (const name of ['P (rest)', 'T1', 'T2', 'Z1', 'Z2']) assert.ok(texts.includes(name), `${name} among ${texts}`);
  const boxes = drawn.labels;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      assert.ok(apart, `two labels overlap: ${JSON.stringify([a, b])}`);
    }
  }
  // The GPU's value arrives once the pose has held still.
  await page.waitForFunction(() => /GPU \(/.test(document.querySelector('#vertex-steps').textContent));
  const steps = await page.locator('#vertex-steps').textContent();
  const [, cpu, gpu] = steps.match(/CPU (\([^)]*\)) · GPU (\([^)]*\))/);
  assert.equal(cpu, gpu, 'CPU and GPU agree to two decimals');
  await screenshot(page, 'weighted-mean-ghosts');
});

test('the three steps walked: the slider moves each bone\'s dot from P through R_i·T to Z_i', async () => {
  await nextFrame(page, () => page.evaluate(() => {
    window.skinlab.setMode('skin');
    window.skinlab.loadExample('two-bone-smooth');
    window.skinlab.lab.setBonePose(1, { rotation: [0, 0, Math.sin(Math.PI / 6), Math.cos(Math.PI / 6)] });
  }));
  const vertex = await clickSharedVertex(page);
  const at = async (phase) => {
    await page.locator('#steps-phase').fill(String(phase));
    await nextFrame(page);
    return page.evaluate(() => window.skinlab.ghosts());
  };
  const distance = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);
  const start = await at(0.5);
  start.ghosts.forEach((g) => assert.ok(distance(g.step, start.rest) < 1, 'phase ½: still at P, read in the rest frame'));
  const middle = await at(2);
  middle.ghosts.forEach((g) => assert.ok(distance(g.step, g.animated) < 1, 'phase 2: at R_i·T'));
  const late = await at(2.5);
  late.ghosts.forEach((g) => {
    const half = { x: (g.animated.x + g.x) / 2, y: (g.animated.y + g.y) / 2 };
    assert.ok(distance(g.step, half) < 1, 'phase 2½: halfway to Z_i');
  });
  const moving = await at(1.5);
  const moved = moving.ghosts.some((g) => distance(g.step, moving.rest) > 3 && distance(g.step, g.animated) > 3);
  assert.ok(moved, 'phase 1½: on the way from P to R_i·T for the turned bone');
  await screenshot(page, 'three-steps-walk');
  const done = await at(3);
  assert.ok(done.ghosts.every((g) => g.step === undefined), 'phase 3: the results only');
});
