// The Weights mode: paint the selected bone's weight with a brush, colour
// the skin by weight, lock bones, and compute automatic weights. "Pose"
// within it tries the weights out without leaving the mode.
import { $ } from '../dom.js';
import { num, t } from '../i18n.js';


/** The Weights mode of `app` (see app.js for what `app` offers). */
export function createWeightsMode(app, vertexPanel) {
  function setWeightView(view) {
    app.viewer.setWeightView(view);
    $('#weight-view').value = view;
    $('#legend').hidden = view !== 'weights';
    app.requestRender();
  }

  /** Shows the tool's state; the app sets it on the viewer. */
  function showTool(tool) {
    for (const button of document.querySelectorAll('[data-tool]')) {
      button.setAttribute('aria-pressed', String(button.dataset.tool === tool));
    }
    $('#paint-panel').classList.toggle('inactive', tool !== 'paint');
    if (tool === 'paint' && app.viewer.weightView() === 'skin') setWeightView('weights');
    if (tool === 'paint' && app.viewer.selectedBone() < 0) {
      app.showNotice(t('needBone'), 'info', 'needBone');
    }
  }

  function readBrush() {
    const radius = Number($('#brush-radius').value);
    const strength = Number($('#brush-strength').value);
    const value = Number($('#brush-value').value);
    const mode = $('#brush-mode').value;
    app.viewer.setBrush(radius, strength, $('#brush-falloff').value, mode, value);
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
    app.viewer.setBrush(
      radius ?? Number($('#brush-radius').value),
      strength ?? Number($('#brush-strength').value),
      falloff ?? $('#brush-falloff').value,
      mode ?? $('#brush-mode').value,
      value ?? Number($('#brush-value').value),
    );
    readBrush();
  }

  function setMirror(on) {
    $('#brush-mirror').checked = on;
    app.viewer.setMirror(on);
  }

  function autoWeights(method) {
    app.lab.checkpoint();
    const report = app.lab.autoWeights(method);
    let text = t('auto.applied', { method: t(`auto.${method}`) });
    if (report.prunedVertices > 0) text += ` ${t('auto.pruned', { n: num(report.prunedVertices) })}`;
    if (method === 'heat' && !report.visibilityChecked) text += ` ${t('auto.noVisibility')}`;
    app.showNotice(text);
    vertexPanel.forget();
    app.requestRender();
    return report;
  }

  for (const button of document.querySelectorAll('[data-tool]')) {
    button.addEventListener('click', () => app.setTool(button.dataset.tool));
  }
  for (const button of document.querySelectorAll('[data-auto]')) {
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
    },
    leave() {
      setWeightView('skin');
    },
    update() {},
    caption() {
      return [t('cap.weights')];
    },
    sceneChanged() {},
    /** Restores the brush and mirror on a new viewer (after a lost context). */
    applyToViewer() {
      readBrush();
      app.viewer.setMirror($('#brush-mirror').checked);
    },
    showTool,
    api: { setWeightView, setBrush, setMirror, autoWeights },
  };
}
