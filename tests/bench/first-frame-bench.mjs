// The first frame: milliseconds from navigation to the first frame drawn of
// the two-bone example, in headless Chromium from a local server — www/ as
// it is (49 modules) and dist/ (one bundle, precompressed, sent as brotli by
// `cargo xtask serve`'s server). Median of 7 fresh loads each (the
// browser cache is bypassed: every load is a new context). Run by
// `cargo xtask bench`, which starts the servers.
//
// Usage: node tests/bench/first-frame-bench.mjs <www url> <dist url>
import { launchBrowser } from '../e2e/browser.mjs';

const [wwwUrl, distUrl] = process.argv.slice(2);
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
/**
 * In the page: when each thing the first frame waits for was there, in ms
 * from navigation: the page's HTML, the last script module, the core's
 * wasm (its last byte; it compiles as it streams), the core started
 * (`skinlab:core-started`) and the first frame (`skinlab:first-frame`).
 */
function phasesOfLoad() {
  const entries = performance.getEntriesByType('resource');
  const scripts = entries.filter((e) => e.initiatorType === 'script' || e.name.endsWith('.js'));
  const wasm = entries.find((e) => e.name.endsWith('.wasm'));
  const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
  return {
    page: performance.getEntriesByType('navigation')[0]?.responseEnd ?? NaN,
    modules: Math.max(0, ...scripts.map((e) => e.responseEnd)),
    moduleCount: scripts.length,
    wasm: wasm?.responseEnd ?? NaN,
    core: mark('skinlab:core-started'),
    frame: mark('skinlab:first-frame'),
  };
}

const browser = await launchBrowser();
try {
  for (const [tag, base] of [['www', wwwUrl], ['dist', distUrl]]) {
    const times = [];
    const phases = [];
    let transfer = null;
    for (let k = 0; k < 7; k++) {
      const page = await browser.newPage();
      await page.route('**/*', (route) => route.continue({ headers: { ...route.request().headers(), 'cache-control': 'no-cache' } }));
      await page.goto(`${base}?example=two-bone`);
      await page.waitForFunction(() => window.skinlab?.firstFrameMs() > 0, null, { timeout: 30000 });
      times.push(await page.evaluate(() => window.skinlab.firstFrameMs()));
      transfer = await page.evaluate(() => {
        const entries = performance.getEntriesByType('resource');
        const wasm = entries.find((e) => e.name.endsWith('.wasm'));
        return { requests: entries.length + 1, wasmSent: wasm?.encodedBodySize ?? 0, wasmSize: wasm?.decodedBodySize ?? 0 };
      });
      phases.push(await page.evaluate(phasesOfLoad));
      await page.close();
    }
    const ms = median(times);
    console.log(`first frame of the two-bone example from ${tag}/: median ${ms.toFixed(0)} ms of ${times.map((t) => t.toFixed(0)).join(', ')} `
      + `(${transfer.requests} requests; wasm ${(transfer.wasmSent / 1000).toFixed(0)} KB sent for ${(transfer.wasmSize / 1000).toFixed(0)} KB)`);
    console.log(`BENCH first_frame_${tag}_ms=${ms.toFixed(1)}`);
    const phase = (name) => median(phases.map((p) => p[name]));
    console.log(`  what it waits for (medians, ms from navigation): page ${phase('page').toFixed(0)}, `
      + `modules fetched ${phase('modules').toFixed(0)} (${phases[0].moduleCount} scripts), wasm fetched ${phase('wasm').toFixed(0)}, `
      + `core compiled and started ${phase('core').toFixed(0)}, scene built and first frame drawn ${phase('frame').toFixed(0)}`);
    for (const name of ['modules', 'wasm', 'core']) console.log(`BENCH first_frame_${tag}_${name}_ms=${phase(name).toFixed(1)}`);
  }
} finally {
  await browser.close();
}
