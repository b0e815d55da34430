// The video box under the export buttons: format, size and frame rate,
// then Record. A scene whose time runs (a clip, a path) is rendered frame
// by frame from time 0 to its end; a scene with nothing that runs records
// what the lecturer does: each drawn frame's bone poses are kept until
// Stop, then rendered at the chosen rate.
import { FORMATS, canEncode, encodeVideo, frameTimes, rateFor } from '../video.js';
import { compareNames, labelledCanvas } from './compare-figure.js';

/**
 * The video box of `app`, which offers `lab`, `viewer`, `canvas`,
 * `timeSource()` (`{name, duration, time, setTime}` or null),
 * `suspendFrames(on)`, `requestRender`, `showNotice` and `download`.
 */
export function createVideoBox(app) {
  const { num, t } = app.i18n;
  const { $ } = app;
  const box = $('#video-box');
  let job = null;
  // A live recording: [seconds since it began, bone poses] per drawn frame.
  let live = null;

  /** The video's size in `format` (the chosen one unless given). */
  const size = (format = $('#video-format').value) => {
    const chosen = $('#video-size').value;
    const canvas = app.canvas;
    const [w, h] = chosen === 'view' ? [canvas.width, canvas.height] : chosen.split('x').map(Number);
    // H.264 wants even sizes; VP8 and GIF take the view's own.
    if (format !== 'mp4') return [w, h];
    return [2 * Math.max(1, Math.round(w / 2)), 2 * Math.max(1, Math.round(h / 2))];
  };
  const fps = () => Number($('#video-fps').value);

  async function describe() {
    const source = app.timeSource();
    const [w, h] = size();
    const record = $('#video-record');
    if (live) {
      record.textContent = t('video.stop');
      $('#video-what').textContent = t('video.recordingLive');
    } else if (source) {
      record.textContent = t('video.record');
      const rate = rateFor($('#video-format').value, fps());
      const frames = frameTimes(source.duration, rate).length;
      $('#video-what').textContent = t('video.what', {
        name: source.name, seconds: num(source.duration, 2), frames: num(frames), width: w, height: h, fps: rate,
      });
    } else {
      record.textContent = t('video.recordLive');
      $('#video-what').textContent = t('video.nothingRuns');
    }
    // Each format at its own size: MP4 rounds an odd view to even.
    for (const option of $('#video-format').options) {
      option.disabled = !(await canEncode(option.value, ...size(option.value)));
    }
    const format = $('#video-format');
    if (format.selectedOptions[0]?.disabled) format.value = 'gif';
  }

  function posesNow() {
    const lab = app.lab;
    return Array.from({ length: lab.boneCount() }, (_, bone) => lab.bonePose(bone));
  }

  function setPoses(poses) {
    poses.forEach((pose, bone) => app.lab.setBonePose(bone, pose));
  }

  /**
   * Renders `duration` seconds shown by `show(time)` as the box's format,
   * size and rate say, then calls `finish()`; returns the Blob.
   */
  async function render(duration, show, finish) {
    const format = $('#video-format').value;
    const [width, height] = size();
    const canvas = app.canvas;
    const controller = new AbortController();
    job = controller;
    app.suspendFrames(true);
    $('#video-record').disabled = true;
    $('#video-cancel').hidden = false;
    const bar = $('#video-progress');
    bar.hidden = false;
    bar.value = 0;
    try {
      canvas.width = width;
      canvas.height = height;
      return await encodeVideo({
        format,
        canvas,
        width,
        height,
        fps: fps(),
        duration,
        draw: (time) => {
          show(time);
          app.viewer.render(app.lab);
          // Side by side: each frame names both methods, with the divider.
          const names = compareNames(app);
          return names ? labelledCanvas(canvas, names) : canvas;
        },
        progress: (done, total) => { bar.value = done / total; },
        signal: controller.signal,
      });
    } finally {
      finish();
      job = null;
      app.suspendFrames(false);
      $('#video-record').disabled = false;
      $('#video-cancel').hidden = true;
      bar.hidden = true;
      describe();
    }
  }

  /**
   * Runs `run(duration, show, finish)` over what `source` plays, from 0 to
   * its end, putting its time back where it was afterwards.
   */
  function overSource(source, run) {
    const before = source.time();
    return run(source.duration, source.setTime, () => source.setTime(before));
  }

  /** Renders and downloads, saying how it went. */
  async function record(duration, show, finish) {
    const format = $('#video-format').value;
    try {
      const blob = await render(duration, show, finish);
      app.download(blob, `${app.baseName()}.${FORMATS[format].extension}`);
      app.showNotice(t('video.done', { size: num(blob.size / 1e6, 1) }));
    } catch (error) {
      if (error?.name === 'AbortError') app.showNotice(t('video.cancelled'));
      else app.showNotice(t('video.failed', { error: String(error?.message ?? error) }), 'error');
    }
  }

  /** A video of what runs now (`{format, size, fps}` as the box's menus). */
  async function make({ format = 'webm', size: chosen = '1280x720', fps: rate = 30 } = {}) {
    const source = app.timeSource();
    if (!source) throw new Error(t('video.nothingRuns'));
    if (job) throw new Error(t('video.busy'));
    $('#video-format').value = format;
    $('#video-size').value = chosen;
    $('#video-fps').value = String(rate);
    if ($('#video-format').value !== format || $('#video-size').value !== chosen || $('#video-fps').value !== String(rate)) {
      throw new Error(`recordVideo: ${JSON.stringify({ format, size: chosen, fps: rate })} is not among the choices`);
    }
    if (!(await canEncode(format, ...size()))) throw new Error(t('video.cannot', { format: format.toUpperCase() }));
    return overSource(source, render);
  }

  function start() {
    if (job) return;
    if (live) {
      // Stop: render what was recorded at the chosen rate.
      const frames = live;
      live = null;
      $('#video-stop').hidden = true;
      const end = posesNow();
      const duration = frames.at(-1)[0];
      let index = 0;
      record(duration, (time) => {
        while (index + 1 < frames.length && frames[index + 1][0] <= time + 1e-9) index += 1;
        setPoses(frames[index][1]);
      }, () => setPoses(end));
      return;
    }
    const source = app.timeSource();
    if (source) {
      overSource(source, record);
      return;
    }
    live = [[0, posesNow()]];
    live.began = performance.now();
    // Stopped from over the view or by Esc: the controls being recorded
    // stay where they are, with no scrolling back to the box.
    $('#video-stop').hidden = false;
    if (lastControl?.isConnected && lastControl.offsetParent !== null) lastControl.scrollIntoView({ block: 'nearest' });
    describe();
  }

  /** Ends a live recording and renders it. */
  function stopLive() {
    if (!live) return;
    $('#video-stop').hidden = true;
    start();
  }
  $('#video-stop').addEventListener('click', stopLive);
  app.root.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !live) return;
    event.preventDefault();
    stopLive();
  }, { signal: app.signal });

  // The last slider or menu used outside the box: a live recording brings
  // it back in sight, the control the recording is most likely of.
  let lastControl = null;
  app.root.addEventListener('input', (event) => {
    const control = event.composedPath()[0];
    if (control instanceof Element && !box.contains(control) && control.closest('.panel')) lastControl = control;
  }, { signal: app.signal });
  $('#export-video').addEventListener('click', () => {
    box.hidden = !box.hidden;
    $('#export-video').setAttribute('aria-expanded', String(!box.hidden));
    if (!box.hidden) {
      describe();
      box.scrollIntoView({ block: 'nearest' });
    }
  });
  $('#video-record').addEventListener('click', start);
  $('#video-cancel').addEventListener('click', () => job?.abort());
  for (const id of ['#video-format', '#video-size', '#video-fps']) $(id).addEventListener('change', describe);
  // A GIF a slide can carry: no larger than 640 × 360 unless chosen after.
  $('#video-format').addEventListener('change', () => {
    if ($('#video-format').value === 'gif' && /^(1280|1920)x/.test($('#video-size').value)) {
      $('#video-size').value = '640x360';
      describe();
    }
  });

  return {
    make,
    /** After each drawn frame: a live recording keeps the poses. */
    drawn() {
      if (!live) return;
      live.push([(performance.now() - live.began) / 1000, posesNow()]);
    },
    /** A new scene ends a live recording (its bones are not the old ones). */
    sceneChanged() {
      live = null;
      if (!box.hidden) describe();
    },
    relabel: () => { if (!box.hidden) describe(); },
  };
}
