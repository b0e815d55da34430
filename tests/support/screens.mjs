// The screens a hall sees, visited one by one: every mode (with the example
// it is taught with) and every step of every lesson, in English, German and
// Chinese, on a projector at 1024×768 (projector view on), a laptop at
// 1280×800 and a phone at 390×844; and a <skin-lab> 640 and 900 px wide in a
// slide column. The screen test measures each (tests/e2e/screen.test.mjs);
// `cargo xtask shots --sheet` puts a picture of each on one contact sheet.
import { openPage, waitForSkinlab } from '../e2e/browser.mjs';

/** Each mode with the example it is taught with. */
export const MODE_EXAMPLES = [
  ['skin', 'two-bone'], ['skin', 'tube'], ['weights', 'y-junction'], ['ik', 'leg'], ['morph', 'face'],
  ['animate', 'walk'], ['animate', 'path'], ['gpu', 'tail'], ['rig', 'mannequin'],
];
export const SCREENS = [
  { name: 'projector 1024×768', width: 1024, height: 768, projector: true, minShare: 0.55 },
  { name: 'laptop 1280×800', width: 1280, height: 800, projector: false, largest: true, oneRow: true },
  { name: 'phone 390×844', width: 390, height: 844, projector: false },
];
export const LANGUAGES = ['en', 'de', 'zh'];
export const ELEMENT_WIDTHS = [640, 900];
/** The element's modes, each with its example. */
export const ELEMENT_MODES = [['skin', 'y-junction'], ['weights', 'y-junction'], ['skin', 'tube'], ['animate', 'walk']];

/** Lets the page settle: frames drawn, panels filled, figures scrolled to, files read. */
export async function settle(page) {
  await page.waitForFunction(() => document.querySelector('#loading').hidden, null, { timeout: 30000 });
  await page.evaluate(() => new Promise((done) => {
    let frames = 4;
    const tick = () => (--frames ? requestAnimationFrame(tick) : done());
    requestAnimationFrame(tick);
  }));
  await page.evaluate(() => window.skinlab.textureReady?.());
}

/**
 * Opens the page at `screen` in `lang` and calls `look(page, where, {lesson})`
 * on every mode and every lesson step in turn; `keep(where)` (all if absent)
 * picks which. Returns the page's errors.
 */
export async function visitPage(browser, serverUrl, screen, lang, look, keep = () => true) {
  const { page, errors } = await openPage(browser, `${serverUrl}?lang=${lang}&autosave=0${screen.projector ? '&projector=1' : ''}`);
  await page.setViewportSize({ width: screen.width, height: screen.height });
  await waitForSkinlab(page);
  for (const [mode, example] of MODE_EXAMPLES) {
    const where = `${mode} (${example})`;
    if (!keep(where)) continue;
    await page.evaluate(async ([m, e]) => { window.skinlab.setMode(m); await window.skinlab.loadExample(e); }, [mode, example]);
    await settle(page);
    await look(page, where, { lesson: false });
  }
  const lessons = await page.evaluate(() => window.skinlab.lessons());
  for (const lesson of lessons) {
    for (let step = 1; step <= lesson.steps; step++) {
      const where = `lesson ${lesson.name} step ${step}`;
      if (!keep(where)) continue;
      await page.evaluate(([name, number]) => window.skinlab.startLesson(name, number), [lesson.name, step]);
      await settle(page);
      await look(page, where, { lesson: true });
    }
  }
  await page.close();
  return errors;
}

/** A slide column's page holding one <skin-lab> `width` px wide. */
export const hostPage = (width, attributes) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A slide</title>
<style>body { margin: 0; font: 16px serif; } skin-lab { display: block; width: ${width}px; height: ${Math.round(width * 0.66)}px; }</style>
<script type="module" src="skin-lab.js"></script></head><body><skin-lab id="lab" ${attributes}></skin-lab></body></html>`;

/** Opens a slide holding a <skin-lab> `width` px wide in `mode` on `example`, in `lang`, drawn: `{page, errors}`. */
export async function openElement(browser, serverUrl, width, lang, [mode, example]) {
  const html = hostPage(width, `example="${example}" mode="${mode}" lang="${lang}"`);
  const opened = await openPage(browser, `${serverUrl}slide-${width}.html`, { html });
  await opened.page.waitForFunction(() => document.getElementById('lab').skinlab?.framesRendered() > 0, null, { timeout: 30000 });
  await opened.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return opened;
}
