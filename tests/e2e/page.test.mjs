// The page in a real browser: it loads the wasm and the API answers.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage, serveStatic, screenshot, root } from './browser.mjs';
import { join } from 'node:path';

let server;
let browser;
before(async () => {
  server = await serveStatic(join(root, 'www'));
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('the page loads the wasm with no console error', async () => {
  const { page, errors } = await openPage(browser, server.url);
  await page.waitForFunction(() => window.skinlab !== undefined, null, { timeout: 30000 });
  const answer = await page.evaluate(() => {
    const lab = window.skinlab.Lab.example('y-junction');
    return { bones: lab.boneCount(), vertices: lab.vertexCount() };
  });
  assert.equal(answer.bones, 3);
  assert.ok(answer.vertices > 10);
  await screenshot(page, 'minimal-page');
  assert.deepEqual(errors, []);
  await page.close();
});
