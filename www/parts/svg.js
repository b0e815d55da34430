// SVG elements for the layers drawn over the view and in the panels. Names
// and numbers reach the page only as attributes and text nodes, never as
// markup.

const SVG = 'http://www.w3.org/2000/svg';

/** A new SVG element `tag` with `attributes`, and `text` as its text if given. */
export function svg(tag, attributes, text) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** `[x, y, z, x, y, z, …]` as `[[x, y, z], …]`. */
export const triples = (flat) => Array.from({ length: flat.length / 3 }, (_, k) => [flat[3 * k], flat[3 * k + 1], flat[3 * k + 2]]);

/** `text` safe inside SVG markup written as a string (&, <, > and " as character references). */
export const escapeXml = (text) => String(text).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
