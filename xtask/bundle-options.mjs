// The esbuild options the two bundles of `cargo xtask dist` share: the
// folder's bundle (xtask/dist-bundle.mjs) and the single file
// (xtask/single-file.mjs) build the same page modules the same way.
import { join } from 'node:path';

/** esbuild's options for bundling `entries` (one or a list) of the page folder `www`. */
export function pageBundle(www, entries) {
  return {
    entryPoints: [entries].flat().map((entry) => join(www, entry)),
    bundle: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    logLevel: 'warning',
    // The Draco decoder is a script for a <script> tag, loaded by URL when
    // a file needs it, not a module to bundle (the single file does without
    // it; www/codecs.js says so).
    external: ['./vendor/draco/*'],
  };
}
