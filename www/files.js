// Files in and out: PNG of the view, the scene as JSON or .glb, loading a scene
// JSON, a BVH motion capture, an FBX file, a .glb, or a .gltf with its .bin files (button or drop), and the
// clipboard.
import { Lab } from './pkg/skinlab.js';
import { decompressed } from './codecs.js';
import { preflight } from './preflight.js';
import { handoverOf, isFileJob, loadConverters } from './converters.js';
import { compareNames, compareSvg, labelledCanvas } from './parts/compare-figure.js';
import { HEADER, drawnBox, showsWeights, weightsFigure } from './parts/weights-figure.js';

/** The largest file read, as the core's `formats::gltf::MAX_FILE_BYTES`. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Reads `files` chunk by chunk (the page keeps drawing meanwhile), calling
 * `report(bytesRead, bytesInAll)` after each chunk; resolves to one
 * `Uint8Array` per file.
 */
async function readFiles(files, report) {
  const total = files.reduce((sum, file) => sum + file.size, 0);
  let read = 0;
  const out = [];
  for (const file of files) {
    const chunks = [];
    const reader = file.stream().getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      read += value.length;
      report(read, total);
    }
    const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    out.push(bytes);
  }
  return out;
}

export function download(blob, name) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Whether `bytes` are a binary glTF: named .glb, or starting with 'glTF'. */
function isGlb(name, bytes) {
  return /\.(glb|vrm)$/i.test(name) || (bytes.length >= 4 && String.fromCharCode(...bytes.subarray(0, 4)) === 'glTF');
}

/** Whether `bytes` are an FBX file: named .fbx, or starting as binary or ASCII FBX does. */
function isFbx(name, bytes) {
  if (/\.fbx$/i.test(name)) return true;
  const head = new TextDecoder().decode(bytes.subarray(0, 32));
  return head.startsWith('Kaydara FBX Binary') || /^\s*; FBX \d/.test(head);
}

/** Whether a file named `name` is a Wavefront OBJ mesh. */
const isObj = (name) => /\.obj$/i.test(name);

/** Whether `text` is a BVH motion capture: named .bvh, or starting with HIERARCHY. */
function isBvh(name, text) {
  return /\.bvh$/i.test(name) || /^\s*HIERARCHY\b/.test(text.slice(0, 64));
}

/** Whether `text` is a glTF document rather than Skinlab's scene JSON. */
function isGltf(name, text) {
  if (/\.gltf$/i.test(name)) return true;
  try {
    return Object.hasOwn(JSON.parse(text), 'asset');
  } catch {
    return false;
  }
}

/**
 * Copies `text`, or shows it to copy by hand where the clipboard is closed;
 * `what` is `link` or `embedCode`.
 */
export async function copyText(app, text, what) {
  try {
    await navigator.clipboard.writeText(text);
    app.showNotice(app.i18n.t(`msg.copied.${what}`));
  } catch {
    window.prompt(app.i18n.t(`msg.copy.${what}`), text);
  }
}

/**
 * The file actions of `app`, which offers `lab`, `example`, `canvas`,
 * `setLab(lab, name)`, `loadScene(json)`, `requestRender` and `showNotice`.
 */
/**
 * A file's name as a name for what is made of it: without its folder and
 * extension, letters, digits, `.`, `_` and `-` kept, the rest as `-`
 * (`Walk Cycle (v2).fbx` → `Walk-Cycle-v2-`), 80 characters at most.
 */
export function fileStem(name) {
  const stem = name.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  return stem.replace(/[^\p{L}\p{N}._-]+/gu, '-').slice(0, 80) || 'scene';
}

export function createFiles(app) {
  const { num, t } = app.i18n;
  const { $ } = app;
  const loading = $('#loading');
  /** The fractions read reported while the last files loaded (for tests). */
  let progress = [];

  function showProgress(text, fraction) {
    loading.hidden = false;
    loading.querySelector('span').textContent = text;
    loading.querySelector('progress').value = fraction;
  }
  // The file the scene on screen was opened from: exports take its name.
  let opened = { lab: null, stem: '' };
  const baseName = () => (app.lab && app.lab === opened.lab ? opened.stem : `skinlab-${app.example ?? 'scene'}`);

  /** The view as a PNG; side by side, with the methods' names and the divider drawn on. */
  function exportPng() {
    app.requestRender();
    requestAnimationFrame(async () => {
      const names = compareNames(app);
      const blob = names
        ? await labelledCanvas(app.canvas, names).convertToBlob({ type: 'image/png' })
        : await new Promise((done) => app.canvas.toBlob(done, 'image/png'));
      download(blob, `${baseName()}.png`);
    });
  }

  /**
   * The view as an SVG document: the core's skin and bones (one path per
   * front-facing triangle, far to near) on the canvas's background, then
   * the page's own layers over the view (the three steps, paths, IK), whose
   * labels stay text.
   */
  function svgText() {
    const canvas = app.canvas;
    const box = canvas.getBoundingClientRect();
    const [width, height] = [canvas.clientWidth, canvas.clientHeight];
    const layers = ['#ghosts', '#paths', '#ik-layer']
      .map((selector) => app.root.querySelector(selector))
      .filter((layer) => layer && layer.childElementCount > 0 && getComputedStyle(layer).display !== 'none')
      .map((layer) => {
        const at = layer.getBoundingClientRect();
        const clone = layer.cloneNode(true);
        const group = document.createElementNS('http://www.w3.org/2000/svg', 'g');
        group.setAttribute('class', layer.id);
        group.setAttribute('transform', `translate(${at.left - box.left} ${at.top - box.top})`);
        group.append(...clone.childNodes);
        return new XMLSerializer().serializeToString(group);
      });
    // Side by side: each half drawn with its own method, and both named.
    const names = compareNames(app);
    const view = names
      ? compareSvg(app.viewer.comparePair().map((method) => app.viewer.svgElements(app.lab, method)), names, width, height)
      : app.viewer.svgElements(app.lab);
    // The weights view reads on its own: a title, a colour scale, the
    // bones' names, on a sheet cropped to the drawing with a margin.
    const weights = showsWeights(app) && !names;
    const sheet = (weights && layers.length === 0 && drawnBox(view, width, height, 24, HEADER, 420)) || [0, 0, width, height];
    const [x, y, w, h] = sheet.map((v) => Number(v.toFixed(2)));
    const extra = weights ? weightsFigure(app, sheet) : '';
    return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="${x} ${y} ${w} ${h}" font-family="system-ui, sans-serif">`
      + `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#f4f5f7"/>${view}${layers.join('')}${extra}</svg>\n`;
  }

  function exportSvg() {
    download(new Blob([svgText()], { type: 'image/svg+xml' }), `${baseName()}.svg`);
  }

  async function exportGlb() {
    try {
      await loadConverters();
      download(new Blob([app.lab.toGlb()], { type: 'model/gltf-binary' }), `${baseName()}.glb`);
    } catch (error) {
      app.showNotice(t('msg.exportFailed', { error: error.message }), 'error');
    }
  }

  function exportJson() {
    download(new Blob([app.lab.sceneJson()], { type: 'application/json' }), `${baseName()}.json`);
  }

  /**
   * The job for the core: a .glb (decompressed where it needs it), an FBX
   * file, a BVH capture, an OBJ or a .gltf with its files, or scene JSON.
   */
  async function jobOf(name, bytes, resources) {
    if (isGlb(name, bytes)) return { glb: (await decompressed({ bytes })) ?? bytes };
    if (isFbx(name, bytes)) return Object.keys(resources).length ? { fbx: bytes, files: resources } : { fbx: bytes };
    const text = new TextDecoder().decode(bytes);
    if (isBvh(name, text)) return { bvh: text };
    if (isObj(name)) return { obj: text, files: resources };
    if (isGltf(name, text)) {
      const plain = await decompressed({ text, files: resources });
      return plain ? { glb: plain } : { text, files: resources };
    }
    return { text };
  }

  /**
   * Plays the clips of motion file `file` (FBX, BVH or glTF: a Mixamo
   * animation without skin, a capture) on the open model by joint names,
   * each as a new clip, and plays the first. The scene on screen is kept
   * as it was when the file cannot be read or shares no joint name.
   */
  async function applyMotion(file) {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      app.showNotice(t('msg.tooLarge', { name: file.name, bytes: file.size, limit: MAX_FILE_BYTES }), 'error');
      return;
    }
    let source = null;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const job = await jobOf(file.name, bytes, {});
      if (!isFileJob(job)) throw new Error(t('msg.notMotion'));
      const trial = await preflight(job);
      if (!trial.ok) throw new Error(trial.trapped ? t('msg.trapped', { error: trial.message }) : trial.message);
      if (trial.scene) {
        source = Lab.fromHandover(trial.scene);
      } else {
        await loadConverters();
        source = Lab.fromHandover(handoverOf(job));
      }
      // Clips are retargeted by the file readers' module.
      await loadConverters();
      const first = app.lab.animationNames().length;
      let bones = 0;
      const unmatched = new Set();
      const errors = [];
      source.animationNames().forEach((_, clip) => {
        try {
          const report = app.lab.retargetClip(source, clip);
          bones = Math.max(bones, report.matched);
          report.unmatched.forEach((name) => unmatched.add(name));
        } catch (error) {
          errors.push(error.message);
        }
      });
      const clips = app.lab.animationNames().length - first;
      if (clips === 0) throw new Error(errors[0] ?? t('msg.notMotion'));
      app.clipsChanged();
      $('#clip').value = String(first);
      $('#clip').dispatchEvent(new Event('change'));
      const left = unmatched.size ? ` ${t('msg.motionUnmatched', { list: [...unmatched].slice(0, 8).join(', ') })}` : '';
      app.showNotice(`${t('msg.motionApplied', { name: file.name, clips, bones })}${left}`, 'info', 'undoable');
    } catch (error) {
      app.showNotice(t('msg.motionFailed', { name: file.name, error: error.message }), 'error');
    } finally {
      source?.free();
    }
  }

  /**
   * Loads a scene JSON, a .glb, or a .gltf with the files it names (its
   * .bin buffers) chosen or dropped together. The main file is the scene or
   * glTF among them; a bad or incomplete set leaves the scene as it was.
   */
  async function importFiles(fileList) {
    const files = [...fileList];
    const main = files.find((file) => /\.(gltf|glb|vrm|fbx|obj|json|bvh)$/i.test(file.name)) ?? files[0];
    if (!main) return;
    // Checked before reading a byte: the wasm refuses larger files anyway.
    const total = files.reduce((sum, file) => sum + file.size, 0);
    if (total > MAX_FILE_BYTES) {
      app.showNotice(t('msg.tooLarge', { name: main.name, bytes: total, limit: MAX_FILE_BYTES }), 'error', 'failedOpen');
      return;
    }
    let bytes;
    const resources = {};
    const megabytes = (n) => num(n / 1e6, 1);
    progress = [];
    try {
      const ordered = [main, ...files.filter((file) => file !== main)];
      const read = await readFiles(ordered, (done, all) => {
        progress.push(done / all);
        showProgress(t('msg.reading', { name: main.name, done: megabytes(done), all: megabytes(all) }), done / all);
      });
      [bytes] = read;
      ordered.slice(1).forEach((file, k) => { resources[file.name] = read[k + 1]; });
    } catch (error) {
      loading.hidden = true;
      app.showNotice(t('msg.readFailed', { name: main.name, error: error.message }), 'error', 'failedOpen');
      return;
    }
    // Show "Reading" as done before the core parses (one synchronous step).
    showProgress(t('msg.building', { name: main.name, size: megabytes(bytes.length) }), 1);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    try {
      const job = await jobOf(main.name, bytes, resources);
      // Read once by a worker's own core first: a file that makes the
      // reader trap ends that worker, not the page and its scene.
      const trial = await preflight(job);
      if (!trial.ok) {
        const reason = trial.trapped ? t('msg.trapped', { error: trial.message }) : trial.message;
        app.showNotice(t('msg.loadFailed', { name: main.name, error: reason }), 'error', 'failedOpen');
        return;
      }
      if (trial.scene) {
        app.setLab(Lab.fromHandover(trial.scene), null);
      } else if (isFileJob(job)) {
        // No worker: the page converts the file itself.
        await loadConverters();
        app.setLab(Lab.fromHandover(handoverOf(job)), null);
      } else {
        app.loadScene(job.text);
      }
      opened = { lab: app.lab, stem: fileStem(main.name) };
      const loaded = files.length > 1 ? t('msg.loadedWith', { name: main.name, n: files.length - 1 }) : t('msg.loaded', { name: main.name });
      // Said once: what the file needs that Skinlab does not draw.
      const notDrawn = app.lab.notDrawn();
      const missing = notDrawn.length ? ` ${t('msg.leftOut', { list: notDrawn.join(', ') })}` : '';
      // Copies of a vertex (a seam, meshes that meet) whose weights differ part when posed.
      const seams = app.lab.seamsApart();
      const apart = seams > 0 ? ` ${t('msg.seamsApart', { n: num(seams) })}` : '';
      app.showNotice(`${loaded}${missing}${apart}`);
    } catch (error) {
      app.showNotice(t('msg.loadFailed', { name: main.name, error: error.message }), 'error', 'failedOpen');
    } finally {
      loading.hidden = true;
    }
  }

  $('#export-png').addEventListener('click', exportPng);
  $('#export-svg').addEventListener('click', exportSvg);
  $('#export-json').addEventListener('click', exportJson);
  $('#export-glb').addEventListener('click', exportGlb);
  $('#import-json').addEventListener('click', () => $('#import-file').click());
  $('#apply-motion').addEventListener('click', () => $('#motion-file').click());
  $('#motion-file').addEventListener('change', (event) => {
    applyMotion(event.target.files[0]);
    event.target.value = '';
  });
  $('#import-file').addEventListener('change', (event) => {
    importFiles(event.target.files);
    event.target.value = '';
  });
  const stage = $('#stage');
  stage.addEventListener('dragover', (event) => {
    event.preventDefault();
    stage.classList.add('drop-target');
  });
  stage.addEventListener('dragleave', () => stage.classList.remove('drop-target'));
  stage.addEventListener('drop', (event) => {
    event.preventDefault();
    stage.classList.remove('drop-target');
    importFiles(event.dataTransfer?.files ?? []);
  });

  return { exportPng, exportSvg, svgText, exportJson, exportGlb, importFiles, applyMotion, baseName, loadProgress: () => [...progress] };
}
