// Repacks an embedded .gltf the ways exporters write it: as a .glb (every
// buffer's bytes, 4-byte aligned, in one binary chunk that is buffer 0) or
// as "glTF Separate" (.gltf plus .bin files). Shared by the Node and browser
// tests, and independent of Skinlab's own code.

/** The `.glb` bytes (a Uint8Array) of an embedded glTF document's text. */
export function glbFromGltf(text) {
  const doc = JSON.parse(text);
  const parts = [];
  const starts = [];
  let length = 0;
  for (const buffer of doc.buffers) {
    const bytes = Buffer.from(buffer.uri.split(';base64,')[1], 'base64');
    starts.push(length);
    parts.push(bytes, Buffer.alloc((4 - (bytes.length % 4)) % 4));
    length += bytes.length + ((4 - (bytes.length % 4)) % 4);
  }
  for (const view of doc.bufferViews) {
    view.byteOffset = starts[view.buffer] + (view.byteOffset ?? 0);
    view.buffer = 0;
  }
  doc.buffers = [{ byteLength: length }];
  let json = Buffer.from(JSON.stringify(doc));
  json = Buffer.concat([json, Buffer.alloc((4 - (json.length % 4)) % 4, 0x20)]);
  const bin = Buffer.concat(parts);
  const header = Buffer.alloc(20);
  header.writeUInt32LE(0x46546c67, 0);
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + 8 + json.length + 8 + bin.length, 8);
  header.writeUInt32LE(json.length, 12);
  header.writeUInt32LE(0x4e4f534a, 16);
  const binHeader = Buffer.alloc(8);
  binHeader.writeUInt32LE(bin.length, 0);
  binHeader.writeUInt32LE(0x004e4942, 4);
  return new Uint8Array(Buffer.concat([header, json, binHeader, bin]));
}

/**
 * An embedded glTF split the way exporters write "glTF Separate": each
 * buffer in its own .bin file. Returns `{ gltf, files: { name: bytes } }`.
 */
export function splitGltf(text, stem) {
  const doc = JSON.parse(text);
  const files = {};
  doc.buffers.forEach((buffer, index) => {
    const name = `${stem}${index}.bin`;
    files[name] = new Uint8Array(Buffer.from(buffer.uri.split(';base64,')[1], 'base64'));
    buffer.uri = name;
  });
  return { gltf: JSON.stringify(doc), files };
}
