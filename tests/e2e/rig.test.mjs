// The Rig mode as a user meets it: an OBJ opened, bones placed by clicks
// inside the mesh (each joint midway through the body), extruded, deleted
// and renamed by keys and the panel, undone, the mesh report read, and the
// rig bound by bone heat in the Weights mode.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, waitForSkinlab, nextFrame, screenshot } from './browser.mjs';
import { tubeObj } from '../support/obj.mjs';

const fixture = useBrowser(before, after);

/** The CSS point of the view where the tube's front ring at height `y` is drawn. */
const frontAt = (page, y) => page.evaluate((height) => {
  const positions = window.skinlab.lab.skinnedPositions('lbs');
  let best = null;
  for (let v = 0; v < positions.length / 3; v++) {
    if (Math.abs(positions[3 * v + 1] - height) > 1e-3) continue;
    if (best === null || positions[3 * v + 2] > positions[3 * best + 2]) best = v;
  }
  return window.skinlab.vertexScreenPoint(best);
}, y);

/** The page in `lang` with a static tube (an OBJ, 2 high, radius 0.2) opened, in the Rig mode. */
async function openTubeInRig(lang) {
  const opened = await openPage(fixture.browser, `${fixture.server.url}?example=two-bone&autosave=0&lang=${lang}`);
  const { page } = opened;
  await waitForSkinlab(page);
  await page.locator('#import-file').setInputFiles({ name: 'tube.obj', mimeType: 'text/plain', buffer: Buffer.from(tubeObj(8, 16)) });
  await page.waitForFunction(() => window.skinlab.lab.meshCount() === 2, null, { timeout: 20000 });
  await nextFrame(page, () => page.evaluate(() => window.skinlab.setMode('rig')));
  return opened;
}

/** The roll slider set to `degrees` and let go, as one change. */
const setRoll = (page, degrees) => page.locator('#rig-roll').evaluate((slider, value) => {
  slider.value = String(value);
  slider.dispatchEvent(new Event('change', { bubbles: true }));
}, degrees);

async function clickView(page, [x, y]) {
  const box = await page.locator('#view').boundingBox();
  await nextFrame(page, () => page.mouse.click(box.x + x, box.y + y));
}

test('bones placed by clicks inside an OBJ, edited by keys and the panel, undone, and bound', async () => {
  const { page, errors } = await openTubeInRig('en');
  assert.equal(await page.locator('#mode-rig').isVisible(), true);
  // The report: an open tube has open edges, marked. It is written once
  // the file readers' module has loaded, which may come after the mode.
  await page.waitForFunction(() => document.querySelectorAll('#rig-report li').length > 0, null, { timeout: 20000 });
  const report = await page.locator('#rig-report li').allTextContents();
  assert.equal(report.length, 7);
  assert.match(report.find((line) => /open edges/.test(line)), /^32 open edges/);
  // A file's one-bone mesh holds no copies with different weights.
  assert.match(report.find((line) => /copies hold different weights/.test(line)), /^0 places/);
  // Head, then tail: both inside the tube (radius 0.2); the perspective
  // ray through a front vertex runs a little down and across to the back.
  await clickView(page, await frontAt(page, 0.5));
  assert.match(await page.locator('#rig-do').textContent(), /for the tail/);
  await clickView(page, await frontAt(page, 1.5));
  const first = await page.evaluate(() => ({ count: window.skinlab.lab.boneCount(), rest: window.skinlab.lab.boneRest(1), selected: window.skinlab.selectedBone() }));
  assert.equal(first.count, 2);
  assert.equal(first.selected, 1);
  for (const [point, y] of [[first.rest.head, 0.5], [first.rest.tail, 1.5]]) {
    assert.ok(Math.hypot(point[0], point[2]) < 0.18, `inside the tube: ${point}`);
    assert.ok(Math.abs(point[1] - y) < 0.15, `near the height clicked: ${point}`);
  }
  // Its tail dragged up the tube stays inside it; Shift drags it in the view plane.
  const tailAt = await page.evaluate(() => window.skinlab.viewer.screenPoint(window.skinlab.lab.boneRest(1).tail));
  const box = await page.locator('#view').boundingBox();
  const to = await frontAt(page, 1.75);
  await page.mouse.move(box.x + tailAt[0], box.y + tailAt[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + to[0], box.y + to[1], { steps: 4 });
  await nextFrame(page, () => page.mouse.up());
  const dragged = await page.evaluate(() => window.skinlab.lab.boneRest(1).tail);
  assert.ok(dragged[1] > 1.55 && Math.hypot(dragged[0], dragged[2]) < 0.18, `the tail dragged up inside: ${dragged}`);
  await page.keyboard.down('Shift');
  const from = await page.evaluate(() => window.skinlab.viewer.screenPoint(window.skinlab.lab.boneRest(1).tail));
  await page.mouse.move(box.x + from[0], box.y + from[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + from[0] + 40, box.y + from[1], { steps: 4 });
  await nextFrame(page, () => page.mouse.up());
  await page.keyboard.up('Shift');
  const sideways = await page.evaluate(() => window.skinlab.lab.boneRest(1).tail);
  assert.ok(Math.abs(sideways[1] - dragged[1]) < 0.05 && sideways[0] - dragged[0] > 0.05, `Shift: along the view plane: ${dragged} → ${sideways}`);
  await page.locator('#view').focus();
  await nextFrame(page, () => page.keyboard.press('Control+z'));
  // A click with the bone selected adds a child from its tip; E extrudes; Delete removes.
  await clickView(page, await frontAt(page, 2));
  await page.locator('#view').focus();
  await nextFrame(page, () => page.keyboard.press('e'));
  assert.equal(await page.evaluate(() => window.skinlab.lab.boneCount()), 4);
  assert.deepEqual(await page.evaluate(() => window.skinlab.lab.boneParents()), [null, 0, 1, 2]);
  await nextFrame(page, () => page.keyboard.press('Delete'));
  assert.equal(await page.evaluate(() => window.skinlab.lab.boneCount()), 3);
  // Renamed in the panel, and the rename undone.
  await nextFrame(page, () => page.evaluate(() => window.skinlab.selectBone(1)));
  await page.locator('#rig-name').fill('Spine');
  await nextFrame(page, () => page.locator('#rig-name').press('Enter'));
  assert.equal(await page.evaluate(() => window.skinlab.lab.boneNames()[1]), 'Spine');
  assert.equal(await page.locator('#bone-list li[data-bone="1"] .name').textContent(), 'Spine');
  await page.locator('#view').focus();
  await nextFrame(page, () => page.keyboard.press('Control+z'));
  assert.notEqual(await page.evaluate(() => window.skinlab.lab.boneNames()[1]), 'Spine');
  await screenshot(page, 'rig-placed');
  // Bound by bone heat: the Weights mode, every vertex weighted, the mesh skinned.
  await page.locator('#rig-bind').click();
  await page.waitForFunction(() => window.skinlab.mode() === 'weights' && window.skinlab.lab.influences(0).length > 0, null, { timeout: 20000 });
  const unweighted = await page.evaluate(() => {
    const lab = window.skinlab.lab;
    let count = 0;
    for (let v = 0; v < lab.vertexCount(); v++) if (lab.influences(v).length === 0) count += 1;
    return count;
  });
  assert.equal(unweighted, 0);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.lab.setBonePose(2, { rotation: [0, 0, 0.5, 0.866] })));
  const bent = await page.evaluate(() => Math.min(...window.skinlab.lab.skinnedPositions('lbs').filter((_, k) => k % 3 === 0)));
  assert.ok(bent < -0.3, `the bound mesh follows the bone: ${bent}`);
  await screenshot(page, 'rig-bound');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a chain fitted from two markers clicked inside the mesh', async () => {
  const { page, errors } = await openTubeInRig('de');
  await page.locator('#rig-template').selectOption('chain');
  await page.locator('#rig-chain-bones').fill('3');
  await page.locator('#rig-markers').click();
  assert.match(await page.locator('#rig-marker-next').textContent(), /Anfang/);
  assert.equal(await page.locator('#rig-fit').isDisabled(), true);
  await clickView(page, await frontAt(page, 0.25));
  await clickView(page, await frontAt(page, 1.75));
  assert.match(await page.locator('#rig-marker-next').textContent(), /Alle Marker gesetzt/);
  const placed = await page.evaluate(() => window.skinlab.rigMarkers());
  assert.deepEqual(Object.keys(placed).sort(), ['end', 'start']);
  await page.locator('#rig-fit').click();
  await nextFrame(page);
  assert.deepEqual(await page.evaluate(() => window.skinlab.lab.boneNames()), ['root', 'Chain1', 'Chain2', 'Chain3']);
  const rest = await page.evaluate(() => window.skinlab.lab.boneRest(1));
  assert.ok(Math.hypot(rest.head[0] - placed.start[0], rest.head[1] - placed.start[1], rest.head[2] - placed.start[2]) < 1e-5, 'the chain starts at the first marker');
  await screenshot(page, 'rig-chain-fitted');
  // Bound by geodesic voxels, in the weights worker: every vertex weighted.
  await page.locator('#rig-bind-voxel').click();
  await page.waitForFunction(() => window.skinlab.mode() === 'weights' && window.skinlab.lab.influences(0).length > 0, null, { timeout: 30000 });
  assert.match(await page.locator('#notice').textContent(), /Voxel/);
  const unbound = await page.evaluate(() => {
    const lab = window.skinlab.lab;
    return Array.from({ length: lab.vertexCount() }, (_, v) => lab.influences(v).length).filter((n) => n === 0).length;
  });
  assert.equal(unbound, 0);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.setMode('rig')));
  // Named as the capture's joints and bound, the chain walks: a clip of the
  // capture by joint names, played in the Animate mode.
  await page.evaluate(() => {
    const lab = window.skinlab.lab;
    lab.renameBone(1, 'Hips');
    lab.renameBone(2, 'Spine');
    lab.autoWeights('nearest');
  });
  await page.locator('#rig-walk').click();
  await page.waitForFunction(() => window.skinlab.mode() === 'animate' && window.skinlab.playing(), null, { timeout: 20000 });
  assert.match(await page.locator('#notice').textContent(), /2 Bones über den Namen zugeordnet/);
  assert.ok((await page.evaluate(() => window.skinlab.lab.animationNames().length)) >= 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('bones placed by keyboard alone: the arrows move a pointer over the view, Enter clicks there', async () => {
  const { page, errors } = await openTubeInRig('en');
  await page.locator('#view').focus();
  // The pointer starts at the view's middle, on the tube.
  await nextFrame(page, () => page.keyboard.press('ArrowDown'));
  await nextFrame(page, () => page.keyboard.press('Enter'));
  assert.match(await page.locator('#rig-do').textContent(), /for the tail/);
  for (let k = 0; k < 12; k++) await page.keyboard.press('ArrowUp');
  await nextFrame(page, () => page.keyboard.press('Enter'));
  assert.equal(await page.evaluate(() => window.skinlab.lab.boneCount()), 2);
  const rest = await page.evaluate(() => window.skinlab.lab.boneRest(1));
  assert.ok(rest.tail[1] > rest.head[1] + 0.2, `the tail above the head: ${JSON.stringify(rest)}`);
  assert.ok(Math.hypot(rest.head[0], rest.head[2]) < 0.18, 'inside the tube');
  // Far off the mesh, Enter says so and adds nothing.
  for (let k = 0; k < 60; k++) await page.keyboard.press('ArrowLeft');
  await nextFrame(page, () => page.keyboard.press('Enter'));
  assert.equal(await page.evaluate(() => window.skinlab.lab.boneCount()), 2);
  await page.waitForFunction(() => /Not on the mesh/.test(document.querySelector('#announce').textContent));
  assert.deepEqual(errors, []);
  await page.close();
});

test('X-mirror: a left bone\'s tail dragged and its roll set move its right twin mirrored, in one undo step', async () => {
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}?example=rigged-figure&autosave=0&lang=en`);
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.setMode('rig')));
  const [left, right] = await page.evaluate(() => ['arm_joint_L_2', 'arm_joint_R_2'].map((n) => window.skinlab.lab.boneNames().indexOf(n)));
  assert.equal(await page.evaluate((b) => window.skinlab.lab.boneTwin(b), left), right);
  assert.equal(await page.evaluate(() => window.skinlab.lab.boneTwin(window.skinlab.lab.boneNames().indexOf('torso_joint_2'))), undefined);
  /** The twins' rests, and the mesh's middle in x. */
  const rests = () => page.evaluate(([l, r]) => {
    const xs = window.skinlab.lab.skinnedPositions('lbs').filter((_, k) => k % 3 === 0);
    const middle = (Math.min(...xs) + Math.max(...xs)) / 2;
    return { left: window.skinlab.lab.boneRest(l), right: window.skinlab.lab.boneRest(r), middle };
  }, [left, right]);
  const before = await rests();
  await nextFrame(page, () => page.evaluate((b) => window.skinlab.selectBone(b), left));
  // The left forearm's tail dragged across the view plane (Shift).
  const box = await page.locator('#view').boundingBox();
  const from = await page.evaluate((b) => window.skinlab.viewer.screenPoint(window.skinlab.lab.boneRest(b).tail), left);
  await page.keyboard.down('Shift');
  await page.mouse.move(box.x + from[0], box.y + from[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + from[0], box.y + from[1] - 30, { steps: 3 });
  await nextFrame(page, () => page.mouse.up());
  await page.keyboard.up('Shift');
  const dragged = await rests();
  assert.ok(Math.hypot(...dragged.left.tail.map((c, k) => c - before.left.tail[k])) > 0.05, 'the left tail moved');
  const image = [2 * dragged.middle - dragged.left.tail[0], dragged.left.tail[1], dragged.left.tail[2]];
  assert.ok(Math.hypot(...image.map((c, k) => c - dragged.right.tail[k])) < 1e-4, `the right tail is its mirror image: ${dragged.right.tail} against ${image}`);
  // The roll, set in the panel, turns the twin the other way.
  await nextFrame(page, () => setRoll(page, 30));
  const rolled = await rests();
  assert.ok(Math.abs(rolled.left.roll - Math.PI / 6) < 1e-4 && Math.abs(rolled.right.roll + Math.PI / 6) < 1e-4, `rolls ${rolled.left.roll}, ${rolled.right.roll}`);
  // Each edit is one undo step for both twins.
  await page.locator('#view').focus();
  await nextFrame(page, () => page.keyboard.press('Control+z'));
  await nextFrame(page, () => page.keyboard.press('Control+z'));
  const undone = await rests();
  for (const side of ['left', 'right']) {
    assert.ok(Math.hypot(...undone[side].tail.map((c, k) => c - before[side].tail[k])) < 1e-5, `${side} tail back`);
    assert.ok(Math.abs(undone[side].roll - before[side].roll) < 1e-5, `${side} roll back`);
  }
  // With X-mirror off, the twin stays.
  await page.locator('#rig-mirror').uncheck();
  await nextFrame(page, () => setRoll(page, -20));
  const alone = await rests();
  assert.ok(Math.abs(alone.right.roll - before.right.roll) < 1e-5, 'the twin kept its roll');
  assert.deepEqual(errors, []);
  await page.close();
});

test('by keys with X-mirror on: E extrudes a left bone and its right twin, T and the arrows move the tail, G and Esc put a head back', async () => {
  const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}?example=rigged-figure&autosave=0&lang=de`);
  await waitForSkinlab(page);
  await nextFrame(page, () => page.evaluate(() => window.skinlab.setMode('rig')));
  const names = () => page.evaluate(() => window.skinlab.lab.boneNames());
  const before = await names();
  const [left, right] = ['arm_joint_L_2', 'arm_joint_R_2'].map((n) => before.indexOf(n));
  await nextFrame(page, () => page.evaluate((b) => window.skinlab.selectBone(b), left));
  await page.locator('#view').focus();
  // E: a child of the left bone along it, and the mirrored child of its twin.
  await nextFrame(page, () => page.keyboard.press('e'));
  const added = await names();
  assert.deepEqual(added.slice(before.length), ['arm_joint_L_2_1', 'arm_joint_R_2_1'], 'two bones, named as twins');
  const [newLeft, newRight] = [before.length, before.length + 1];
  const rig = () => page.evaluate(([l, r]) => {
    const xs = window.skinlab.lab.skinnedPositions('lbs').filter((_, k) => k % 3 === 0);
    return {
      left: window.skinlab.lab.boneRest(l), right: window.skinlab.lab.boneRest(r),
      middle: (Math.min(...xs) + Math.max(...xs)) / 2, twin: window.skinlab.lab.boneTwin(l),
      parents: [window.skinlab.lab.boneParents()[l], window.skinlab.lab.boneParents()[r]],
      selected: window.skinlab.selectedBone(),
    };
  }, [newLeft, newRight]);
  const extruded = await rig();
  assert.equal(extruded.twin, newRight, 'the new bones are twins');
  assert.deepEqual(extruded.parents, [left, right]);
  assert.equal(extruded.selected, newLeft);
  const mirror = (p, middle) => [2 * middle - p[0], p[1], p[2]];
  const distance = (a, b) => Math.hypot(...a.map((c, k) => c - b[k]));
  assert.ok(distance(mirror(extruded.left.tail, extruded.middle), extruded.right.tail) < 1e-4, 'the twin is mirrored');
  // T takes the tail: the arrows move it, Enter puts it down.
  await page.keyboard.press('t');
  await page.waitForFunction(() => /Spitze von arm_joint_L_2_1 aufgenommen/.test(document.querySelector('#announce').textContent));
  for (let k = 0; k < 4; k++) await page.keyboard.press('ArrowUp');
  await nextFrame(page, () => page.keyboard.press('Enter'));
  const moved = await rig();
  assert.ok(distance(moved.left.tail, extruded.left.tail) > 0.01, `the tail moved: ${moved.left.tail} from ${extruded.left.tail}`);
  assert.ok(distance(moved.left.head, extruded.left.head) < 1e-6, 'the head stayed');
  assert.ok(distance(mirror(moved.left.tail, moved.middle), moved.right.tail) < 1e-4, 'the twin\'s tail followed, mirrored');
  // G takes the head; Esc puts it back where it was.
  await page.keyboard.press('g');
  for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowRight');
  const carried = await rig();
  assert.ok(distance(carried.left.head, moved.left.head) > 0.01, 'the head moves with the arrows');
  await nextFrame(page, () => page.keyboard.press('Escape'));
  const back = await rig();
  assert.ok(distance(back.left.head, moved.left.head) < 1e-6 && distance(back.right.head, moved.right.head) < 1e-6, 'Esc put both heads back');
  // The extrusion is one undo step for both bones.
  await nextFrame(page, () => page.keyboard.press('Control+z'));
  await nextFrame(page, () => page.keyboard.press('Control+z'));
  assert.deepEqual(await names(), before, 'two undos: the move, then both new bones');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a quadruped fitted from markers: seven clicked, the right paws mirrored, twenty bones with named twins', async () => {
  const { page, errors } = await openTubeInRig('en');
  assert.equal(await page.locator('#rig-fingers-field').isVisible(), true, 'the humanoid asks how many fingers');
  await page.locator('#rig-template').selectOption('quadruped');
  assert.equal(await page.locator('#rig-fingers-field').isVisible(), false, 'a quadruped has no fingers to ask for');
  await page.locator('#rig-markers').click();
  assert.equal((await page.locator('#rig-marker-list li').allTextContents()).length, 9);
  // Nose, withers, hips, tail base and tip, front and back left paws.
  for (const height of [1.75, 1.5, 1, 0.75, 0.25, 1.25, 0.5]) {
    assert.match(await page.locator('#rig-marker-next').textContent(), /Click/);
    await clickView(page, await frontAt(page, height));
  }
  assert.match(await page.locator('#rig-marker-next').textContent(), /All markers placed/);
  const placed = await page.evaluate(() => window.skinlab.rigMarkers());
  const middle = await page.evaluate(() => {
    const xs = window.skinlab.lab.skinnedPositions('lbs').filter((_, k) => k % 3 === 0);
    return (Math.min(...xs) + Math.max(...xs)) / 2;
  });
  for (const end of ['front', 'back']) {
    const [left, right] = [placed[`${end}LeftPaw`], placed[`${end}RightPaw`]];
    assert.ok(Math.abs(right[0] - (2 * middle - left[0])) < 1e-5 && right[1] === left[1] && right[2] === left[2], `${end} right paw mirrors the left`);
  }
  await nextFrame(page, () => page.locator('#rig-fit').click());
  const names = await page.evaluate(() => window.skinlab.lab.boneNames());
  assert.equal(names.length, 21, names.join(', '));
  const leg = names.indexOf('FrontLeftUpLeg');
  assert.equal(await page.evaluate((b) => window.skinlab.lab.boneTwin(b), leg), names.indexOf('FrontRightUpLeg'));
  assert.deepEqual(errors, []);
  await page.close();
});
