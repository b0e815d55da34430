// The benchmarks' gestures in the page, with real pointer input: a bone
// drag, a weight stroke, an IK target drag; and the long tasks (over 50
// ms, PerformanceObserver) counted while they run and in the 3 s after.
import { nextFrame } from '../e2e/browser.mjs';

/**
 * Starts counting the page's long tasks afresh. One observer a page: a
 * second one would count each long task again.
 */
export async function watchLongTasks(page) {
  await page.evaluate(() => {
    window.longTasks = [];
    if (window.longTaskObserver) return;
    window.longTaskObserver = new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => e.duration)));
    window.longTaskObserver.observe({ type: 'longtask' });
  });
}

/** The long tasks' durations since `watchLongTasks`, 3 s after the gesture ended. */
export async function longTasksAfter(page) {
  await page.waitForTimeout(3000);
  return page.evaluate(() => window.longTasks);
}

/**
 * In the page: the vertex nearest the middle of the view, among every 97th,
 * that a paint stroke can start on, kept as `window.paintableSpotFound`;
 * whether there is one. One the view shows
 * (the vertex a click there picks: the brush paints the faces turned to
 * the viewer); and one of two bones or more: adding to a bone that holds a
 * vertex whole, amid others it holds whole, changes nothing.
 */
function paintableSpot() {
  const { skinlab } = window;
  const { lab } = skinlab;
  let best = null;
  let bestDistance = Infinity;
  const rect = document.querySelector('#view').getBoundingClientRect();
  for (let v = 0; v < lab.vertexCount(); v += 97) {
    const p = skinlab.vertexScreenPoint(v);
    const d = Math.hypot(p[0] - rect.width / 2, p[1] - rect.height / 2);
    if (d >= bestDistance || lab.influences(v).length < 2) continue;
    const shown = skinlab.viewer.pickVertex(lab, p[0], p[1]);
    if (shown === null || shown === undefined) continue;
    const [sx, sy] = skinlab.vertexScreenPoint(shown);
    if (shown === v || Math.hypot(sx - p[0], sy - p[1]) < 2) {
      bestDistance = d;
      best = v;
    }
  }
  window.paintableSpotFound = best;
  return best !== null;
}

/**
 * `moves` pointer moves of a gesture, a frame each: `drag` turns bone 2;
 * `stroke` paints, with the paint tool, the heaviest bone of a vertex near
 * the view's middle around that vertex, at the view's zoom (see
 * `paintableSpot`; on a bone's glyph too, since a press there that moves
 * is a stroke); `ik` moves the IK target ring. Resolves to whether the gesture
 * changed the scene (a benchmark of a gesture that missed would measure
 * nothing).
 */
export async function gesture(page, tag, moves) {
  if (tag === 'stroke') {
    // The paint tool opens the Weights mode, whose panel may resize the
    // view: switched to first, and its layout drawn, before any point on
    // the view is measured.
    await page.evaluate(() => window.skinlab.setTool('paint'));
    await nextFrame(page);
    await nextFrame(page);
    await page.evaluate(paintableSpot);
    // The search above is the benchmark's own (on the 30,000-vertex
    // character, 34 ms of projecting every vertex), and entering the
    // Weights mode is not the stroke: a user aims for half a second, and
    // the long tasks counted are the stroke's and what follows it.
    await page.waitForTimeout(500);
    await page.evaluate(() => { if (window.longTasks) window.longTasks.length = 0; });
  }
  const box = await page.locator('#view').boundingBox();
  const ring = tag === 'ik' ? await page.locator('#ik-target').boundingBox() : null;
  let grab;
  if (ring) {
    grab = { x: ring.x + ring.width / 2 - box.x, y: ring.y + ring.height / 2 - box.y };
  } else if (tag === 'stroke') {
    grab = await page.evaluate(() => {
      const { skinlab } = window;
      const best = window.paintableSpotFound ?? 0;
      skinlab.selectBone(skinlab.lab.influences(best)[0][0]);
      skinlab.setBrush({ radius: 60, strength: 0.3, mode: 'add' });
      const [x, y] = skinlab.vertexScreenPoint(best);
      return { x, y };
    });
  } else {
    grab = await page.evaluate(() => {
      const [x, y] = window.skinlab.boneScreenPoint(2);
      return { x, y };
    });
  }
  const revision = () => page.evaluate(() => window.skinlab.lab.revision());
  const before = await revision();
  await page.mouse.move(box.x + grab.x, box.y + grab.y);
  await page.mouse.down();
  for (let k = 1; k <= moves; k++) {
    const reach = tag === 'stroke' ? 40 : 120;
    await page.mouse.move(box.x + grab.x + reach * Math.sin(k / 15), box.y + grab.y + 40 * Math.cos(k / 15));
    await nextFrame(page);
  }
  await page.mouse.up();
  return (await revision()) !== before;
}
