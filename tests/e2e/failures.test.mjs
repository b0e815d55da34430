// What a visitor sees when the browser cannot run Skinlab.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './browser.mjs';

const fixture = useBrowser(before, after);

test('without WebGL2 the page says so', async () => {
  const page = await fixture.browser.newPage();
  await page.addInitScript(() => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function getContext(kind, ...rest) {
      return kind === 'webgl2' ? null : original.call(this, kind, ...rest);
    };
  });
  await page.goto(fixture.server.url);
  const message = page.locator('#message');
  await message.waitFor({ state: 'visible', timeout: 30000 });
  assert.match(await message.textContent(), /WebGL2 is not available in this browser/);
  await page.close();
});

test('when the wasm cannot load the page says so', async () => {
  const page = await fixture.browser.newPage();
  await page.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'missing' }));
  await page.goto(fixture.server.url);
  const message = page.locator('#message');
  await message.waitFor({ state: 'visible', timeout: 30000 });
  assert.match(await message.textContent(), /could not load its WebAssembly core/);
  await page.close();
});
