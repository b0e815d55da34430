// The characteristic curve of the selected path (the animation talk's V): the
// fraction of the path covered over time, drawn beside the view when the
// path's timing is "curve", its points dragged with the pointer. The core
// keeps the curve monotone (Fritsch–Carlson) whatever the drag asks. Each
// point is a keyboard control too: Tab reaches it, the arrows move it.
import { focusable, focusedKey, moveByArrows, refocus } from './handles.js';
import { svg } from './svg.js';

const WIDTH = 600;
// The axes' names sit above the frame and under the ticks, apart from them.
const HEIGHT = 290;
const PAD = { left: 64, right: 20, top: 50, bottom: 70 };
const SAMPLES = 120;

/** The graph in `#speed-graph`; `host` offers `path()`, `time()` and `edited()`. */
export function createSpeedGraph(app, host) {
  const { num, t } = app.i18n;
  const { $ } = app;
  const graph = $('#speed-graph');
  graph.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  let drag = null;

  const span = (path) => {
    const { duration } = app.lab.path(path);
    const curve = app.lab.pathSpeed(path);
    return Math.max(duration, curve ? curve.times[curve.times.length - 1] : 0, 1e-3);
  };
  const x = (seconds, length) => PAD.left + ((WIDTH - PAD.left - PAD.right) * seconds) / length;
  const y = (fraction) => HEIGHT - PAD.bottom - (HEIGHT - PAD.top - PAD.bottom) * fraction;

  function draw() {
    const path = host.path();
    const shown = path >= 0 && app.lab.path(path).timing === 'curve';
    $('#speed-box').hidden = !shown;
    if (!shown) return;
    const length = span(path);
    const curve = app.lab.pathSpeed(path);
    const focused = focusedKey(graph, 'data-point');
    graph.textContent = '';
    graph.append(svg('rect', { x: PAD.left, y: PAD.top, width: WIDTH - PAD.left - PAD.right, height: HEIGHT - PAD.top - PAD.bottom, class: 'plot-frame' }));
    // No 0 on the distance axis: the time axis's 0 is in that corner.
    for (const fraction of [0.5, 1]) {
      graph.append(svg('text', { x: PAD.left - 8, y: y(fraction) + 5, class: 'plot-label end' }, num(fraction, 1)));
    }
    for (const seconds of [0, length / 2, length]) {
      graph.append(svg('text', { x: x(seconds, length), y: HEIGHT - PAD.bottom + 22, class: 'plot-label middle' }, num(seconds, 1)));
    }
    graph.append(svg('text', { x: WIDTH - PAD.right, y: HEIGHT - 4, class: 'plot-label end' }, t('speed.time')));
    graph.append(svg('text', { x: 6, y: 20, class: 'plot-label' }, t('speed.distance')));
    // V(t) from the core: the rider's distance over the path's length
    // (any table gives the same ratio).
    const total = app.lab.pathLength(path, 2);
    const points = Array.from({ length: SAMPLES + 1 }, (_, k) => {
      const seconds = (length * k) / SAMPLES;
      return [x(seconds, length), y(app.lab.pathDistance(path, seconds, 2) / total)];
    });
    graph.append(svg('polyline', { points: points.map((p) => p.join(',')).join(' '), class: 'plot-line' }));
    const now = Math.min(host.time(), length);
    graph.append(svg('line', { x1: x(now, length), y1: PAD.top, x2: x(now, length), y2: HEIGHT - PAD.bottom, class: 'plot-playhead' }));
    curve.times.forEach((seconds, k) => {
      const handle = svg('circle', { cx: x(seconds, length), cy: y(curve.distances[k]), r: 14, class: 'plot-handle', 'data-point': k });
      focusable(handle, t('aria.speedPoint', { n: k + 1, time: num(seconds, 2), distance: num(curve.distances[k], 2) }));
      graph.append(handle);
    });
    refocus(graph, 'data-point', focused);
  }

  /** The graph's (time, fraction) under client point (`clientX`, `clientY`). */
  function valueAt(clientX, clientY, length) {
    const box = graph.getBoundingClientRect();
    const gx = ((clientX - box.left) / box.width) * WIDTH;
    const gy = ((clientY - box.top) / box.height) * HEIGHT;
    return [((gx - PAD.left) / (WIDTH - PAD.left - PAD.right)) * length, (HEIGHT - PAD.bottom - gy) / (HEIGHT - PAD.top - PAD.bottom)];
  }

  /** Client coordinates of curve point `k`. */
  function handlePoint(k) {
    const path = host.path();
    const curve = app.lab.pathSpeed(path);
    const box = graph.getBoundingClientRect();
    const length = span(path);
    return {
      x: box.left + (x(curve.times[k], length) / WIDTH) * box.width,
      y: box.top + (y(curve.distances[k]) / HEIGHT) * box.height,
    };
  }

  graph.addEventListener('pointerdown', (event) => {
    const point = event.target.dataset?.point;
    if (point === undefined) return;
    event.preventDefault();
    app.lab.checkpoint();
    drag = { point: Number(point), length: span(host.path()) };
    graph.setPointerCapture?.(event.pointerId);
  });
  graph.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const [seconds, fraction] = valueAt(event.clientX, event.clientY, drag.length);
    app.lab.setPathSpeedPoint(host.path(), drag.point, { time: seconds, distance: fraction });
    host.edited();
  });
  // The arrows move a focused point as a drag by as many pixels would.
  moveByArrows(graph, 'data-point', (handle, dx, dy) => {
    const point = Number(handle.dataset.point);
    const at = handlePoint(point);
    app.lab.checkpoint();
    const [seconds, fraction] = valueAt(at.x + dx, at.y + dy, span(host.path()));
    app.lab.setPathSpeedPoint(host.path(), point, { time: seconds, distance: fraction });
    host.edited();
  });
  const end = () => { drag = null; };
  graph.addEventListener('pointerup', end);
  graph.addEventListener('pointercancel', end);

  return {
    draw,
    /** Client coordinates of curve point `k` (for tests). */
    handlePoint,
  };
}
