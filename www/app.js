// Skinlab's page: one lab on the page's own markup, its link in the
// address bar, its API on `window.skinlab` once it has started.
import { createPage } from './page.js';
import { windowAddress } from './link.js';

const page = createPage(document, {
  address: windowAddress(),
  // Inside a frame (a slide) the page does not save unless its address asks.
  embedded: window.top !== window,
  ready: (api) => { window.skinlab = api; },
});
page.start();
