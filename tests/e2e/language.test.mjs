// The page in three languages: the switch in the toolbar (remembered across
// visits, kept in the address), no English left in the German or the
// Chinese page in any mode, and the labels of the three-steps and weighted-mean figures placed
// so that none covers another or the point it names.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, pressToolbar, screenshot, useBrowser, waitForSkinlab, nextFrame } from './browser.mjs';
import { DE } from '../../www/labels/de.js';
import { ZH } from '../../www/labels/zh.js';
import { englishOnlyWords, words } from './english-words.mjs';

const fixture = useBrowser(before, after);
const openAt = (query) => openPage(fixture.browser, `${fixture.server.url}${query}`);

test('the language switch turns the whole page, is remembered and kept in the address', async () => {
  const { page, errors } = await openAt('?example=y-junction');
  await waitForSkinlab(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.equal(await page.locator('#modes [data-mode="weights"]').textContent(), 'Weights');
  await nextFrame(page, () => pressToolbar(page, '#language [data-lang="de"]'));
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
  assert.equal(await page.locator('#modes [data-mode="weights"]').textContent(), 'Gewichte');
  assert.equal(await page.locator('#caption').textContent(), DE['cap.y-junction'], 'the caption follows');
  assert.match(await page.locator('#bone-list').textContent(), /linker Schenkel/, 'the example\'s bone names too');
  assert.equal(new URL(page.url()).searchParams.get('lang'), 'de');
  await page.close();
  // A later visit without ?lang= opens in German: the choice was remembered.
  const { page: again } = await openAt('?example=two-bone');
  await waitForSkinlab(again);
  assert.equal(await again.evaluate(() => document.documentElement.lang), 'de');
  await nextFrame(again, () => pressToolbar(again, '#language [data-lang="en"]'));
  assert.equal(await again.locator('#modes [data-mode="weights"]').textContent(), 'Weights');
  assert.equal(await again.evaluate(() => localStorage.getItem('skinlab.lang')), 'en');
  // Chinese, the third: the modes, the caption and the bone names.
  await nextFrame(again, () => pressToolbar(again, '#language [data-lang="zh"]'));
  assert.equal(await again.evaluate(() => document.documentElement.lang), 'zh');
  assert.equal(await again.locator('#modes [data-mode="weights"]').textContent(), ZH['modeName.weights']);
  assert.equal(await again.locator('#caption').textContent(), ZH['cap.two-bone']);
  assert.equal(new URL(again.url()).searchParams.get('lang'), 'zh');
  assert.equal(await again.evaluate(() => localStorage.getItem('skinlab.lang')), 'zh');
  assert.deepEqual(errors, []);
  await again.close();
});

for (const [lang, table, language] of [['de', DE, 'German'], ['zh', ZH, 'Chinese']]) {
  test(`no English word is left in the ${language} page, in any mode`, async () => {
    const englishOnly = englishOnlyWords(table, lang);
    assert.ok(englishOnly.has('weights') && englishOnly.has('reached'), 'the English-only words were found');
    const views = [
      ['two-bone', 'skin'], ['y-junction', 'weights'], ['tube', 'skin'], ['leg', 'ik'], ['arm', 'ik'], ['face', 'morph'],
      ['chain', 'gpu'], ['walk', 'animate'], ['path', 'animate'], ['fingers', 'weights'], ['two-bone-smooth', 'lessons'], ['tube', 'rig'],
    ];
    const found = [];
    for (const [example, mode] of views) {
      const { page, errors } = await openAt(`?example=${example}&mode=${mode}&lang=${lang}`);
      await waitForSkinlab(page);
      // A selected bone and vertex fill the panels' figures.
      await page.evaluate(() => {
        const s = window.skinlab;
        s.selectBone(Math.min(1, s.lab.boneCount() - 1));
        s.selectVertex(Math.min(6, s.lab.vertexCount() - 1));
      });
      if (mode === 'ik') await page.evaluate(() => window.skinlab.setIkTarget([0.3, -2.6, 0]));
      if (mode === 'weights') await page.evaluate(() => window.skinlab.autoWeights('nearest'));
      if (mode === 'lessons') await page.evaluate(() => window.skinlab.startLesson('three-steps', 1));
      await nextFrame(page);
      await page.waitForTimeout(250);
      const text = await page.evaluate(() => document.body.innerText);
      const left = [...new Set(words(text).filter((word) => englishOnly.has(word)))];
      if (left.length) found.push(`${example}/${mode}: ${left.join(', ')}`);
      if (lang === 'zh') {
        assert.ok((text.match(/\p{Script=Han}/gu) ?? []).length > 50, `${example}/${mode}: the page is in Chinese`);
      }
      await screenshot(page, `${language.toLowerCase()}-${example}-${mode}`);
      assert.deepEqual(errors, [], `${example}/${mode}`);
      await page.close();
    }
    assert.deepEqual(found, [], `English words in the ${language} page`);
  });
}

test('the Chinese page names the engine note by its Chinese title and every lesson in Chinese', async () => {
  const { page, errors } = await openAt('?mode=lessons&lang=zh');
  await waitForSkinlab(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh');
  assert.equal(await page.locator('#language [data-lang="zh"]').getAttribute('aria-pressed'), 'true');
  const sources = await page.locator('#lesson-sources').getAttribute('href');
  const notes = await openAt(sources.replace(/^\.?\/?/, ''));
  assert.match(await notes.page.locator('body').innerText(), /引擎设计跟踪\(九\.5\) 骨骼蒙皮动画预研/);
  await notes.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

/** The view labels' client boxes, and the points they name. */
const labelBoxes = (page) => page.evaluate(() => {
  const boxes = [...document.querySelectorAll('#ghosts .view-label')].map((element) => {
    const { x, y, width, height } = element.getBoundingClientRect();
    return { text: element.textContent, x, y, width, height };
  });
  const view = document.querySelector('#view').getBoundingClientRect();
  const drawn = window.skinlab.ghosts();
  const points = [drawn.rest, ...(drawn.ghosts.length > 1 ? [drawn.blended] : []), ...drawn.ghosts.flatMap((g) => [g, g.animated, ...(g.step ? [g.step] : [])])]
    .map(({ x, y }) => ({ x: view.x + x, y: view.y + y }));
  return { boxes, points };
});

const intersects = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('the three-steps and weighted-mean labels never overlap each other or their points', async () => {
  let figures = 0;
  for (const example of ['two-bone', 'two-bone-smooth', 'y-junction', 'fox']) {
    const { page, errors } = await openAt(`?example=${example}`);
    await waitForSkinlab(page);
    await page.evaluate((name) => window.skinlab.loadExample(name), example);
    // The vertices with most bones (the weighted mean has most to say),
    // at rest and posed, each at the steps' three stops and the result.
    const vertices = await page.evaluate(() => {
      const s = window.skinlab;
      const order = [...Array(s.lab.vertexCount()).keys()].sort((a, b) => s.lab.influences(b).length - s.lab.influences(a).length);
      return order.filter((_, k) => k % 7 === 0).slice(0, 4);
    });
    for (const posed of [false, true]) {
      if (posed) await page.evaluate(() => window.skinlab.lab.setBonePose(Math.min(1, window.skinlab.lab.boneCount() - 1), { rotation: [0, 0, 0.26, 0.966] }));
      for (const vertex of vertices) {
        for (const phase of [1, 2, 3]) {
          await page.evaluate(([v, p]) => { window.skinlab.selectVertex(v); window.skinlab.setStepsPhase(p); }, [vertex, phase]);
          await nextFrame(page);
          const { boxes, points } = await labelBoxes(page);
          assert.ok(boxes.length >= 2, `${example} vertex ${vertex}: labelled`);
          for (let i = 0; i < boxes.length; i++) {
            for (let j = i + 1; j < boxes.length; j++) {
              assert.ok(!intersects(boxes[i], boxes[j]),
                `${example} vertex ${vertex} phase ${phase}${posed ? ' posed' : ''}: “${boxes[i].text}” and “${boxes[j].text}” overlap`);
            }
            for (const point of points) {
              assert.ok(!intersects(boxes[i], { x: point.x - 2, y: point.y - 2, width: 4, height: 4 }),
                `${example} vertex ${vertex} phase ${phase}: “${boxes[i].text}” covers a point it names`);
            }
          }
          figures += 1;
        }
      }
    }
    await screenshot(page, `labels-${example}`);
    assert.deepEqual(errors, [], example);
    await page.close();
  }
  console.log(`# ${figures} figures checked for overlapping labels`);
});
