// A glTF file's base colour textures: the core hands over each image as
// the file stores it (PNG or JPEG); the browser decodes it, here, and the
// pixels go to the GPU. Images come from strangers' files: their size is
// read from the header (in the core) before the browser's own decoders see
// them, and one larger than the GPU promises is refused with its size
// named, undecoded.

/** Each side at most this many pixels (what WebGL2 promises; the core checks too). */
const MAX_SIDE = 2048;

/**
 * Decodes `lab`'s texture images (each material's base colour texture; or
 * the one base colour image of a scene without materials) and gives their
 * pixels to `viewer`, one by one; `stillShown()` says whether `lab` is still
 * on screen when a decoding is done; `t` makes the page's sentences. Resolves to the first uploaded
 * image's `{width, height}`, or null when none was; a problem is passed to
 * `warn` as a sentence, and that image is left out (its surfaces keep
 * their plain colour).
 */
export async function loadBaseColour(lab, viewer, { stillShown, warn, t }) {
  const images = lab.textureImages();
  const list = images.length ? images : [lab.baseColour()].filter((colour) => colour?.image);
  if (!list.length) return null;
  // Said after the file's own notice (“Loaded …”), which would hide it.
  await null;
  let first = null;
  for (const [texture, image] of list.entries()) {
    const size = await upload(image, texture, lab, viewer, { stillShown, warn, t });
    if (!stillShown()) return null;
    first ??= size;
  }
  return first;
}

/** Decodes one image and uploads it as `lab`'s texture `texture`: its size, or null. */
async function upload(image, texture, lab, viewer, { stillShown, warn, t }) {
  // Measured from the header first: a small file may declare a picture of
  // gigabytes, and the browser would decode all of it.
  if (image.width > MAX_SIDE || image.height > MAX_SIDE) {
    warn(t('msg.textureLarge', { width: image.width, height: image.height, max: MAX_SIDE }));
    return null;
  }
  if (!(image.width > 0 && image.height > 0)) {
    warn(t('msg.textureBad', { type: image.mimeType, bytes: image.image.length, error: t('msg.noHeader') }));
    return null;
  }
  let bitmap;
  try {
    bitmap = await createImageBitmap(new Blob([image.image], { type: image.mimeType }));
  } catch (error) {
    warn(t('msg.textureBad', { type: image.mimeType, bytes: image.image.length, error: error.message }));
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
    viewer.setBaseColourPixels(lab, { width, height, texture, pixels: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
    return { width, height };
  } finally {
    // A refused or used bitmap gives its memory back at once.
    bitmap.close();
  }
}
