// The last steps of `cargo xtask dist`: the page's modules bundled by
// esbuild into dist/app.js, the page, and dist/skin-lab.js, the element,
// which share one chunk of the modules they both use (the 49 modules of www/
// load as a waterfall of requests, the bundles as one or two; what is
// imported only when needed, such as the video muxers, stays in chunks of
// its own), and every text and wasm
// file precompressed beside itself as .br (brotli, quality 11) and .gz
// (gzip -9), for `cargo xtask serve` or any server that sends
// precompressed files.
//
// Usage: node xtask/dist-bundle.mjs <www dir> <dist dir>
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { pageBundle } from './bundle-options.mjs';

const [www, dist] = process.argv.slice(2);
if (!www || !dist) {
  console.error('usage: node xtask/dist-bundle.mjs <www dir> <dist dir>');
  process.exit(2);
}

const result = await build({
  ...pageBundle(www, ['app.js', 'skin-lab.js']),
  splitting: true,
  outdir: dist,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  metafile: true,
});
const outputs = Object.keys(result.metafile.outputs);
console.log(`bundled app.js and skin-lab.js from ${Object.keys(result.metafile.inputs).length} modules into ${outputs.length} files`);

const COMPRESSED = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.json', '.gltf', '.svg', '.bvh', '.md', '.txt']);
let files = 0;
let raw = 0;
let brotli = 0;
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
      continue;
    }
    if (!COMPRESSED.has(extname(name))) continue;
    const body = readFileSync(path);
    const br = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    writeFileSync(`${path}.br`, br);
    writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
    files += 1;
    raw += body.length;
    brotli += br.length;
  }
};
walk(dist);
console.log(`precompressed ${files} files: ${(raw / 1e6).toFixed(2)} MB → ${(brotli / 1e6).toFixed(2)} MB brotli`);
