// A lab's link: the state on screen (example, mode, method, view, camera,
// pose, deforming bones, weight edits) kept in its address's hash a moment after it
// changes, and a link restored. In a lesson the address is the step
// (?lesson=&step=) instead, a link for a slide.
import { Lab } from '../pkg/skinlab.js';
import { LARGE_EXAMPLES, encodeState } from '../link.js';
import { isModel, modelLab } from '../gallery.js';
import { exampleLab } from '../converters.js';

/** How long the state must hold still before the link is written, ms. */
const QUIET_MS = 300;

/**
 * The link of `app`'s lab (which offers `lab`, `viewer`, `example`,
 * `mode()`, `setLab(next, name, baselineKept)` and `setMode`), written to
 * `address`; `controls`, `modes` and `settings` are the page's, for the
 * method, the 8-bit weights and the mode a link restores.
 */
export function createLinkState(app, { address, controls, modes, settings }) {
  let timer = 0;
  /** The weight edits of the last diff, and the lab and weights revision it was made at. */
  let diffed = { lab: null, revision: -1, bytes: new Uint8Array() };

  /** The state on screen, as the hash encodes it (the weight edits apart, as bytes). */
  function currentState() {
    const { lab, viewer } = app;
    const state = {
      v: 1, e: app.example, o: app.mode(), m: viewer.method(), d: viewer.view(), c: Array.from(viewer.cameraState()),
    };
    if (lab.isQuantised()) state.q = 1;
    if (viewer.compare()) {
      state.k = 1;
      const [left, right] = viewer.comparePair();
      if (left !== 'lbs' || right !== 'dqs') state.kp = [left, right];
    }
    const poses = [];
    for (let bone = 0; bone < lab.boneCount(); bone++) {
      const { rotation, translation, scale } = lab.bonePose(bone);
      const identity = rotation[3] === 1 && translation.every((x) => x === 0) && scale.every((x) => x === 1);
      if (!identity) poses.push([bone, ...rotation, ...translation, ...scale]);
    }
    if (poses.length) state.p = poses;
    // Bones whose deform flag was changed (before the weight edits, which
    // may give them weight).
    const flags = lab.deformEdits();
    if (flags.length) state.f = flags;
    return state;
  }

  /**
   * The vertices whose weights differ from the scene as it opened, as the
   * link's bytes: compared in the core (one pass over the slots, nothing
   * copied out but the edits) and only when the weights changed (a drag
   * changes the pose alone, and the link follows it without a diff).
   */
  function weightEdits() {
    const { lab } = app;
    const revision = lab.influencesRevision();
    if (diffed.lab !== lab || diffed.revision !== revision) {
      diffed = { lab, revision, bytes: lab.weightEditsBytes() };
    }
    return diffed.bytes;
  }

  /** Writes the link now. */
  function updateNow() {
    clearTimeout(timer);
    if (!app.lab) return;
    const url = new URL(address.href);
    const lesson = app.mode() === 'lessons' ? modes.lessons.api.lessonState() : null;
    if (lesson?.lesson) {
      url.searchParams.set('lesson', lesson.lesson);
      url.searchParams.set('step', String(lesson.step));
      url.hash = '';
      address.replace(url);
      return;
    }
    url.searchParams.delete('lesson');
    url.searchParams.delete('step');
    // A scene of one's own is shared as a file ("Save scene"), not a link.
    url.hash = app.example ? encodeState(currentState(), weightEdits()) : '';
    address.replace(url);
  }

  /**
   * Writes the link after a quiet moment; not in the middle of a drag or
   * stroke: a painted link can hold thousands of vertices, and writing it
   * costs tens of milliseconds; the frame after the pointer is released
   * schedules it.
   */
  function schedule() {
    clearTimeout(timer);
    if (app.viewer.dragging()) return;
    timer = setTimeout(updateNow, QUIET_MS);
  }

  /**
   * Restores a shared state. Everything is checked and built aside first, so
   * a bad link changes nothing; throws an Error naming the problem.
   */
  async function restore(state) {
    if (![...Lab.exampleNames(), ...LARGE_EXAMPLES].includes(state.e) && !isModel(state.e)) {
      throw new Error(`the link names an unknown example '${state.e}'`);
    }
    const next = isModel(state.e) ? await modelLab(state.e) : await exampleLab(state.e);
    // What the link's edits are counted against: the scene as it opens.
    next.keepWeightsAsBaseline();
    for (const [bone, ...numbers] of state.p ?? []) {
      next.setBonePose(bone, { rotation: numbers.slice(0, 4), translation: numbers.slice(4, 7), scale: numbers.slice(7, 10) });
    }
    for (const [bone, on] of state.f ?? []) next.setBoneDeforms(bone, on);
    // Links made before the edits travelled as bytes list them as JSON.
    for (const [vertex, pairs] of state.w ?? []) next.setInfluences(vertex, pairs);
    if (state.weightEdits) next.applyWeightEditsBytes(state.weightEdits);
    app.setLab(next, state.e, true);
    const { viewer } = app;
    if (state.d) viewer.frameScene(next, state.d);
    if (state.c) viewer.setCameraState(new Float32Array(state.c));
    if (state.m) controls.setMethod(state.m);
    modes.skin.api.setQuantised(state.q === 1);
    if (Array.isArray(state.kp) && state.kp.length === 2) controls.setComparePair(...state.kp);
    controls.setCompare(state.k === 1);
    // Links from before modes existed open in the mode the URL asks for.
    app.setMode(state.o ?? settings.mode ?? 'skin');
  }

  /** The link to what is on screen, written first. */
  function shareLink() {
    updateNow();
    return address.href;
  }

  /**
   * An iframe showing what is on screen, for a slide: at `base` (a folder
   * relative to the slides, such as `skinlab/`, where dist/ is copied), or at
   * this page's own address when `base` is empty. A relative address keeps
   * working when the deck moves to the lecture hall's server.
   */
  function embedCode(base = '') {
    const url = new URL(shareLink());
    url.searchParams.set('ui', 'minimal');
    const folder = base.trim();
    const address = folder ? `${folder.endsWith('/') ? folder : `${folder}/`}index.html${url.search}${url.hash}` : url.href;
    const src = address.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
    return `<iframe src="${src}" width="960" height="600" style="border:0" allow="fullscreen" title="Skinlab"></iframe>`;
  }

  return {
    schedule,
    restore,
    shareLink,
    embedCode,
    /** Stops a pending write and forgets the last diff (the lab or its core went). */
    forget() {
      clearTimeout(timer);
      diffed = { lab: null, revision: -1, bytes: new Uint8Array() };
    },
  };
}
