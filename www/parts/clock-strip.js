// The strip of frame times under "Time between frames": one bar per frame,
// its height the time since the last drawn frame, coloured by what the
// clock did with it (drawn, skipped under 10 ms, a pause over 1 s), and the
// animation time against the wall clock since Play.
import { MAX_STEP, MIN_STEP } from '../clock.js';

const COLOURS = { drawn: '#0072b2', start: '#0072b2', skipped: '#9aa5b1', clamped: '#d55e00' };

/** The strip for `clock`, in `app`'s panel. */
export function createClockStrip(app, clock) {
  const { num, t } = app.i18n;
  const { $ } = app;
  let wallStart = 0;
  let advanced = 0;

  /** Play was pressed at `now` (ms). */
  function started(now) {
    wallStart = now;
    advanced = 0;
  }

  /** The clock's `step` at `now` (ms): counted, and drawn when the strip is open. */
  function frame(now, step) {
    advanced += step.advance;
    draw(now);
  }

  function draw(now) {
    if (!$('#clock-box').open) return;
    const canvas = $('#clock-strip');
    const context = canvas.getContext('2d');
    const { width, height } = canvas;
    context.clearRect(0, 0, width, height);
    const frames = clock.history();
    // Heights on a log scale from 1 ms to 2 s, with the two limits marked.
    const y = (seconds) => {
      const f = (Math.log10(Math.max(seconds, 1e-3)) + 3) / (Math.log10(2) + 3);
      return height - 4 - (height - 8) * Math.min(1, Math.max(0, f));
    };
    context.strokeStyle = '#c9d1db';
    context.fillStyle = '#5f6b7a';
    context.font = '24px system-ui, sans-serif';
    for (const [limit, label] of [[MIN_STEP, '10 ms'], [MAX_STEP, '1 s']]) {
      context.beginPath();
      context.moveTo(0, y(limit));
      context.lineTo(width, y(limit));
      context.stroke();
      context.fillText(label, 4, y(limit) - 3);
    }
    const bar = width / 120;
    frames.forEach((frame, k) => {
      context.fillStyle = COLOURS[frame.kind];
      const top = y(frame.dt);
      context.fillRect(k * bar + 1, top, Math.max(1, bar - 2), height - 4 - top);
    });
    const count = (kind) => frames.filter((f) => f.kind === kind).length;
    $('#clock-text').textContent = t('clock.figures', {
      n: num(frames.length),
      drawn: num(count('drawn') + count('start')),
      skipped: num(count('skipped')),
      clamped: num(count('clamped')),
      anim: num(advanced, 2),
      wall: num((now - wallStart) / 1000, 2),
    });
  }

  return { started, frame, advanced: () => advanced };
}
