// `cargo xtask dist --single-file`: one HTML file that holds the whole page
// and opens by double-click (file://) with no network: the page's modules
// bundled by esbuild into one inline module script, the two workers bundled
// apart and started from Blob URLs, the two wasm modules, the gallery's models and the
// lecture-notes page in a table of base64 files (window.SKINLAB_ASSETS, read
// by www/assets.js), the style sheet inline, and the Content-Security-Policy
// kept, allowing exactly these inline scripts and styles by their hashes.
//
// Usage: node xtask/single-file.mjs <www dir> <output file>
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { pageBundle } from './bundle-options.mjs';

const [www, output] = process.argv.slice(2);
if (!www || !output) {
  console.error('usage: node xtask/single-file.mjs <www dir> <output file>');
  process.exit(2);
}

async function bundle(entry) {
  const result = await build({ ...pageBundle(www, entry), write: false });
  return result.outputFiles[0].text;
}

/** Text that may sit inside a <script> element without ending it. */
const scriptSafe = (text) => text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const style = readFileSync(join(www, 'style.css'), 'utf8');
const assets = {};
const add = (path, bytes) => { assets[path] = Buffer.from(bytes).toString('base64'); };
add('pkg/skinlab_bg.wasm', readFileSync(join(www, 'pkg/skinlab_bg.wasm')));
// The file readers' module (www/converters.js), compiled when first needed.
add('pkg/skinlab_converters_bg.wasm', readFileSync(join(www, 'pkg/skinlab_converters_bg.wasm')));
for (const worker of ['preflight-worker.js', 'weights-worker.js']) add(worker, await bundle(worker));
// The gallery's models, as www/gallery.js names them.
const gallery = readFileSync(join(www, 'gallery.js'), 'utf8');
const modelFiles = [...gallery.matchAll(/file:\s*'([^']+)'/g)].map((m) => m[1]);
if (modelFiles.length === 0) throw new Error('no model files found in gallery.js');
for (const file of modelFiles) add(file, readFileSync(join(www, file)));
// The lecture-notes page, its style sheet inline, allowed by its hash.
const sources = readFileSync(join(www, 'sources.html'), 'utf8')
  .replace(/<link rel="stylesheet" href="style.css">/, `<style>${style}</style>`)
  .replace(/style-src 'self'/, `style-src ${hash(style)}`);
add('sources.html', sources);

const table = scriptSafe(`window.SKINLAB_ASSETS=${JSON.stringify(assets)};`);
const app = scriptSafe(await bundle('app.js'));
let html = readFileSync(join(www, 'index.html'), 'utf8');
const csp = [
  "default-src 'none'",
  `script-src ${hash(table)} ${hash(app)} 'wasm-unsafe-eval'`,
  // Workers from the inline bundles; style by hash; images and files the
  // page makes itself.
  'worker-src blob:',
  `style-src ${hash(style)}`,
  'img-src data: blob:',
  'media-src blob:',
  'connect-src data: blob:',
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
const replace = (pattern, text) => {
  if (!pattern.test(html)) throw new Error(`index.html: ${pattern} not found`);
  html = html.replace(pattern, () => text);
};
replace(/<meta http-equiv="Content-Security-Policy" content="[^"]*">/, `<meta http-equiv="Content-Security-Policy" content="${csp}">`);
replace(/<link rel="stylesheet" href="style.css">/, `<style>${style}</style>`);
// The wasm is inside: nothing to fetch ahead.
replace(/\s*<!--[^>]*-->\s*<link rel="preload" href="pkg\/skinlab_bg.wasm"[^>]*>/, '');
replace(/<script type="module" src="app.js"><\/script>/, `<script>${table}</script>\n<script type="module">${app}</script>`);
writeFileSync(output, html);
console.log(`wrote ${output}: ${(html.length / 1e6).toFixed(2)} MB (${Object.keys(assets).length} files inlined)`);
// What the size is made of, largest first (base64 is 4/3 of the bytes).
const parts = [...Object.entries(assets).map(([path, text]) => [path, text.length]), ['the page (app.js bundled)', app.length]];
for (const [path, length] of parts.sort((x, y) => y[1] - x[1])) console.log(`  ${(length / 1e6).toFixed(2)} MB  ${path}`);
