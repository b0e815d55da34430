// The arc-length table at its default size keeps its promise on curly
// paths: the length within 0.1 % of Gauss–Legendre integration (the
// independent reference), and the point at arc length s within 0.1 % of
// the length from where s really lies.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Lab } from './wasm.mjs';

test('on random curly Bézier chains the default table is within 0.1 % in length and lookup', () => {
  let seed = 12345;
  const random = () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
  const lab = Lab.example('path');
  let worstLength = 0;
  let worstLookup = 0;
  for (let trial = 0; trial < 24; trial++) {
    const segments = 1 + (trial % 3);
    // Control points scattered widely: loops and cusps-in-the-making.
    const points = Array.from({ length: 3 * (3 * segments + 1) }, (_, k) => (k % 3 === 2 ? 0 : 6 * random() - 3));
    const index = lab.addPath({ points, bone: null, duration: 1, timing: 'uniform' });
    const error = lab.pathError(index);
    worstLength = Math.max(worstLength, Math.abs(error.lengthError) / error.exactLength);
    worstLookup = Math.max(worstLookup, error.lookupError / error.exactLength);
  }
  console.log(`# default table on 24 random chains: length off by ≤ ${(100 * worstLength).toFixed(4)} %, lookup by ≤ ${(100 * worstLookup).toFixed(4)} % of the length`);
  assert.ok(worstLength < 1e-3, `length: ${worstLength}`);
  assert.ok(worstLookup < 1e-3, `lookup: ${worstLookup}`);
  lab.free();
});

/** The length of a cubic Bézier chain to parameter `u`, by 20,000 chords a segment in f64 (this test's own reference). */
function chordLength(points, u) {
  const segments = (points.length / 3 - 1) / 3;
  const at = (k) => [points[3 * k], points[3 * k + 1], points[3 * k + 2]];
  const point = (x) => {
    const scaled = Math.min(Math.max(x, 0), 1) * segments;
    const s = Math.min(Math.floor(scaled), segments - 1);
    const v = scaled - s;
    const w = 1 - v;
    const [p, c, d, q] = [0, 1, 2, 3].map((j) => at(3 * s + j));
    return [0, 1, 2].map((i) => w * w * w * p[i] + 3 * w * w * v * c[i] + 3 * w * v * v * d[i] + v * v * v * q[i]);
  };
  const steps = Math.max(1, Math.round(20000 * segments * u));
  let total = 0;
  let previous = point(0);
  for (let k = 1; k <= steps; k++) {
    const next = point((u * k) / steps);
    total += Math.hypot(next[0] - previous[0], next[1] - previous[1], next[2] - previous[2]);
    previous = next;
  }
  return total;
}

test('loops and near-cusps: pathLength and pathPoint at the default table against this test\'s own chord sum', () => {
  const lab = Lab.example('path');
  const chains = [
    // A loop: the handles cross.
    [0, 0, 0, 3, 3, 0, -1, 3, 0, 2, 0, 0],
    // A near-cusp: the curve almost stops and turns back at its middle.
    [0, 0, 0, 2, 1, 0, 0, 1, 0, 2.001, 0, 0],
    // Two segments meeting at a kink with a tiny handle.
    [0, 0, 0, 1, 2, 0, 2, 2, 0, 2, 0, 0, 2.0001, -0.0001, 0, 4, -2, 0, 4, 0, 0],
  ];
  for (const points of chains) {
    const index = lab.addPath({ points, bone: null, duration: 1, timing: 'uniform' });
    const exact = chordLength(points, 1);
    const length = lab.pathLength(index);
    assert.ok(Math.abs(length - exact) < 1e-3 * exact, `length ${length} vs ${exact}`);
    for (const fraction of [0.1, 0.37, 0.5, 0.81]) {
      const u = lab.pathParameter(index, fraction * length);
      const reached = chordLength(points, u);
      assert.ok(Math.abs(reached - fraction * exact) < 1e-3 * exact, `s = ${fraction} L: arc length to u is ${reached}, not ${fraction * exact}`);
    }
  }
  lab.free();
});
