// The page as a hall sees it: every mode (with the example it is taught
// with) and every step of every lesson, in English, German and Chinese, on a
// projector at 1024×768 (projector view on), a laptop at 1280×800 and a
// phone at 390×844, and a <skin-lab> 640 and 900 px wide in a slide column.
// It fails when a control is cut off or outside its host, two controls
// overlap, a menu's chosen entry does not fit, a step's instruction, check or
// Next is out of sight, or the view is below its share; it prints which.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, waitForSkinlab } from './browser.mjs';
import { inspectScreen } from '../support/screen-check.mjs';

const fixture = useBrowser(before, after);

/** Each mode with the example it is taught with. */
export const MODE_EXAMPLES = [
  ['skin', 'two-bone'], ['skin', 'tube'], ['weights', 'y-junction'], ['ik', 'leg'], ['morph', 'face'],
  ['animate', 'walk'], ['animate', 'path'], ['gpu', 'tail'],
];
const SCREENS = [
  { name: 'projector 1024×768', width: 1024, height: 768, projector: true, minShare: 0.55 },
  { name: 'laptop 1280×800', width: 1280, height: 800, projector: false, largest: true },
  { name: 'phone 390×844', width: 390, height: 844, projector: false },
];
const LANGUAGES = ['en', 'de', 'zh'];

/** Lets the page settle: frames drawn, panels filled, figures scrolled to, files read. */
async function settle(page) {
  await page.waitForFunction(() => {
    const loading = document.querySelector('#loading');
    return loading.hidden;
  }, null, { timeout: 30000 });
  await page.evaluate(() => new Promise((done) => {
    let frames = 4;
    const tick = () => (--frames ? requestAnimationFrame(tick) : done());
    requestAnimationFrame(tick);
  }));
  await page.evaluate(() => window.skinlab.textureReady?.());
}

/** Problems of one screen, each line prefixed with where it was seen. */
function report(where, { problems, viewShare, viewLargest }, screen) {
  const lines = problems.map((line) => `${where}: ${line}`);
  if (screen.minShare && viewShare < screen.minShare) {
    lines.push(`${where}: the view is ${(100 * viewShare).toFixed(0)} % of the screen (at least ${100 * screen.minShare} %)`);
  }
  if (screen.largest && !viewLargest) lines.push(`${where}: the view is not the largest thing on the page`);
  return lines;
}

for (const screen of SCREENS) {
  test(`every mode and every lesson step at ${screen.name}, en/de/zh: nothing cut, covered or out of sight`, async () => {
    const found = [];
    const shares = [];
    for (const lang of LANGUAGES) {
      const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}?lang=${lang}&autosave=0${screen.projector ? '&projector=1' : ''}`);
      await page.setViewportSize({ width: screen.width, height: screen.height });
      await waitForSkinlab(page);
      for (const [mode, example] of MODE_EXAMPLES) {
        await page.evaluate(async ([m, e]) => { window.skinlab.setMode(m); await window.skinlab.loadExample(e); }, [mode, example]);
        await settle(page);
        const seen = await inspectScreen(page);
        shares.push(seen.viewShare);
        found.push(...report(`${lang} ${mode} (${example})`, seen, screen));
      }
      const lessons = await page.evaluate(() => window.skinlab.lessons());
      for (const lesson of lessons) {
        for (let step = 1; step <= lesson.steps; step++) {
          await page.evaluate(([name, number]) => window.skinlab.startLesson(name, number), [lesson.name, step]);
          await settle(page);
          const seen = await inspectScreen(page, { lesson: true });
          shares.push(seen.viewShare);
          found.push(...report(`${lang} lesson ${lesson.name} step ${step}`, seen, screen));
        }
      }
      assert.deepEqual(errors, [], `${lang}: no errors`);
      await page.close();
    }
    console.log(`# ${screen.name}: view ${(100 * Math.min(...shares)).toFixed(0)}–${(100 * Math.max(...shares)).toFixed(0)} % of the screen over ${shares.length} screens`);
    for (const line of found) console.log(`# ${line}`);
    assert.equal(found.length, 0, `${found.length} problems on screen at ${screen.name}:\n${found.slice(0, 60).join('\n')}`);
  });
}

/** A slide column's page holding one <skin-lab> `width` px wide. */
const hostPage = (width, attributes) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A slide</title>
<style>body { margin: 0; font: 16px serif; } skin-lab { display: block; width: ${width}px; height: ${Math.round(width * 0.66)}px; }</style>
<script type="module" src="skin-lab.js"></script></head><body><skin-lab id="lab" ${attributes}></skin-lab></body></html>`;

test('a <skin-lab> 640 and 900 px wide, en/de/zh: its toolbar wraps inside it, nothing cut or covered', async () => {
  const found = [];
  for (const width of [640, 900]) {
    for (const lang of LANGUAGES) {
      for (const [mode, example] of [['skin', 'y-junction'], ['weights', 'y-junction'], ['skin', 'tube'], ['animate', 'walk']]) {
        const html = hostPage(width, `example="${example}" mode="${mode}" lang="${lang}"`);
        const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}slide-${width}.html`, { html });
        await page.waitForFunction(() => document.getElementById('lab').skinlab?.framesRendered() > 0, null, { timeout: 30000 });
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        const seen = await inspectScreen(page, { hostId: 'lab' });
        found.push(...seen.problems.map((line) => `${width} px ${lang} ${mode} (${example}): ${line}`));
        assert.deepEqual(errors, []);
        await page.close();
      }
    }
  }
  for (const line of found) console.log(`# ${line}`);
  assert.equal(found.length, 0, `${found.length} problems in the element:\n${found.slice(0, 40).join('\n')}`);
});
