// The player's clock (www/clock.js) against the animation talk's rule,
// fed made-up frame times: skip under 10 ms, pause over 1 s, elapsed time
// rather than frames counted.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createClock, FRAME_STEP } from '../../www/clock.js';

/** Runs `clock` over frame times `times` (ms); returns the animation time. */
function run(clock, times) {
  let animation = 0;
  for (const now of times) animation += clock.tick(now).advance;
  return animation;
}

test('by elapsed time the animation keeps to the clock at any frame rate', () => {
  for (const fps of [20, 30, 60, 144]) {
    const clock = createClock();
    const times = Array.from({ length: 2 * fps + 1 }, (_, k) => (1000 * k) / fps);
    assert.ok(Math.abs(run(clock, times) - 2) < 1e-9, `${fps} fps`);
  }
});

test('counting frames runs slow on a slow machine', () => {
  const clock = createClock();
  clock.setByFrames(true);
  const times = Array.from({ length: 41 }, (_, k) => 50 * k); // 20 fps for 2 s
  assert.ok(Math.abs(run(clock, times) - 40 * FRAME_STEP) < 1e-9);
  assert.ok(Math.abs(run(createClock(), times) - 2) < 1e-9);
});

test('frames under 10 ms are skipped and their time carried to the next', () => {
  const clock = createClock();
  clock.tick(0);
  assert.deepEqual(clock.tick(4), { advance: 0, kind: 'skipped', dt: 0.004 });
  assert.equal(clock.tick(8).kind, 'skipped');
  const next = clock.tick(20);
  assert.equal(next.kind, 'drawn');
  assert.ok(Math.abs(next.advance - 0.02) < 1e-12);
});

test('a gap over a second is a pause, not a jump', () => {
  const clock = createClock();
  const animation = run(clock, [0, 16, 32, 5032, 5048]);
  assert.ok(Math.abs(animation - 0.048) < 1e-9, `${animation}`);
  assert.deepEqual(clock.history().map((f) => f.kind), ['start', 'drawn', 'drawn', 'clamped', 'drawn']);
});
