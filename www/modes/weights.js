// The Weights mode: paint the selected bone's weight with a brush, colour
// the skin by weight, lock bones, and compute automatic weights. "Pose"
// within it tries the weights out without leaving the mode.
import { weightsJob } from '../weights-job.js';
import { convertersReady, loadConverters } from '../converters.js';
import { BONE_COLORS, boneLabel } from '../parts/bones.js';
import { ownCaption } from '../parts/captions.js';

/**
 * Work (vertices × bones) done at once on the main thread; more, and bone
 * heat beyond a small mesh, runs in a worker with progress and Cancel.
 */
const INLINE_WORK = { nearest: 2e6, distance: 2e6, heat: 2e4, voxel: 0 };

/** The Weights mode of `app` (see app.js for what `app` offers). */
export function createWeightsMode(app, vertexPanel) {
  const { num, t } = app.i18n;
  const { $ } = app;
  function setWeightView(view) {
    app.viewer.setWeightView(view);
    $('#weight-view').value = view;
    $('#legend').hidden = view !== 'weights';
    app.requestRender();
  }

  /**
   * The first bone that deforms the skin: the lowest index holding weight in
   * up to 4,096 vertices spread over the mesh (a dense mesh is sampled, not
   * read whole). Null for a scene without weights.
   */
  function firstDeformingBone() {
    const { lab } = app;
    const count = lab.vertexCount();
    const stride = Math.max(1, Math.floor(count / 4096));
    let first = null;
    for (let vertex = 0; vertex < count; vertex += stride) {
      for (const [bone, weight] of lab.influences(vertex)) {
        if (weight > 0 && (first === null || bone < first)) first = bone;
      }
    }
    return first;
  }

  /**
   * Entering the mode shows a bone's weights at once: the bone selected
   * before, else the first that deforms.
   */
  function showHeatMap() {
    if (!app.lab || !app.viewer) return;
    if (app.viewer.selectedBone() === null) {
      const bone = firstDeformingBone();
      if (bone !== null) app.selectBone(bone);
    }
    if (app.viewer.selectedBone() !== null) setWeightView('weights');
  }

  /**
   * Readies the scene's painting when the page is idle, so that the first
   * stroke does not begin with finding the copies of each place (35 ms on
   * 100,000 vertices).
   */
  function preparePainting() {
    const idle = globalThis.requestIdleCallback ?? ((job) => setTimeout(job, 200));
    idle(() => {
      if (app.mode() === 'weights') app.lab?.preparePainting();
    }, { timeout: 2000 });
  }

  /** Shows the tool's state; the app sets it on the viewer. */
  function showTool(tool) {
    for (const button of app.root.querySelectorAll('[data-tool]')) {
      button.setAttribute('aria-pressed', String(button.dataset.tool === tool));
    }
    $('#paint-panel').classList.toggle('inactive', tool !== 'paint');
    if (tool === 'paint' && app.viewer.weightView() === 'skin') setWeightView('weights');
    if (tool === 'paint' && app.viewer.selectedBone() === null) {
      // Where no panel shows its Bones list, the chooser over the view picks.
      app.showNotice(t(chooserShown() ? 'needBoneHere' : 'needBone'), 'info', 'needBone');
    }
  }

  // The chooser over the view's bottom left corner: the bone to paint and
  // Paint/Pose, shown in this mode where its panel (with the Bones list) is
  // not on screen.
  const chooser = $('#bone-chooser');
  const chooserBone = $('#chooser-bone');
  let chooserFor = null;
  const chooserShown = () => !chooser.hidden;

  function fillChooser() {
    const names = app.lab.boneNames();
    chooserBone.textContent = '';
    chooserBone.add(new Option('—', ''));
    names.forEach((_, bone) => chooserBone.add(new Option(boneLabel(t, names, bone), String(bone))));
    chooserFor = app.lab;
  }

  function updateChooser() {
    chooser.hidden = !app.lab || $('#mode-weights').offsetParent !== null;
    if (chooser.hidden) return;
    if (chooserFor !== app.lab) fillChooser();
    // At the view's foot (a model's feet stand in the middle), above the player.
    const view = $('#view');
    chooser.style.bottom = `${view.parentElement.clientHeight - view.offsetTop - view.offsetHeight + 8}px`;
    const bone = app.viewer.selectedBone();
    chooserBone.value = bone === null ? '' : String(bone);
    const colour = bone === null ? null : BONE_COLORS[bone % BONE_COLORS.length];
    chooser.querySelector('.dot').style.background = colour ? `rgb(${colour.join(', ')})` : 'transparent';
  }

  chooserBone.addEventListener('change', () => {
    if (chooserBone.value === '') app.selectBone(null);
    else app.selectBone(Number(chooserBone.value));
  });

  function readBrush() {
    const radius = Number($('#brush-radius').value);
    const strength = Number($('#brush-strength').value);
    const value = Number($('#brush-value').value);
    const mode = $('#brush-mode').value;
    app.viewer.setBrush({ radius, strength, falloff: $('#brush-falloff').value, mode, value });
    $('output[for="brush-radius"]').textContent = `${radius} px`;
    $('output[for="brush-strength"]').textContent = num(strength, 2);
    $('output[for="brush-value"]').textContent = num(value, 2);
    $('#brush-value-row').hidden = mode !== 'set';
  }

  function setBrush({ radius, strength, falloff, mode, value } = {}) {
    if (radius !== undefined) $('#brush-radius').value = String(radius);
    if (strength !== undefined) $('#brush-strength').value = String(strength);
    if (falloff !== undefined) $('#brush-falloff').value = falloff;
    if (mode !== undefined) $('#brush-mode').value = mode;
    if (value !== undefined) $('#brush-value').value = String(value);
    // The viewer checks the values and throws on bad ones before the
    // sliders (which clamp) are read back.
    app.viewer.setBrush({
      radius: radius ?? Number($('#brush-radius').value),
      strength: strength ?? Number($('#brush-strength').value),
      falloff: falloff ?? $('#brush-falloff').value,
      mode: mode ?? $('#brush-mode').value,
      value: value ?? Number($('#brush-value').value),
    });
    readBrush();
  }

  function setMirror(on) {
    $('#brush-mirror').checked = on;
    app.viewer.setMirror(on);
  }

  /** Says what the weights came to, and redraws. */
  function applied(method, report) {
    let text = t('auto.applied', { method: t(`auto.${method}`) });
    if (report.prunedVertices > 0) text += ` ${t('auto.pruned', { n: num(report.prunedVertices) })}`;
    // Vertices bones that deform nothing would have taken, and those no bone reached.
    if (report.nearestNonDeforming > 0) text += ` ${t('auto.nearestNonDeforming', { n: num(report.nearestNonDeforming) })}`;
    if (report.unreachedVertices > 0) text += ` ${t('auto.unreached', { n: num(report.unreachedVertices) })}`;
    // Undone by the next undo, which takes the notice with it.
    app.showNotice(text, 'info', 'undoable');
    // The vertices counted, marked where they are.
    app.vertexMarks.show(report.handedOver);
    vertexPanel.forget();
    app.requestRender();
    return report;
  }

  /** The running worker's job (see weightsJob), or null. */
  let job = null;

  function showWork(fraction) {
    $('#work').hidden = false;
    $('#work progress').value = fraction;
  }

  /** Ends the running worker, if any, without applying anything. */
  function cancelAutoWeights() {
    if (!job) return false;
    job.cancel();
    app.showNotice(t('auto.cancelled'));
    return true;
  }

  /**
   * Replaces the weights by automatic ones; resolves to the report, or
   * null when cancelled or the scene changed meanwhile. Small jobs run at
   * once; large ones in a worker (weights-worker.js) while the page stays
   * usable, with progress and Cancel, applied as one undo step.
   */
  function autoWeights(method) {
    cancelAutoWeights();
    const lab = app.lab;
    // Computed here, on the main thread, as one undo step, once the file
    // readers' module (which holds the solvers) is loaded.
    const here = () => {
      // The module's first download says it is working, as a worker's job does.
      const waiting = !convertersReady();
      if (waiting) {
        $('#work-text').textContent = t('auto.working', { method: t(`auto.${method}`) });
        showWork(0);
      }
      return loadConverters().then(() => {
        if (waiting && !job) $('#work').hidden = true;
        if (app.lab !== lab) return null;
        lab.checkpoint();
        return applied(method, lab.autoWeights(method));
      }, (error) => {
        if (waiting && !job) $('#work').hidden = true;
        app.showNotice(error.message, 'error');
        return null;
      });
    };
    if (lab.vertexCount() * lab.boneCount() <= (INLINE_WORK[method] ?? 0)) return here();
    const started = weightsJob({ handover: lab.handover(), method }, showWork);
    if (!started) return here();
    job = started;
    $('#work-text').textContent = t('auto.working', { method: t(`auto.${method}`) });
    showWork(0);
    return started.result.then((answer) => {
      // A job cancelled for a new one leaves the new one's progress showing.
      if (job === started) {
        job = null;
        $('#work').hidden = true;
      }
      if (answer.unavailable) return here();
      if (answer.failed) app.showNotice(answer.failed, 'error');
      // A scene opened meanwhile is not this one's to change.
      if (!answer.done || app.lab !== lab) return null;
      lab.checkpoint();
      lab.setInfluenceArrays(answer.bones, answer.weights);
      return applied(method, answer.report);
    });
  }

  $('#work-cancel').addEventListener('click', cancelAutoWeights);

  for (const button of app.root.querySelectorAll('[data-tool]')) {
    button.addEventListener('click', () => app.setTool(button.dataset.tool));
  }
  for (const button of app.root.querySelectorAll('[data-auto]')) {
    button.addEventListener('click', () => autoWeights(button.dataset.auto));
  }
  for (const id of ['#brush-radius', '#brush-strength', '#brush-value', '#brush-mode', '#brush-falloff']) {
    $(id).addEventListener('input', readBrush);
  }
  $('#brush-mirror').addEventListener('change', (event) => app.viewer.setMirror(event.target.checked));
  $('#weight-view').addEventListener('change', (event) => setWeightView(event.target.value));

  return {
    name: 'weights',
    panel: $('#mode-weights'),
    tool: 'paint',
    enter() {
      app.setTool('paint');
      showHeatMap();
      preparePainting();
      // The automatic weights' solvers, ready before a button asks for them.
      loadConverters().catch(() => {});
    },
    leave() {
      setWeightView('skin');
      chooser.hidden = true;
    },
    update: updateChooser,
    languageChanged() {
      chooserFor = null;
    },
    caption(name) {
      return [ownCaption(t, name, 'weights') ?? t('cap.weights')];
    },
    sceneChanged() {
      if (app.mode() !== 'weights') return;
      showHeatMap();
      preparePainting();
    },
    /** Restores the brush and mirror on a new viewer (after a lost context). */
    applyToViewer() {
      readBrush();
      app.viewer.setMirror($('#brush-mirror').checked);
    },
    showTool,
    api: { setWeightView, setBrush, setMirror, autoWeights, cancelAutoWeights },
  };
}
