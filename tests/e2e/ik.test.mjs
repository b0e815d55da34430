// The IK mode in the page: a real mouse drag of the target ring moves the
// chain's tip to it, the leg's knee never bends backwards however the ring
// is dragged, and one drag is one undo step.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, useBrowser, waitForSkinlab, nextFrame } from './browser.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

/** The knee's hinge angle (about Z), radians. */
const kneeAngle = (page) => page.evaluate(() => {
  const [, , z, w] = window.skinlab.lab.bonePose(1).rotation;
  return 2 * Math.atan2(z, w);
});

async function handleCentre(page) {
  const box = await page.locator('#ik-target').boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

test('dragging the ring pulls the leg\'s ankle to it; one drag, one undo step', async () => {
  const { page, errors } = await openAt('?example=leg&mode=ik');
  await waitForSkinlab(page);
  assert.equal(await page.evaluate(() => window.skinlab.mode()), 'ik');
  assert.equal(await page.locator('#ik-target').isVisible(), true, 'the ring shows at the ankle');
  assert.deepEqual(await page.evaluate(() => window.skinlab.ikChain()), { tip: 1, chain: 2, method: 'analytic' });
  const start = await handleCentre(page);
  const ankleBefore = await page.evaluate(() => window.skinlab.lab.boneEnd(1));

  // Up and back: the knee must fold to get there.
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (let step = 1; step <= 10; step++) await page.mouse.move(start.x + 6 * step, start.y - 9 * step);
  await page.mouse.up();
  await nextFrame(page);
  const { target, ankle, report } = await page.evaluate(() => ({
    target: window.skinlab.ikTarget(),
    ankle: Array.from(window.skinlab.lab.boneEnd(1)),
    report: window.skinlab.ikReport(),
  }));
  const distance = Math.hypot(...target.map((v, k) => v - ankle[k]));
  console.log(`# ring dragged to (${target.map((v) => v.toFixed(2))}); ankle ${distance.toExponential(1)} from it, knee ${(await kneeAngle(page) * 180 / Math.PI).toFixed(1)}°`);
  assert.ok(report.reached, JSON.stringify(report));
  assert.ok(distance < 3e-3, `the ankle is on the ring (${distance})`);
  assert.ok(await kneeAngle(page) > 0.2, 'the knee folded');
  const ring = await handleCentre(page);
  assert.ok(Math.hypot(ring.x - (start.x + 60), ring.y - (start.y - 90)) < 2, 'the ring stays under the pointer');
  await screenshot(page, 'ik-leg');

  assert.equal(await page.evaluate(() => window.skinlab.undo()), true);
  await nextFrame(page);
  const ankleUndone = await page.evaluate(() => Array.from(window.skinlab.lab.boneEnd(1)));
  assert.ok(Math.hypot(...ankleUndone.map((v, k) => v - ankleBefore[k])) < 1e-5, 'one undo returns the whole drag');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the knee never bends backwards while the ring sweeps the whole view, with every solver', async () => {
  const { page, errors } = await openAt('?example=leg&mode=ik');
  await waitForSkinlab(page);
  const view = await page.locator('#view').boundingBox();
  for (const method of ['analytic', 'ccd', 'fabrik']) {
    await page.locator('#ik-method').selectOption(method);
    const start = await handleCentre(page);
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    let low = Infinity;
    let high = -Infinity;
    // A zigzag over the view: left to right, top to bottom.
    for (let row = 0; row <= 4; row++) {
      for (let column = 0; column <= 6; column++) {
        const x = view.x + view.width * (row % 2 ? 1 - column / 6 : column / 6) * 0.9 + view.width * 0.05;
        const y = view.y + view.height * (0.05 + 0.9 * row / 4);
        await page.mouse.move(x, y, { steps: 2 });
        const angle = await kneeAngle(page);
        low = Math.min(low, angle);
        high = Math.max(high, angle);
      }
    }
    await page.mouse.up();
    console.log(`# ${method}: knee between ${(low * 180 / Math.PI).toFixed(2)}° and ${(high * 180 / Math.PI).toFixed(2)}°`);
    assert.ok(low >= -1e-4, `${method}: the knee bent backwards to ${low}`);
    assert.ok(high <= 150 * Math.PI / 180 + 1e-4, `${method}: past 150°: ${high}`);
    assert.ok(high - low > 0.5, `${method}: the knee did move`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a limit set in the panel holds: a hinge made stiff keeps the bone still', async () => {
  const { page, errors } = await openAt('?example=arm&mode=ik');
  await waitForSkinlab(page);
  const elbow = await page.evaluate(() => window.skinlab.lab.limits(2));
  assert.deepEqual(elbow.hinge.axis, [0, 0, 1]);
  assert.ok(elbow.hinge.min === 0 && Math.abs(elbow.hinge.max - 145 * Math.PI / 180) < 1e-6, JSON.stringify(elbow));
  // Select the forearm and narrow its hinge to nothing from the panel.
  await nextFrame(page, () => page.locator('#bone-list li[data-bone="2"]').click());
  // The panel follows the selection on a drawn frame; a busy machine may
  // draw the one after the click late.
  await page.waitForFunction(() => document.querySelector('#limit-kind').value === 'hinge', null, { timeout: 5000 }).catch(() => {});
  assert.equal(await page.locator('#limit-kind').inputValue(), 'hinge');
  await page.locator('#hinge-min').fill('0');
  await page.locator('#hinge-max').fill('0');
  await page.locator('#hinge-max').dispatchEvent('input');
  const limits = await page.evaluate(() => window.skinlab.lab.limits(2));
  assert.deepEqual(limits.hinge, { axis: [0, 0, 1], min: 0, max: 0 });
  await page.evaluate(() => window.skinlab.setIkChain({ tip: 3, chain: 3, method: 'ccd' }));
  await nextFrame(page, () => page.evaluate(() => window.skinlab.setIkTarget([1.5, 1.5, 0])));
  const rotation = await page.evaluate(() => window.skinlab.lab.bonePose(2).rotation);
  assert.ok(Math.abs(rotation[2]) < 1e-5, `the stiff elbow stayed straight: ${rotation}`);
  await screenshot(page, 'ik-arm');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the IK race plots CCD against FABRIK sweep by sweep', async () => {
  const { page, errors } = await openAt('?example=arm&mode=ik');
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => {
    window.skinlab.setIkChain({ tip: 3, chain: 3, method: 'ccd' });
    window.skinlab.lab.resetPose();
  }));
  // A target to the upper left of the hand, within reach.
  await page.evaluate(() => { window.skinlab.setIkChain({ tip: 3 }); });
  const race = await page.evaluate(() => {
    const [x, y, z] = window.skinlab.ikTarget();
    window.skinlab.lab.resetPose();
    window.skinlab.setIkTarget([x - 1.2, y + 1.0, z]);
    window.skinlab.lab.resetPose();
    return window.skinlab.ikRace();
  });
  assert.equal(race.ccd.length, 33);
  assert.equal(race.fabrik.length, 33);
  assert.ok(race.ccd[0] > 0.5 && race.fabrik[0] === race.ccd[0], 'both start from the same pose');
  for (const key of ['ccd', 'fabrik']) {
    assert.ok(race[key][32] < race[key][0] * 0.1, `${key} gets closer: ${race[key][0]} → ${race[key][32]}`);
  }
  console.log(`# race: start ${race.ccd[0].toFixed(3)}, after 1 sweep CCD ${race.ccd[1].toFixed(3)} FABRIK ${race.fabrik[1].toFixed(3)}, after 32 CCD ${race.ccd[32].toExponential(1)} FABRIK ${race.fabrik[32].toExponential(1)}`);
  await page.locator('#ik-race-run').click();
  assert.equal(await page.locator('#ik-race-plot').isVisible(), true);
  assert.match(await page.locator('#ik-race-figures').textContent(), /CCD .*FABRIK/);
  await screenshot(page, 'ik-race');
  assert.deepEqual(errors, []);
  await page.close();
});

/** The points of the first SVG element matching `selector` in the IK layer, as [[x, y], …] in client pixels. */
const layerPoints = (page, selector) => page.evaluate((selector) => {
  const element = document.querySelector(`#ik-layer ${selector}`);
  if (!element) return null;
  const rect = document.querySelector('#view').getBoundingClientRect();
  return element.getAttribute('points').trim().split(' ').map((pair) => pair.split(',').map(Number))
    .map(([x, y]) => [rect.left + x, rect.top + y]);
}, selector);

/** Where a model point is on screen, client pixels. */
const onScreen = (page, point) => page.evaluate((point) => {
  const [x, y] = window.skinlab.viewer.screenPointOf(new Float32Array(point));
  const rect = document.querySelector('#view').getBoundingClientRect();
  return [rect.left + x, rect.top + y];
}, point);

const near = (p, q, pixels) => Math.hypot(p[0] - q[0], p[1] - q[1]) < pixels;

test('the law-of-cosines triangle is drawn through hip, knee and target', async () => {
  const { page, errors } = await openAt('?example=leg&mode=ik');
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => {
    const [x, y, z] = window.skinlab.ikTarget();
    window.skinlab.setIkTarget([x - 0.5, y + 0.6, z]);
  }));
  const triangle = await layerPoints(page, '.ik-sides');
  const [hip, knee, target] = await page.evaluate(() => [
    window.skinlab.lab.boneOrigin(0), window.skinlab.lab.boneOrigin(1), window.skinlab.ikTarget(),
  ]);
  assert.equal(triangle.length, 3);
  for (const [k, point] of [hip, knee, target].entries()) {
    assert.ok(near(triangle[k], await onScreen(page, point), 1), `corner ${k}: ${triangle[k]}`);
  }
  const labels = await page.locator('#ik-layer text').allTextContents();
  for (const name of ['l₁', 'l₂', 'd']) assert.ok(labels.includes(name), `${name} in ${labels}`);
  assert.ok(labels.some((text) => text.startsWith('θ₂')), `θ₂ in ${labels}`);
  await screenshot(page, 'ik-triangle');
  assert.deepEqual(errors, []);
  await page.close();
});

test('dragging the knee\'s limit handle in the view sets the hinge\'s maximum; one drag, one undo step', async () => {
  const { page, errors } = await openAt('?example=leg&mode=ik');
  await waitForSkinlab(page);
  await nextFrame(page, () => page.locator('#bone-list li[data-bone="1"]').click());
  // The layer draws the handles on the frame after the selection: waited
  // for, not assumed (a loaded machine may take more than one frame).
  await page.waitForFunction(() => window.skinlab.ikLimitHandle('min') && window.skinlab.ikLimitHandle('max'), null, { timeout: 5000 })
    .catch(() => {});
  const min = await page.evaluate(() => window.skinlab.ikLimitHandle('min'));
  const max = await page.evaluate(() => window.skinlab.ikLimitHandle('max'));
  assert.ok(min && max, 'the hinge shows two handles');
  const knee = await onScreen(page, await page.evaluate(() => window.skinlab.lab.boneOrigin(1)));
  // The leg is seen from the side, the hinge's axis +Z toward the viewer: a
  // turn by +θ is counter-clockwise on screen (y grows downward).
  const turnOnScreen = (angle) => {
    const [dx, dy] = [min.x - knee[0], min.y - knee[1]];
    const [c, s] = [Math.cos(angle), Math.sin(angle)];
    return { x: knee[0] + dx * c + dy * s, y: knee[1] - dx * s + dy * c };
  };
  const at150 = turnOnScreen(150 * Math.PI / 180);
  assert.ok(near([max.x, max.y], [at150.x, at150.y], 2), `the max handle sits at 150°: ${JSON.stringify(max)} vs ${JSON.stringify(at150)}`);
  const goal = turnOnScreen(Math.PI / 2);
  await page.mouse.move(max.x, max.y);
  await page.mouse.down();
  for (let step = 1; step <= 8; step++) {
    await page.mouse.move(max.x + ((goal.x - max.x) * step) / 8, max.y + ((goal.y - max.y) * step) / 8);
  }
  await page.mouse.up();
  await nextFrame(page);
  const hinge = await page.evaluate(() => window.skinlab.lab.limits(1).hinge);
  console.log(`# knee's max dragged to ${(hinge.max * 180 / Math.PI).toFixed(1)}°`);
  assert.ok(Math.abs(hinge.max - Math.PI / 2) < 2 * Math.PI / 180, `max ${hinge.max}`);
  assert.equal(hinge.min, 0);
  assert.equal(await page.locator('#hinge-max').inputValue(), String(Math.round(hinge.max * 180 / Math.PI)));
  await screenshot(page, 'ik-limit-drag');
  assert.equal(await page.evaluate(() => window.skinlab.undo()), true);
  const undone = await page.evaluate(() => window.skinlab.lab.limits(1).hinge);
  assert.ok(Math.abs(undone.max - 150 * Math.PI / 180) < 1e-6, `one undo restores 150°: ${undone.max}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the race\'s slider shows both chains sweep by sweep in the view', async () => {
  const { page, errors } = await openAt('?example=arm&mode=ik');
  await waitForSkinlab(page);
  const target = await page.evaluate(() => {
    window.skinlab.setIkChain({ tip: 3, chain: 3, method: 'ccd' });
    const [x, y, z] = window.skinlab.ikTarget();
    window.skinlab.lab.resetPose();
    window.skinlab.setIkTarget([x - 1.2, y + 1.0, z]);
    window.skinlab.lab.resetPose();
    return window.skinlab.ikTarget();
  });
  await nextFrame(page, () => page.locator('#ik-race-run').click());
  assert.equal(await page.locator('#ik-race-step').isVisible(), true);
  const chainsAt = async (step) => {
    await nextFrame(page, () => page.locator('#ik-race-step').fill(String(step)));
    return page.evaluate(() => {
      const rect = document.querySelector('#view').getBoundingClientRect();
      return Array.from(document.querySelectorAll('#ik-layer .ik-race-chain')).map((line) => ({
        colour: line.getAttribute('stroke'),
        points: line.getAttribute('points').trim().split(' ').map((pair) => pair.split(',').map(Number))
          .map(([x, y]) => [rect.left + x, rect.top + y]),
      }));
    });
  };
  const start = await chainsAt(0);
  assert.deepEqual(start.map((c) => c.colour), ['#d55e00', '#0072b2'], 'CCD and FABRIK, in the plot\'s colours');
  assert.equal(start[0].points.length, 4, 'three bones: four joints');
  const hand = await onScreen(page, await page.evaluate(() => window.skinlab.lab.boneEnd(3)));
  for (const chain of start) assert.ok(near(chain.points[3], hand, 1), 'before the first sweep both are the pose');
  const first = await chainsAt(1);
  assert.ok(!near(first[0].points[3], first[1].points[3], 3), 'after one sweep they differ');
  const aim = await onScreen(page, target);
  for (const chain of await chainsAt(32)) assert.ok(near(chain.points[3], aim, 3), `after 32 sweeps ${chain.colour} is at the target`);
  assert.match(await page.locator('#ik-race-figures').textContent(), /after 32 sweeps: CCD/);
  await chainsAt(2);
  await screenshot(page, 'ik-race-step');
  assert.deepEqual(errors, []);
  await page.close();
});

test('walking the leg: the goose step of pure FK drags the foot through the ground, IK keeps it on the ground', async () => {
  const { page, errors } = await openAt('?example=leg&mode=ik');
  await waitForSkinlab(page);
  assert.equal(await page.locator('#ik-walk').isVisible(), true);
  const groundY = await page.evaluate(() => window.skinlab.gaitTrace('ik').ground[1]);
  /** The ankle's lowest height above the ground over `frames` frames of walking with `gait`. */
  const walkWith = async (gait, frames) => {
    await page.locator('#ik-gait').selectOption(gait);
    await page.locator('#ik-walk-play').click();
    let lowest = Infinity;
    for (let k = 0; k < frames; k++) {
      await nextFrame(page);
      lowest = Math.min(lowest, await page.evaluate(() => window.skinlab.lab.boneEnd(1)[1]) - groundY);
    }
    await page.locator('#ik-walk-play').click();
    return lowest;
  };
  const goose = await walkWith('goose', 60);
  assert.match(await page.locator('#ik-walk-figures').textContent(), /below the ground/);
  assert.equal(await page.locator('#ik-layer [data-gait="goose"]').count(), 1, 'the goose step\'s ankle path is drawn');
  assert.equal(await page.locator('#ik-layer [data-gait="ik"]').count(), 1, 'with IK\'s beside it');
  await screenshot(page, 'ik-walk-goose');
  const ik = await walkWith('ik', 60);
  console.log(`# walking: the ankle's lowest point, goose step ${goose.toFixed(3)}, IK ${ik.toFixed(4)} (relative to the ground)`);
  assert.ok(goose < -0.03, `the stiff leg goes through the ground: ${goose}`);
  assert.ok(ik > -1e-3, `IK keeps the ankle on or above the ground: ${ik}`);
  assert.match(await page.locator('#ik-walk-figures').textContent(), /up to 0\.000/);
  await screenshot(page, 'ik-walk-ik');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the target rides a path and the arm\'s hand follows it; the ride is one undo step', async () => {
  const { page, errors } = await openAt('?example=arm&mode=ik');
  await waitForSkinlab(page);
  const handBefore = await page.evaluate(() => Array.from(window.skinlab.lab.boneEnd(3)));
  await page.locator('#ik-ride').click();
  const seen = [];
  for (let k = 0; k < 40; k++) {
    await nextFrame(page);
    seen.push(await page.evaluate(() => ({
      target: window.skinlab.ikTarget(),
      hand: Array.from(window.skinlab.lab.boneEnd(3)),
      reached: window.skinlab.ikReport()?.reached,
    })));
  }
  await page.locator('#ik-ride').click();
  const path = await page.evaluate(() => window.skinlab.ikRidePath());
  assert.equal(path, 0, 'a path was made for the target');
  // Every target lies on the path (its 512-entry table, within a chord's sag).
  const table = await page.evaluate((p) => Array.from(window.skinlab.lab.pathTable(p, 512).points), path);
  const onPath = (q) => Math.min(...Array.from({ length: table.length / 3 }, (_, k) => Math.hypot(q[0] - table[3 * k], q[1] - table[3 * k + 1], q[2] - table[3 * k + 2])));
  const spread = Math.max(...seen.map((s) => Math.hypot(s.target[0] - seen[0].target[0], s.target[1] - seen[0].target[1])));
  const worst = Math.max(...seen.map((s) => Math.hypot(...s.hand.map((v, k) => v - s.target[k]))));
  const reached = seen.filter((s) => s.reached).length;
  console.log(`# riding: the target moved up to ${spread.toFixed(2)}; the hand reached it in ${reached} of ${seen.length} frames, worst distance ${worst.toExponential(1)}`);
  assert.ok(spread > 0.3, `the target moves along the path: ${spread}`);
  for (const s of seen) assert.ok(onPath(s.target) < 0.01, `target on the path: ${onPath(s.target)}`);
  assert.ok(reached >= 0.95 * seen.length, `${reached} of ${seen.length}`);
  assert.equal(await page.locator('#ik-layer .ik-ride-path').count(), 1, 'the path is drawn');
  await screenshot(page, 'ik-ride');
  assert.equal(await page.evaluate(() => window.skinlab.undo()), true);
  const after = await page.evaluate(() => ({ paths: window.skinlab.lab.pathCount(), hand: Array.from(window.skinlab.lab.boneEnd(3)) }));
  assert.equal(after.paths, 0, 'one undo takes the path away');
  assert.ok(Math.hypot(...after.hand.map((v, k) => v - handBefore[k])) < 1e-5, 'and the pose back');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the panel shows the animation talk\'s forward kinematics: its angles are the pose\'s, its X the ankle', async () => {
  const { page, errors } = await openAt('?example=leg&mode=ik');
  await waitForSkinlab(page);
  const start = await handleCentre(page);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (let step = 1; step <= 10; step++) await page.mouse.move(start.x + 5 * step, start.y - 8 * step);
  await page.mouse.up();
  await nextFrame(page);
  const fk = await page.evaluate(() => window.skinlab.forwardKinematics());
  const knee = await kneeAngle(page);
  // θ₂ is the knee's turn, as its hinge's quaternion says; X is the ankle.
  assert.ok(Math.abs(Math.abs(fk.theta2) - Math.abs(knee)) < 1e-4, `θ₂ ${fk.theta2} against the knee's ${knee}`);
  assert.ok(Math.abs(knee) > 0.2, 'the knee folded');
  assert.ok(Math.hypot(fk.x - fk.tipEnd[0], fk.y - fk.tipEnd[1]) < 1e-4, `X (${fk.x}, ${fk.y}) is the ankle ${fk.tipEnd}`);
  const text = await page.locator('#ik-fk').textContent();
  assert.match(text, /θ₁ = -?[\d.]+°, θ₂ = -?[\d.]+°, X = A \+ \(l₁ cos θ₁ \+ l₂ cos\(θ₁\+θ₂\), l₁ sin θ₁ \+ l₂ sin\(θ₁\+θ₂\)\) = \(/);
  assert.deepEqual(errors, []);
  await page.close();
});
