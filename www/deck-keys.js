// Keys in a lab that sits in a slide deck: a <skin-lab> element, or the page
// in a frame. A deck moves by PageUp/PageDown (a presenter's clicker), the
// arrows, space, n/p and Home/End. The clicker's keys are always the
// deck's: the lab does nothing with them. Another deck key is the lab's
// only where the lab uses it (an arrow turning the selected bone, space
// playing a clip); then it stops there, and the deck does not also move.
// A key the lab leaves goes on to the deck: from an element it bubbles on
// into the host page; from a frame it is sent to the parent window the way
// reveal.js's postMessage API takes it ({"method": "next"}), and the focus
// goes back to the parent, so that other decks hear the next key.

/** The keys decks move by. */
const DECK_KEYS = new Set(['PageUp', 'PageDown', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', ' ', 'n', 'p', 'Home', 'End']);
/** A presenter's clicker's keys. */
const CLICKER_KEYS = new Set(['PageUp', 'PageDown']);

/** The reveal.js method (and its arguments) a deck key stands for. */
export function revealCall(key, shift = false) {
  const calls = {
    PageDown: ['next'], PageUp: ['prev'], ArrowRight: ['right'], ArrowLeft: ['left'], ArrowUp: ['up'], ArrowDown: ['down'],
    ' ': [shift ? 'prev' : 'next'], n: ['next'], p: ['prev'], Home: ['slide', 0], End: ['slide', Number.MAX_SAFE_INTEGER],
  };
  const call = calls[key];
  return call ? { method: call[0], args: call.slice(1) } : null;
}

const forDeck = new WeakSet();

/** Whether the lab leaves `event` alone: a clicker's key while the lab sits in a deck. */
export const leftToDeck = (event) => forDeck.has(event);

const plain = (event) => !event.ctrlKey && !event.metaKey && !event.altKey;

/**
 * Whether the control that had the key uses it itself: every deck key moves
 * in a text field, a slider or a menu; space presses a button or a box.
 */
function usedByControl(control, key) {
  if (!(control instanceof Element)) return false;
  if (control.matches('input:not([type=checkbox], [type=radio], [type=button]), select, textarea, [contenteditable=""], [contenteditable=true]')) return true;
  return key === ' ' && control.matches('button, summary, input, [role=button], [role=checkbox], [role=slider]');
}

/**
 * Sets `root`'s keys up for a deck. `after` is where a key arrives once the
 * lab's own listeners have had it (the element, or the frame's window);
 * `framed`, whether the lab is a frame's page.
 */
export function installDeckKeys(root, { after, framed, signal }) {
  root.addEventListener('keydown', (event) => {
    if (!CLICKER_KEYS.has(event.key) || !plain(event)) return;
    forDeck.add(event);
    // Not even a focused slider or menu of the lab moves by them; anywhere
    // else their default (a plain page scrolls) is the host's.
    if (event.composedPath()[0]?.matches?.('input, select, textarea')) event.preventDefault();
  }, { capture: true, signal });
  after.addEventListener('keydown', (event) => {
    if (!DECK_KEYS.has(event.key) || !plain(event)) return;
    // Used by the lab (it says so by preventing the default) or by the
    // control with the focus: the deck stays.
    const used = forDeck.has(event) ? false : event.defaultPrevented || usedByControl(event.composedPath()[0], event.key);
    if (used) {
      event.stopPropagation();
      return;
    }
    if (!framed) return;
    const call = revealCall(event.key, event.shiftKey);
    window.parent.postMessage(JSON.stringify({ ...call, skinlab: { key: event.key } }), '*');
    event.preventDefault();
    root.activeElement?.blur?.();
    window.parent.focus();
  }, { signal });
}
