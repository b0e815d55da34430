// The timeline of the Animate mode (the animation talk): a time ruler, one row per
// bone with a diamond per key, and the playhead. Click or drag on the ruler
// (or an empty spot of a row) to scrub; click a diamond to select its key,
// drag it to move the key in time. An SVG drawn from the core's key times.
import { svg } from './svg.js';
import { boneLabel } from './bones.js';

const LABEL = 84;
/** About the width of a character of the 12 px row labels. */
const CHAR_WIDTH = 6.6;
const RULER = 26;
const ROW = 24;
/** A key's pointer target, px square (WCAG 2.2's least): larger than its diamond. */
const KEY_TARGET = 24;
/** Key times snap to this (seconds) while dragged: 30 frames a second. */
const SNAP = 1 / 30;

/**
 * The timeline in `#timeline` for `app`; `host` offers `clip()`, `time()`,
 * `setTime(t)`, `selectedKey()`, `selectKey(key)` and `keyMoved(bone, from, to)`.
 */
/** The ruler's step for about `rough` seconds a tick: ½ s at least, else 1, 2 or 5 × 10ⁿ. */
function niceStep(rough) {
  if (!(rough > 0.5)) return 0.5;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= rough);
}

export function createTimeline(app, host) {
  const { t } = app.i18n;
  const { $ } = app;
  const root = $('#timeline');
  // User units are CSS pixels: the width is the element's own, read per draw.
  let width = 320;
  let span = 2;
  let viewHeight = RULER;
  let drag = null;

  // The names' column: as wide as the longest name needs (“linker
  // Oberschenkel”), at most 45 % of the timeline.
  let labelWidth = LABEL;
  const x = (time) => labelWidth + ((width - labelWidth - 12) * time) / span;
  const timeAt = (px) => Math.max(0, ((px - labelWidth) * span) / (width - labelWidth - 12));

  /** SVG user units of a pointer event (the SVG scales with the panel). */
  function local(event) {
    const rect = root.getBoundingClientRect();
    return {
      x: ((event.clientX - rect.left) * width) / rect.width,
      y: ((event.clientY - rect.top) * viewHeight) / rect.height,
    };
  }

  function draw() {
    // A key being dragged keeps its diamond until it is dropped.
    if (drag?.kind === 'key') return;
    root.textContent = '';
    width = Math.max(200, Math.round(root.clientWidth) || 320);
    const clip = host.clip();
    const bones = app.lab.boneCount();
    const names = app.lab.boneNames();
    const duration = clip >= 0 ? app.lab.animationDuration(clip) : 0;
    span = Math.max(2, Math.ceil((duration + 0.25) * 2) / 2);
    // Scenes with morph targets get one more row: the weights' keys.
    const morphs = app.lab.morphNames().length > 0;
    const rows = bones + (morphs ? 1 : 0);
    const height = RULER + ROW * rows + 4;
    const labels = Array.from({ length: rows }, (_, row) => (row < bones ? boneLabel(t, names, row) : t('anim.morphRow')));
    const longest = labels.reduce((most, label) => Math.max(most, label.length), 0);
    labelWidth = Math.min(Math.max(LABEL, 12 + CHAR_WIDTH * longest), 0.45 * width);
    const fits = Math.floor((labelWidth - 12) / CHAR_WIDTH);
    // Width 100 % and height auto in the style sheet: the SVG keeps this
    // aspect ratio, so user units scale alike in x and y.
    root.setAttribute('viewBox', `0 0 ${width} ${height}`);
    viewHeight = height;
    // Ruler: a tick every ½ s, labelled every second, or as many ticks as
    // fit (one per 40 px) on a long clip: a key at 10⁶ s costs no more.
    root.append(svg('rect', { x: 0, y: 0, width: width, height: RULER, class: 'ruler' }));
    const minor = niceStep(span / Math.max(4, width / 40));
    const major = minor < 1 ? 1 : 2 * minor;
    for (let k = 0; k * minor <= span * (1 + 1e-9); k++) {
      const tick = k * minor;
      const whole = Math.abs(tick / major - Math.round(tick / major)) < 1e-6;
      root.append(svg('line', { x1: x(tick), x2: x(tick), y1: whole ? 10 : 17, y2: RULER, class: 'tick' }));
      if (whole) root.append(svg('text', { x: x(tick) + 3, y: 13, class: 'tick-label' }, `${tick} s`));
    }
    if (duration > 0) root.append(svg('line', { x1: x(duration), x2: x(duration), y1: RULER, y2: height, class: 'end' }));
    const selectedBone = app.viewer.selectedBone();
    const selectedKey = host.selectedKey();
    for (let row = 0; row < rows; row++) {
      const top = RULER + ROW * row;
      const bone = row < bones ? row : 'morphs';
      root.append(svg('rect', {
        x: 0, y: top, width, height: ROW, class: bone === selectedBone ? 'row selected' : 'row', 'data-bone': bone,
      }));
      const label = labels[row];
      root.append(svg('text', { x: 6, y: top + 15, class: 'row-label' }, label.length > fits ? `${label.slice(0, fits - 1)}…` : label));
      if (clip < 0) continue;
      const times = bone === 'morphs' ? app.lab.morphKeyTimes(clip) : app.lab.keyTimes(clip, bone);
      for (const time of times) {
        const chosen = selectedKey && selectedKey.bone === bone && Math.abs(selectedKey.time - time) < 1e-4;
        const cx = x(time);
        const cy = top + ROW / 2;
        const key = svg('g', { class: chosen ? 'key chosen' : 'key', 'data-bone': bone, 'data-time': time });
        key.append(
          svg('rect', { x: cx - KEY_TARGET / 2, y: cy - KEY_TARGET / 2, width: KEY_TARGET, height: KEY_TARGET, class: 'key-target' }),
          svg('path', { d: `M ${cx} ${cy - 7} L ${cx + 7} ${cy} L ${cx} ${cy + 7} L ${cx - 7} ${cy} Z`, class: 'diamond' }),
        );
        root.append(key);
      }
    }
    const head = x(host.time());
    root.append(svg('line', { x1: head, x2: head, y1: 0, y2: height, class: 'playhead' }));
  }

  root.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    root.setPointerCapture(event.pointerId);
    const at = local(event);
    const target = event.target.closest?.('.key');
    if (target) {
      const bone = target.dataset.bone === 'morphs' ? 'morphs' : Number(target.dataset.bone);
      const time = Number(target.dataset.time);
      if (bone !== 'morphs') app.selectBone(bone);
      host.selectKey({ bone, time });
      drag = { kind: 'key', bone, from: time, to: time, element: target, startX: at.x };
    } else {
      if (at.y > RULER) {
        const bone = Math.floor((at.y - RULER) / ROW);
        if (bone >= 0 && bone < app.lab.boneCount()) app.selectBone(bone);
      }
      host.selectKey(null);
      drag = { kind: 'scrub' };
      host.setTime(timeAt(at.x));
    }
  });
  root.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const at = local(event);
    if (drag.kind === 'scrub') {
      host.setTime(timeAt(at.x));
      return;
    }
    drag.to = Math.max(0, Math.round(timeAt(x(drag.from) + at.x - drag.startX) / SNAP) * SNAP);
    drag.element.setAttribute('transform', `translate(${x(drag.to) - x(drag.from)} 0)`);
  });
  const end = () => {
    if (drag?.kind === 'key' && Math.abs(drag.to - drag.from) > 1e-4) host.keyMoved(drag.bone, drag.from, drag.to);
    drag = null;
  };
  root.addEventListener('pointerup', end);
  root.addEventListener('pointercancel', end);

  return {
    draw,
    /** Client coordinates of `bone`'s row (or the `'morphs'` row) at `time` (for tests and lessons). */
    clientPoint(bone, time) {
      const rect = root.getBoundingClientRect();
      const scale = rect.width / width;
      const row = bone === 'morphs' ? app.lab.boneCount() : bone;
      return { x: rect.left + x(time) * scale, y: rect.top + (RULER + ROW * row + ROW / 2) * scale };
    },
    /** Client coordinates of the ruler at `time`. */
    rulerPoint(time) {
      const rect = root.getBoundingClientRect();
      const scale = rect.width / width;
      return { x: rect.left + x(time) * scale, y: rect.top + (RULER / 2) * scale };
    },
  };
}
