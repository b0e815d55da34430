// The page's wasm against its size budget: what every student's first
// frame fetches and compiles (the readers' module comes later, when first
// needed, and has no budget of its own).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BUDGET = 400_000;

test('the page\'s wasm is under its 400 KB gzip budget', () => {
  const wasm = readFileSync(new URL('../../www/pkg/skinlab_bg.wasm', import.meta.url));
  const gzip = gzipSync(wasm, { level: 9 }).length;
  assert.ok(gzip < BUDGET, `the page's wasm is ${(gzip / 1000).toFixed(1)} KB gzip, over the ${BUDGET / 1000} KB budget: leave what a first frame never runs to the readers' module (converters/)`);
});
