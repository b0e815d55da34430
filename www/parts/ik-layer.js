// The IK mode's drawing over the view (the bones note and the animation talk): for a two-bone
// chain, the law-of-cosines triangle (sides l₁, l₂, d; angles θ₁ at the
// hip, θ₂ at the knee); the selected bone's limit, a hinge's arc from min
// to max or a cone's rim, with handles that drag the limit; and, while a
// race is shown, both solvers' chains after the chosen sweep, in the
// plot's colours. Every point comes from the core, projected by the
// viewer's camera.
import { svg, triples } from './svg.js';
import { focusable, focusedKey, moveByArrows, refocus } from './handles.js';

/** The walk's colours: each gait's ankle path. */
const GAIT_COLOURS = { goose: '#d55e00', 'hip-knee': '#e69f00', ik: '#0072b2' };

/** The race's colours, as in its plot (colour-blind safe). */
export const RACE_COLOURS = { ccd: '#d55e00', fabrik: '#0072b2' };

/**
 * The layer in `#ik-layer` for `app`; `host` offers `triangle()` (`null` or
 * `{a, b, target, theta1, theta2}`), `raceChains()` (`null` or
 * `{ccd: [points], fabrik: [points]}`), `walkPaths()` (`null` or `{gait,
 * traces}`, each trace `{ankle, ground}` flat model points), `ridePath()`
 * (`null` or the path the target rides, flat model points) and
 * `limitDragged(handle, angle)`.
 */
export function createIkLayer(app, host) {
  const { num, t: translate } = app.i18n;
  const { $ } = app;
  const layer = $('#ik-layer');
  let drag = null;

  const screen = (point) => app.viewer.screenPointOf(new Float32Array(point));
  const mid = (p, q) => [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
  const polyline = (points, attributes) => svg('polyline', { points: points.map((p) => p.join(',')).join(' '), ...attributes });
  const label = ([x, y], text, className) => svg('text', { x: x + 8, y: y - 8, class: className }, text);

  function drawTriangle() {
    const triangle = host.triangle();
    if (!triangle) return;
    const [a, b, t] = [triangle.a, triangle.b, triangle.target].map(screen);
    layer.append(
      svg('line', { x1: a[0], y1: a[1], x2: t[0], y2: t[1], class: 'ik-side-d' }),
      polyline([a, b, t], { class: 'ik-sides' }),
      label(mid(a, b), 'l₁', 'ik-label'),
      label(mid(b, t), 'l₂', 'ik-label'),
      label(mid(a, t), 'd', 'ik-label'),
      label(a, `θ₁ ${num(triangle.theta1 * 180 / Math.PI)}°`, 'ik-angle'),
      label(b, `θ₂ ${num(triangle.theta2 * 180 / Math.PI)}°`, 'ik-angle'),
    );
  }

  function drawLimit() {
    const bone = app.viewer.selectedBone();
    if (bone === null) return;
    const limits = app.lab.limits(bone);
    if (!limits) return;
    const origin = app.lab.boneOrigin(bone);
    const end = app.lab.boneEnd(bone);
    const radius = 0.6 * Math.hypot(...[0, 1, 2].map((k) => end[k] - origin[k]));
    const rim = triples(app.lab.limitOutline(bone, radius)).map(screen);
    const o = screen(origin);
    if (limits.hinge) {
      layer.append(polyline([o, ...rim, o], { class: 'ik-limit' }));
      for (const [which, p] of [['min', rim[0]], ['max', rim[rim.length - 1]]]) {
        const handle = svg('circle', { cx: p[0], cy: p[1], r: 9, class: 'ik-limit-handle', 'data-limit': which });
        focusable(handle, translate('aria.limitHandle', { which: translate(`ik.${which}`) }));
        layer.append(handle);
        layer.append(label(p, translate(`ik.${which}`), 'ik-label'));
      }
    } else {
      layer.append(polyline([...rim, rim[0]], { class: 'ik-limit' }));
      for (let k = 0; k < 4; k++) {
        const p = rim[Math.round((k * (rim.length - 1)) / 4)];
        layer.append(svg('line', { x1: o[0], y1: o[1], x2: p[0], y2: p[1], class: 'ik-limit-spoke' }));
      }
      const handle = svg('circle', { cx: rim[0][0], cy: rim[0][1], r: 9, class: 'ik-limit-handle', 'data-limit': 'swing' });
      focusable(handle, translate('aria.limitHandle', { which: translate('ik.swing') }));
      layer.append(handle);
    }
  }

  function drawRace() {
    const chains = host.raceChains();
    if (!chains) return;
    for (const [method, points] of Object.entries(chains)) {
      const on = points.map(screen);
      layer.append(polyline(on, { class: 'ik-race-chain', stroke: RACE_COLOURS[method] }));
      for (const p of on) layer.append(svg('circle', { cx: p[0], cy: p[1], r: 4, fill: RACE_COLOURS[method] }));
    }
  }

  /** The ground, the chosen gait's ankle path and, dashed, IK's for comparison. */
  function drawWalk() {
    const walk = host.walkPaths();
    if (!walk) return;
    const [g0, g1] = triples(walk.traces[walk.gait].ground).map(screen);
    layer.append(svg('line', { x1: g0[0], y1: g0[1], x2: g1[0], y2: g1[1], class: 'ik-ground' }));
    for (const gait of walk.gait === 'ik' ? ['ik'] : [walk.gait, 'ik']) {
      const ankle = triples(walk.traces[gait].ankle).map(screen);
      layer.append(polyline([...ankle, ankle[0]], {
        class: gait === walk.gait ? 'ik-ankle-path' : 'ik-ankle-path other', stroke: GAIT_COLOURS[gait], 'data-gait': gait,
      }));
    }
  }

  function draw() {
    const focused = focusedKey(layer, 'data-limit');
    layer.textContent = '';
    try {
      const ride = host.ridePath();
      if (ride) layer.append(polyline(triples(ride).map(screen), { class: 'ik-ride-path' }));
      drawWalk();
      // The race is its own figure: the two-bone triangle and its labels
      // would lie across its chains.
      if (!host.raceChains()) drawTriangle();
      drawRace();
      drawLimit();
      refocus(layer, 'data-limit', focused);
    } catch {
      // A point behind the camera (3D orbit): draw nothing rather than nonsense.
      layer.textContent = '';
    }
  }

  layer.addEventListener('pointerdown', (event) => {
    const which = event.target.dataset?.limit;
    if (!which) return;
    event.preventDefault();
    event.stopPropagation();
    app.beforeDrag();
    app.lab.checkpoint();
    drag = { which, bone: app.viewer.selectedBone() };
  });
  // A focused handle moves by the arrows, one undo step a press.
  moveByArrows(layer, 'data-limit', (handle, dx, dy) => {
    const bone = app.viewer.selectedBone();
    if (bone === null) return;
    const anchor = new Float32Array(app.lab.boneOrigin(bone));
    const at = app.viewer.modelPointAt(Number(handle.getAttribute('cx')) + dx, Number(handle.getAttribute('cy')) + dy, anchor);
    const angle = app.lab.limitAngleToward(bone, at);
    if (angle === null) return;
    app.lab.checkpoint();
    host.limitDragged(handle.dataset.limit, angle);
  });
  // On the window: the handle is redrawn every frame under the pointer.
  window.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const rect = app.canvas.getBoundingClientRect();
    const anchor = new Float32Array(app.lab.boneOrigin(drag.bone));
    const at = app.viewer.modelPointAt(event.clientX - rect.left, event.clientY - rect.top, anchor);
    const angle = app.lab.limitAngleToward(drag.bone, at);
    if (angle !== null) host.limitDragged(drag.which, angle);
  }, { signal: app.signal });
  const end = () => { drag = null; };
  window.addEventListener('pointerup', end, { signal: app.signal });
  window.addEventListener('pointercancel', end, { signal: app.signal });

  return {
    draw,
    clear: () => { layer.textContent = ''; },
    /** Client coordinates of the limit handle `which` ('min', 'max', 'swing'), or null (for tests). */
    handlePoint(which) {
      const handle = layer.querySelector(`[data-limit="${which}"]`);
      if (!handle) return null;
      const rect = app.canvas.getBoundingClientRect();
      return { x: rect.left + Number(handle.getAttribute('cx')), y: rect.top + Number(handle.getAttribute('cy')) };
    },
  };
}
