// The page's modules (www/) as a house: no two import each other in a
// circle, and a lab's state lives in its instance (page.js), so one page
// can hold many labs. What a module may keep at its top level is what all
// the labs on a page share on purpose, listed here with why.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const WWW = fileURLToPath(new URL('../../www/', import.meta.url));
// Generated (wasm-bindgen's glue, npm's decoders and encoders) or data.
const SKIPPED = new Set(['pkg', 'vendor', 'models', 'labels']);

function modules(dir = WWW) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!SKIPPED.has(name)) found.push(...modules(path));
    } else if (name.endsWith('.js')) {
      found.push(path);
    }
  }
  return found;
}

const files = modules();
const source = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
const name = (file) => relative(WWW, file);

/** The page modules `file` imports (static and dynamic), as paths. */
function importsOf(file) {
  const pattern = /(?:import|export)[^'"]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;
  return [...source.get(file).matchAll(pattern)]
    .map((match) => normalize(join(dirname(file), match[1] ?? match[2])))
    .filter((path) => source.has(path));
}

test('no page module imports another in a circle', () => {
  assert.ok(files.length > 40, `the page's modules were found (${files.length})`);
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const state = new Map();
  const stack = [];
  const cycles = [];
  const visit = (file) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file)) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].map(name).join(' → '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  assert.deepEqual(cycles, []);
  // The check sees imports: page.js imports the modes.
  assert.ok(graph.get(join(WWW, 'page.js')).includes(join(WWW, 'modes/skin.js')));
});

// Module-level variables every lab on a page shares, and why.
const SHARED = {
  'page.js': ['restarts'], // the labs' one core: its restarts in the last minute
  'assets.js': ['compiled', 'started', 'convertersCompiled'], // the one compiled core and its instance
  'converters.js': ['loading', 'ready'], // the file readers' one module
  'codecs.js': ['dracoModule'], // the Draco decoder, loaded once
  'preflight.js': ['worker', 'queue'], // the one worker that reads files first, and its queue
  // One window resize a frame for all the elements whose size changed; the
  // markup and style sheet every element adopts; elements started.
  'skin-lab.js': ['resizeTold', 'shared', 'started'],
  'weights-worker.js': ['ready', 'readersReady'], // a worker's own modules
  'preflight-worker.js': ['ready', 'readersReady'], // a worker's own cores
};

test("a lab's state lives in its instance: modules keep at their top level only what every lab shares", () => {
  const found = {};
  for (const file of files) {
    const names = [...source.get(file).matchAll(/^let (\w+)/gm)].map((match) => match[1]);
    if (names.length) found[name(file)] = names;
  }
  assert.deepEqual(found, SHARED);
});

test('the modes and parts reach the markup through their lab, never through the document', () => {
  const reaching = [];
  for (const file of files) {
    // Code, not comments (which may name window.skinlab).
    const text = source.get(file).replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const pattern of [/document\.(querySelector|querySelectorAll|getElementById|body|activeElement)\b/, /window\.skinlab/, /\blocation\.(href|hash|search)|history\.replaceState/]) {
      if (pattern.test(text) && !['app.js', 'link.js'].includes(name(file))) reaching.push(`${name(file)}: ${pattern.source}`);
    }
  }
  assert.deepEqual(reaching, []);
});
