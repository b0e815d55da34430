// Screenshots of the face at rest and in some targets, for people to judge:
// node tests/support/face-shots.mjs [out-dir]
import { launchBrowser, openPage, serveStatic, waitForSkinlab, nextFrame, root } from '../e2e/browser.mjs';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';

const out = process.argv[2] ?? join(root, 'test-output', 'face');
await mkdir(out, { recursive: true });
const server = await serveStatic(join(root, 'www'));
const browser = await launchBrowser();
const { page, errors } = await openPage(browser, `${server.url}?example=face&mode=morph&lang=${process.env.LANG_CODE ?? 'en'}`);
await waitForSkinlab(page);
const shapes = { rest: {}, A: { A: 1 }, O: { O: 1 }, smile: { smile: 1 }, 'brows-up': { 'brows up': 1 } };
for (const [name, weights] of Object.entries(shapes)) {
  await nextFrame(page, () => page.evaluate((weights) => {
    const lab = window.skinlab.lab;
    lab.setMorphWeights(lab.morphNames().map((n) => weights[n] ?? 0));
  }, weights));
  await page.waitForTimeout(200);
  await page.locator('#view').screenshot({ path: join(out, `face-${name}.png`) });
}
await page.screenshot({ path: join(out, 'face-page.png') });
console.log(errors.length ? errors : 'no errors', out);
await browser.close();
await server.close();
