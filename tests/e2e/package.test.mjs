// Skinlab as an npm package, as someone else's project takes it: `npm pack`
// in the project, the tarball installed into a scratch project (nothing
// fetched: the package depends on nothing), its types checked by
// TypeScript, the project built with Vite and the `skinlab/vite` plugin,
// and opened in Chromium, where a <skin-lab> draws and is posed by mouse
// and the core, imported as `skinlab`, answers. Then the Vite dev server,
// and the installed package as a plain static folder with no bundler.
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, createServer } from 'vite';
import { launchBrowser, labBonePoint, openPage, outputDir, root, screenshot, serveStatic } from './browser.mjs';

const scratch = join(outputDir, 'package-scratch');
let browser = null;

const FILES = {
  'package.json': JSON.stringify({ name: 'scratch', private: true, type: 'module' }),
  'index.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lab from npm</title><link rel="icon" href="data:,">
<script type="module" src="./main.js"></script></head>
<body><h1>A lab from npm</h1><skin-lab id="lab" example="two-bone" style="width: 800px"></skin-lab><p id="core"></p></body></html>`,
  'main.js': `import 'skinlab/element';
import { init, Lab } from 'skinlab';

await init();
const lab = Lab.example('y-junction');
document.getElementById('core').textContent = \`core: \${lab.boneCount()} bones, \${lab.vertexCount()} vertices\`;
`,
  'vite.config.js': `import skinlab from 'skinlab/vite';

export default { plugins: [skinlab()], logLevel: 'warn' };
`,
  // What a TypeScript user writes against the package's declarations.
  'check.ts': `import { init, Lab, loadConverters, type Files } from 'skinlab';
import type { SkinLabElement, SkinlabApi } from 'skinlab/element';
import skinlab from 'skinlab/vite';

await init();
const lab: Lab = Lab.example('two-bone');
lab.setBonePose(1, { rotation: [0, 0, 0.38, 0.92] });
const positions: Float32Array = lab.skinnedPositions('lbs');
await loadConverters();
const files: Files = {};
const back: Lab = Lab.fromGlb(lab.toGlb());
const element: SkinLabElement | null = document.querySelector('skin-lab');
if (element) {
  const api: SkinlabApi = await element.ready;
  api.setMode('weights');
  api.selectBone(1);
}
console.log(positions.length, back.boneCount(), Lab.modelNames(), files, skinlab().name);
`,
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true,
      // wasm-bindgen's classes are disposable (Symbol.dispose).
      lib: ['es2022', 'esnext.disposable', 'dom'],
    },
    files: ['check.ts'],
  }),
};

before(() => {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  // The wasm is built already (cargo xtask test builds first): prepack's build is not run again.
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', scratch], { cwd: root, stdio: 'pipe' });
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(scratch, name), text);
  const tarball = readdirSync(scratch).find((name) => name.endsWith('.tgz'));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', `./${tarball}`], { cwd: scratch, stdio: 'pipe' });
});

after(async () => {
  await browser?.close();
});

/** The names `SkinlabApi` declares in www/skin-lab.d.ts. */
function declaredApi() {
  const text = readFileSync(join(root, 'www', 'skin-lab.d.ts'), 'utf8');
  const body = text.slice(text.indexOf('export interface SkinlabApi {'), text.indexOf('\n}\n', text.indexOf('export interface SkinlabApi {')));
  return new Set([...body.matchAll(/^ {2}(?:readonly )?(\w+)[(:?]/gm)].map((match) => match[1]));
}

/** Opens `url`, waits for the lab to draw, drags its bone 1 and returns what the page shows. */
async function drawsAndPoses(url, name, { html = null } = {}) {
  browser ??= await launchBrowser();
  const { page, errors } = await openPage(browser, url, { html });
  await page.waitForFunction(() => document.getElementById('lab').skinlab?.framesRendered() > 0, null, { timeout: 60000 });
  const start = await labBonePoint(page, 'lab', 1);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x - 30, start.y - 60, { steps: 8 });
  await page.mouse.up();
  const turned = await page.evaluate(() => document.getElementById('lab').lab.bonePose(1).rotation[2]);
  assert.ok(Math.abs(turned) > 0.05, `${name}: the drag turned bone 2 (${turned})`);
  // The declarations name exactly what a lab's API holds.
  const keys = await page.evaluate(() => Object.keys(document.getElementById('lab').skinlab));
  const declared = declaredApi();
  assert.deepEqual(keys.filter((key) => !declared.has(key)), [], `${name}: in the API but not in www/skin-lab.d.ts`);
  assert.deepEqual([...declared].filter((key) => !keys.includes(key)), [], `${name}: in www/skin-lab.d.ts but not in the API`);
  const core = await page.locator('#core').textContent().catch(() => '');
  await screenshot(page, `package-${name}`);
  assert.deepEqual(errors, [], name);
  await page.close();
  return { core };
}

test('the packed package holds its modules, wasm, types, models and licences, and its types check', () => {
  const listed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root }).toString())[0].files.map((f) => f.path);
  for (const file of ['www/skin-lab.js', 'www/skin-lab.d.ts', 'www/skinlab.js', 'www/skinlab.d.ts', 'www/pkg/skinlab_bg.wasm', 'www/pkg/skinlab.d.ts',
    'www/pkg/skinlab_converters_bg.wasm', 'www/index.html', 'www/style.css', 'www/models/Fox/Fox.gltf', 'www/vendor/draco/draco_decoder.wasm',
    'npm/vite.js', 'npm/vite.d.ts', 'LICENSE-MIT', 'LICENSE-APACHE', 'README.md']) {
    assert.ok(listed.includes(file), `the package holds ${file}`);
  }
  assert.deepEqual(listed.filter((file) => /^(src|tests|xtask|converters)\/|\.stamp$|node_modules/.test(file)), [], 'nothing of the sources or the build');
  execFileSync('node', [join(root, 'node_modules/typescript/bin/tsc'), '-p', scratch], { stdio: 'pipe' });
});

test('built by Vite with skinlab/vite: a <skin-lab> draws and poses, and the core answers', async () => {
  await build({ root: scratch, configFile: join(scratch, 'vite.config.js'), logLevel: 'warn' });
  const server = await serveStatic(join(scratch, 'dist'));
  try {
    const { core } = await drawsAndPoses(server.url, 'vite-build');
    assert.match(core, /^core: 3 bones, \d+ vertices$/);
  } finally {
    await server.close();
  }
});

test('on Vite\'s dev server with skinlab/vite: a <skin-lab> draws and poses', async () => {
  const server = await createServer({ root: scratch, configFile: join(scratch, 'vite.config.js'), logLevel: 'warn', server: { port: 0, host: '127.0.0.1' } });
  await server.listen();
  try {
    const { core } = await drawsAndPoses(server.resolvedUrls.local[0], 'vite-dev');
    assert.match(core, /^core: 3 bones, \d+ vertices$/);
  } finally {
    await server.close();
  }
});

test('the installed package as a plain static folder: <script type="module"> and a <skin-lab>, no bundler', async () => {
  const server = await serveStatic(join(scratch, 'node_modules', 'skinlab'));
  try {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plain</title>
<link rel="icon" href="data:,"><script type="module" src="www/skin-lab.js"></script></head><body><skin-lab id="lab" example="two-bone" style="width: 800px"></skin-lab></body></html>`;
    await drawsAndPoses(`${server.url}plain.html`, 'plain-folder', { html });
  } finally {
    await server.close();
  }
});
