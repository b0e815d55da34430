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
