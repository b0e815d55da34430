// The GPU mode (the engine note): what skinning costs on a GPU. Pick the palette
// format the shader receives (4x4 or 4x3 matrices, quaternion +
// translation, dual quaternions), uniforms or a texture, and a budget of
// vertex uniform vectors; the table shows, for each format, how many bones
// a draw can carry, how many draws this mesh needs and the bytes uploaded
// per frame, and the panel the error a format without room for scale makes
// in the current pose.
import { el } from '../dom.js';
import { ownCaption } from '../parts/captions.js';

/** The GPU mode of `app` (see app.js for what `app` offers). */
export function createGpuMode(app) {
  const { num, sig, t } = app.i18n;
  const { $ } = app;
  /** A palette format's short name in the table. */
  const formatLabel = (format) => t(`gpu.short.${format}`);
  let shownKey = '';

  const budget = () => Number($('#gpu-budget').value);

  /** vec4s per bone of the format the shader receives now. */
  function stride() {
    const format = $('#gpu-format').value;
    const own = { lbs: 3, cor: 4, dqs: 5 }[app.viewer.method()];
    return { mat4: 4, mat4x3: 3, 'quat-translation': 2, 'dual-quat': 2 }[format] ?? own;
  }

  function applyToViewer() {
    if (!app.viewer) return;
    app.viewer.setPaletteFormat($('#gpu-format').value);
    app.viewer.setPaletteTexture($('#gpu-texture').checked);
    // Within the budget: the shader's other uniforms keep 16 vectors.
    const bones = Math.floor((budget() - 16) / stride());
    app.viewer.setBatchLimit($('#gpu-batches').checked ? bones : 0);
    shownKey = '';
    app.requestRender();
  }

  function showFigures() {
    const key = `${app.lab.revision()}:${budget()}:${$('#gpu-format').value}:${app.viewer.method()}:${app.viewer.drawCalls()}`;
    if (key === shownKey) return;
    shownKey = key;
    $('output[for="gpu-budget"]').textContent = num(budget());
    const figures = app.lab.formatFigures(budget());
    const chosen = $('#gpu-format').value;
    const table = $('#gpu-figures');
    table.textContent = '';
    table.append(el('tr', {},
      el('th', {}, t('gpu.format')), el('th', { title: t('gpu.vectorsTitle') }, 'vec4'),
      el('th', { title: t('gpu.perDrawTitle') }, t('gpu.perDraw')), el('th', {}, t('gpu.draws')),
      el('th', { title: t('gpu.bytesTitle') }, t('gpu.bytes'))));
    for (const f of figures) {
      const row = el('tr', { className: f.format === chosen ? 'chosen' : '' },
        el('td', {}, formatLabel(f.format)), el('td', {}, num(f.vectorsPerBone)), el('td', {}, num(f.bonesPerDraw)),
        el('td', {}, f.draws === undefined || f.draws === null ? '—' : num(f.draws)),
        el('td', {}, num(f.bytesPerFrame)));
      row.dataset.format = f.format;
      table.append(row);
    }
    const bones = app.lab.boneCount();
    const format = chosen || (app.viewer.method() === 'dqs' ? '' : 'mat4x3');
    const error = format ? app.lab.formatError(format) : 0;
    $('#gpu-need').textContent = t('gpu.needLine', {
      bones: num(bones),
      storage: $('#gpu-batches').checked ? t('gpu.subPalettes') : t(`gpu.storage.${app.viewer.paletteStorage(app.lab)}`),
      calls: num(app.viewer.drawCalls()),
      vectors: num(app.viewer.maxUniformVectors()),
    });
    const line = $('#gpu-error');
    line.textContent = format
      ? `${formatLabel(format)}: ${t('gpu.error')} ${sig(error)}`
      : '';
    line.classList.toggle('negative', error > 1e-3);
  }

  /** Stretches the selected bone (or bone 1) by 1.5 along its length. */
  function stretch() {
    const bone = app.viewer.selectedBone() ?? 0;
    const { rotation, translation } = app.lab.bonePose(bone);
    app.lab.checkpoint();
    app.lab.setBonePose(bone, { rotation, translation, scale: [1, 1.5, 1] });
    app.requestRender();
  }

  /** The cap, the weights' and indices' widths, and the error they cause. */
  function showVertexData() {
    const cap = Number($('#gpu-cap').value);
    $('output[for="gpu-cap"]').textContent = String(cap);
    $('#gpu-eight-bit').checked = app.lab.isQuantised();
    const tooMany = app.lab.boneCount() > 256;
    $('#gpu-joint-bytes').disabled = tooMany;
    const errors = app.lab.influenceErrors(app.viewer.method());
    const worst = errors.reduce((m, e) => Math.max(m, e), 0);
    const moved = errors.reduce((n, e) => n + (e > 1e-6 ? 1 : 0), 0);
    const indexNote = $('#gpu-joint-bytes').checked
      ? (tooMany ? ` · ${t('gpu.tooMany')}` : ` · ${t('gpu.exactIndices')}`)
      : '';
    $('#gpu-vertex-error').textContent = `${t('gpu.moved')}: ${num(moved)} / ${num(errors.length)}, `
      + `${t('gpu.worst')} ${sig(worst)}${indexNote}`;
  }

  function applyVertexData() {
    app.lab.setInfluenceCap(Number($('#gpu-cap').value));
    app.api.setQuantised($('#gpu-eight-bit').checked);
    app.viewer.setJointBytes($('#gpu-joint-bytes').checked);
    app.viewer.setWeightView($('#gpu-heat').checked ? 'error' : 'skin');
    shownKey = '';
    app.requestRender();
  }

  for (const id of ['#gpu-cap', '#gpu-eight-bit', '#gpu-joint-bytes', '#gpu-heat']) {
    $(id).addEventListener('input', applyVertexData);
  }
  $('#gpu-format').addEventListener('change', applyToViewer);
  $('#gpu-texture').addEventListener('change', applyToViewer);
  $('#gpu-budget').addEventListener('input', applyToViewer);
  $('#gpu-batches').addEventListener('change', applyToViewer);
  $('#gpu-stretch').addEventListener('click', stretch);

  return {
    name: 'gpu',
    panel: $('#mode-gpu'),
    tool: 'pose',
    enter() {
      app.setTool('pose');
      shownKey = '';
      applyToViewer();
    },
    leave() {
      // The other modes draw with the method's own layout, every influence
      // and their own colouring.
      app.viewer?.setPaletteFormat('');
      app.viewer?.setPaletteTexture(false);
      app.viewer?.setJointBytes(false);
      app.viewer?.setBatchLimit(0);
      $('#gpu-batches').checked = false;
      app.lab?.setInfluenceCap(4);
      $('#gpu-cap').value = '4';
      if ($('#gpu-heat').checked) app.viewer?.setWeightView('skin');
      $('#gpu-heat').checked = false;
    },
    update() {
      const max = Math.max(256, app.viewer.maxUniformVectors());
      $('#gpu-budget').max = String(max);
      showFigures();
      showVertexData();
    },
    caption(name) {
      return [ownCaption(t, name, 'gpu') ?? t('cap.gpu')];
    },
    applyToViewer() {
      if (app.shows('gpu')) applyToViewer();
    },
    languageChanged() {
      shownKey = '';
    },
    sceneChanged() {
      shownKey = '';
      if (app.shows('gpu') && app.lab) app.lab.setInfluenceCap(Number($('#gpu-cap').value));
    },
    api: {
      setPaletteFormat(name) {
        $('#gpu-format').value = name;
        applyToViewer();
      },
      setGpuBudget(vectors) {
        $('#gpu-budget').value = String(vectors);
        applyToViewer();
      },
      setBatchDrawing(on) {
        $('#gpu-batches').checked = on;
        applyToViewer();
      },
      gpuFigures: () => app.lab.formatFigures(budget()),
      setInfluenceCap(cap) {
        $('#gpu-cap').value = String(cap);
        applyVertexData();
      },
    },
  };
}
