// Moving by keys what a mouse drags in the view, through the same drag code
// as the mouse: G moves the root (as Blender grabs) and T pulls the
// selected bone's tip (two-bone IK, as Alt-drag does), each by the arrows
// while its mode is on, 10 px a press (2 px with Shift); O turns the view
// (orbits a 3D view, pans a 2D one) by the arrows, 20 px a press; Enter,
// Esc or the same letter ends a mode. + and − zoom. V and Shift+V pick the
// next and the previous vertex. With the Paint tool, the arrows move the
// brush over the view (its circle shows where) and Enter or Space paints a
// dab there, as a click of the brush does.

import { ARROWS, placeCircle } from '../dom.js';

/** The key moves of `app` (which offers `lab`, `viewer`, `i18n`, `beforeDrag`, `requestRender`, `tell`). */
export function createKeyMoves(app) {
  const { num, t } = app.i18n;
  let moving = null; // 'root', 'tip' or 'view' while a mode is on
  let brushAt = null; // the keyboard brush, CSS pixels in the view

  /** The keyboard brush moved by `[dx, dy]` (placed first on the selected bone), its circle shown. */
  function moveBrush([dx, dy]) {
    const view = app.root.querySelector('#view');
    if (!brushAt) {
      const bone = app.viewer.selectedBone();
      brushAt = bone === null ? [view.clientWidth / 2, view.clientHeight / 2] : Array.from(app.viewer.boneScreenPoint(app.lab, bone));
    }
    brushAt = [Math.min(view.clientWidth, Math.max(0, brushAt[0] + dx)), Math.min(view.clientHeight, Math.max(0, brushAt[1] + dy))];
    const cursor = app.root.querySelector('#brush-cursor');
    cursor.hidden = false;
    placeCircle(cursor, brushAt[0], brushAt[1], app.viewer.brushRadius());
  }

  /** A dab of the brush where the keyboard brush is. */
  function dab() {
    if (app.deforming.refuses(app.viewer.selectedBone())) return;
    if (!brushAt) moveBrush([0, 0]);
    const [x, y] = brushAt;
    const began = app.viewer.pointerDown(app.lab, { x, y, button: 0, shift: false, reach: false });
    if (began === 'none') {
      app.tell.say(t('tell.noBone'));
      return;
    }
    app.viewer.pointerUp();
    app.requestRender();
    app.tell.say(t('tell.painted', { n: num(app.viewer.lastStrokeTouched()) }));
  }

  function end() {
    if (!moving) return;
    moving = null;
    app.tell.say(t('tell.moveEnd'));
  }

  function begin(kind) {
    if (moving === kind) {
      end();
      return;
    }
    if (kind !== 'view' && app.viewer.selectedBone() === null) {
      app.tell.say(t('tell.noBone'));
      return;
    }
    moving = kind;
    app.tell.say(t({ root: 'tell.moveRoot', tip: 'tell.pullTip', view: 'tell.moveView' }[kind]));
  }

  /** One drag of `[dx, y]` pixels from the selected bone's grab point. */
  function nudge([dx, dy]) {
    const bone = app.viewer.selectedBone();
    if (bone === null) return;
    const [x, y] = app.viewer.boneScreenPoint(app.lab, bone);
    app.beforeDrag();
    const began = app.viewer.pointerDown(app.lab, { x, y, button: 0, shift: moving === 'root', reach: moving === 'tip' });
    if (began === 'none') return;
    app.viewer.pointerMove(app.lab, x + dx, y + dy);
    app.viewer.pointerUp();
    app.requestRender();
    const [rx, ry, rz] = app.lab.bonePose(0).translation;
    app.tell.say(moving === 'root'
      ? t('tell.rootAt', { x: num(rx, 2), y: num(ry, 2), z: num(rz, 2) })
      : app.tell.boneNow());
  }

  function pickVertex(step) {
    const count = app.lab.vertexCount();
    if (!count) return;
    const current = app.viewer.selectedVertex();
    const next = current === null ? 0 : (current + step + count) % count;
    app.viewer.selectVertex(app.lab, next);
    app.requestRender();
    const weights = app.lab.influences(next).map(([bone, weight]) => `${bone + 1}: ${num(weight, 2)}`).join(', ');
    app.tell.say(t('tell.vertex', { n: num(next), weights }));
  }

  return {
    /** Handles `event` if it is a key move; true when it did. */
    onKey(event) {
      if (event.ctrlKey || event.metaKey || event.altKey) return false;
      const key = event.key.toLowerCase();
      if (app.viewer.tool() === 'paint' && !moving) {
        if (ARROWS[event.key]) {
          moveBrush(ARROWS[event.key].map((d) => d * (event.shiftKey ? 2 : 10)));
          return true;
        }
        if (event.key === 'Enter' || event.key === ' ') {
          dab();
          return true;
        }
      }
      if (moving === 'view' && ARROWS[event.key]) {
        const [dx, dy] = ARROWS[event.key].map((d) => d * (event.shiftKey ? 4 : 20));
        app.viewer.moveView(dx, dy);
        app.requestRender();
        return true;
      }
      if (moving && ARROWS[event.key]) {
        const scale = event.shiftKey ? 2 : 10;
        nudge(ARROWS[event.key].map((d) => d * scale));
        return true;
      }
      if (event.key === '+' || event.key === '=' || event.key === '-') {
        app.viewer.zoom(event.key === '-' ? 1.15 : 1 / 1.15);
        app.requestRender();
        return true;
      }
      if (key === 'o') {
        begin('view');
        return true;
      }
      if (moving && (event.key === 'Enter' || event.key === 'Escape')) {
        end();
        return true;
      }
      if (app.viewer.tool() !== 'pose' && (key === 'g' || key === 't')) return false;
      if (key === 'g' || key === 't') {
        begin(key === 'g' ? 'root' : 'tip');
        return true;
      }
      if (key === 'v') {
        pickVertex(event.shiftKey ? -1 : 1);
        return true;
      }
      return false;
    },
    /** Ends a mode (another scene, another mode). */
    end,
    moving: () => moving,
  };
}
