// The path layer of the Animate mode (the animation talk): the selected Bézier path
// drawn over the view with its control polygon and draggable control
// points, the arc-length table's entries as ticks, and markers at equal
// time steps under the path's timing: bunched up under `naive`, evenly
// spaced under `uniform`. Every point comes from the core, projected by
// the viewer's camera.
import { svg, triples } from './svg.js';
import { focusable, focusedKey, moveByArrows, refocus } from './handles.js';

/** Markers at equal time steps along the path. */
export const MARKERS = 16;

/**
 * The path layer in `#paths` for `app`; `host` offers `path()`, `entries()`,
 * `pathEdited()` and, optionally, `decorate(layer, screen)` to draw more on it.
 */
export function createPathLayer(app, host) {
  const { $ } = app;
  const { t } = app.i18n;
  const layer = $('#paths');
  let drag = null;
  let shown = false;

  const screen = (point) => app.viewer.screenPointOf(new Float32Array(point));

  function clear() {
    layer.textContent = '';
    shown = false;
  }

  function draw() {
    const path = host.path();
    if (path < 0) {
      clear();
      return;
    }
    const focused = focusedKey(layer, 'data-point');
    layer.textContent = '';
    shown = true;
    const { points, duration } = app.lab.path(path);
    const controls = triples(points);
    const entries = host.entries();
    let screenPoints;
    try {
      // The curve itself, finely sampled (a table of 257 entries is 256 chords).
      const fine = triples(app.lab.pathTable(path, 257).points).map(screen);
      layer.append(svg('polyline', { points: fine.map((p) => p.join(',')).join(' '), class: 'path-curve' }));
      screenPoints = controls.map(screen);
      // The control polygon: each end point to its neighbouring handles.
      for (let k = 0; k + 3 < screenPoints.length; k += 3) {
        for (const [a, b] of [[k, k + 1], [k + 2, k + 3]]) {
          layer.append(svg('line', {
            x1: screenPoints[a][0], y1: screenPoints[a][1], x2: screenPoints[b][0], y2: screenPoints[b][1], class: 'path-polygon',
          }));
        }
      }
      // The table's entries B(u_k): where the chords are summed.
      for (const p of triples(app.lab.pathTable(path, entries).points).map(screen)) {
        layer.append(svg('circle', { cx: p[0], cy: p[1], r: 3, class: 'path-tick' }));
      }
      // Equal time steps under the chosen timing.
      for (let k = 0; k <= MARKERS; k++) {
        const p = screen(app.lab.pathPosition(path, (duration * k) / MARKERS, entries));
        layer.append(svg('rect', { x: p[0] - 5, y: p[1] - 5, width: 10, height: 10, class: 'path-marker' }));
      }
      host.decorate?.(layer, screen);
    } catch {
      // A point behind the camera (3D orbit): draw nothing rather than nonsense.
      clear();
      return;
    }
    screenPoints.forEach((p, index) => {
      const handle = svg('circle', {
        cx: p[0], cy: p[1], r: index % 3 === 0 ? 9 : 7, class: index % 3 === 0 ? 'path-handle end' : 'path-handle', 'data-point': index,
      });
      focusable(handle, t('aria.pathHandle', { n: index + 1 }));
      layer.append(handle);
    });
    refocus(layer, 'data-point', focused);
  }

  // A focused handle moves by the arrows, one undo step a press.
  moveByArrows(layer, 'data-point', (handle, dx, dy) => {
    const path = host.path();
    const index = Number(handle.dataset.point);
    const anchor = triples(app.lab.path(path).points)[index];
    const [x, y] = screen(anchor);
    app.lab.checkpoint();
    app.lab.setPathPoint(path, index, Array.from(app.viewer.modelPointAt(x + dx, y + dy, new Float32Array(anchor))));
    host.pathEdited();
  });

  layer.addEventListener('pointerdown', (event) => {
    const index = event.target.dataset?.point;
    if (index === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    app.beforeDrag();
    app.lab.checkpoint();
    drag = { point: Number(index) };
  });
  // On the window: the handle under the pointer is redrawn every frame, and
  // the layer itself lets the pointer through to the view.
  window.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const path = host.path();
    const anchor = triples(app.lab.path(path).points)[drag.point];
    const rect = app.canvas.getBoundingClientRect();
    const at = app.viewer.modelPointAt(event.clientX - rect.left, event.clientY - rect.top, new Float32Array(anchor));
    app.lab.setPathPoint(path, drag.point, Array.from(at));
    host.pathEdited();
  }, { signal: app.signal });
  const end = () => { drag = null; };
  window.addEventListener('pointerup', end, { signal: app.signal });
  window.addEventListener('pointercancel', end, { signal: app.signal });

  return {
    draw,
    clear,
    shown: () => shown,
    /** Client coordinates of control point `index` (for tests). */
    handlePoint(index) {
      const path = host.path();
      const [x, y] = screen(triples(app.lab.path(path).points)[index]);
      const rect = app.canvas.getBoundingClientRect();
      return { x: rect.left + x, y: rect.top + y };
    },
  };
}
