// Small helpers that build DOM nodes. Strings always become text, never
// HTML, so names from files cannot inject markup.

export const $ = (selector) => document.querySelector(selector);

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
