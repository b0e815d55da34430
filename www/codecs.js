// Loads the official geometry decoders when a file needs them: Google's
// Draco decoder (npm draco3d, Apache-2.0) and meshoptimizer's decoder
// (MIT), copied into vendor/ by `cargo xtask build`. Nothing is fetched for
// files without compressed geometry.
import {
  compressionOf, decodeCompressed, glbJsonText, mentionsCompression, splitGlb,
} from './decompress.js';

import { singleFile } from './assets.js';

let dracoModule = null;

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.append(script);
  });
}

async function draco() {
  if (singleFile) throw new Error('the single-file page has no Draco decoder: open the full page (dist/index.html) for Draco-compressed files');
  if (!dracoModule) {
    dracoModule = (async () => {
      await loadScript(new URL('vendor/draco/draco_decoder.js', import.meta.url).href);
      const response = await fetch(new URL('vendor/draco/draco_decoder.wasm', import.meta.url));
      if (!response.ok) throw new Error('the Draco decoder could not be loaded');
      const wasmBinary = await response.arrayBuffer();
      return globalThis.DracoDecoderModule({ wasmBinary });
    })();
  }
  return dracoModule;
}

async function meshopt() {
  const module = await import('./vendor/meshopt/meshopt_decoder.js');
  return module.MeshoptDecoder;
}

/**
 * A plain .glb for a file whose geometry is Draco- or meshopt-compressed,
 * or null when it is not (then the file is read as it is). `bytes` are a
 * .glb or `text` a .gltf with its `files` by name.
 */
export async function decompressed({ bytes = null, text = null, files = {} }) {
  // Most files are not compressed: they are only searched here, and the
  // core parses them once.
  const jsonText = bytes ? glbJsonText(bytes) : text;
  if (!jsonText || !mentionsCompression(jsonText)) return null;
  let json;
  let bin = null;
  try {
    if (bytes) ({ json, bin } = splitGlb(bytes) ?? {});
    else json = JSON.parse(text);
  } catch {
    return null; // not readable here: the core names what is wrong
  }
  if (!json) return null;
  const needs = compressionOf(json);
  if (!needs.draco && !needs.meshopt) return null;
  const decoders = {};
  if (needs.draco) decoders.draco = await draco();
  if (needs.meshopt) decoders.meshopt = await meshopt();
  return decodeCompressed(json, bin, files, decoders);
}
