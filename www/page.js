// One lab on a page: `createPage(root, options)` starts the viewer on the
// page's markup under `root` (the document, or a <skin-lab>'s shadow root),
// schedules frames (on demand: only when something changed, and only while
// it is visible), keeps its address a link to what is on screen, and
// switches between the modes. Each mode is a module under modes/ that owns
// its panel, its controls and its captions. Every piece of state lives in
// the instance, so several labs share a page, one compiled core and one
// instance of it, and nothing else.
import { Lab, Viewer } from './pkg/skinlab.js';
import { restartCore, singleFile, sourcesHref, startCore } from './assets.js';
import { createLanguage } from './i18n.js';
import {
  LARGE_EXAMPLES, MODES, OVERLAYS, decodeState, readParameters, unknown,
} from './link.js';
import { createCanvas } from './canvas.js';
import { createControls } from './controls.js';
import { createFiles, download } from './files.js';
import { createPlayer } from './player.js';
import { createBoneList } from './parts/bones.js';
import { createDeforming } from './parts/deforming.js';
import { createVertexPanel } from './parts/vertex.js';
import { createGhosts } from './parts/ghosts.js';
import { createVertexMarks } from './parts/vertex-marks.js';
import { createVideoBox } from './parts/video-box.js';
import { createCentres } from './page/centres.js';
import { createLinkState } from './page/link-state.js';
import { createNotices } from './page/notices.js';
import { createCaption } from './page/caption.js';
import { createLooks } from './page/looks.js';
import { createChoices } from './page/choices.js';
import { createSkinMode } from './modes/skin.js';
import { createWeightsMode } from './modes/weights.js';
import { createIkMode } from './modes/ik.js';
import { createMorphMode } from './modes/morph.js';
import { createRigMode } from './modes/rig.js';
import { createLessonsMode } from './modes/lessons.js';
import { installDeckKeys } from './deck-keys.js';
import { createTelling } from './parts/telling.js';
import { createAnimateMode } from './modes/animate.js';
import { createGpuMode } from './modes/gpu.js';
import { MODEL_NAMES, isModel, modelLab } from './gallery.js';
import { convertersReady, exampleLab, loadConverters, needsConverters } from './converters.js';
import { loadBaseColour } from './texture.js';
import { createAutosave } from './autosave.js';

// ----- a trap in the core -----

// The labs started on this page: they share one instance of the core.
const pages = new Set();
// When the core restarted lately: a trap that comes back at once is not
// restarted forever.
let restarts = [];

/** Times the core was restarted after a trap in the last minute. */
function restartCount() {
  return restarts.length;
}

/**
 * A trap (an out-of-memory, a bug) leaves the core's instance unusable,
 * and with it every lab on the page, which all share it: each lab keeps
 * its last saved state and lets its objects go, a fresh instance of the
 * same compiled module starts, and each lab rebuilds its scene on it,
 * without a reload.
 */
function restartCores(error) {
  const now = performance.now();
  restarts = restarts.filter((time) => now - time < 60000);
  if (restarts.length >= 3) {
    for (const page of pages) page.stopped(error);
    return;
  }
  restarts.push(now);
  const kept = [...pages].map((page) => [page, page.dropCore()]);
  const exports = restartCore();
  for (const [page, saved] of kept) page.reopen(exports, saved, error);
}

window.addEventListener('error', (event) => {
  if (!(event.error instanceof WebAssembly.RuntimeError) || pages.size === 0) return;
  event.preventDefault();
  restartCores(event.error);
});

/**
 * A lab on the page markup under `root` (a document or a shadow root, which
 * holds index.html's `.skinlab` element). `options`:
 * - `address`: where its link lives (`windowAddress()` for the page's own
 *   address bar, `addressOf(url)` for an element's); its parameters are read
 *   from it;
 * - `embedded`: whether it sits inside another page (it then saves nothing
 *   unless its address asks);
 * - `remembersLanguage`: whether the language chosen is kept for the next
 *   visit (the page's own lab), or comes from the address and browser alone;
 * - `autosaveKey`: the name its autosave is kept under;
 * - `ready(api)`: called with its API once it has started.
 * Returns `{ start, close }`; `start()` resolves once the lab shows its
 * first scene.
 *
 * Longer than a screen on purpose: it is the lab's composition root, the
 * one closure that holds the lab's state (scene, viewer, mode, frames) and
 * hands it to the parts it creates. The jobs that need no more than `app`
 * live in modules of their own (page/: notices, caption, looks, remembered
 * choices, link state, centres; parts/ and modes/); what stays here is
 * the frame loop, scene and mode switching, the core's restart, start and
 * close, each a function of its own.
 */
export function createPage(root, { address, embedded = false, remembersLanguage = true, autosaveKey = 'current', ready = () => {} }) {
  const host = root.querySelector('.skinlab');
  const $ = (selector) => root.querySelector(selector);
  const i18n = createLanguage(root, host);
  const { t, num } = i18n;
  const { showMessage, showNotice, hideNotice, ...notices } = createNotices($);
  // The API handed out by `ready` (window.skinlab for the page's own lab).
  let api = null;
  // Closed (see `close`): a start still under way stops where it is.
  let closed = false;
  // Ends, on close, what the lab listens to outside its own markup (keys
  // on its root, a drag's moves on the window).
  const listening = new AbortController();

  let viewer = null;
  let lab = null;
  let exampleName = null;
  let frameRequested = false;
  // A video is rendering its frames into the canvas (see suspendFrames).
  let framesSuspended = false;
  let framesDrawn = 0;
  let firstFrameMs = null;
  // The core's exports (its memory, for the benchmark).
  let core = null;
  let mode = null;
  let autosave = null;
  // A second mode whose panel and view layers a lesson step shows under its
  // card (the IK ring and report, the GPU table, the timeline): null or a mode.
  let companion = null;
  const settings = {};

  // What the parts and modes see of the page.
  const app = {
    root,
    host,
    i18n,
    $,
    /** Aborted when the lab closes: for listeners outside its markup (`{ signal }`). */
    signal: listening.signal,
    /** The lab's API (what `ready` hands out), once it has started. */
    get api() { return api; },
    get lab() { return lab; },
    get viewer() { return viewer; },
    get example() { return exampleName; },
    get canvas() { return canvas.element; },
    /** Puts `next` (a viewer that took the old one's state over) in its place. */
    setViewer(next) {
      const old = viewer;
      viewer = next;
      if (old && old !== next) old.free();
      for (const part of Object.values(modes)) part.applyToViewer?.();
      // The texture lived on the old surface.
      if (lab) loadTexture();
    },
    requestRender: () => requestRender(),
    showNotice: (text, kind, asks) => showNotice(text, kind, asks),
    /** What the notice on screen asks for (see showNotice), or null. */
    noticeAsks: () => notices.asks(),
    hideNotice: () => hideNotice(),
    showMessage: (text) => showMessage(text),
    selectBone: (bone) => selectBone(bone),
    /** Shows `next`, made from example or model `name` (see setLab). */
    setLab: (next, name, baselineKept) => setLab(next, name, baselineKept),
    loadExample: (name) => loadExample(name),
    loadScene: (json) => loadScene(json),
    setMode: (name) => setMode(name),
    mode: () => mode?.name ?? null,
    setCompanion: (name) => setCompanion(name),
    /** Whether mode `name` is on screen: the mode itself or a lesson step's companion. */
    shows: (name) => mode?.name === name || companion?.name === name,
    setTool: (tool) => setTool(tool),
    shareLink: () => link.shareLink(),
    embedCode: () => link.embedCode($('#embed-base').value),
    beforeDrag: () => player.pause(),
    /** A clip was added (lip-sync): the player under the view lists it. */
    clipsChanged: () => player.setup(),
    play: () => player.play(),
    /**
     * What a video records: the Animate mode's clip and paths where that
     * mode is on screen, else the player's clip; null when nothing runs.
     */
    timeSource: () => ((app.shows('animate') ? modes.animate.timeSource() : null) ?? player.timeSource()),
    /** While a video renders its frames the page draws none of its own. */
    suspendFrames(on) {
      framesSuspended = on;
      if (!on) requestRender();
    },
    download: (blob, name) => download(blob, name),
    baseName: () => files.baseName(),
  };
  app.tell = createTelling(app);
  app.deforming = createDeforming(app);
  app.vertexMarks = createVertexMarks(app);
  // The keyboard in use (Tab, or a key of the view's): the view's ring and
  // keys and the lesson card's keys show from then on.
  root.addEventListener('keydown', (event) => {
    const onView = event.composedPath()[0] === $('#view');
    if (event.key === 'Tab' || (onView && event.key.length === 1 && '[]gtov'.includes(event.key.toLowerCase()))) {
      host.classList.add('keyboard');
    }
  }, { signal: listening.signal });
  const { startLanguage, chooseLanguage } = createChoices(app, { address, settings, remembersLanguage });
  const canvas = createCanvas(app);
  const controls = createControls(app);
  const files = createFiles(app);
  const player = createPlayer(app);
  const boneList = createBoneList(app);
  const vertexPanel = createVertexPanel(app);
  const ghosts = createGhosts(app);
  const videoBox = createVideoBox(app);
  const centres = createCentres(app);
  const caption = createCaption(app, () => mode);
  const modes = {
    skin: createSkinMode(app),
    rig: createRigMode(app),
    weights: createWeightsMode(app, vertexPanel),
    ik: createIkMode(app),
    morph: createMorphMode(app),
    animate: createAnimateMode(app),
    gpu: createGpuMode(app),
    lessons: createLessonsMode(app),
  };
  // The Rig mode binds through the Weights mode's automatic weights.
  app.autoWeights = (method) => modes.weights.api.autoWeights(method);
  app.setCompare = controls.setCompare;
  const link = createLinkState(app, { address, controls, modes, settings });
  const looks = createLooks(app, (name, on) => modes.skin.api.setOverlay(name, on), settings);
  // In a deck (an element, or the page in a frame) the deck's keys are the
  // deck's, but for those the lab uses; after every listener above.
  // (`root.host`: the <skin-lab> element, in whose shadow root the lab is).
  const framed = !root.host && window.parent !== window;
  if (root.host || framed) installDeckKeys(root, { after: root.host ?? window, framed, signal: listening.signal });

  // ----- frames -----

  function requestRender() {
    // Before the first scene arrives (a gallery model is fetched) there is
    // nothing to draw.
    if (frameRequested || !viewer || !lab || canvas.contextLost()) return;
    frameRequested = true;
    requestAnimationFrame(drawFrame);
  }

  /** The last frames' main-thread time, ms: what `cargo xtask bench` reads. */
  const frameTimes = [];
  const FRAME_TIMES_KEPT = 240;

  // The lab's revision when it was last drawn, and that lab: any change to
  // it (from a button, a lesson, the console or other code) is seen by
  // comparing revisions, never from a list of method names.
  let drawnRevision = -1;
  let drawnLab = null;

  /** Asks for a frame when the lab changed since it was last drawn. */
  function renderIfChanged() {
    if (lab && (lab !== drawnLab || lab.revision() !== drawnRevision)) requestRender();
    // A stroke just ended with CoR drawn: its frame brings the centres up to date.
    else if (lab && viewer && centres.shown() && !lab.centresCurrent() && !viewer.dragging()) requestRender();
  }

  function drawFrame() {
    frameRequested = false;
    // Closed, or the core restarting, since the frame was asked for.
    if (framesSuspended || !lab || !viewer) return;
    centres.keep();
    drawnLab = lab;
    drawnRevision = lab.revision();
    // Hidden, scrolled away or without a context: draw when it comes back.
    if (!canvas.canDraw()) return;
    const started = performance.now();
    canvas.resize();
    try {
      viewer.render(lab);
      framesDrawn += 1;
      // Milliseconds from navigation to the first frame (cargo xtask bench).
      if (framesDrawn === 1) {
        firstFrameMs = performance.now();
        performance.mark('skinlab:first-frame');
      }
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) restartCores(error);
      else showMessage(t('msg.drawFailed', { error: error.message }));
      return;
    }
    // A request to pick a bone goes as soon as one is picked; the stale
    // centres' notice once they are current.
    if (notices.asks() === 'needBone' && viewer.selectedBone() !== null) hideNotice();
    if (notices.asks() === 'staleCentres' && lab.centresCurrent()) hideNotice();
    controls.update();
    boneList.update();
    app.deforming.update();
    vertexPanel.update();
    ghosts.update();
    app.vertexMarks.update();
    app.tell.update();
    // An empty layer is no image to a screen reader.
    for (const layer of [$('#paths'), $('#ik-layer'), $('#rot-views')]) layer.toggleAttribute('aria-hidden', layer.childElementCount === 0);
    mode.update();
    companion?.update();
    modes.animate.overlay(app.shows('animate') || mode.name === 'lessons');
    link.schedule();
    canvas.drawn();
    videoBox.drawn();
    autosave?.changed();
    frameTimes.push(performance.now() - started);
    if (frameTimes.length > FRAME_TIMES_KEPT) frameTimes.shift();
  }

  // A lab whose calls schedule a frame when they change it, so edits made
  // from the console or by other code show up. Page controls are covered by
  // the listeners below, whatever lab method they call.
  for (const type of ['click', 'input', 'change', 'keydown', 'pointerup']) {
    root.addEventListener(type, () => setTimeout(renderIfChanged, 0), { capture: true, signal: listening.signal });
  }
  // A lab whose calls are watched (see renderIfChanged).
  function watched(target) {
    return new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property, object);
        if (typeof value !== 'function') return value;
        return (...args) => {
          const result = value.apply(object, args);
          renderIfChanged();
          return result;
        };
      },
    });
  }

  // ----- the scene -----



  /**
   * Shows `next`. `name` is the example or gallery model it was made from
   * (null for a file of one's own). For a named scene the core keeps its
   * weights as they opened, the reference the link records weight edits
   * against (`keepWeightsAsBaseline`), unless `baselineKept` (a shared link
   * keeps them itself, before its edits). The scene is built once, not twice.
   */
  function setLab(next, name, baselineKept = false) {
    if (name && !baselineKept) next.keepWeightsAsBaseline();
    // The wasm memory of the scene shown before is given back at once, not
    // whenever the garbage collector gets to it: a lecture switches often.
    if (lab && lab !== next) lab.free();
    lab = next;
    exampleName = name;
    // A file or model that failed to open is behind us once another opens.
    if (notices.asks() === 'failedOpen') hideNotice();
    viewer.selectBone(lab, null);
    viewer.selectVertex(lab, null);
    viewer.frameScene(lab, settings.view ?? 'auto');
    looks.showDenseAsSkin();
    autosave?.opened();
    for (const part of Object.values(modes)) part.sceneChanged();
    videoBox.sceneChanged();
    boneList.build();
    caption.show();
    $('#example').value = name ?? '';
    player.setup();
    if (lab.prunedVertexCount() > 0) {
      showNotice(t('msg.pruned', { n: num(lab.prunedVertexCount()) }));
    }
    loadTexture();
    requestRender();
  }

  /** Decodes and uploads the base colour texture of the scene shown, if it has one. */
  function loadTexture() {
    const shown = lab;
    const drawer = viewer;
    const stillShown = () => lab === shown && viewer === drawer;
    textureReady = loadBaseColour(shown, drawer, { stillShown, warn: (message) => showNotice(message, 'error'), t })
      .then((size) => {
        if (size) requestRender();
        return size;
      });
  }

  /** The base colour texture of the scene shown: resolves to its size, or null (for tests). */
  let textureReady = Promise.resolve(null);

  /**
   * Opens a built-in example at once, or (a promise) a gallery model once
   * fetched or the motion capture once the file readers are loaded.
   */
  function loadExample(name) {
    if (!isModel(name) && (!needsConverters(name) || convertersReady())) {
      setLab(Lab.example(name), name);
      return undefined;
    }
    return (isModel(name) ? modelLab(name) : exampleLab(name)).then(
      (next) => setLab(next, name),
      (error) => showNotice(t('msg.openFailed', { name, error: error.message }), 'error', 'failedOpen'),
    );
  }

  /** Loads scene JSON; on a bad file throws, leaving the current scene as it was. */
  function loadScene(json) {
    const text = typeof json === 'string' ? json : JSON.stringify(json);
    setLab(Lab.fromSceneJson(text), null);
  }

  function selectBone(bone) {
    viewer.selectBone(lab, bone);
    requestRender();
  }

  // ----- modes -----

  /** Shows mode `name`'s panel and caption alone; throws on an unknown mode. */
  function setMode(name) {
    if (!Object.hasOwn(modes, name)) throw new Error(`unknown mode '${name}'; use ${MODES.join(', ')}`);
    if (mode?.name === name) return;
    mode?.leave();
    mode = modes[name];
    host.dataset.mode = name;
    for (const button of root.querySelectorAll('#modes [data-mode]')) {
      button.setAttribute('aria-pressed', String(button.dataset.mode === name));
    }
    setCompanion(null);
    // A hint or request of the mode left behind would cover the new one's view.
    if (!$('#notice').classList.contains('error')) hideNotice();
    for (const part of Object.values(modes)) part.panel.hidden = part !== mode;
    mode.enter();
    if (lab) caption.show();
    requestRender();
  }

  /**
   * Shows mode `name`'s panel and view layers under the current mode's (a
   * lesson step's controls and figures), or none for null.
   */
  function setCompanion(name) {
    const next = name ? modes[name] : null;
    if (next === companion) return;
    companion?.leave();
    if (companion) companion.panel.hidden = true;
    companion?.panel.classList.remove('companion');
    companion = next;
    host.dataset.companion = next?.name ?? '';
    if (next) {
      next.panel.hidden = false;
      next.panel.classList.add('companion');
      next.enter();
    }
    requestRender();
  }

  /** `pose` or `paint`; painting happens in the Weights mode. */
  function setTool(tool) {
    viewer.setTool(tool);
    // Painting belongs to the Weights mode, except inside a lesson's step.
    if (tool === 'paint' && mode.name !== 'weights' && mode.name !== 'lessons') {
      setMode('weights');
      return;
    }
    canvas.element.classList.toggle('painting', tool === 'paint');
    modes.weights.showTool(tool);
    requestRender();
  }

  // ----- a trap in the core -----

  /**
   * The core trapped (see `restartCores`): the last saved state is kept,
   * the address's link (the scene, pose, weights, view and mode on screen a
   * moment before) or, for a scene of one's own, which has no link, what
   * the autosave last wrote of it; every object of the old instance is let go without
   * a call into it: their memory went with it, and their finalizers must
   * not free the new one's.
   */
  function dropCore() {
    let state = null;
    try {
      state = decodeState(new URL(address.href).hash);
    } catch {
      // No link to come back to: the example the page showed.
    }
    const shown = exampleName;
    const saved = shown ? null : autosave?.lastSaved() ?? null;
    lab?.__destroy_into_raw?.();
    viewer?.__destroy_into_raw?.();
    lab = null;
    viewer = null;
    drawnLab = null;
    link.forget();
    centres.cancel();
    return { state, shown, saved };
  }

  /**
   * Rebuilds the lab on the fresh core `exports` from what `dropCore` kept,
   * without a reload. A scene of one's own never saved (autosave off, or
   * changed within its quiet moment) comes back as the first example.
   */
  function reopen(exports, { state, shown, saved }, error) {
    core = exports;
    viewer = new Viewer(canvas.element);
    for (const part of Object.values(modes)) part.applyToViewer?.();
    for (const box of root.querySelectorAll('[data-overlay]')) viewer.setOverlay(box.dataset.overlay, box.checked);
    if (host.classList.contains('projector')) viewer.setMarkScale(1.6);
    const ownScene = async () => {
      loadScene(await saved.scene.text());
      if (saved.mode) setMode(saved.mode);
    };
    // A scene of one's own has no link; the address may still hold the
    // example shown before it.
    const [reopened, said] = shown
      ? [state?.e === shown ? link.restore(state) : loadExample(shown), 'msg.restarted']
      : saved ? [ownScene(), 'msg.restartedSaved'] : [loadExample('two-bone'), 'msg.restartedUnsaved'];
    Promise.resolve(reopened).then(
      () => showNotice(t(said, { error: error.message }), 'error'),
      (failure) => showMessage(t('msg.coreStopped', { error: failure.message })),
    );
  }

  /** This lab's part in a restart of the shared core. */
  const instance = {
    dropCore,
    reopen,
    stopped: (error) => showMessage(t('msg.coreStopped', { error: error.message })),
  };

  // ----- the projector view -----

  /**
   * Large type, thick lines and strong contrast for a lecture hall, whose
   * projector washes out thin grey lines; kept in the address (?projector=1).
   */
  function setProjector(on) {
    host.classList.toggle('projector', on);
    $('#projector').setAttribute('aria-pressed', String(on));
    viewer?.setMarkScale(on ? 1.6 : 1);
    const url = new URL(address.href);
    if (on) url.searchParams.set('projector', '1');
    else url.searchParams.delete('projector');
    address.replace(url);
    requestRender();
  }

  $('#projector').addEventListener('click', () => setProjector(!host.classList.contains('projector')));

  // ----- the language -----

  i18n.onChange((lang) => {
    for (const button of root.querySelectorAll('#language [data-lang]')) {
      button.setAttribute('aria-pressed', String(button.dataset.lang === lang));
    }
    if (!lab) return;
    controls.buildExampleMenu();
    for (const part of Object.values(modes)) part.languageChanged?.();
    boneList.build();
    app.deforming.relabel();
    vertexPanel.forget();
    player.relabel();
    videoBox.relabel();
    autosave?.relabel();
    caption.show();
    requestRender();
  });


  // ----- start -----

  async function start() {
    // The examples are the core's (Lab.exampleNames()); the address is read
    // before the core starts, so its example is checked once it has.
    Object.assign(settings, readParameters(new URL(address.href).search, null));
    i18n.set(startLanguage());
    host.className = `skinlab ui-${settings.ui ?? 'full'}`;
    // The lecturer's own page saves; copies embedded in slides only if asked.
    const saves = settings.autosave ? settings.autosave === '1' : !embedded && (settings.ui ?? 'full') === 'full';
    autosave = createAutosave(app, { enabled: saves, key: autosaveKey });
    try {
      core = await startCore();
      if (closed) return;
      if (singleFile) $('#lesson-sources').href = sourcesHref();
    } catch (error) {
      showMessage(t('msg.noWasm', { error: error.message }));
      return;
    }
    checkExample();
    controls.buildExampleMenu();
    try {
      viewer = new Viewer(canvas.element);
    } catch (error) {
      showMessage(t('msg.noWebgl', { error: error.message }));
      return;
    }
    canvas.wire();
    await openFromAddress();
    if (closed) return;
    pages.add(instance);
    api = createApi();
    ready(api);
    beginFromAddress();
  }

  /** Drops an example the address names that Skinlab does not have, saying so. */
  function checkExample() {
    const known = [...Lab.exampleNames(), ...LARGE_EXAMPLES, ...MODEL_NAMES];
    if (settings.example && !known.includes(settings.example)) {
      console.warn(`Skinlab: unknown example '${settings.example}' in the URL; known: ${known.join(', ')}`);
      unknown(settings, 'example', settings.example, known);
      delete settings.example;
    }
  }

  /**
   * The view as the address asks: projector, overlays, mode, example,
   * method and tool, then the pose and weights its hash holds; a typo or
   * a broken hash is said on screen.
   */
  async function openFromAddress() {
    if (settings.projector === '1') setProjector(true);
    for (const part of Object.values(modes)) part.applyToViewer?.();
    for (const name of settings.overlays ? OVERLAYS : []) modes.skin.api.setOverlay(name, settings.overlays.includes(name));
    setMode(settings.mode ?? (settings.tool === 'paint' ? 'weights' : 'skin'));
    await loadExample(settings.example ?? 'two-bone');
    if (closed) return;
    if (!lab) loadExample('two-bone');
    if (settings.method) controls.setMethod(settings.method);
    if (settings.tool) setTool(settings.tool);
    // A typo in the link or an attribute gets a word on screen.
    const typos = (settings.unknown ?? []).map(({ key, value, known: names }) => t('msg.unknownValue', { key, value, known: names.join(', ') }));
    if (typos.length) showNotice(typos.join(' '), 'error');
    try {
      const state = settings.lesson ? null : decodeState(new URL(address.href).hash);
      if (state) await link.restore(state);
    } catch (error) {
      showNotice([t('msg.badLink', { error: error.message }), ...typos].join(' '), 'error');
      const url = new URL(address.href);
      url.hash = '';
      address.replace(url);
    }
  }

  /**
   * Once the API is out: the lesson step the address names (a slide's
   * ?lesson=NAME&step=K), or the Lessons mode begun, and elsewhere the
   * last session's scene offered.
   */
  function beginFromAddress() {
    if (settings.lesson) {
      try {
        modes.lessons.api.startLesson(settings.lesson, settings.step ?? 1);
      } catch (error) {
        showNotice(error.message, 'error');
      }
    } else if (mode.name === 'lessons') {
      // ?mode=lessons opened the mode before the scene was there: begin now,
      // as the Lessons button does.
      mode.enter();
    }
    // A lesson step is what its link is for; elsewhere (a reload too, whose
    // link holds pose and weights but not clips or paths) the last session's
    // scene is offered.
    if (!settings.lesson) autosave.offer();
  }

  /**
   * The lab's API, handed out by `ready` (window.skinlab for the page's
   * own lab; docs/api.md). Longer than a screen: one entry a line, each
   * handing on to the part that does the work.
   */
  function createApi() {
    return {
      get lab() { return watched(lab); },
      get example() { return exampleName; },
      get viewer() { return viewer; },
      Lab,
      loadConverters,
      loadExample,
      models: () => [...MODEL_NAMES],
      textureReady: () => textureReady,
      loadScene,
      modes: () => [...MODES],
      setMode,
      mode: () => mode.name,
      setMethod: controls.setMethod,
      method: () => viewer.method(),
      setTool,
      tool: () => viewer.tool(),
      setCompare: controls.setCompare,
      setComparePair: controls.setComparePair,
      comparePair: () => viewer.comparePair(),
      setLanguage: chooseLanguage,
      setProjector,
      projector: () => host.classList.contains('projector'),
      /** Saves the scene for the next visit now, instead of after a quiet moment. */
      autosaveNow: () => autosave.saveNow(),
      autosaves: () => autosave.saves(),
      language: i18n.current,
      ...modes.skin.api,
      ...modes.rig.api,
      ...modes.weights.api,
      ...modes.ik.api,
      ...modes.morph.api,
      ...modes.animate.api,
      ...modes.gpu.api,
      ...modes.lessons.api,
      lockBone(bone, locked = true) { lab.setLocked(bone, locked); boneList.build(); },
      /** Lets bone `bone` deform or not, as its box in the Bones list does (one undo step). */
      setBoneDeforms: (bone, on) => app.deforming.set(bone, on),
      selectBone,
      selectedBone: () => viewer.selectedBone(),
      selectVertex(vertex) { viewer.selectVertex(lab, vertex); requestRender(); },
      selectedVertex: () => viewer.selectedVertex(),
      /** The vertices marked over the view after automatic weights (handed past their nearest bone). */
      markedVertices: () => app.vertexMarks.marked(),
      /** Main-thread ms of the last frames (JS and wasm; the GPU works apart). */
      frameTimes: () => [...frameTimes],
      /** Main-thread ms of the last pointer moves over the view. */
      inputTimes: () => canvas.inputTimes(),
      gpuSkinnedPositions: (method) => viewer.gpuSkinnedPositions(lab, method),
      gpuSkinnedNormals: (method) => viewer.gpuSkinnedNormals(lab, method),
      boneScreenPoint: (bone) => viewer.boneScreenPoint(lab, bone),
      vertexScreenPoint: (vertex) => viewer.vertexScreenPoint(lab, vertex),
      undo: controls.undo,
      redo: controls.redo,
      resetPose: controls.resetPose,
      shareLink: link.shareLink,
      /** The embed code at `base` (the box's folder unless given; '' for this page's address). */
      embedCode: (base = $('#embed-base').value) => link.embedCode(base),
      exportPng: files.exportPng,
      /** A video as the Video box makes it: `{format, size: 'WxH' | 'view', fps}` → a Blob. */
      recordVideo: (options) => videoBox.make(options),
      svgText: files.svgText,
      exportJson: files.exportJson,
      exportGlb: files.exportGlb,
      loadProgress: files.loadProgress,
      /** Loads files as the file picker does. */
      loadFiles: (list) => files.importFiles(list),
      play: player.play,
      pause: player.pause,
      playing: player.playing,
      framesRendered: () => framesDrawn,
      /** Milliseconds from navigation to the first frame drawn. */
      firstFrameMs: () => firstFrameMs,
      /** Bytes of memory the core's wasm instance has grown to. */
      wasmMemoryBytes: () => core.memory.buffer.byteLength,
      /** Times the core was restarted after a trap. */
      restarts: () => restartCount(),
      contextLost: canvas.contextLost,
      resume: canvas.resume,
      requestRender,
      ghosts: ghosts.drawn,
      /** Walks the selected vertex's three steps to `phase` ∈ [0, 3] (3: the results only). */
      setStepsPhase: (phase) => ghosts.setPhase(phase),
      playSteps: () => ghosts.playSteps(),
    };
  }

  /**
   * Ends the lab: its scene and viewer are freed, its worker stopped and its
   * timers cleared, and it draws no more (its markup is the caller's).
   */
  function close() {
    closed = true;
    listening.abort();
    pages.delete(instance);
    link.forget();
    notices.close();
    centres.cancel();
    player.pause();
    // What a mode plays (a clip, a lesson's figures) ends with it.
    if (viewer) {
      companion?.leave();
      mode?.leave();
    }
    lab?.free();
    viewer?.free();
    lab = null;
    viewer = null;
    drawnLab = null;
  }

  return { start, close };
}
