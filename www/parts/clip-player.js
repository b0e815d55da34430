// Plays one clip of the lab shown once from its start, frame by frame by
// elapsed time, for the Morph mode's word and its lip-sync; it stops by
// itself when another scene is shown.

/**
 * Starts clip `clip` of `app.lab`; `onFrame(time)` (optional) hears each
 * time set, `onEnd()` (optional) the end. Returns `{seek(seconds), stop()}`:
 * `seek` moves the playhead to `seconds` now (a voice's word boundary).
 */
export function playClip(app, clip, { onFrame, onEnd } = {}) {
  const lab = app.lab;
  const duration = lab.animationDuration(clip);
  let start = performance.now();
  let frame = 0;
  const step = (now) => {
    // Another scene since: the clip ends with its face.
    if (app.lab !== lab) return;
    const time = Math.min((now - start) / 1000, duration);
    lab.setAnimationTime(clip, time);
    onFrame?.(time);
    app.requestRender();
    if (time < duration) frame = requestAnimationFrame(step);
    else onEnd?.();
  };
  frame = requestAnimationFrame(step);
  return {
    seek(seconds) { start = performance.now() - seconds * 1000; },
    stop() { cancelAnimationFrame(frame); },
  };
}
