// Sizes of the lab's own inside a <skin-lab>: style.css measures in `rem`,
// which on the lab's page is its root font (15px), but inside a shadow root
// is the host page's root font, whatever the host set (reveal.js decks,
// `html { font-size: 62.5% }` sites, a reader's zoom of the host). The
// element's copy of the sheet has each `rem` turned into the pixels it is
// on the lab's own page, so a lab looks the same on every host.

/** The lab page's root font size in pixels: style.css's `:root, :host` font. */
export const ROOT_FONT_PX = 15;

/**
 * `css` with every length in `rem` written in pixels at `rootPx` to the rem
 * (`0.5rem` → `7.5px`, `-1rem` → `-15px`); names that merely contain "rem"
 * (`.remove`, `--rem-x`) are left alone.
 */
export function remAsPixels(css, rootPx = ROOT_FONT_PX) {
  return css.replace(/(?<![\w.-])(-?\d*\.?\d+)rem\b/g, (_, number) => `${Number((Number(number) * rootPx).toFixed(4))}px`);
}
