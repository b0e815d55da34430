// Compressed glTF geometry (KHR_draco_mesh_compression, EXT_meshopt_compression)
// decoded by the official decoders (Google's draco3d, meshoptimizer) into a
// plain .glb that the core reads as any other: the core stays free of
// codecs, and the decoders are loaded only when a file needs them.
//
// Works in the browser and in Node: the caller hands in the decoders.

const DRACO = 'KHR_draco_mesh_compression';
const MESHOPT = ['EXT_meshopt_compression', 'KHR_meshopt_compression'];
const GLB_MAGIC = 0x46546c67;
const JSON_CHUNK = 0x4e4f534a;
const BIN_CHUNK = 0x004e4942;

/** glTF JSON and its binary chunk (or null) from a .glb, or null when `bytes` are not one. */
export function splitGlb(bytes) {
  if (bytes.length < 20) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== GLB_MAGIC) return null;
  let offset = 12;
  let json = null;
  let bin = null;
  while (offset + 8 <= bytes.length) {
    const length = view.getUint32(offset, true);
    const type = view.getUint32(offset + 4, true);
    const start = offset + 8;
    if (start + length > bytes.length) throw new Error(`glb: chunk at byte ${offset} claims ${length} bytes`);
    const chunk = bytes.subarray(start, start + length);
    if (type === JSON_CHUNK && json === null) json = JSON.parse(new TextDecoder().decode(chunk));
    else if (type === BIN_CHUNK && bin === null) bin = chunk;
    offset = start + length + ((4 - (length % 4)) % 4);
  }
  if (json === null) throw new Error('glb: no JSON chunk');
  return { json, bin };
}

/**
 * Whether glTF JSON text names a compression extension at all: a plain
 * search, so a file without one is not parsed a second time here.
 */
export function mentionsCompression(text) {
  return text.includes(DRACO) || MESHOPT.some((name) => text.includes(name));
}

/** The JSON chunk of a .glb as text (its first chunk), or null. */
export function glbJsonText(bytes) {
  if (bytes.length < 20) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== GLB_MAGIC || view.getUint32(16, true) !== JSON_CHUNK) return null;
  const length = view.getUint32(12, true);
  if (20 + length > bytes.length) return null;
  return new TextDecoder().decode(bytes.subarray(20, 20 + length));
}

/** Which decoders a glTF document needs: `{ draco, meshopt }`. */
export function compressionOf(json) {
  const used = new Set([...(json.extensionsUsed ?? []), ...(json.extensionsRequired ?? [])]);
  return { draco: used.has(DRACO), meshopt: MESHOPT.some((name) => used.has(name)) };
}

const COMPONENT_BYTES = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_WIDTH = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const ARRAY_OF = { 5120: Int8Array, 5121: Uint8Array, 5122: Int16Array, 5123: Uint16Array, 5125: Uint32Array, 5126: Float32Array };

/** The bytes of buffer `index`: the .glb's binary chunk, a data URI, or a file given by name. */
function bufferBytes(json, index, bin, files) {
  const buffer = json.buffers?.[index];
  if (!buffer) throw new Error(`glTF: buffers[${index}] is missing`);
  if (buffer.uri === undefined) {
    if (index === 0 && bin) return bin;
    return null; // a meshopt fallback buffer: no bytes, by design
  }
  if (buffer.uri.startsWith('data:')) {
    const comma = buffer.uri.indexOf(',');
    const text = atob(buffer.uri.slice(comma + 1));
    const bytes = new Uint8Array(text.length);
    for (let k = 0; k < text.length; k++) bytes[k] = text.charCodeAt(k);
    return bytes;
  }
  const name = decodeURIComponent(buffer.uri);
  const bytes = files?.[buffer.uri] ?? files?.[name] ?? files?.[name.split('/').pop()];
  if (buffer.extensions && MESHOPT.some((e) => buffer.extensions[e]?.fallback)) return bytes ?? null;
  if (!bytes) throw new Error(`glTF: buffers[${index}] is in the file '${buffer.uri}', which was not given; choose it together with the .gltf`);
  return bytes;
}

/**
 * Decodes every compressed buffer view and primitive of a glTF document.
 * `bin` is a .glb's binary chunk, `files` the separate files by name;
 * `decoders.draco` is a draco3d decoder module, `decoders.meshopt`
 * meshoptimizer's MeshoptDecoder (each needed only if the file uses it).
 * Returns a self-contained .glb (Uint8Array) without the extensions.
 */
export async function decodeCompressed(json, bin, files, decoders) {
  json = structuredClone(json);
  const buffers = (json.buffers ?? []).map((_, index) => bufferBytes(json, index, bin, files));
  const parts = [];
  let length = 0;
  /** Appends bytes to the new binary chunk (4-byte aligned) and returns a new buffer view. */
  const append = (bytes, extra = {}) => {
    const pad = (4 - (length % 4)) % 4;
    if (pad) { parts.push(new Uint8Array(pad)); length += pad; }
    parts.push(bytes);
    const view = { buffer: 0, byteOffset: length, byteLength: bytes.byteLength, ...extra };
    length += bytes.byteLength;
    json.bufferViews.push(view);
    return json.bufferViews.length - 1;
  };
  json.bufferViews = json.bufferViews ?? [];
  const viewCount = json.bufferViews.length;

  // Every existing buffer view moves into the new chunk, decoded where
  // meshopt compressed it.
  if (compressionOf(json).meshopt && !decoders.meshopt) throw new Error('glTF: meshopt decoder missing');
  if (decoders.meshopt) await decoders.meshopt.ready;
  const moved = [];
  for (let index = 0; index < viewCount; index++) {
    const view = json.bufferViews[index];
    const extension = MESHOPT.map((e) => view.extensions?.[e]).find(Boolean);
    let bytes;
    if (extension) {
      const source = buffers[extension.buffer];
      if (!source) throw new Error(`glTF: bufferViews[${index}]: its compressed buffer ${extension.buffer} has no bytes`);
      const offset = extension.byteOffset ?? 0;
      const input = source.subarray(offset, offset + extension.byteLength);
      bytes = new Uint8Array(extension.count * extension.byteStride);
      decoders.meshopt.decodeGltfBuffer(bytes, extension.count, extension.byteStride, input, extension.mode, extension.filter ?? 'NONE');
    } else {
      const source = buffers[view.buffer];
      const offset = view.byteOffset ?? 0;
      bytes = source ? source.subarray(offset, offset + view.byteLength) : new Uint8Array(view.byteLength);
    }
    moved.push(bytes);
  }
  const oldViews = json.bufferViews;
  json.bufferViews = [];
  moved.forEach((bytes, index) => {
    const { byteStride, target, name } = oldViews[index];
    const extra = Object.fromEntries(Object.entries({ byteStride, target, name }).filter(([, v]) => v !== undefined));
    append(bytes, extra);
  });

  // Draco primitives: decode and give their accessors buffer views.
  for (const mesh of json.meshes ?? []) {
    for (const primitive of mesh.primitives ?? []) {
      const draco = primitive.extensions?.[DRACO];
      if (!draco) continue;
      if (!decoders.draco) throw new Error('glTF: Draco decoder missing');
      const compressed = moved[draco.bufferView];
      if (!compressed) throw new Error(`glTF: ${DRACO}: bufferViews[${draco.bufferView}] is missing`);
      const decoded = decodeDraco(decoders.draco, compressed, draco.attributes, json, primitive);
      for (const [name, array] of Object.entries(decoded.attributes)) {
        const accessor = json.accessors[primitive.attributes[name]];
        accessor.bufferView = append(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
        accessor.byteOffset = 0;
        accessor.count = array.length / TYPE_WIDTH[accessor.type];
      }
      if (primitive.indices !== undefined) {
        const accessor = json.accessors[primitive.indices];
        const indices = decoded.indices;
        accessor.componentType = 5125;
        accessor.bufferView = append(new Uint8Array(indices.buffer, indices.byteOffset, indices.byteLength));
        accessor.byteOffset = 0;
        accessor.count = indices.length;
      }
      delete primitive.extensions[DRACO];
    }
  }
  for (const view of json.bufferViews) delete view.extensions;
  return writeGlb(json, parts, length);
}

/** A .glb of `json` (without the compression extensions) and one binary chunk of `parts`. */
function writeGlb(json, parts, length) {
  const drop = (list) => (list ?? []).filter((name) => name !== DRACO && !MESHOPT.includes(name));
  json.extensionsUsed = drop(json.extensionsUsed);
  json.extensionsRequired = drop(json.extensionsRequired);
  for (const buffer of json.buffers ?? []) delete buffer.extensions;
  json.buffers = [{ byteLength: length }];
  const bin = new Uint8Array((length + 3) & ~3);
  let offset = 0;
  for (const part of parts) { bin.set(part, offset); offset += part.byteLength; }
  let text = new TextEncoder().encode(JSON.stringify(json));
  const padded = new Uint8Array((text.length + 3) & ~3).fill(0x20);
  padded.set(text);
  text = padded;
  const total = 12 + 8 + text.length + 8 + bin.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, GLB_MAGIC, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, text.length, true);
  view.setUint32(16, JSON_CHUNK, true);
  out.set(text, 20);
  view.setUint32(20 + text.length, bin.length, true);
  view.setUint32(24 + text.length, BIN_CHUNK, true);
  out.set(bin, 28 + text.length);
  return out;
}

/** Decodes one Draco mesh into typed arrays of each accessor's component type, and 32-bit indices. */
function decodeDraco(draco, bytes, attributeIds, json, primitive) {
  const decoder = new draco.Decoder();
  const mesh = new draco.Mesh();
  try {
    const status = decoder.DecodeArrayToMesh(bytes, bytes.byteLength, mesh);
    if (!status.ok() || mesh.ptr === 0) throw new Error(`glTF: ${DRACO}: ${status.error_msg()}`);
    const points = mesh.num_points();
    const attributes = {};
    for (const [name, id] of Object.entries(attributeIds)) {
      const accessor = json.accessors[primitive.attributes[name]];
      if (!accessor) continue;
      const attribute = decoder.GetAttributeByUniqueId(mesh, id);
      const width = TYPE_WIDTH[accessor.type];
      const Array = ARRAY_OF[accessor.componentType];
      const count = points * width;
      const byteLength = count * COMPONENT_BYTES[accessor.componentType];
      const type = {
        5120: draco.DT_INT8, 5121: draco.DT_UINT8, 5122: draco.DT_INT16,
        5123: draco.DT_UINT16, 5125: draco.DT_UINT32, 5126: draco.DT_FLOAT32,
      }[accessor.componentType];
      const pointer = draco._malloc(byteLength);
      try {
        decoder.GetAttributeDataArrayForAllPoints(mesh, attribute, type, byteLength, pointer);
        attributes[name] = new Array(draco.HEAPU8.buffer.slice(pointer, pointer + byteLength));
      } finally {
        draco._free(pointer);
      }
    }
    const indexCount = mesh.num_faces() * 3;
    const pointer = draco._malloc(indexCount * 4);
    let indices;
    try {
      decoder.GetTrianglesUInt32Array(mesh, indexCount * 4, pointer);
      indices = new Uint32Array(draco.HEAPU8.buffer.slice(pointer, pointer + indexCount * 4));
    } finally {
      draco._free(pointer);
    }
    return { attributes, indices };
  } finally {
    draco.destroy(mesh);
    draco.destroy(decoder);
  }
}
