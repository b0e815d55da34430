// The page as a hall sees it (tests/support/screens.mjs visits the screens).
// It fails when a control is cut off or outside its host, two controls
// overlap, the toolbar takes two rows where one is asked, a menu's chosen
// entry does not fit, a step's instruction, check or Next is out of sight,
// or the view is below its share; it prints which.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './browser.mjs';
import { inspectScreen } from '../support/screen-check.mjs';
import { ELEMENT_MODES, ELEMENT_WIDTHS, LANGUAGES, SCREENS, openElement, visitPage } from '../support/screens.mjs';

const fixture = useBrowser(before, after);

/** Problems of one screen, each line prefixed with where it was seen. */
function report(where, { problems, viewShare, viewLargest, toolbarRows }, screen) {
  const lines = problems.map((line) => `${where}: ${line}`);
  if (screen.oneRow && toolbarRows > 1) lines.push(`${where}: the toolbar takes ${toolbarRows} rows (one asked)`);
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
    const rows = [];
    for (const lang of LANGUAGES) {
      const errors = await visitPage(fixture.browser, fixture.server.url, screen, lang, async (page, where, { lesson }) => {
        const seen = await inspectScreen(page, { lesson });
        shares.push(seen.viewShare);
        rows.push(seen.toolbarRows);
        found.push(...report(`${lang} ${where}`, seen, screen));
      });
      assert.deepEqual(errors, [], `${lang}: no errors`);
    }
    console.log(`# ${screen.name}: view ${(100 * Math.min(...shares)).toFixed(0)}–${(100 * Math.max(...shares)).toFixed(0)} % of the screen over ${shares.length} screens; toolbar ${Math.min(...rows)}–${Math.max(...rows)} rows`);
    for (const line of found) console.log(`# ${line}`);
    assert.equal(found.length, 0, `${found.length} problems on screen at ${screen.name}:\n${found.slice(0, 60).join('\n')}`);
  });
}

test('a <skin-lab> 640 and 900 px wide, en/de/zh: its toolbar wraps inside it, nothing cut or covered', async () => {
  const found = [];
  for (const width of ELEMENT_WIDTHS) {
    for (const lang of LANGUAGES) {
      for (const [mode, example] of ELEMENT_MODES) {
        const { page, errors } = await openElement(fixture.browser, fixture.server.url, width, lang, [mode, example]);
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
