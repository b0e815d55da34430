// A glTF file's base colour texture: the core hands over the image as the
// file stores it (PNG or JPEG); the browser decodes it, here, and the
// pixels go to the GPU. Images come from strangers' files: the browser's
// own decoders read them, and one larger than the GPU promises is refused
// with its size named.

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
  let bitmap;
  try {
    bitmap = await createImageBitmap(new Blob([colour.image], { type: colour.mimeType }));
  } catch (error) {
    warn(t('msg.textureBad', { type: colour.mimeType, bytes: colour.image.length, error: error.message }));
    return null;
  }
  const { width, height } = bitmap;
  if (!stillShown()) return null;
  if (width > MAX_SIDE || height > MAX_SIDE) {
    warn(t('msg.textureLarge', { width, height, max: MAX_SIDE }));
    return null;
  }
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  const { data } = context.getImageData(0, 0, width, height);
  viewer.setBaseColourPixels(lab, width, height, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  return { width, height };
}
