// Every mode, in three languages, as axe-core (the accessibility engine of
// Chrome's Lighthouse and of most audits) reads it with the WCAG 2.2 AA
// rules: no violation, with the mode's own controls showing (the IK ring on
// an arm, the lesson panel, the Morph sliders).
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nextFrame, openPage, root, useBrowser, waitForSkinlab } from './browser.mjs';

const fixture = useBrowser(before, after);
const axeSource = await readFile(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');

const MODES = ['skin', 'rig', 'weights', 'ik', 'morph', 'animate', 'gpu', 'lessons'];
// Each mode on a scene that gives it its controls.
const EXAMPLE = { skin: 'two-bone', weights: 'y-junction', ik: 'arm', morph: 'face', animate: 'walk', gpu: 'chain', lessons: 'two-bone' };

/** axe-core's violations on `page`, one line each: rule, impact, the first nodes. */
async function violations(page) {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    // Every rule axe runs by default, and WCAG 2.2 AA's (target size among them).
    const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];
    const result = await window.axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'tag', values: tags } });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  });
  return found;
}

for (const lang of ['en', 'de', 'zh']) {
  test(`axe-core finds no violation in any mode (${lang})`, async () => {
    const problems = [];
    for (const mode of MODES) {
      const { page, errors } = await openPage(fixture.browser, `${fixture.server.url}?example=${EXAMPLE[mode]}&mode=${mode}&lang=${lang}`);
      await waitForSkinlab(page);
      await nextFrame(page);
      assert.equal(await page.evaluate(() => window.skinlab.mode()), mode);
      if (mode === 'ik') {
        // The ring is a keyboard control too: arrow keys move the target.
        const ring = page.locator('#ik-target');
        assert.equal(await ring.isVisible(), true, 'the IK ring shows');
        const left = () => ring.evaluate((element) => parseFloat(element.style.left));
        const before = await left();
        await ring.focus();
        for (let k = 0; k < 3; k += 1) await nextFrame(page, () => page.keyboard.press('ArrowLeft'));
        const after = await left();
        assert.ok(after < before - 20, `ArrowLeft moves the IK target left (${before} → ${after})`);
      }
      for (const line of await violations(page)) problems.push(`${mode}: ${line}`);
      assert.deepEqual(errors, [], `${mode}: no page errors`);
      await page.close();
    }
    assert.deepEqual(problems, []);
  });
}
