// A glTF file's base colour texture: the core hands over the image as the
// file stores it (PNG or JPEG); the browser decodes it, here, and the
// pixels go to the GPU. Images come from strangers' files: their size is
// read from the header (in the core) before the browser's own decoders see
// them, and one larger than the GPU promises is refused with its size
// named, undecoded.

import { t } from './i18n.js';

/** Each side at most this many pixels (what WebGL2 promises; the core checks too). */
const MAX_SIDE = 2048;

/**
 * Decodes `lab`'s base colour image, if it has one, and gives its pixels to
 * `viewer`; `stillShown()` says whether `lab` is still on screen when the
 * decoding is done. Resolves to `{width, height}` or null; a problem is
 * passed to `warn` as a sentence.
 */
export async function loadBaseColour(lab, viewer, stillShown, warn) {
  const colour = lab.baseColour();
  if (!colour?.image) return null;
  // Said after the file's own notice (“Loaded …”), which would hide it.
  await null;
  // Measured from the header first: a small file may declare a picture of
  // gigabytes, and the browser would decode all of it.
  if (colour.width > MAX_SIDE || colour.height > MAX_SIDE) {
    warn(t('msg.textureLarge', { width: colour.width, height: colour.height, max: MAX_SIDE }));
    return null;
  }
  if (!(colour.width > 0 && colour.height > 0)) {
    warn(t('msg.textureBad', { type: colour.mimeType, bytes: colour.image.length, error: t('msg.noHeader') }));
    return null;
  }
  let bitmap;
  try {
    bitmap = await createImageBitmap(new Blob([colour.image], { type: colour.mimeType }));
  } catch (error) {
    warn(t('msg.textureBad', { type: colour.mimeType, bytes: colour.image.length, error: error.message }));
    return null;
  }
  try {
    const { width, height } = bitmap;
    if (!stillShown()) return null;
    // The header lied: the decoded picture is what counts.
    if (width > MAX_SIDE || height > MAX_SIDE) {
      warn(t('msg.textureLarge', { width, height, max: MAX_SIDE }));
      return null;
    }
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    const { data } = context.getImageData(0, 0, width, height);
    viewer.setBaseColourPixels(lab, { width, height, pixels: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
    return { width, height };
  } finally {
    // A refused or used bitmap gives its memory back at once.
    bitmap.close();
  }
}
