// The IK mode (the bones note and the animation talk): a target ring to drag in the view, the
// chain's tip following by the analytic, CCD or FABRIK solver, every joint
// within its limit; the selected bone's limit edited in the panel, and for
// two bones the animation talk's angles θ1 and θ2 from the law of cosines.
import { Lab } from '../pkg/skinlab.js';
import { boneLabel } from '../parts/bones.js';
import { createIkLayer, RACE_COLOURS } from '../parts/ik-layer.js';
import { createIkMotion } from '../parts/ik-motion.js';
import { createSwing } from '../parts/swing.js';
import { ownCaption } from '../parts/captions.js';
import { ARROWS } from '../dom.js';

const DEG = Math.PI / 180;
const AXES = { x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] };

/** The IK mode of `app` (see app.js for what `app` offers). */
export function createIkMode(app) {
  const { num, sig, t } = app.i18n;
  const { $ } = app;
  const handle = $('#ik-target');
  let target = null; // model space [x, y, z]
  let tip = -1;
  let dragging = false;
  let lastReport = null;

  const chainLength = () => Math.max(1, Math.round(Number($('#ik-chain').value) || 1));

  // The skeleton's parents and lengths, read once per scene (not per frame).
  let bones = null;
  const skeleton = () => {
    if (!bones) {
      const lengths = app.lab.boneLengths();
      bones = app.lab.boneParents().map((parent, b) => ({ parent, length: lengths[b] }));
    }
    return bones;
  };

  /** Bones from the root down to `bone`, inclusive. */
  function depth(bone) {
    const parents = skeleton().map((b) => b.parent);
    let n = 0;
    for (let b = bone; b !== null && b !== undefined; b = parents[b]) n += 1;
    return n;
  }

  /** The chain's bones, root first, ending at the tip. */
  function chainBones() {
    const bones = [tip];
    while (bones.length < chainLength() && skeleton()[bones[0]].parent !== null) bones.unshift(skeleton()[bones[0]].parent);
    return bones;
  }

  /** A sensible chain for the scene: the last bone, two bones (the leg: to the ankle; the arm: three to the hand). */
  function chooseChain() {
    const count = app.lab.boneCount();
    tip = { leg: 1, arm: 3 }[app.example] ?? count - 1;
    const available = depth(tip);
    const wanted = app.example === 'arm' || app.example === 'robot' ? 3 : 2;
    $('#ik-chain').value = String(Math.min(wanted, available));
    $('#ik-method').value = chainLength() === 2 ? 'analytic' : 'fabrik';
    target = app.lab.boneEnd(tip);
  }

  function placeHandle() {
    if (!target) return;
    try {
      const [x, y] = app.viewer.screenPointOf(new Float32Array(target));
      // A target beyond the view's edge waits at the edge, dashed, to be dragged back.
      const view = $('#view');
      const r = handle.offsetWidth / 2 || 13;
      const [left, top] = [Math.min(Math.max(x, r), view.clientWidth - r), Math.min(Math.max(y, r), view.clientHeight - r)];
      handle.classList.toggle('outside', left !== x || top !== y);
      Object.assign(handle.style, { left: `${left}px`, top: `${top}px` });
      handle.hidden = false;
    } catch {
      handle.hidden = true;
    }
  }

  function solve() {
    if (!target || tip < 0) return;
    let report;
    try {
      report = app.lab.solveIk({ tip, chain: chainLength(), target, method: $('#ik-method').value, stretch: Number($('#ik-stretch').value) });
    } catch (error) {
      app.showNotice(error.message, 'error');
      return;
    }
    lastReport = report;
    app.requestRender();
  }

  function showReport() {
    const report = lastReport;
    handle.classList.toggle('reached', Boolean(report?.reached));
    const stretched = tip >= 0 ? app.lab.boneStretch(tip) : 1;
    $('#ik-report').textContent = report
      ? t(report.reached ? 'ik.reportReached' : 'ik.reportMissed', { distance: sig(report.error), n: num(report.iterations) })
        + (stretched > 1 ? ` · ${t('ik.stretched', { factor: num(stretched, 2) })}` : '')
      : '';
    $('output[for="ik-stretch"]').textContent = `×${num(Number($('#ik-stretch').value), 2)}`;
    $('#ik-tip').textContent = tip >= 0 ? boneLabel(t, app.lab.boneNames(), tip) : '—';
    showAngles();
    showForwardKinematics();
  }

  /** The upper bone of a two-bone chain ending at the tip, or null for other chains. */
  function twoBoneUpper() {
    if (chainLength() !== 2 || tip < 0) return null;
    return skeleton()[tip].parent;
  }

  /**
   * The animation talk's law of cosines for a two-bone chain and its target:
   * θ2 = arccos((d² − l1² − l2²) / (2 l1 l2)), θ1 the upper bone's turn off
   * the line to the target; null for other chains.
   */
  function lawOfCosines() {
    const upper = twoBoneUpper();
    if (upper === null || !target) return null;
    const a = app.lab.boneOrigin(upper);
    const l1 = skeleton()[upper].length;
    const l2 = skeleton()[tip].length;
    const d = Math.hypot(...[0, 1, 2].map((k) => target[k] - a[k]));
    const cos2 = (d * d - l1 * l1 - l2 * l2) / (2 * l1 * l2);
    const theta2 = Math.acos(Math.max(-1, Math.min(1, cos2)));
    const theta1 = Math.atan2(l2 * Math.sin(theta2), l1 + l2 * Math.cos(theta2));
    return { a, b: app.lab.boneOrigin(tip), target, l1, l2, d, cos2, theta1, theta2 };
  }

  function showAngles() {
    const line = $('#ik-angles');
    const triangle = lawOfCosines();
    if (!triangle) {
      line.textContent = '';
      return;
    }
    const { l1, l2, d, cos2, theta1, theta2 } = triangle;
    line.textContent = t(Math.abs(cos2) > 1 ? 'ik.cosinesClamped' : 'ik.cosines', {
      l1: num(l1, 2), l2: num(l2, 2), d: num(d, 2), theta2: num(theta2 / DEG, 1), theta1: num(theta1 / DEG, 1),
    });
  }

  /**
   * The animation talk's forward kinematics for the two-bone chain as
   * posed, in the view's x–y plane: θ₁ the upper bone's direction, θ₂ the
   * lower bone's turn from it, and the tip at
   * X = A + (l₁ cos θ₁ + l₂ cos(θ₁+θ₂), l₁ sin θ₁ + l₂ sin(θ₁+θ₂)).
   * Null for other chains.
   */
  function forwardKinematics() {
    const upper = twoBoneUpper();
    if (upper === null) return null;
    const [a, b, e] = [app.lab.boneOrigin(upper), app.lab.boneOrigin(tip), app.lab.boneEnd(tip)];
    const theta1 = Math.atan2(b[1] - a[1], b[0] - a[0]);
    const l1 = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const l2 = Math.hypot(e[0] - b[0], e[1] - b[1]);
    let theta2 = Math.atan2(e[1] - b[1], e[0] - b[0]) - theta1;
    theta2 = Math.atan2(Math.sin(theta2), Math.cos(theta2));
    const x = a[0] + l1 * Math.cos(theta1) + l2 * Math.cos(theta1 + theta2);
    const y = a[1] + l1 * Math.sin(theta1) + l2 * Math.sin(theta1 + theta2);
    return { theta1, theta2, l1, l2, x, y, tipEnd: e };
  }

  function showForwardKinematics() {
    const fk = forwardKinematics();
    $('#ik-fk').textContent = fk
      ? t('ik.fk', {
        theta1: num(fk.theta1 / DEG, 1), theta2: num(fk.theta2 / DEG, 1), x: num(fk.x, 3), y: num(fk.y, 3),
      })
      : '';
  }

  // ----- the limit of the selected bone -----

  function showLimit() {
    const bone = app.viewer.selectedBone();
    const limits = bone !== null ? app.lab.limits(bone) : null;
    const kind = !limits ? 'none' : limits.hinge ? 'hinge' : 'cone';
    $('#limit-kind').value = kind;
    $('#limit-kind').disabled = bone === null;
    $('#limit-hinge').hidden = kind !== 'hinge';
    $('#limit-cone').hidden = kind !== 'cone';
    if (limits?.hinge) {
      const [x, y] = limits.hinge.axis;
      $('#hinge-axis').value = Math.abs(x) > 0.9 ? 'x' : Math.abs(y) > 0.9 ? 'y' : 'z';
      $('#hinge-min').value = String(Math.round(limits.hinge.min / DEG));
      $('#hinge-max').value = String(Math.round(limits.hinge.max / DEG));
    } else if (limits) {
      $('#cone-swing').value = String(Math.round(limits.swing / DEG));
      $('#cone-twist').value = String(Math.round(limits.twist[1] / DEG));
    }
    showSliders();
  }

  function showSliders() {
    for (const id of ['hinge-min', 'hinge-max', 'cone-swing', 'cone-twist']) {
      $(`output[for="${id}"]`).textContent = `${$(`#${id}`).value}°`;
    }
  }

  function applyLimit({ checkpoint = true } = {}) {
    const bone = app.viewer.selectedBone();
    if (bone === null) return;
    const kind = $('#limit-kind').value;
    let limits = null;
    if (kind === 'hinge') {
      const min = Number($('#hinge-min').value);
      const max = Math.max(min, Number($('#hinge-max').value));
      limits = { hinge: { axis: AXES[$('#hinge-axis').value], min: min * DEG, max: max * DEG } };
    } else if (kind === 'cone') {
      const twist = Number($('#cone-twist').value) * DEG;
      limits = { swing: Number($('#cone-swing').value) * DEG, twist: [-twist, twist] };
    }
    try {
      if (checkpoint) app.lab.checkpoint();
      app.lab.setLimits(bone, limits);
      motion.limitsChanged();
    } catch (error) {
      app.showNotice(error.message, 'error');
    }
    $('#limit-hinge').hidden = kind !== 'hinge';
    $('#limit-cone').hidden = kind !== 'cone';
    showSliders();
    app.requestRender();
  }

  // ----- the race -----

  const SWEEPS = 32;
  let race = null;
  let raceStep = 0;

  /**
   * The distance left after 0…SWEEPS sweeps of each solver, from the
   * current pose, and where the chain's joints are after each.
   */
  function runRace() {
    if (!target || tip < 0) return null;
    const scene = app.lab.sceneJson();
    const bones = chainBones();
    const result = { joints: {} };
    for (const method of ['ccd', 'fabrik']) {
      const distances = [];
      const joints = [];
      for (let sweeps = 0; sweeps <= SWEEPS; sweeps++) {
        const scratch = Lab.fromSceneJson(scene);
        const report = scratch.solveIk({ tip, chain: chainLength(), target, method, iterations: sweeps, tolerance: 0 });
        distances.push(report.error);
        joints.push([...bones.map((bone) => scratch.boneOrigin(bone)), scratch.boneEnd(tip)]);
        scratch.free();
      }
      result[method] = distances;
      result.joints[method] = joints;
    }
    race = result;
    setRaceStep(Math.min(raceStep, SWEEPS) || 1);
    return { ccd: result.ccd, fabrik: result.fabrik };
  }

  /** Shows both chains after `step` sweeps, in the view and on the plot. */
  function setRaceStep(step) {
    raceStep = step;
    $('#ik-race-step').value = String(step);
    $('output[for="ik-race-step"]').textContent = String(step);
    plotRace();
    app.requestRender();
  }

  function plotRace() {
    const canvas = $('#ik-race-plot');
    canvas.hidden = !race;
    $('#ik-race-stepper').hidden = !race;
    if (!race) return;
    const context = canvas.getContext('2d');
    const { width, height } = canvas;
    const pad = 34;
    // Log scale: from the start distance down to a thousandth of it.
    const top = Math.max(race.ccd[0], race.fabrik[0], 1e-9);
    const bottom = top * 1e-4;
    const x = (sweep) => pad + ((width - 2 * pad) * sweep) / SWEEPS;
    const y = (d) => pad / 2 + ((height - pad * 1.5) * Math.log(top / Math.max(d, bottom))) / Math.log(top / bottom);
    context.clearRect(0, 0, width, height);
    // The sweep shown in the view.
    context.fillStyle = '#e8ecf1';
    context.fillRect(x(raceStep) - 3, 0, 6, height);
    context.font = '20px system-ui, sans-serif';
    context.fillStyle = '#5f6b7a';
    context.fillText('0', pad - 6, height - 8);
    context.fillText(String(SWEEPS), width - pad - 20, height - 8);
    for (const [key, colour] of Object.entries(RACE_COLOURS)) {
      context.strokeStyle = colour;
      context.lineWidth = 3;
      context.beginPath();
      race[key].forEach((d, k) => (k ? context.lineTo : context.moveTo).call(context, x(k), y(d)));
      context.stroke();
      context.fillStyle = colour;
      // CCD's name above its line, FABRIK's below: both often end together.
      // Kept clear of the axis' numbers at the bottom (CCD one line above
      // FABRIK there) and of the top edge.
      const lowest = height - pad - 6 - (key === 'ccd' ? 24 : 0);
      const labelY = Math.min(lowest, Math.max(22, y(race[key][SWEEPS]) + (key === 'ccd' ? -8 : 22)));
      context.fillText(key.toUpperCase(), x(SWEEPS) - 70, labelY);
    }
    $('#ik-race-figures').textContent = t(raceStep === 1 ? 'ik.raceOne' : 'ik.raceFigures', {
      n: num(raceStep), ccd: sig(race.ccd[raceStep]), fabrik: sig(race.fabrik[raceStep]),
      total: num(SWEEPS), ccdEnd: sig(race.ccd[SWEEPS]), fabrikEnd: sig(race.fabrik[SWEEPS]), start: sig(top),
    });
  }

  $('#ik-race-run').addEventListener('click', runRace);
  $('#ik-race-step').addEventListener('input', (event) => setRaceStep(Number(event.target.value)));

  // ----- walking and riding -----

  const motion = createIkMotion(app, {
    target: () => (tip >= 0 ? target : null),
    reachFor(point) {
      target = point;
      solve();
    },
    walkEnded() {
      if (tip >= 0) target = app.lab.boneEnd(tip);
    },
    chainBones,
    boneLength: (bone) => skeleton()[bone].length,
  });

  // ----- over the view -----

  const layer = createIkLayer(app, {
    // While the leg walks the ring is not what it reaches for.
    triangle: () => (motion.walking() ? null : lawOfCosines()),
    raceChains: () => (race ? { ccd: race.joints.ccd[raceStep], fabrik: race.joints.fabrik[raceStep] } : null),
    walkPaths: motion.walkPaths,
    ridePath: motion.ridePath,
    limitDragged(which, angle) {
      const degrees = Math.round(angle / DEG);
      if (which === 'min') $('#hinge-min').value = String(Math.min(degrees, Number($('#hinge-max').value)));
      if (which === 'max') $('#hinge-max').value = String(Math.max(degrees, Number($('#hinge-min').value)));
      if (which === 'swing') $('#cone-swing').value = String(degrees);
      applyLimit({ checkpoint: false });
    },
  });

  // ----- the handle -----

  handle.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    dragging = true;
    app.beforeDrag();
    app.lab.checkpoint();
  });
  handle.addEventListener('pointermove', (event) => {
    if (!dragging) return;
    const rect = app.canvas.getBoundingClientRect();
    target = Array.from(app.viewer.modelPointAt(event.clientX - rect.left, event.clientY - rect.top, new Float32Array(target)));
    solve();
  });
  const end = () => { dragging = false; };
  handle.addEventListener('pointerup', end);
  handle.addEventListener('pointercancel', end);
  // The arrow keys move the target across the screen (12 px a press, 2 px
  // with Shift), so the ring is a control for the keyboard too.
  handle.addEventListener('keydown', (event) => {
    const direction = ARROWS[event.key];
    if (!direction || !target) return;
    event.preventDefault();
    // The ring's arrows go no further: in the Lessons mode ← and → would
    // also step the lesson.
    event.stopPropagation();
    const step = event.shiftKey ? 2 : 12;
    const [x, y] = app.viewer.screenPointOf(new Float32Array(target));
    app.lab.checkpoint();
    target = Array.from(app.viewer.modelPointAt(x + direction[0] * step, y + direction[1] * step, new Float32Array(target)));
    solve();
  });

  $('#ik-method').addEventListener('change', solve);
  $('#ik-stretch').addEventListener('input', () => { app.lab.checkpoint(); solve(); });
  $('#ik-chain').addEventListener('change', () => {
    $('#ik-chain').value = String(Math.min(chainLength(), depth(tip)));
    if (chainLength() !== 2 && $('#ik-method').value === 'analytic') $('#ik-method').value = 'fabrik';
    solve();
  });
  $('#ik-limit-posing').addEventListener('change', (event) => app.lab.setLimitsPosing(event.target.checked));
  $('#limit-kind').addEventListener('change', applyLimit);
  for (const id of ['#hinge-axis', '#hinge-min', '#hinge-max', '#cone-swing', '#cone-twist']) {
    $(id).addEventListener('input', applyLimit);
  }

  const swing = createSwing(app);
  let shownBone = -2;
  return {
    name: 'ik',
    panel: $('#mode-ik'),
    tool: 'pose',
    enter() {
      app.setTool('pose');
      shownBone = -2;
      // At start-up the mode opens before the first scene arrives.
      if (!app.lab) return;
      if (tip < 0 || tip >= app.lab.boneCount()) chooseChain();
      app.lab.setLimitsPosing($('#ik-limit-posing').checked);
    },
    leave() {
      swing.stop();
      handle.hidden = true;
      motion.stop();
      layer.clear();
      app.lab?.setLimitsPosing(false);
    },
    update() {
      placeHandle();
      showReport();
      motion.showWalk();
      layer.draw();
      const bone = app.viewer.selectedBone();
      if (bone !== shownBone) {
        shownBone = bone;
        showLimit();
        // Picking a bone with a parent makes it the chain's tip.
        if (bone !== null && bone !== tip && depth(bone) >= 2) {
          tip = bone;
          $('#ik-chain').value = String(Math.min(chainLength(), depth(tip)));
          target = app.lab.boneEnd(tip);
        }
      }
    },
    caption(name) {
      return [ownCaption(t, name, 'ik') ?? t('cap.ik')];
    },
    languageChanged() {
      swing.relabel();
    },
    sceneChanged() {
      swing.stop();
      bones = null;
      tip = -1;
      motion.forget();
      lastReport = null;
      race = null;
      plotRace();
      if (app.lab) chooseChain();
      if (app.shows('ik')) app.lab.setLimitsPosing($('#ik-limit-posing').checked);
    },
    api: {
      ikTarget: () => (target ? [...target] : null),
      setIkTarget(point) { target = [...point]; solve(); },
      ikChain: () => ({ tip, chain: chainLength(), method: $('#ik-method').value }),
      setIkChain({ tip: bone, chain, method } = {}) {
        if (bone !== undefined) { tip = bone; target = app.lab.boneEnd(tip); }
        if (chain !== undefined) $('#ik-chain').value = String(chain);
        if (method !== undefined) $('#ik-method').value = method;
      },
      ikReport: () => lastReport,
      /** The two-bone chain's forward kinematics as the panel shows it: {theta1, theta2, l1, l2, x, y, tipEnd}, or null. */
      forwardKinematics,
      ikRace: runRace,
      ikRaceStep: setRaceStep,
      ...motion.api,
      ikLimitHandle: (which) => layer.handlePoint(which),
      swingState: () => swing.state(),
    },
  };
}
