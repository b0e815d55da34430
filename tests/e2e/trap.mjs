// Makes Skinlab's core trap where a test asks, without a hook in the
// product: the test serves the browser a copy of a wasm module in which one
// exported function's body is `unreachable` (rewritten by Binaryen, which
// the build already uses for wasm-opt), so calling it stops that instance as
// an out-of-memory or a bug would.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import binaryen from 'binaryen';
import { root } from './browser.mjs';

// The features rustc emits for the wasm32 target with simd128, as wasm-opt is told.
const FEATURES = binaryen.Features.MVP | binaryen.Features.SIMD128 | binaryen.Features.BulkMemory
  | binaryen.Features.NontrappingFPToInt | binaryen.Features.SignExt | binaryen.Features.MutableGlobals
  | binaryen.Features.ReferenceTypes | binaryen.Features.Multivalue;

/** The wasm module `bytes` with export `name`'s function body replaced by `unreachable`. */
export function trappingAt(bytes, name) {
  const module = binaryen.readBinary(bytes);
  module.setFeatures(FEATURES);
  const exported = module.getExport(name);
  if (!exported) throw new Error(`the module exports no '${name}'`);
  const target = module.getFunction(binaryen.getExportInfo(exported).value);
  binaryen.Function.setBody(target, module.unreachable());
  const patched = module.emitBinary();
  module.dispose();
  return Buffer.from(patched);
}

/**
 * Has `server` (tests/e2e/browser.mjs's `serveStatic`) serve `www/pkg/FILE`
 * with export `name` trapping, to pages and workers alike; resolves to a
 * function that serves the real file again.
 */
export async function serveTrapping(server, file, name) {
  const body = trappingAt(await readFile(join(root, 'www', 'pkg', file)), name);
  server.override(`/pkg/${file}`, body);
  return () => server.override(`/pkg/${file}`, null);
}
