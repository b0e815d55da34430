// The animation talk's rule for the time between frames: interpolate by the
// time that has passed, not by the frames counted. A frame under 10 ms after
// the last drawn one is skipped (its time carries over to the next); a gap
// over 1 s — a hidden tab, a stalled machine — is treated as a pause, not
// shown as a jump. `byFrames` advances a fixed 1/60 s a drawn frame
// instead, to show what goes wrong without the rule: on a slow machine the
// animation runs slow. Pure: tested in Node (tests/node/clock.test.mjs).

/** Frames closer than this to the last drawn one are skipped, seconds. */
export const MIN_STEP = 0.010;
/** Gaps longer than this are a pause, seconds. */
export const MAX_STEP = 1.0;
/** What one frame advances when counting frames, seconds. */
export const FRAME_STEP = 1 / 60;
/** Frames remembered for the strip. */
export const HISTORY = 120;

/** A clock for a player; `tick(now)` (milliseconds) says how far to advance. */
export function createClock() {
  let last = null;
  let byFrames = false;
  const history = [];

  /** Forgets the last frame: the next tick starts afresh (play pressed). */
  function reset() {
    last = null;
  }

  /**
   * The frame at `now` ms: `{advance, kind, dt}` with `kind` one of
   * `start`, `drawn`, `skipped` (advance 0, draw nothing) and `clamped`
   * (advance 0: a pause).
   */
  function tick(now) {
    if (last === null) {
      last = now;
      return remember({ advance: 0, kind: 'start', dt: 0 });
    }
    const dt = (now - last) / 1000;
    if (dt < MIN_STEP) return remember({ advance: 0, kind: 'skipped', dt });
    last = now;
    if (dt > MAX_STEP) return remember({ advance: 0, kind: 'clamped', dt });
    return remember({ advance: byFrames ? FRAME_STEP : dt, kind: 'drawn', dt });
  }

  function remember(frame) {
    history.push(frame);
    if (history.length > HISTORY) history.shift();
    return frame;
  }

  return {
    reset,
    tick,
    history: () => history.slice(),
    setByFrames(on) { byFrames = Boolean(on); },
    byFrames: () => byFrames,
  };
}
