// Video of the view, rendered frame by frame from the animation's time
// rather than captured from the screen: frame k shows time k / fps, so a
// slow machine gives the same smooth video of the exact length as a fast
// one. WebM (VP8) and MP4 (H.264, where the browser encodes it) go through
// WebCodecs' VideoEncoder and a muxer (webm-muxer, mp4-muxer: MIT, 65 KB
// and 69 KB of script); an animated GIF through gifenc (MIT, 9 KB), which
// any browser can run. The encoders load only when a video is made.

/** The formats, with the muxer each needs. */
export const FORMATS = {
  webm: { type: 'video/webm', extension: 'webm', codec: 'vp8' },
  mp4: { type: 'video/mp4', extension: 'mp4', codec: 'avc1.640028' },
  gif: { type: 'image/gif', extension: 'gif', codec: null },
};

/** Whether this browser can make `format` at `width × height`. */
export async function canEncode(format, width = 1280, height = 720) {
  const { codec } = FORMATS[format];
  if (!codec) return true;
  if (typeof VideoEncoder === 'undefined') return false;
  try {
    const { supported } = await VideoEncoder.isConfigSupported({ codec, width, height, bitrate: 4e6, framerate: 30 });
    return supported === true;
  } catch {
    return false;
  }
}

/**
 * GIF delays are whole hundredths of a second, and browsers show a frame
 * shorter than 2/100 s for 1/10 s: a GIF runs at 50 frames a second at most.
 */
export const GIF_MAX_FPS = 50;

/** The rate a video in `format` is made at when `fps` is asked for. */
export const rateFor = (format, fps) => (format === 'gif' ? Math.min(fps, GIF_MAX_FPS) : fps);

/**
 * Each GIF frame's delay, ms in whole hundredths of a second: frame k shows
 * until frame k + 1's time (the last for one frame), each rounded to the
 * hundredth its time falls on, so that the running total keeps to the
 * times within half a hundredth rather than drifting by a rounding a frame.
 */
export function gifDelays(times, fps) {
  const hundredths = (seconds) => Math.round(seconds * 100);
  return times.map((time, k) => {
    const next = k + 1 < times.length ? times[k + 1] : time + 1 / fps;
    return 10 * (hundredths(next) - hundredths(time));
  });
}

/**
 * The frames of a video of `duration` seconds at `fps`: times
 * `0, 1/fps, …` and the end itself, so the last frame shows where the
 * motion ends (`round(duration · fps) + 1` frames).
 */
export function frameTimes(duration, fps) {
  const count = Math.max(1, Math.round(duration * fps) + 1);
  return Array.from({ length: count }, (_, k) => Math.min(k / fps, duration));
}

/**
 * Encodes a video: `draw(time)` renders the view at `time` into `canvas`
 * (already sized `width × height`) and may return another canvas of that
 * size to encode instead (the view with labels drawn on); `progress(done, total)` after each
 * frame; `signal` (an AbortSignal) cancels. Returns a Blob.
 */
export async function encodeVideo({ format, canvas, width, height, fps, duration, draw, progress = () => {}, signal }) {
  if (format === 'gif') {
    const rate = rateFor(format, fps);
    return encodeGif({ canvas, width, height, fps: rate, times: frameTimes(duration, rate), draw, progress, signal });
  }
  const times = frameTimes(duration, fps);
  const { codec, type } = FORMATS[format];
  const muxers = format === 'webm'
    ? await import('./vendor/muxers/webm-muxer.js')
    : await import('./vendor/muxers/mp4-muxer.js');
  const target = new muxers.ArrayBufferTarget();
  const muxer = format === 'webm'
    ? new muxers.Muxer({ target, video: { codec: 'V_VP8', width, height, frameRate: fps } })
    : new muxers.Muxer({ target, video: { codec: 'avc', width, height }, fastStart: 'in-memory' });
  let failure = null;
  const encoder = new VideoEncoder({
    output: (chunk, meta) => muxer.addVideoChunk(chunk, meta),
    error: (error) => { failure = error; },
  });
  // About 0.1 bit a pixel a frame: sharp lines on flat colours.
  const bitrate = Math.max(1e6, Math.round(width * height * fps * 0.1));
  encoder.configure({ codec, width, height, bitrate, framerate: fps, latencyMode: 'quality' });
  const frameMicros = 1e6 / fps;
  try {
    for (const [k, time] of times.entries()) {
      if (signal?.aborted) throw new DOMException('cancelled', 'AbortError');
      if (failure) throw failure;
      const source = draw(time) ?? canvas;
      const frame = new VideoFrame(source, { timestamp: Math.round(k * frameMicros), duration: Math.round(frameMicros) });
      encoder.encode(frame, { keyFrame: k % (2 * fps) === 0 });
      frame.close();
      // Hand the encoder time to work, so frames do not pile up in memory.
      while (encoder.encodeQueueSize > 2) await new Promise((resolve) => setTimeout(resolve, 1));
      progress(k + 1, times.length);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await encoder.flush();
    if (failure) throw failure;
    muxer.finalize();
    return new Blob([target.buffer], { type });
  } finally {
    if (encoder.state !== 'closed') encoder.close();
  }
}

/** GIF frames carry their delay in hundredths of a second (see gifDelays). */
async function encodeGif({ canvas, width, height, fps, times, draw, progress, signal }) {
  const { GIFEncoder, quantize, applyPalette } = await import('./vendor/gifenc/gifenc.js');
  const gif = GIFEncoder();
  const copy = new OffscreenCanvas(width, height);
  const context = copy.getContext('2d', { willReadFrequently: true });
  const delays = gifDelays(times, fps);
  for (const [k, time] of times.entries()) {
    if (signal?.aborted) throw new DOMException('cancelled', 'AbortError');
    context.drawImage(draw(time) ?? canvas, 0, 0, width, height);
    const { data } = context.getImageData(0, 0, width, height);
    const palette = quantize(data, 256);
    gif.writeFrame(applyPalette(data, palette), width, height, { palette, delay: delays[k] });
    progress(k + 1, times.length);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  gif.finish();
  return new Blob([gif.bytes()], { type: FORMATS.gif.type });
}
