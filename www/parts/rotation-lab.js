// The rotation lab (the animation talk's "Rotationen"): one body turned from
// one orientation to another three ways side by side — the matrices'
// entries blended, the Euler angles blended, quaternion slerp — with the
// path of one marked corner, and the blended matrix's determinant and
// orthonormality error over t. The orientations come from the readers'
// module (`Lab.rotationSamples`, loaded when the lab is first opened);
// this file only projects and draws them.
import { Lab } from '../pkg/skinlab.js';
import { convertersReady, loadConverters } from '../converters.js';
import { svg } from './svg.js';

const HALF_PI = Math.PI / 2;
/** Euler angles [x, y, z] (radians) from and to, per preset. */
export const PRESETS = {
  x: [[0, 0, 0], [Math.PI, 0, 0]],
  yz: [[0, 0, 0], [0, Math.PI, Math.PI]],
  // R(π, 2π/3, π) is R(0, π/3, 0): the same orientation, other angles.
  same: [[0, Math.PI / 3, 0], [Math.PI, (2 * Math.PI) / 3, Math.PI]],
  // At y = 90° turning x and z together changes nothing: a turn is lost.
  gimbal: [[0, HALF_PI, 0], [HALF_PI, HALF_PI, HALF_PI]],
};
export const METHODS = ['matrix', 'euler', 'slerp'];
const STEPS = 101;
const HALF = [0.9, 0.5, 0.25];
const CORNERS = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => HALF.map((h, axis) => ((k >> axis) & 1 ? h : -h)));
const EDGES = [];
for (let a = 0; a < 8; a++) for (let axis = 0; axis < 3; axis++) if (!((a >> axis) & 1)) EDGES.push([a, a | (1 << axis)]);
const MARKED = 7;
const AXES = [[1.3, 0, 0, 'rot-axis-x'], [0, 1.3, 0, 'rot-axis-y'], [0, 0, 1.3, 'rot-axis-z']];
const PANEL = 200;
const HEIGHT = 230;

/** `m` (3×3 column-major) times `p`. */
const apply = (m, [x, y, z]) => [m[0] * x + m[3] * y + m[6] * z, m[1] * x + m[4] * y + m[7] * z, m[2] * x + m[5] * y + m[8] * z];

/** A fixed oblique view: turned 30° about Y, then tilted 20° about X. */
function project([x, y, z], panel) {
  const [cy, sy, cx, sx] = [Math.cos(0.52), Math.sin(0.52), Math.cos(0.35), Math.sin(0.35)];
  const x1 = cy * x + sy * z;
  const z1 = -sy * x + cy * z;
  const y2 = cx * y - sx * z1;
  return [panel * PANEL + PANEL / 2 + 62 * x1, HEIGHT / 2 + 8 - 62 * y2];
}

/** The rotation lab in `#rotations`; `app` is told to redraw (lesson checks run then). */
export function createRotationLab(app) {
  const { num, sig, t } = app.i18n;
  const { $ } = app;
  const views = $('#rot-views');
  const plot = $('#rot-plot');
  views.setAttribute('viewBox', `0 0 ${3 * PANEL} ${HEIGHT}`);
  plot.setAttribute('viewBox', '0 0 600 200');
  let cache = null;
  let readersAsked = null;

  /** Each method's samples for the chosen preset; null until the readers' module is loaded (asked for once). */
  function samples() {
    if (!convertersReady()) {
      readersAsked ??= loadConverters().then(() => { draw(); app.requestRender(); }, () => {});
      return null;
    }
    const preset = $('#rot-preset').value;
    if (cache?.preset !== preset) {
      const [from, to] = PRESETS[preset];
      cache = { preset, runs: Object.fromEntries(METHODS.map((m) => [m, Lab.rotationSamples({ method: m, from, to, steps: STEPS })])) };
    }
    return cache.runs;
  }

  const at = () => Math.round(Number($('#rot-t').value) * (STEPS - 1));

  function draw() {
    if (!$('#rotations').open) return;
    const runs = samples();
    if (!runs) return;
    const k = at();
    views.textContent = '';
    METHODS.forEach((method, panel) => {
      const matrix = runs[method][k].matrix;
      const trail = runs[method].map((s) => project(apply(s.matrix, CORNERS[MARKED]), panel));
      views.append(svg('polyline', { points: trail.map((p) => p.join(',')).join(' '), class: 'rot-trail' }));
      for (const [x, y, z, kind] of AXES) {
        const [a, b] = [project([0, 0, 0], panel), project(apply(matrix, [x, y, z]), panel)];
        views.append(svg('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: `rot-axis ${kind}` }));
      }
      const corners = CORNERS.map((c) => project(apply(matrix, c), panel));
      for (const [a, b] of EDGES) {
        views.append(svg('line', { x1: corners[a][0], y1: corners[a][1], x2: corners[b][0], y2: corners[b][1], class: 'rot-edge' }));
      }
      views.append(svg('circle', { cx: corners[MARKED][0], cy: corners[MARKED][1], r: 6, class: 'rot-marked' }));
      views.append(svg('text', { x: panel * PANEL + PANEL / 2, y: HEIGHT - 8, class: 'plot-label middle' }, t(`rot.${method}`)));
    });
    const matrix = runs.matrix[k];
    $('output[for="rot-t"]').textContent = num(k / (STEPS - 1), 2);
    const gimbal = $('#rot-preset').value === 'gimbal' ? ` ${t('rot.gimbalNote')}` : '';
    $('#rot-figures').textContent = t('rot.figures', {
      t: num(k / (STEPS - 1), 2), det: num(matrix.determinant, 3), error: sig(matrix.orthonormalityError),
    }) + gimbal;
    drawPlot(runs, k);
  }

  function drawPlot(runs, k) {
    const [w, h, left, bottom, top] = [600, 200, 56, 34, 12];
    const values = runs.matrix.flatMap((s) => [s.determinant, s.orthonormalityError]);
    const low = Math.min(0, ...values);
    const high = Math.max(1, ...values);
    const x = (f) => left + (w - left - 16) * f;
    const y = (v) => h - bottom - ((h - bottom - top) * (v - low)) / (high - low);
    plot.textContent = '';
    plot.append(svg('rect', { x: left, y: top, width: w - left - 16, height: h - bottom - top, class: 'plot-frame' }));
    // The ticks at low, 1 and high, those that are apart (high is often 1).
    const ticks = [low, 1, high].filter((v, i, all) => all.findIndex((w) => Math.abs(w - v) < 0.15 * (high - low)) === i);
    for (const v of ticks) plot.append(svg('text', { x: left - 8, y: y(v) + 5, class: 'plot-label end' }, num(v, 1)));
    const line = (pick, kind) => {
      const points = runs.matrix.map((s, i) => `${x(i / (STEPS - 1))},${y(pick(s))}`).join(' ');
      plot.append(svg('polyline', { points, class: `plot-line ${kind}` }));
    };
    line((s) => s.determinant, 'rot-det');
    line((s) => s.orthonormalityError, 'rot-error');
    plot.append(svg('polyline', { points: `${x(0)},${y(1)} ${x(1)},${y(1)}`, class: 'plot-line rot-slerp' }));
    plot.append(svg('text', { x: x(1) - 4, y: h - 10, class: 'plot-label end' }, 't'));
    plot.append(svg('text', { x: left + 6, y: h - 10, class: 'plot-label rot-det-label' }, `${t('rot.matrix')}: ${t('rot.det')}`));
    plot.append(svg('text', { x: x(1) - 40, y: h - 10, class: 'plot-label end rot-error-label' }, t('rot.error')));
    plot.append(svg('line', { x1: x(k / (STEPS - 1)), y1: top, x2: x(k / (STEPS - 1)), y2: h - bottom, class: 'plot-playhead' }));
  }

  const changed = () => { draw(); app.requestRender(); };
  $('#rot-preset').addEventListener('change', changed);
  $('#rot-t').addEventListener('input', changed);
  $('#rotations').addEventListener('toggle', changed);

  // While the lab is open on screen, its three bodies take the main view
  // (the scene behind them is not what a step about rotations is about); the
  // panel keeps the slider, the figures and the plot.
  const home = views.nextElementSibling;
  /** Puts the three bodies over the view while `shown` and the lab is open, else back in the panel. */
  function place(shown) {
    const section = $('#rotations');
    const onStage = shown && section.open && section.offsetParent !== null;
    if (onStage !== views.classList.contains('on-stage')) {
      if (onStage) $('#view').after(views);
      else home.before(views);
      views.classList.toggle('on-stage', onStage);
    }
    if (onStage) views.style.height = `${$('#view').offsetHeight}px`;
  }

  return {
    draw,
    place,
    /**
     * The matrix method's determinant at the slider's t while the lab is
     * open and its samples are in, else null (for tests).
     */
    state: () => ({
      preset: $('#rot-preset').value,
      t: at() / (STEPS - 1),
      determinant: $('#rotations').open ? samples()?.matrix[at()].determinant ?? null : null,
    }),
  };
}
