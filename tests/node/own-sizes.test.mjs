// A <skin-lab>'s style sheet in pixels of its own (www/own-sizes.js): every
// rem length of the real style.css becomes the pixels it is on the lab's
// page, and nothing else in the sheet changes.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ROOT_FONT_PX, remAsPixels } from '../../www/own-sizes.js';

const CSS = readFileSync(new URL('../../www/style.css', import.meta.url), 'utf8');

test('rem lengths become pixels at the given root size; names holding "rem" stay', () => {
  assert.equal(remAsPixels('a { padding: 0.5rem 1rem; margin: -1rem; width: calc(100% - 2.5rem); }', 16),
    'a { padding: 8px 16px; margin: -16px; width: calc(100% - 40px); }');
  assert.equal(remAsPixels('.remove, .x-2rem, --gap-1rem, #lorem { font: .82rem/1.3 mono; }', 10),
    '.remove, .x-2rem, --gap-1rem, #lorem { font: 8.2px/1.3 mono; }');
  assert.equal(remAsPixels('b { width: 21rem; }'), `b { width: ${21 * ROOT_FONT_PX}px; }`);
});

test('the lab page\'s root font is the size the element\'s rem becomes', () => {
  const root = /:root, :host \{[^}]*font: (\d+)px/.exec(CSS);
  assert.ok(root, 'style.css sets the root font in pixels');
  assert.equal(Number(root[1]), ROOT_FONT_PX);
});

test('the real style sheet keeps no rem, and only its rem lengths change', () => {
  const fixed = remAsPixels(CSS);
  assert.ok(CSS.match(/\drem\b/g).length > 100, 'style.css measures in rem');
  assert.equal(fixed.match(/\drem\b/g), null);
  const outside = (css) => css.replace(/-?\d*\.?\d+(rem|px)\b/g, 'N');
  assert.equal(outside(fixed), outside(CSS));
});
