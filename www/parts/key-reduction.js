// Key reduction under "Key reduction": from motion capture (a key every
// frame) toward keyframes (few keys). The tolerance is a fraction of the
// figure's size on a log slider; the plot shows, for a range of tolerances
// tried without changing the clip, the largest joint error against the keys
// kept, and the button applies the chosen one (undoable).
import { svg } from './svg.js';
import { convertersReady, loadConverters } from '../converters.js';

const TRIED = [-4, -3.5, -3, -2.5, -2, -1.5, -1];

/** The figure's size: the diagonal of its joints' box as posed now. */
function figureSize(lab) {
  const p = lab.jointPositions();
  const low = [Infinity, Infinity, Infinity];
  const high = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < p.length; k++) {
    low[k % 3] = Math.min(low[k % 3], p[k]);
    high[k % 3] = Math.max(high[k % 3], p[k]);
  }
  return Math.max(1e-6, Math.hypot(high[0] - low[0], high[1] - low[1], high[2] - low[2]));
}

/** The key reduction of `app`; `host` offers `clip()` and `edited()`. */
export function createKeyReduction(app, host) {
  const { num, sig, t } = app.i18n;
  const { $ } = app;
  const plot = $('#reduce-plot');
  plot.setAttribute('viewBox', '0 0 600 200');
  let cache = null;
  let last = null;
  let readersAsked = null;

  const totalKeys = (clip) => {
    let n = 0;
    for (let b = 0; b < app.lab.boneCount(); b++) n += app.lab.keyTimes(clip, b).length;
    return n;
  };
  const tolerance = () => 10 ** Number($('#reduce-tolerance').value) * cache.size;

  function tried(clip) {
    const key = `${clip}:${totalKeys(clip)}`;
    if (cache?.key !== key || cache.lab !== app.lab) {
      const size = figureSize(app.lab);
      cache = {
        key, lab: app.lab, size,
        points: TRIED.map((v) => app.lab.reduceKeys(clip, 10 ** v * size, false)),
      };
    }
    return cache;
  }

  function draw() {
    if (!$('#reduce-box').open) return;
    const clip = host.clip();
    const enough = clip >= 0 && totalKeys(clip) > 2;
    $('#reduce-apply').disabled = !enough;
    if (!enough) {
      $('#reduce-text').textContent = t('reduce.none');
      plot.textContent = '';
      return;
    }
    // The reduction runs in the file readers' module: drawn once it is
    // loaded (asked for once: the panel redraws every frame while a clip
    // plays).
    if (!convertersReady()) {
      readersAsked ??= loadConverters().then(() => app.requestRender(), () => {});
      return;
    }
    const { points, size } = tried(clip);
    $('output[for="reduce-tolerance"]').textContent = sig(tolerance());
    const before = points[0].before;
    const [w, h, left, bottom, top] = [600, 200, 64, 34, 12];
    const maxError = Math.max(...points.map((p) => p.maxError), 1e-9);
    const x = (keys) => left + ((w - left - 16) * keys) / Math.max(before, 1);
    const y = (error) => h - bottom - ((h - bottom - top) * error) / maxError;
    plot.textContent = '';
    plot.append(svg('rect', { x: left, y: top, width: w - left - 16, height: h - bottom - top, class: 'plot-frame' }));
    plot.append(svg('polyline', { points: points.map((p) => `${x(p.after)},${y(p.maxError)}`).join(' '), class: 'plot-line' }));
    for (const p of points) plot.append(svg('circle', { cx: x(p.after), cy: y(p.maxError), r: 5, class: 'plot-dot' }));
    plot.append(svg('text', { x: left - 8, y: y(maxError) + 5, class: 'plot-label end' }, sig(maxError)));
    plot.append(svg('text', { x: left - 8, y: y(0) + 5, class: 'plot-label end' }, '0'));
    plot.append(svg('text', { x: x(before), y: h - 10, class: 'plot-label end' }, `${num(before)} ${t('reduce.keys')}`));
    plot.append(svg('text', { x: left + 4, y: top + 16, class: 'plot-label' }, t('reduce.error')));
    if (last) {
      $('#reduce-text').textContent = t('reduce.figures', {
        before: num(last.before), after: num(last.after), percent: num((100 * last.after) / last.before, 1),
        error: sig(last.maxError), tolerance: sig(last.tolerance),
      });
    } else {
      // A dry run at the slider's tolerance, once per clip state and
      // tolerance: the panel redraws every frame while a clip plays.
      const previewKey = `${cache.key}:${tolerance()}`;
      if (cache.previewKey !== previewKey) {
        cache.preview = app.lab.reduceKeys(clip, tolerance(), false);
        cache.previewKey = previewKey;
      }
      const { preview } = cache;
      $('#reduce-text').textContent = t('reduce.figures', {
        before: num(preview.before), after: num(preview.after), percent: num((100 * preview.after) / preview.before, 1),
        error: sig(preview.maxError), tolerance: sig(tolerance()),
      });
    }
    return size;
  }

  function apply() {
    const clip = host.clip();
    if (clip < 0 || !cache || !convertersReady()) return;
    app.lab.checkpoint();
    last = { ...app.lab.reduceKeys(clip, tolerance()), tolerance: tolerance() };
    host.edited();
  }

  $('#reduce-apply').addEventListener('click', apply);
  $('#reduce-tolerance').addEventListener('input', () => { last = null; app.requestRender(); });
  $('#reduce-box').addEventListener('toggle', () => app.requestRender());

  return {
    draw,
    apply,
    /** Forgets the last result (a new scene). */
    reset() { last = null; cache = null; },
    lastReduction: () => (last ? { ...last } : null),
  };
}
