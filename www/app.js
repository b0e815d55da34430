// Skinlab's page: wires the wasm core and viewer to the controls, keeps the
// address bar a link to what is on screen, and renders on demand (only when
// something changed, and only while the page is visible).
import init, { Lab, Viewer } from './pkg/skinlab.js';
import { setLanguage, t, translatePage } from './i18n.js';
import { OVERLAYS, decodeState, encodeState, readParameters } from './link.js';
import { createPanel } from './panel.js';

const CAPTIONS = {
  'two-bone': 'Turn bone 2: bone 1’s vertices do not move. Each vertex belongs to one bone, so the skin creases at the joint.',
  'two-bone-smooth': 'Near the joint the vertices belong to both bones: turn bone 2 and the strip bends smoothly.',
  'y-junction': 'The fork vertex belongs to both branches, half each: bend a branch and the fork follows halfway.',
  'y-junction-unweighted': 'The fork vertex belongs to the left branch only: bend the right branch and the skin tears at the fork.',
  tube: 'Twist bone 2 by 180° and compare (“Side by side” shows both): LBS collapses the joint to a “candy wrapper”, DQS keeps its volume.',
  chain: '300 bones: too many for uniforms, so the matrix palette travels to the shader as a float texture.',
  fingers: 'Press “Nearest bone”: the index fingertip is nearer the middle finger’s bone and follows it. “Bone heat” keeps it on its own finger.',
};
const MUTATING = new Set(['setBonePose', 'resetPose', 'setInfluences', 'undo', 'redo', 'checkpoint', 'autoWeights',
  'setLocked', 'paintDab', 'setQuantised', 'setAnimationTime']);

const $ = (selector) => document.querySelector(selector);
const stage = $('#stage');
const message = $('#message');
const notice = $('#notice');
let canvas = $('#view');

let viewer = null;
let lab = null;
let exampleName = null;
let pristineInfluences = null;
let frameRequested = false;
let visible = true;
let contextLost = false;
let lastFrameUrl = '';
let snapshotTimer = 0;
let hashTimer = 0;
let noticeTimer = 0;
let framesDrawn = 0;
let canvasObservers = [];

const app = {
  get lab() { return lab; },
  get viewer() { return viewer; },
  selectBone: (bone) => selectBone(bone),
  showNotice: (text, kind) => showNotice(text, kind),
  requestRender: () => requestRender(),
};
const panel = createPanel(app);

function showMessage(text) {
  message.textContent = text;
  message.hidden = false;
}

function showNotice(text, kind = 'info') {
  notice.textContent = text;
  notice.className = kind === 'error' ? 'notice error' : 'notice';
  notice.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { notice.hidden = true; }, kind === 'error' ? 12000 : 6000);
}

// ----- frames -----

function requestRender() {
  if (frameRequested || !viewer || contextLost) return;
  frameRequested = true;
  requestAnimationFrame(drawFrame);
}

function resizeCanvas() {
  const ratio = window.devicePixelRatio || 1;
  const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
  const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  $('#compare-divider').style.height = `${canvas.clientHeight}px`;
}

function drawFrame() {
  frameRequested = false;
  // Hidden, scrolled away or without a context: draw when it comes back.
  if (!visible || document.hidden || contextLost) return;
  resizeCanvas();
  try {
    viewer.render(lab);
    framesDrawn += 1;
  } catch (error) {
    showMessage(`Drawing failed: ${error.message}`);
    return;
  }
  panel.updatePanel();
  scheduleHashUpdate();
  // Keep a still of the last frame, taken once things settle, to show if
  // the browser takes the graphics context away.
  clearTimeout(snapshotTimer);
  snapshotTimer = setTimeout(() => {
    if (!contextLost) lastFrameUrl = canvas.toDataURL('image/png');
  }, 500);
}

// A lab whose mutating calls schedule a frame, so edits made from the
// console or by other code show up.
function watched(target) {
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      return (...args) => {
        const result = value.apply(object, args);
        if (MUTATING.has(property)) requestRender();
        return result;
      };
    },
  });
}

// ----- animation (clips read from glTF files) -----

let playing = false;
let playStart = 0;

function animationTime() {
  return Number($('#time').value) * lab.animationDuration(Number($('#clip').value));
}

function showTime() {
  $('#time-label').textContent = `${animationTime().toFixed(2)} s`;
}

function setupPlayer() {
  pause();
  const names = lab.animationNames();
  $('#player').hidden = names.length === 0;
  const clip = $('#clip');
  clip.textContent = '';
  names.forEach((name, index) => clip.add(new Option(name, String(index))));
  $('#time').value = '0';
  if (names.length) showTime();
}

function seek() {
  lab.setAnimationTime(Number($('#clip').value), animationTime());
  showTime();
  requestRender();
}

function playFrame(now) {
  if (!playing) return;
  const clip = Number($('#clip').value);
  const duration = lab.animationDuration(clip);
  const elapsed = ((now - playStart) / 1000) % Math.max(duration, 1e-3);
  $('#time').value = String(duration > 0 ? elapsed / duration : 0);
  seek();
  requestAnimationFrame(playFrame);
}

function play() {
  if (playing || lab.animationNames().length === 0) return;
  lab.checkpoint();
  playing = true;
  playStart = performance.now() - animationTime() * 1000;
  $('#play').setAttribute('aria-pressed', 'true');
  $('#play').textContent = t('pause', 'Pause');
  requestAnimationFrame(playFrame);
}

function pause() {
  playing = false;
  $('#play').setAttribute('aria-pressed', 'false');
  $('#play').textContent = t('play', 'Play');
}

// ----- state changes -----

function setQuantised(on) {
  $('#quantised').checked = on;
  lab.setQuantised(on);
  requestRender();
}


function influenceTable(target) {
  const table = [];
  for (let v = 0; v < target.vertexCount(); v++) table.push(JSON.stringify(target.influences(v)));
  return table;
}

function setLab(next, name) {
  lab = next;
  exampleName = name;
  pristineInfluences = name ? influenceTable(Lab.example(name)) : null;
  viewer.selectBone(lab, -1);
  viewer.selectVertex(lab, -1);
  viewer.frameScene(lab, settings.view ?? 'auto');
  lab.setQuantised($('#quantised').checked);
  panel.buildBoneList();
  const caption = $('#caption');
  caption.textContent = name ? t(`cap.${name}`, CAPTIONS[name]) : t('custom', 'A scene of your own.');
  if (name === 'tube') {
    const twist = document.createElement('button');
    twist.type = 'button';
    twist.textContent = t('twist', 'Twist bone 2 by 180°');
    twist.addEventListener('click', () => {
      lab.checkpoint();
      lab.setBonePose(1, [0, 1, 0, 0]);
      viewer.selectBone(lab, 1);
      requestRender();
    });
    caption.append(twist);
  }
  $('#example').value = name ?? '';
  setupPlayer();
  if (lab.prunedVertexCount() > 0) {
    showNotice(`${lab.prunedVertexCount()} vertices listed more than four bones; each keeps its four largest weights.`);
  }
  requestRender();
}

function loadExample(name) {
  setLab(Lab.example(name), name);
}

/** Loads scene JSON; on a bad file throws, leaving the current scene as it was. */
function loadScene(json) {
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  const next = Lab.fromSceneJson(text);
  setLab(next, null);
}

function setMethod(method) {
  viewer.setMethod(method);
  for (const button of document.querySelectorAll('[data-method]')) {
    button.setAttribute('aria-pressed', String(button.dataset.method === method));
  }
  requestRender();
}

function setCompare(on) {
  viewer.setCompare(on);
  $('#compare').setAttribute('aria-pressed', String(on));
  $('#compare-labels').hidden = !on;
  requestRender();
}

function setTool(tool) {
  viewer.setTool(tool);
  for (const button of document.querySelectorAll('[data-tool]')) {
    button.setAttribute('aria-pressed', String(button.dataset.tool === tool));
  }
  $('#paint-panel').hidden = tool !== 'paint';
  canvas.classList.toggle('painting', tool === 'paint');
  if (tool === 'paint' && viewer.weightView() === 'skin') setWeightView('weights');
  if (tool === 'paint' && viewer.selectedBone() < 0) showNotice('Select a bone (click it in the Bones list) to paint its weight.');
  requestRender();
}

function setWeightView(view) {
  viewer.setWeightView(view);
  $('#weight-view').value = view;
  $('#legend').hidden = view !== 'weights';
  requestRender();
}

function setOverlay(name, on) {
  viewer.setOverlay(name, on);
  const box = document.querySelector(`[data-overlay="${name}"]`);
  if (box) box.checked = on;
  requestRender();
}

function selectBone(bone) {
  viewer.selectBone(lab, bone);
  requestRender();
}

function readBrush() {
  const radius = Number($('#brush-radius').value);
  const strength = Number($('#brush-strength').value);
  const value = Number($('#brush-value').value);
  const mode = $('#brush-mode').value;
  viewer.setBrush(radius, strength, $('#brush-falloff').value, mode, value);
  $('output[for="brush-radius"]').textContent = `${radius} px`;
  $('output[for="brush-strength"]').textContent = strength.toFixed(2);
  $('output[for="brush-value"]').textContent = value.toFixed(2);
  $('#brush-value-row').hidden = mode !== 'set';
}

function setBrush({ radius, strength, falloff, mode, value } = {}) {
  if (radius !== undefined) $('#brush-radius').value = String(radius);
  if (strength !== undefined) $('#brush-strength').value = String(strength);
  if (falloff !== undefined) $('#brush-falloff').value = falloff;
  if (mode !== undefined) $('#brush-mode').value = mode;
  if (value !== undefined) $('#brush-value').value = String(value);
  viewer.setBrush(
    radius ?? Number($('#brush-radius').value),
    strength ?? Number($('#brush-strength').value),
    falloff ?? $('#brush-falloff').value,
    mode ?? $('#brush-mode').value,
    value ?? Number($('#brush-value').value),
  );
  readBrush();
}

function autoWeights(method) {
  lab.checkpoint();
  const report = lab.autoWeights(method);
  const names = { nearest: 'Nearest bone', distance: 'Distance falloff', heat: 'Bone heat' };
  let text = `${names[method]} weights applied (Ctrl+Z undoes).`;
  if (report.prunedVertices > 0) text += ` ${report.prunedVertices} vertices kept only their four largest weights.`;
  if (method === 'heat' && !report.visibilityChecked) text += ' The mesh is large, so bones were not tested for visibility.';
  showNotice(text);
  panel.forgetVertexPanel();
  requestRender();
  return report;
}

function undo() {
  const done = lab.undo();
  requestRender();
  return done;
}

function redo() {
  const done = lab.redo();
  requestRender();
  return done;
}

function resetPose() {
  lab.checkpoint();
  lab.resetPose();
  requestRender();
}

// ----- the address: parameters and shared state -----

const settings = {};

/** The state on screen, as the hash encodes it. */
function currentState() {
  const state = { v: 1, e: exampleName, m: viewer.method(), d: viewer.view(), c: Array.from(viewer.cameraState()) };
  if (lab.isQuantised()) state.q = 1;
  if (viewer.compare()) state.k = 1;
  const poses = [];
  for (let bone = 0; bone < lab.boneCount(); bone++) {
    const { rotation, translation, scale } = lab.bonePose(bone);
    const identity = rotation[3] === 1 && translation.every((x) => x === 0) && scale.every((x) => x === 1);
    if (!identity) poses.push([bone, ...rotation, ...translation, ...scale]);
  }
  if (poses.length) state.p = poses;
  const edits = [];
  if (pristineInfluences) {
    for (let v = 0; v < lab.vertexCount(); v++) {
      const pairs = lab.influences(v);
      if (JSON.stringify(pairs) !== pristineInfluences[v]) edits.push([v, pairs]);
    }
  }
  if (edits.length) state.w = edits;
  return state;
}

function updateHashNow() {
  clearTimeout(hashTimer);
  if (!lab) return;
  if (!exampleName) {
    // A scene of one's own is shared as a file ("Save scene"), not a link.
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    return;
  }
  const hash = encodeState(currentState());
  if (hash !== location.hash) history.replaceState(null, '', hash);
}

function scheduleHashUpdate() {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(updateHashNow, 300);
}

/**
 * Restores a shared state. Everything is checked and built aside first, so
 * a bad link changes nothing; throws an Error naming the problem.
 */
function restoreState(state) {
  if (!Lab.exampleNames().includes(state.e)) throw new Error(`the link names an unknown example '${state.e}'`);
  const next = Lab.example(state.e);
  for (const [bone, ...numbers] of state.p ?? []) {
    next.setBonePose(bone, numbers.slice(0, 4), numbers.slice(4, 7), numbers.slice(7, 10));
  }
  for (const [vertex, pairs] of state.w ?? []) next.setInfluences(vertex, pairs);
  setLab(next, state.e);
  if (state.d) viewer.frameScene(lab, state.d);
  if (state.c) viewer.setCameraState(new Float32Array(state.c));
  if (state.m) setMethod(state.m);
  setQuantised(state.q === 1);
  setCompare(state.k === 1);
}

function shareLink() {
  updateHashNow();
  return location.href;
}

function embedCode() {
  const url = new URL(shareLink());
  url.searchParams.set('ui', 'minimal');
  const src = url.href.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  return `<iframe src="${src}" width="960" height="600" style="border:0" allow="fullscreen" title="Skinlab"></iframe>`;
}

async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    showNotice(`${what} copied to the clipboard.`);
  } catch {
    window.prompt(`Copy the ${what.toLowerCase()}:`, text);
  }
}

// ----- export and import -----

function download(blob, name) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function exportPng() {
  requestRender();
  requestAnimationFrame(() => canvas.toBlob((blob) => download(blob, `skinlab-${exampleName ?? 'scene'}.png`), 'image/png'));
}

function exportJson() {
  download(new Blob([lab.sceneJson()], { type: 'application/json' }), `skinlab-${exampleName ?? 'scene'}.json`);
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

async function importFile(file) {
  let text;
  try {
    text = await file.text();
  } catch (error) {
    showNotice(`Could not read ${file.name}: ${error.message}`, 'error');
    return;
  }
  try {
    if (isGltf(file.name, text)) setLab(Lab.fromGltf(text), null);
    else loadScene(text);
    showNotice(`Loaded ${file.name}.`);
  } catch (error) {
    showNotice(`Could not load ${file.name}: ${error.message}. The current scene is unchanged.`, 'error');
  }
}

// ----- the graphics context -----

function viewerSettings() {
  const overlays = {};
  for (const name of OVERLAYS) overlays[name] = viewer.overlay(name);
  return {
    camera: Array.from(viewer.cameraState()),
    view: viewer.view(),
    method: viewer.method(),
    tool: viewer.tool(),
    weightView: viewer.weightView(),
    bone: viewer.selectedBone(),
    vertex: viewer.selectedVertex(),
    compare: viewer.compare(),
    overlays,
  };
}

/** A new viewer on `canvas`, set up like the one before. */
function rebuildViewer(saved) {
  try {
    viewer = new Viewer(canvas);
  } catch (error) {
    showMessage(`${error.message}. Skinlab draws with WebGL2.`);
    return false;
  }
  viewer.frameScene(lab, saved.view);
  viewer.setCameraState(new Float32Array(saved.camera));
  viewer.setMethod(saved.method);
  viewer.setTool(saved.tool);
  viewer.setWeightView(saved.weightView);
  viewer.selectBone(lab, saved.bone);
  viewer.selectVertex(lab, saved.vertex);
  viewer.setCompare(saved.compare);
  for (const [name, on] of Object.entries(saved.overlays)) viewer.setOverlay(name, on);
  readBrush();
  viewer.setMirror($('#brush-mirror').checked);
  window.skinlab.viewer = viewer;
  return true;
}

let savedSettings = null;

function onContextLost(event) {
  event.preventDefault();
  savedSettings = viewerSettings();
  contextLost = true;
  $('#still-image').src = lastFrameUrl;
  $('#still').hidden = false;
}

function onContextRestored() {
  contextLost = false;
  $('#still').hidden = true;
  if (rebuildViewer(savedSettings)) requestRender();
}

/** Resumes after a lost context: on a fresh canvas if the old one stays lost. */
function resume() {
  if (!contextLost) return;
  const fresh = canvas.cloneNode(false);
  canvas.replaceWith(fresh);
  canvas = fresh;
  wireCanvas();
  contextLost = false;
  $('#still').hidden = true;
  if (rebuildViewer(savedSettings)) requestRender();
}

// ----- input -----

function canvasPoint(event) {
  const rect = canvas.getBoundingClientRect();
  return [event.clientX - rect.left, event.clientY - rect.top];
}

function wireCanvas() {
  const cursor = $('#brush-cursor');
  const moveCursor = (x, y) => {
    const show = viewer.tool() === 'paint';
    cursor.hidden = !show;
    if (!show) return;
    const r = viewer.brushRadius();
    Object.assign(cursor.style, { left: `${x - r}px`, top: `${y - r}px`, width: `${2 * r}px`, height: `${2 * r}px` });
  };
  canvas.addEventListener('pointerdown', (event) => {
    const [x, y] = canvasPoint(event);
    canvas.focus();
    if (viewer.tool() === 'pose' && event.button === 0 && !event.shiftKey && !event.altKey && !event.ctrlKey
      && viewer.pickBone(lab, x, y) < 0) {
      const vertex = viewer.pickVertex(lab, x, y);
      viewer.selectVertex(lab, vertex);
      if (vertex >= 0) {
        requestRender();
        return;
      }
    }
    if (playing && event.button === 0) pause();
    const began = viewer.pointerDown(lab, x, y, event.button, event.shiftKey, event.altKey || event.ctrlKey);
    if (began === 'none') {
      showNotice('Select a bone (click it in the Bones list) to paint its weight.');
      return;
    }
    canvas.setPointerCapture(event.pointerId);
    canvas.classList.add('dragging');
    requestRender();
  });
  canvas.addEventListener('pointermove', (event) => {
    const [x, y] = canvasPoint(event);
    moveCursor(x, y);
    if (!viewer.dragging()) return;
    if (viewer.pointerMove(lab, x, y)) requestRender();
  });
  canvas.addEventListener('pointerleave', () => { cursor.hidden = true; });
  const end = () => {
    if (!viewer.dragging()) return;
    const painting = viewer.tool() === 'paint';
    viewer.pointerUp();
    canvas.classList.remove('dragging');
    if (painting && viewer.lastStrokePruned() > 0) {
      showNotice(`${viewer.lastStrokePruned()} influence(s) were pruned during that stroke: a vertex keeps its four largest.`);
    }
    requestRender();
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
  canvas.addEventListener('contextmenu', (event) => event.preventDefault());
  canvas.addEventListener('wheel', (event) => {
    event.preventDefault();
    viewer.zoom(Math.exp(event.deltaY * 0.001));
    requestRender();
  }, { passive: false });
  canvas.addEventListener('webglcontextlost', onContextLost);
  canvas.addEventListener('webglcontextrestored', onContextRestored);
  for (const observer of canvasObservers) observer.disconnect();
  const watchedCanvas = canvas;
  canvasObservers = [
    new ResizeObserver(requestRender),
    new IntersectionObserver((entries) => {
      if (watchedCanvas !== canvas) return;
      visible = entries.some((entry) => entry.isIntersecting);
      if (visible) requestRender();
    }),
  ];
  for (const observer of canvasObservers) observer.observe(canvas);
}

function wireControls() {
  window.addEventListener('keydown', (event) => {
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
    const key = event.key.toLowerCase();
    if ((event.ctrlKey || event.metaKey) && key === 'z') {
      event.preventDefault();
      if (event.shiftKey) redo(); else undo();
    } else if ((event.ctrlKey || event.metaKey) && key === 'y') {
      event.preventDefault();
      redo();
    } else if (!event.ctrlKey && !event.metaKey && !event.altKey) {
      const names = Lab.exampleNames();
      const index = Number(event.key) - 1;
      if (Number.isInteger(index) && index >= 0 && index < names.length) loadExample(names[index]);
      else if (key === 'r') resetPose();
      else if (key === 'arrowleft' || key === 'arrowright') {
        // Presenters' keys: turn the selected bone, 5° a press (1° with Shift).
        const step = (event.shiftKey ? 1 : 5) * (key === 'arrowleft' ? 1 : -1);
        if (viewer.turnSelected(lab, step)) {
          event.preventDefault();
          requestRender();
        }
      } else if (key === 'pageup' || key === 'pagedown') {
        const count = lab.boneCount();
        const current = viewer.selectedBone();
        const next = current < 0 ? 0 : (current + (key === 'pagedown' ? 1 : count - 1)) % count;
        event.preventDefault();
        selectBone(next);
      }
      else if (key === 'p') setTool('pose');
      else if (key === 'w') setTool('paint');
    }
  });
  document.addEventListener('visibilitychange', () => { if (!document.hidden) requestRender(); });

  $('#example').addEventListener('change', (event) => loadExample(event.target.value));
  for (const button of document.querySelectorAll('[data-method]')) {
    button.addEventListener('click', () => setMethod(button.dataset.method));
  }
  for (const button of document.querySelectorAll('[data-tool]')) {
    button.addEventListener('click', () => setTool(button.dataset.tool));
  }
  for (const box of document.querySelectorAll('[data-overlay]')) {
    box.addEventListener('change', () => setOverlay(box.dataset.overlay, box.checked));
  }
  for (const button of document.querySelectorAll('[data-auto]')) {
    button.addEventListener('click', () => autoWeights(button.dataset.auto));
  }
  for (const id of ['#brush-radius', '#brush-strength', '#brush-value', '#brush-mode', '#brush-falloff']) {
    $(id).addEventListener('input', readBrush);
  }
  $('#brush-mirror').addEventListener('change', (event) => viewer.setMirror(event.target.checked));
  $('#weight-view').addEventListener('change', (event) => setWeightView(event.target.value));
  $('#quantised').addEventListener('change', (event) => setQuantised(event.target.checked));
  $('#compare').addEventListener('click', () => setCompare(!viewer.compare()));
  $('#reset').addEventListener('click', resetPose);
  $('#undo').addEventListener('click', undo);
  $('#redo').addEventListener('click', redo);
  $('#share').addEventListener('click', () => {
    if (!exampleName) {
      showNotice('A scene of your own travels as a file: use “Save scene”, then “Load scene” on the other side.');
      return;
    }
    copyText(shareLink(), 'Link');
  });
  $('#embed').addEventListener('click', () => copyText(embedCode(), 'Embed code'));
  $('#export-png').addEventListener('click', exportPng);
  $('#export-json').addEventListener('click', exportJson);
  $('#import-json').addEventListener('click', () => $('#import-file').click());
  $('#import-file').addEventListener('change', (event) => {
    const [file] = event.target.files;
    if (file) importFile(file);
    event.target.value = '';
  });
  $('#resume').addEventListener('click', resume);
  $('#play').addEventListener('click', () => (playing ? pause() : play()));
  $('#clip').addEventListener('change', () => { $('#time').value = '0'; seek(); });
  $('#time').addEventListener('input', () => { pause(); seek(); });
  stage.addEventListener('dragover', (event) => {
    event.preventDefault();
    stage.classList.add('drop-target');
  });
  stage.addEventListener('dragleave', () => stage.classList.remove('drop-target'));
  stage.addEventListener('drop', (event) => {
    event.preventDefault();
    stage.classList.remove('drop-target');
    const [file] = event.dataTransfer?.files ?? [];
    if (file) importFile(file);
  });
}

// ----- start -----

async function start() {
  Object.assign(settings, readParameters(location.search, ['two-bone', 'two-bone-smooth', 'y-junction',
    'y-junction-unweighted', 'tube', 'chain', 'fingers']));
  setLanguage(settings.lang ?? 'en');
  translatePage();
  document.body.className = `ui-${settings.ui ?? 'full'}`;
  try {
    await init();
  } catch (error) {
    showMessage(`Skinlab could not load its WebAssembly core: ${error.message}`);
    return;
  }
  try {
    viewer = new Viewer(canvas);
  } catch (error) {
    showMessage(`${error.message}. Skinlab draws with WebGL2; try a current Chrome, Firefox or Safari, or enable hardware acceleration.`);
    return;
  }
  wireCanvas();
  wireControls();
  readBrush();
  for (const name of settings.overlays ? OVERLAYS : []) setOverlay(name, settings.overlays.includes(name));
  loadExample(settings.example ?? 'two-bone');
  if (settings.method) setMethod(settings.method);
  if (settings.tool) setTool(settings.tool);
  try {
    const state = decodeState(location.hash);
    if (state) restoreState(state);
  } catch (error) {
    showNotice(`This link's state could not be restored: ${error.message}. Showing the default instead.`, 'error');
    history.replaceState(null, '', location.pathname + location.search);
  }
  window.skinlab = {
    get lab() { return watched(lab); },
    get example() { return exampleName; },
    viewer,
    Lab,
    loadExample,
    loadScene,
    setMethod,
    method: () => viewer.method(),
    setTool,
    tool: () => viewer.tool(),
    setWeightView,
    setQuantised,
    setCompare,
    setBrush,
    setMirror(on) { $('#brush-mirror').checked = on; viewer.setMirror(on); },
    lockBone(bone, locked = true) { lab.setLocked(bone, locked); panel.buildBoneList(); },
    autoWeights,
    selectBone,
    selectedBone: () => viewer.selectedBone(),
    selectVertex(vertex) { viewer.selectVertex(lab, vertex); requestRender(); },
    selectedVertex: () => viewer.selectedVertex(),
    setOverlay,
    gpuSkinnedPositions: (method) => viewer.gpuSkinnedPositions(lab, method),
    gpuSkinnedNormals: (method) => viewer.gpuSkinnedNormals(lab, method),
    boneScreenPoint(bone) { const [x, y] = viewer.boneScreenPoint(lab, bone); return { x, y }; },
    vertexScreenPoint(vertex) { const [x, y] = viewer.vertexScreenPoint(lab, vertex); return { x, y }; },
    undo,
    redo,
    resetPose,
    shareLink,
    embedCode,
    play,
    pause,
    playing: () => playing,
    framesRendered: () => framesDrawn,
    contextLost: () => contextLost,
    resume,
    requestRender,
  };
}

start();
