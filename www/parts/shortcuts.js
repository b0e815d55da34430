// Where single-key shortcuts act.
/**
 * Whether `event` reached the lab on its view or on no control at all (the
 * page, the element): single-key shortcuts act there, not on a focused
 * button, menu or field, and not at all when they are turned off.
 */
export function forShortcuts(app, event) {
  if (!app.shortcutsOn()) return false;
  const target = event.composedPath()[0];
  // The page's body or root element (a lab on the page's own document), or
  // the element itself (a lab in a <skin-lab>'s shadow root).
  return target === app.root.querySelector('#view') || target === app.root.body || target === app.root.documentElement
    || target === app.root.host || target === app.root;
}
