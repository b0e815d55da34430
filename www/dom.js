// Small helpers that build DOM nodes. Strings always become text, never
// HTML, so names from files cannot inject markup; the page assigns no
// innerHTML anywhere.

/**
 * `el('li', { className: 'x' }, 'text', child)`: an element with properties
 * set and children appended (strings as text nodes).
 */
export function el(tag, properties = {}, ...children) {
  const element = document.createElement(tag);
  Object.assign(element, properties);
  element.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  return element;
}

/** `x` with a subscript (and an optional superscript), e.g. R_i^-1. */
export function sym(base, sub, sup) {
  return [base, el('sub', {}, sub), sup ? el('sup', {}, sup) : null];
}

/**
 * Nodes for a label of our own that marks subscripts and superscripts as
 * `<sub>…</sub>` and `<sup>…</sup>`: those two become elements, everything
 * else (any other `<`, too) stays text. Never parses HTML.
 */
export function richText(text) {
  const nodes = [];
  const pattern = /<(sub|sup)>([^<]*)<\/\1>/g;
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) nodes.push(document.createTextNode(text.slice(at, match.index)));
    nodes.push(el(match[1], {}, match[2]));
    at = match.index + match[0].length;
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}

/** The arrow keys' directions on screen, y down: what a key moves by. */
export const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** Places the round `element` (the brush's circle) at `(x, y)` with radius `r`, CSS pixels. */
export function placeCircle(element, x, y, r) {
  Object.assign(element.style, { left: `${x - r}px`, top: `${y - r}px`, width: `${2 * r}px`, height: `${2 * r}px` });
}
