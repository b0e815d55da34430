// Handles drawn over the view (a path's control points, the ends of an IK
// limit) as keyboard controls too: each takes the focus by Tab, has a name,
// and the arrows move it 10 px a press (2 px with Shift) through the same
// code as a drag. The layers redraw their handles with every frame; the
// handle that had the focus hands it to the one drawn in its place.

import { ARROWS } from '../dom.js';

/** Makes the SVG element `handle` a focusable control named `name`. */
export function focusable(handle, name) {
  handle.setAttribute('tabindex', '0');
  handle.setAttribute('role', 'button');
  handle.setAttribute('aria-label', name);
}

/** The `attribute` value of the handle in `layer` that has the focus, or null. */
export const focusedKey = (layer, attribute) => layer.querySelector(':focus')?.getAttribute(attribute) ?? null;

/** After a redraw, the focus back on the handle of `layer` whose `attribute` is `key`. */
export function refocus(layer, attribute, key) {
  if (key !== null) layer.querySelector(`[${attribute}="${key}"]`)?.focus({ preventScroll: true });
}

/**
 * Calls `move(handle, dx, dy)` (CSS pixels) when an arrow is pressed on a
 * handle of `layer` carrying `attribute`; the key goes no further.
 */
export function moveByArrows(layer, attribute, move) {
  layer.addEventListener('keydown', (event) => {
    const direction = ARROWS[event.key];
    const handle = event.target.closest?.(`[${attribute}]`);
    if (!direction || !handle || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    event.stopPropagation();
    const step = event.shiftKey ? 2 : 10;
    move(handle, direction[0] * step, direction[1] * step);
  });
}
