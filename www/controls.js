// The controls every mode shares: the toolbar (example, skinning method,
// side by side, reset, undo, redo, share, embed) and the keyboard.
import { Lab } from './pkg/skinlab.js';
import { copyText } from './files.js';
import { leftToDeck } from './deck-keys.js';
import { createKeyMoves } from './parts/key-moves.js';
import { forShortcuts } from './parts/shortcuts.js';

/**
 * The shared controls of `app`, which offers `lab`, `viewer`, `example`,
 * `loadExample`, `selectBone`, `setMode`, `setTool`, `shareLink`,
 * `embedCode`, `requestRender` and `showNotice`.
 */
export function createControls(app) {
  const { t } = app.i18n;
  const { $ } = app;
  let toldAboutBudget = false;

  /**
   * The Example menu, from the core's table of examples in its order: the
   * number before each name is the key that opens it (1–9).
   */
  function buildExampleMenu() {
    const list = $('#example-list');
    const chosen = $('#example').value;
    list.replaceChildren(...Lab.exampleNames().map((name, k) => {
      const option = document.createElement('option');
      option.value = name;
      option.textContent = `${k + 1} · ${t(`ex.${name}`)}`;
      return option;
    }));
    $('#example').value = chosen;
  }

  const METHOD_LABELS = { lbs: 'LBS', dqs: 'DQS', cor: 'CoR' };

  /** The method buttons and the labels over the two views, as the viewer has them. */
  function showMethods() {
    const pair = app.viewer.compare() ? app.viewer.comparePair() : [app.viewer.method()];
    for (const button of app.root.querySelectorAll('[data-method]')) {
      button.setAttribute('aria-pressed', String(pair.includes(button.dataset.method)));
    }
    const [left, right] = app.viewer.comparePair();
    const labels = $('#compare-labels').querySelectorAll('span');
    labels[0].textContent = METHOD_LABELS[left];
    labels[1].textContent = METHOD_LABELS[right];
  }

  /**
   * Draws with `method`. Side by side, `method` joins the pair on the right
   * and the method that was there moves to the left: any two of LBS, DQS
   * and CoR can be compared.
   */
  function setMethod(method) {
    if (app.viewer.compare()) {
      const [, right] = app.viewer.comparePair();
      if (method !== right) app.viewer.setComparePair(right, method);
    }
    app.viewer.setMethod(method);
    showMethods();
    app.requestRender();
  }

  function setCompare(on) {
    app.viewer.setCompare(on);
    $('#compare').setAttribute('aria-pressed', String(on));
    $('#compare-labels').hidden = !on;
    showMethods();
    app.requestRender();
  }

  /** Shows `left` and `right` side by side (any two of 'lbs', 'dqs', 'cor'). */
  function setComparePair(left, right) {
    app.viewer.setComparePair(left, right);
    app.viewer.setMethod(right);
    setCompare(true);
  }

  function undo() {
    const done = app.lab.undo();
    // "Weights applied (Ctrl+Z undoes)" goes with what it said.
    if (done && app.noticeAsks() === 'undoable') app.hideNotice();
    app.requestRender();
    return done;
  }

  function redo() {
    const done = app.lab.redo();
    app.requestRender();
    return done;
  }

  function resetPose() {
    app.lab.checkpoint();
    app.lab.resetPose();
    app.requestRender();
  }

  /** Presenters' keys: examples by number, undo, reset, bones by PageUp/Down. */
  function onKey(event) {
    if (leftToDeck(event)) return;
    const target = event.composedPath()[0];
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
    const key = event.key.toLowerCase();
    if ((event.ctrlKey || event.metaKey) && key === 'z') {
      event.preventDefault();
      if (event.shiftKey) redo(); else undo();
      return;
    }
    if ((event.ctrlKey || event.metaKey) && key === 'y') {
      event.preventDefault();
      redo();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (!forShortcuts(app, event)) return;
    if (keyMoves.onKey(event)) {
      event.preventDefault();
      return;
    }
    const names = Lab.exampleNames();
    const index = Number(event.key) - 1;
    // A key used says so (preventDefault): in a deck it then stops here.
    const used = () => event.preventDefault();
    if (Number.isInteger(index) && index >= 0 && index < names.length) {
      used();
      app.loadExample(names[index]);
    } else if (key === 'r') {
      used();
      resetPose();
    } else if (key === 'arrowleft' || key === 'arrowright') {
      // Turn the selected bone, 5° a press (1° with Shift).
      const step = (event.shiftKey ? 1 : 5) * (key === 'arrowleft' ? 1 : -1) * (Math.PI / 180);
      if (app.viewer.turnSelected(app.lab, step)) {
        event.preventDefault();
        app.requestRender();
        app.tell.say(app.tell.boneNow());
      }
    } else if (key === 'pageup' || key === 'pagedown' || key === '[' || key === ']') {
      // [ and ] everywhere (no slide deck uses them); PageUp/PageDown
      // too where the Lessons mode or a deck does not take them.
      const count = app.lab.boneCount();
      if (!count) return;
      const current = app.viewer.selectedBone();
      const forward = key === 'pagedown' || key === ']';
      const next = current === null ? (forward ? 0 : count - 1) : (current + (forward ? 1 : count - 1)) % count;
      event.preventDefault();
      app.selectBone(next);
      app.tell.say(app.tell.boneNow());
    } else if (key === 'p' || key === 'w') {
      used();
      app.setTool(key === 'p' ? 'pose' : 'paint');
    }
  }

  const keyMoves = createKeyMoves(app);
  app.root.addEventListener('keydown', onKey, { signal: app.signal });
  $('#example').addEventListener('change', (event) => app.loadExample(event.target.value));
  for (const button of app.root.querySelectorAll('[data-method]')) {
    button.addEventListener('click', () => setMethod(button.dataset.method));
  }
  for (const button of app.root.querySelectorAll('#modes [data-mode]')) {
    button.addEventListener('click', () => app.setMode(button.dataset.mode));
  }
  $('#compare').addEventListener('click', () => setCompare(!app.viewer.compare()));
  $('#reset').addEventListener('click', resetPose);
  $('#undo').addEventListener('click', undo);
  $('#redo').addEventListener('click', redo);
  $('#share').addEventListener('click', () => {
    if (!app.example) {
      app.showNotice(t('msg.ownScene'));
      return;
    }
    copyText(app, app.shareLink(), 'link');
  });
  $('#embed').addEventListener('click', () => copyText(app, app.embedCode(), 'embedCode'));
  foldedMenu();

  /**
   * The toolbar's "⋯" where it folds Share, the projector and the language
   * (a window 801–1400 px wide): a press opens it, and a choice in it, Esc or
   * a press elsewhere closes it.
   */
  function foldedMenu() {
    const toggle = $('#more');
    const menu = $('#toolbar-more');
    const setOpen = (open) => {
      const focusInside = menu.contains(app.root.activeElement);
      menu.classList.toggle('open', open);
      toggle.setAttribute('aria-expanded', String(open));
      if (!open && focusInside) toggle.focus();
    };
    toggle.addEventListener('click', () => setOpen(!menu.classList.contains('open')));
    menu.addEventListener('click', (event) => {
      if (event.target.closest('button')) setOpen(false);
    });
    menu.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      setOpen(false);
    });
    app.root.addEventListener('pointerdown', (event) => {
      const path = event.composedPath();
      if (!path.includes(menu) && !path.includes(toggle)) setOpen(false);
    }, { signal: app.signal });
  }

  return {
    keyMoves,
    setMethod,
    buildExampleMenu,
    setCompare,
    setComparePair,
    undo,
    redo,
    resetPose,
    /** Enables Undo and Redo only when there is something to undo or redo. */
    update() {
      $('#undo').disabled = !app.lab.canUndo();
      $('#redo').disabled = !app.lab.canRedo();
      // Said once a session: the history keeps to its memory budget.
      if (!toldAboutBudget && app.lab.undoStepsDropped() > 0) {
        toldAboutBudget = true;
        app.showNotice(t('undoBudget'));
      }
    },
  };
}
