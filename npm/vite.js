// `skinlab/vite`: Skinlab in a Vite project.
//
//   // vite.config.js
//   import skinlab from 'skinlab/vite';
//   export default { plugins: [skinlab()] };
//
//   // main.js
//   import 'skinlab/element';                  // <skin-lab> in your pages
//   import { init, Lab } from 'skinlab';       // the core, if you script it
//
// Skinlab is a folder of ES modules that fetches its wasm, markup, styles,
// models and workers beside its own modules. A bundler that inlined those
// modules into its chunks would break every one of those addresses, so the
// plugin keeps Skinlab out of the bundle: `skinlab` and `skinlab/element`
// resolve to the package's own files, served as they are under
// `<base>skinlab/` by the dev server and copied there by the build, where
// the browser loads them as from any static folder.
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's page folder: its modules, wasm, markup, styles and models. */
const WWW = fileURLToPath(new URL('../www/', import.meta.url));

/** What a bare import of the package names, beside the folder. */
const ENTRIES = { skinlab: 'skinlab.js', 'skinlab/element': 'skin-lab.js' };

/** Content types of the files the page fetches. */
const TYPES = {
  '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html',
  '.css': 'text/css', '.json': 'application/json', '.gltf': 'model/gltf+json', '.glb': 'model/gltf-binary',
  '.bin': 'application/octet-stream', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg',
  '.webp': 'image/webp', '.md': 'text/markdown; charset=utf-8',
};

/** Every file under `dir`, as paths relative to it with `/` separators; type declarations left out. */
function filesUnder(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...filesUnder(path).map((file) => `${name}/${file}`));
    else if (!name.endsWith('.d.ts')) found.push(name);
  }
  return found;
}

/**
 * The plugin. `folder` is where Skinlab's files go under Vite's `base`
 * (default `skinlab/`).
 */
export default function skinlab({ folder = 'skinlab/' } = {}) {
  const prefix = folder.endsWith('/') ? folder : `${folder}/`;
  let base = '/';
  return {
    name: 'skinlab',
    enforce: 'pre',
    config: () => ({ optimizeDeps: { exclude: ['skinlab'] } }),
    configResolved(config) {
      base = config.base.endsWith('/') ? config.base : `${config.base}/`;
    },
    resolveId(id, importer) {
      if (Object.hasOwn(ENTRIES, id)) return { id: `${base}${prefix}${ENTRIES[id]}`, external: true };
      // Skinlab's own relative imports, as the dev server follows them.
      if (importer?.startsWith(`${base}${prefix}`) && id.startsWith('.')) {
        return { id: new URL(id, `http://skinlab${importer}`).pathname, external: true };
      }
      return null;
    },
    // The dev server looks at what a module imports ahead of the browser:
    // Skinlab's files are read for it as they are (the browser gets them
    // from the middleware below, untransformed).
    load(id) {
      if (!id.startsWith(`${base}${prefix}`)) return null;
      return readFile(join(WWW, id.slice(base.length + prefix.length)), 'utf8');
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
        if (!path.startsWith(`${base}${prefix}`)) return next();
        const file = join(WWW, path.slice(base.length + prefix.length));
        if (relative(WWW, file).split(sep).includes('..')) return next();
        let stats;
        try {
          stats = statSync(file);
        } catch {
          return next();
        }
        if (!stats.isFile()) return next();
        response.setHeader('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
        createReadStream(file).pipe(response);
        return undefined;
      });
    },
    async generateBundle() {
      for (const file of filesUnder(WWW)) {
        this.emitFile({ type: 'asset', fileName: `${prefix}${file}`, source: await readFile(join(WWW, file)) });
      }
    },
  };
}
