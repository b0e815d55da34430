// The canvas: pointer and wheel input handed to the viewer (the drag
// decisions are the core's), its size, and surviving a lost WebGL context
// (a still of the last frame, then a new viewer on the canvas that takes
// the old one's state over whole: Viewer.rebuilt).
import { placeCircle } from './dom.js';

// How far, CSS pixels, a press on a bone's glyph may move and still be a
// click: a finger wavers more than a mouse or a pen.
const clickSlop = (event) => (event.pointerType === 'touch' ? 10 : 4);

/**
 * The canvas of `app`, which offers `lab`, `viewer` (and `setViewer`),
 * `requestRender`, `showNotice`, `showMessage` and `beforeDrag`.
 */
export function createCanvas(app) {
  const { num, t } = app.i18n;
  const { $ } = app;
  let canvas = $('#view');
  let observers = [];
  let visible = true;
  let lost = false;
  // The last settled frame, copied without encoding (an ImageBitmap).
  let lastFrame = null;
  let snapshotTimer = 0;
  // Main-thread ms of the last pointer moves of a drag (for the benchmark).
  const inputTimes = [];
  // The brush's circle over the view.
  let cursor = null;
  // A drag a mode took (`{move(x, y, event), end()}`), until the pointer is up.
  let modeDrag = null;
  // A press on a bone's glyph with the paint tool, not yet a click or a
  // stroke (`{bone, x, y, event}`).
  let glyphPress = null;

  const point = (event) => {
    const rect = canvas.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  };

  function wire() {
    cursor = $('#brush-cursor');
    modeDrag = null;
    glyphPress = null;
    canvas.addEventListener('pointerdown', press);
    canvas.addEventListener('pointermove', move);
    canvas.addEventListener('pointerleave', () => { cursor.hidden = true; });
    canvas.addEventListener('pointerup', end);
    canvas.addEventListener('pointercancel', end);
    canvas.addEventListener('contextmenu', (event) => event.preventDefault());
    canvas.addEventListener('wheel', (event) => {
      event.preventDefault();
      app.viewer.zoom(Math.exp(event.deltaY * 0.001));
      app.requestRender();
    }, { passive: false });
    canvas.addEventListener('webglcontextlost', onLost);
    canvas.addEventListener('webglcontextrestored', onRestored);
    for (const observer of observers) observer.disconnect();
    const watchedCanvas = canvas;
    observers = [
      new ResizeObserver(app.requestRender),
      new IntersectionObserver((entries) => {
        if (watchedCanvas !== canvas) return;
        visible = entries.some((entry) => entry.isIntersecting);
        if (visible) app.requestRender();
      }),
    ];
    for (const observer of observers) observer.observe(canvas);
  }

  /** The brush's circle at (x, y) while the paint tool is on. */
  function moveCursor(x, y) {
    const show = app.viewer.tool() === 'paint';
    cursor.hidden = !show;
    if (!show) return;
    placeCircle(cursor, x, y, app.viewer.brushRadius());
  }

  /** A press on the view: a mode's click, a vertex shown, a bone picked, or a drag begun. */
  function press(event) {
    const { viewer, lab } = app;
    const [x, y] = point(event);
    canvas.focus();
    // A mode that places things by clicking (the Rig mode) takes the
    // press first; it may answer with a drag of its own.
    const taken = event.button === 0 && !event.altKey && !event.ctrlKey && app.viewClick?.(x, y, event);
    if (taken) {
      if (typeof taken === 'object') {
        modeDrag = taken;
        canvas.setPointerCapture(event.pointerId);
      }
      app.requestRender();
      return;
    }
    // A click on a vertex (not on a bone) shows its weights.
    if (viewer.tool() === 'pose' && event.button === 0 && !event.shiftKey && !event.altKey && !event.ctrlKey
      && viewer.pickBone(lab, x, y) === null) {
      const vertex = viewer.pickVertex(lab, x, y);
      viewer.selectVertex(lab, vertex);
      if (vertex !== null) {
        app.requestRender();
        return;
      }
    }
    // While painting, a press on a bone's glyph is a click that picks that
    // bone, unless the pointer moves before it is let go: then it is a
    // stroke, which paints from where it was pressed. On a slender
    // character the glyphs' reach covers most of the skin.
    if (viewer.tool() === 'paint' && event.button === 0 && !event.shiftKey && !event.altKey && !event.ctrlKey) {
      const bone = viewer.pickBone(lab, x, y);
      if (bone !== null) {
        glyphPress = { bone, x, y, event };
        canvas.setPointerCapture(event.pointerId);
        return;
      }
    }
    beginDrag(x, y, event);
  }

  /** The viewer's drag for a press at (x, y): paint, turn, move or orbit. */
  function beginDrag(x, y, event) {
    const { viewer, lab } = app;
    // A bone that deforms nothing takes no paint: said, not painted.
    if (viewer.tool() === 'paint' && event.button === 0 && app.deforming.refuses(viewer.selectedBone())) return;
    if (event.button === 0) app.beforeDrag();
    const began = viewer.pointerDown(lab, { x, y, button: event.button, shift: event.shiftKey, reach: event.altKey || event.ctrlKey });
    if (began === 'none') {
      app.showNotice(t('needBone'), 'info', 'needBone');
      return;
    }
    canvas.setPointerCapture(event.pointerId);
    canvas.classList.add('dragging');
    app.requestRender();
  }

  /**
   * A pointer move: the brush's circle, a mode's drag, a press on a glyph
   * that becomes a stroke, the viewer's drag.
   */
  function move(event) {
    const [x, y] = point(event);
    moveCursor(x, y);
    if (modeDrag) {
      modeDrag.move(x, y, event);
      app.requestRender();
      return;
    }
    if (glyphPress && Math.hypot(x - glyphPress.x, y - glyphPress.y) > clickSlop(glyphPress.event)) {
      const held = glyphPress;
      glyphPress = null;
      beginDrag(held.x, held.y, held.event);
    }
    if (!app.viewer.dragging()) return;
    const started = performance.now();
    if (app.viewer.pointerMove(app.lab, x, y)) app.requestRender();
    inputTimes.push(performance.now() - started);
    if (inputTimes.length > 240) inputTimes.shift();
  }

  /** The pointer let go (or lost): a glyph's click picks its bone; a drag ends and is said. */
  function end(event) {
    const { viewer } = app;
    if (glyphPress) {
      if (event.type === 'pointerup') app.selectBone(glyphPress.bone);
      glyphPress = null;
      return;
    }
    if (modeDrag) {
      modeDrag.end();
      modeDrag = null;
      app.requestRender();
      return;
    }
    if (!viewer.dragging()) return;
    const painting = viewer.tool() === 'paint';
    viewer.pointerUp();
    canvas.classList.remove('dragging');
    if (painting && viewer.lastStrokePruned() > 0) {
      app.showNotice(t('msg.strokePruned', { n: num(viewer.lastStrokePruned()) }));
    }
    // Said once, as the drag ends: what it changed.
    app.tell.say(painting ? t('tell.painted', { n: num(viewer.lastStrokeTouched()) }) : app.tell.boneNow());
    app.requestRender();
  }

  /** Matches the drawing buffer to the canvas' CSS size and pixel ratio. */
  function resize() {
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
    const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    $('#compare-divider').style.height = `${canvas.clientHeight}px`;
  }

  /**
   * After a frame: keep a still for a lost context, taken once things
   * settle, as an ImageBitmap: the browser copies the pixels asynchronously
   * and nothing is encoded (a PNG of a large or HiDPI canvas blocked the
   * page for hundreds of milliseconds after every change).
   */
  function drawn() {
    clearTimeout(snapshotTimer);
    snapshotTimer = setTimeout(() => {
      if (lost) return;
      createImageBitmap(canvas).then((bitmap) => {
        if (lost) {
          bitmap.close();
          return;
        }
        lastFrame?.close();
        lastFrame = bitmap;
      }, () => {});
    }, 500);
  }

  /** Shows the last still under the resume prompt. */
  function showStill() {
    const still = $('#still-image');
    if (lastFrame) {
      still.width = lastFrame.width;
      still.height = lastFrame.height;
      still.getContext('2d').drawImage(lastFrame, 0, 0);
    }
    $('#still').hidden = false;
  }

  /** A new viewer on the canvas that takes over the old one's state whole. */
  function rebuild() {
    let viewer;
    try {
      viewer = app.viewer.rebuilt(canvas);
    } catch (error) {
      app.showMessage(t('msg.restoreFailed', { error: error.message }));
      return false;
    }
    app.setViewer(viewer);
    return true;
  }

  function onLost(event) {
    event.preventDefault();
    lost = true;
    showStill();
  }

  function onRestored() {
    lost = false;
    $('#still').hidden = true;
    if (rebuild()) app.requestRender();
  }

  /** Resumes after a lost context: on a fresh canvas if the old one stays lost. */
  function resume() {
    if (!lost) return;
    const fresh = canvas.cloneNode(false);
    canvas.replaceWith(fresh);
    canvas = fresh;
    wire();
    lost = false;
    $('#still').hidden = true;
    if (rebuild()) app.requestRender();
  }

  $('#resume').addEventListener('click', resume);

  return {
    get element() { return canvas; },
    inputTimes: () => [...inputTimes],
    /** Whether a frame can be drawn now: shown, on screen, with a context. */
    canDraw: () => visible && !document.hidden && !lost,
    contextLost: () => lost,
    wire,
    resize,
    drawn,
    resume,
  };
}
