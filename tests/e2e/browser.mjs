// Shared set-up for the browser tests: a static server for www/ and the
// system Chromium driven by playwright-core.
import { createServer } from 'node:http';
import { readFile, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const outputDir = join(root, 'test-output');

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * Serves `dir` on a free loopback port; resolves to { url, close, override }:
 * `override(path, body)` serves `body` at `path` (e.g. '/pkg/x.wasm')
 * instead of the file, to pages and their workers alike, until
 * `override(path, null)`.
 */
export async function serveStatic(dir) {
  const overrides = new Map();
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    if (overrides.has(path)) {
      response.writeHead(200, { 'Content-Type': types[extname(path)] ?? 'application/octet-stream' });
      response.end(overrides.get(path));
      return;
    }
    const file = normalize(join(dir, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(normalize(dir))) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((r) => server.close(r)),
    override: (path, body) => (body === null ? overrides.delete(path) : overrides.set(path, body)),
  };
}

/**
 * Launches the system Chromium headless with the flags a closed network needs (no
 * background networking, component updates, sync or QUIC);
 * `gpuCompositing` instead lets the compositor use the (SwiftShader) GPU,
 * as on a machine with a graphics card: with `--disable-gpu` the page's
 * WebGL frames are read back to a software compositor, which blocks the
 * main thread for as long as the software renderer draws (the benchmark
 * measures long tasks both ways).
 */
export async function launchBrowser({ gpuCompositing = false } = {}) {
  const userDataDir = await mkdtemp(join(tmpdir(), 'skinlab-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1280, height: 800 },
    args: [
      '--headless',
      '--no-sandbox',
      ...(gpuCompositing ? ['--enable-gpu-compositing', '--ignore-gpu-blocklist'] : ['--disable-gpu']),
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
    ],
  });
  return context;
}

/** Opens `url` in a new page, collecting console errors and page errors. */
/**
 * Installed in every page and frame the tests open (an init script, which
 * the page's CSP does not govern): `window.testCanvasRgba()` copies the
 * view's drawing buffer to a 2D canvas and returns its RGBA bytes, its
 * size, and device pixels per CSS pixel.
 */
function installCanvasReader() {
  window.testCanvasRgba = () => {
    const canvas = document.querySelector('#view');
    const copy = document.createElement('canvas');
    [copy.width, copy.height] = [canvas.width, canvas.height];
    const context = copy.getContext('2d');
    context.drawImage(canvas, 0, 0);
    const { data } = context.getImageData(0, 0, copy.width, copy.height);
    return { data, width: copy.width, height: copy.height, ratio: canvas.width / canvas.clientWidth };
  };
}

/**
 * Opens `url` in a new page, collecting its errors (`{page, errors}`); with
 * `html`, that text is served at `url` instead (a host page of <skin-lab>
 * elements, placed where a site would put it).
 */
export async function openPage(context, url, { html = null } = {}) {
  const page = await context.newPage();
  await page.addInitScript(installCanvasReader);
  if (html !== null) await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url);
  return { page, errors };
}

/** Where bone `bone` of the <skin-lab> with id `id` is on the screen (CSS pixels of the page). */
export async function labBonePoint(page, id, bone) {
  return page.evaluate(([id, bone]) => {
    const element = document.getElementById(id);
    const rect = element.shadowRoot.querySelector('#view').getBoundingClientRect();
    const [x, y] = element.boneScreenPoint(bone);
    return { x: rect.left + x, y: rect.top + y };
  }, [id, bone]);
}

/** Saves a screenshot under test-output/, for people to look at. */
export async function screenshot(target, name) {
  await mkdir(outputDir, { recursive: true });
  const path = join(outputDir, `${name}.png`);
  await target.screenshot({ path });
  return path;
}

/** Waits until the page is up and `window.skinlab` answers. */
/**
 * Presses a toolbar button that may sit folded behind "⋯" (Share, the
 * projector, the language, in a window 801–1400 px wide), opening the fold
 * first as a person would.
 */
export async function pressToolbar(page, selector) {
  if (!(await page.locator(selector).isVisible())) await page.locator('#more').click();
  await page.locator(selector).click();
}

export async function waitForSkinlab(page) {
  await page.waitForFunction(() => window.skinlab !== undefined, null, { timeout: 30000 });
  await nextFrame(page);
}

/**
 * Does `action`, then waits for a frame drawn after it. The count is read
 * after the action: a frame already on its way when the action began (the
 * previous key's, on a slow machine) would otherwise count as the action's
 * and leave what the frame loop derives (the view's description, a lesson
 * step's check) one action behind.
 */
export async function nextFrame(page, action = async () => {}) {
  await action();
  const before = await page.evaluate(() => {
    window.skinlab.requestRender();
    return window.skinlab.framesRendered();
  });
  await page.waitForFunction((n) => window.skinlab.framesRendered() > n, before, { timeout: 10000 });
}

/**
 * RGBA bytes of a rectangle of the canvas' drawing buffer: its corner at the
 * CSS point (x, y) moved by (dx, dy) device pixels, `width` × `height`
 * device pixels (`width` null: to the right edge). Also returns the
 * buffer's width and its device pixels per CSS pixel.
 */
export async function canvasPixels(target, { x, y, dx = 0, dy = 0, width = null, height = 1 }) {
  return target.evaluate(({ x, y, dx, dy, width, height }) => {
    const picture = window.testCanvasRgba();
    const left = Math.round(x * picture.ratio) + dx;
    const top = Math.round(y * picture.ratio) + dy;
    const columns = width ?? picture.width - left;
    const data = [];
    for (let row = top; row < top + height; row++) {
      const start = 4 * (row * picture.width + left);
      data.push(...picture.data.subarray(start, start + 4 * columns));
    }
    return { data, width: picture.width, ratio: picture.ratio };
  }, { x, y, dx, dy, width, height });
}

/**
 * RGBA bytes of a (2r+1)² square of the canvas around the CSS point (x, y),
 * read from the drawing buffer.
 */
export async function canvasPatch(page, x, y, r = 2) {
  const size = 2 * r + 1;
  return (await canvasPixels(page, { x, y, dx: -r, dy: -r, width: size, height: size })).data;
}

/**
 * How many distinct colours the canvas shows, and the share of pixels unlike
 * the corner's, in a page or a frame.
 */
export async function canvasStats(target) {
  // Counted in the page: the whole buffer is too large to send over.
  return target.evaluate(() => {
    const { data } = window.testCanvasRgba();
    const colours = new Set();
    let different = 0;
    for (let k = 0; k < data.length; k += 4) {
      colours.add((data[k] << 16) | (data[k + 1] << 8) | data[k + 2]);
      if (Math.abs(data[k] - data[0]) + Math.abs(data[k + 1] - data[1]) + Math.abs(data[k + 2] - data[2]) > 24) different++;
    }
    return { colours: colours.size, covered: different / (data.length / 4) };
  });
}

/**
 * The largest differences between GPU-skinned positions and normals (read
 * back by transform feedback) and the CPU reference, for `method`.
 */
export async function gpuVersusCpu(page, method) {
  return page.evaluate((method) => {
    const worstOf = (gpu, cpu) => {
      let worst = 0;
      for (let k = 0; k < cpu.length; k++) worst = Math.max(worst, Math.abs(gpu[k] - cpu[k]));
      return worst;
    };
    const gpu = window.skinlab.gpuSkinnedPositions(method);
    const cpu = window.skinlab.lab.skinnedPositions(method);
    const normals = worstOf(window.skinlab.gpuSkinnedNormals(method), window.skinlab.lab.skinnedNormals(method));
    return { worst: worstOf(gpu, cpu), normals, count: cpu.length / 3, gpuLength: gpu.length };
  }, method);
}

/** Loads www/models/NAME/NAME.gltf, a shipped model, through the page's file picker. */
export async function loadModel(page, name) {
  const path = join(root, 'www', 'models', name, `${name}.gltf`);
  await page.locator('#import-file').setInputFiles({ name: `${name}.gltf`, mimeType: 'model/gltf+json', buffer: await readFile(path) });
}

/** Largest absolute difference between two equal-length arrays. */
export function maxDifference(a, b) {
  if (a.length !== b.length) throw new Error(`lengths differ: ${a.length} vs ${b.length}`);
  let worst = 0;
  for (let k = 0; k < a.length; k++) worst = Math.max(worst, Math.abs(a[k] - b[k]));
  return worst;
}

/**
 * Registers before/after hooks that serve `dir` (www/ unless given) and
 * start Chromium; the returned object's `server` and `browser` are set once
 * `before` has run.
 */
export function useBrowser(before, after, dir = join(root, 'www')) {
  const fixture = { server: null, browser: null };
  before(async () => {
    fixture.server = await serveStatic(dir);
    fixture.browser = await launchBrowser();
  });
  after(async () => {
    await fixture.browser?.close();
    await fixture.server?.close();
  });
  return fixture;
}

/** A mouse drag across `[x, y]` (CSS pixels in the canvas), 20 px left to right. */
export async function dragAcross(page, [x, y]) {
  const box = await page.locator('#view').boundingBox();
  await page.mouse.move(box.x + x - 10, box.y + y);
  await page.mouse.down();
  await page.mouse.move(box.x + x + 10, box.y + y, { steps: 5 });
  await page.mouse.up();
}

/**
 * Registers before/after hooks that serve www/, start Chromium and open the
 * page, then hands `{ page, errors }` to `ready`.
 */
export function usePage(before, after, ready) {
  const fixture = { server: null, browser: null };
  before(async () => {
    fixture.server = await serveStatic(join(root, 'www'));
    fixture.browser = await launchBrowser();
    const opened = await openPage(fixture.browser, fixture.server.url);
    await waitForSkinlab(opened.page);
    ready(opened);
  });
  after(async () => {
    await fixture.browser?.close();
    await fixture.server?.close();
  });
  return fixture;
}
