// The side panel: the bone list with its locks, the selected vertex's
// weights and seed 000's three steps, the 8-bit weights line, and the
// selected bone's matrices. It reads the app's lab and viewer and calls back
// into the app for edits.
import { t } from './i18n.js';

const $ = (selector) => document.querySelector(selector);

/** Colours of the bones, as the renderer's palette (Okabe and Ito). */
export const BONE_COLORS = [
  [213, 94, 0], [0, 114, 178], [0, 158, 115], [204, 121, 167],
  [230, 159, 0], [86, 180, 233], [240, 228, 66], [77, 77, 77],
];

/**
 * The panel of `app`, which offers `lab`, `viewer`, `selectBone(bone)`,
 * `showNotice(text, kind)` and `requestRender()`.
 */
export function createPanel(app) {
  function formatMatrix(columnMajor) {
    const rows = [0, 1, 2, 3].map((row) =>
      `<tr>${[0, 1, 2, 3].map((col) => `<td>${columnMajor[col * 4 + row].toFixed(3).replace('-0.000', '0.000')}</td>`).join('')}</tr>`);
    return `<table>${rows.join('')}</table>`;
  }

  function rotationText(q) {
    const [x, y, z, w] = q;
    const s = Math.hypot(x, y, z);
    const label = t('rotation', 'Rotation');
    if (s < 1e-7) return `${label}: 0°`;
    const angle = (2 * Math.atan2(s, w) * 180) / Math.PI;
    const signed = angle > 180 ? angle - 360 : angle;
    if (Math.abs(z) / s > 0.9999) return `${label}: ${(Math.sign(z) * signed).toFixed(1)}° ${t('about', 'about')} Z`;
    const axis = [x, y, z].map((v) => (v / s).toFixed(2)).join(', ');
    return `${label}: ${signed.toFixed(1)}° ${t('about', 'about')} (${axis})`;
  }

  function buildBoneList() {
    const list = $('#bone-list');
    list.textContent = '';
    const names = app.lab.boneNames();
    const shown = Math.min(names.length, 64);
    for (let bone = 0; bone < shown; bone++) {
      const item = document.createElement('li');
      item.dataset.bone = String(bone);
      const [r, g, b] = BONE_COLORS[bone % BONE_COLORS.length];
      item.innerHTML = `<span class="dot" style="background: rgb(${r}, ${g}, ${b})"></span>
        <span class="name"></span><label><input type="checkbox"> <span>${t('lock', 'lock')}</span></label>`;
      item.querySelector('.name').textContent = names[bone] || `bone ${bone}`;
      const lock = item.querySelector('input');
      lock.checked = app.lab.isLocked(bone);
      lock.addEventListener('click', (event) => event.stopPropagation());
      lock.addEventListener('change', () => app.lab.setLocked(bone, lock.checked));
      item.addEventListener('click', () => app.selectBone(bone));
      list.append(item);
    }
    if (names.length > shown) {
      const more = document.createElement('li');
      more.className = 'muted';
      more.textContent = `… and ${names.length - shown} more (click them in the view)`;
      list.append(more);
    }
  }

  function updateBoneList() {
    const selected = app.viewer.selectedBone();
    for (const item of document.querySelectorAll('#bone-list li')) {
      item.classList.toggle('selected', Number(item.dataset.bone) === selected);
    }
  }

  let vertexPanelKey = '';
  function updateVertexPanel() {
    const vertex = app.viewer.selectedVertex();
    const panel = $('#vertex-panel');
    if (vertex < 0 || vertex >= app.lab.vertexCount()) {
      panel.hidden = true;
      vertexPanelKey = '';
      return;
    }
    panel.hidden = false;
    const key = `${vertex}:${app.lab.revision()}:${app.viewer.method()}`;
    if (key === vertexPanelKey || panel.contains(document.activeElement)) return;
    vertexPanelKey = key;
    $('#vertex-title').textContent = `Vertex ${vertex}`;
    const names = app.lab.boneNames();
    const table = $('#vertex-weights');
    table.textContent = '';
    const pairs = app.lab.influences(vertex);
    const addRow = (bone, weight) => {
      const row = table.insertRow();
      const select = document.createElement('select');
      names.forEach((name, index) => select.add(new Option(name || `bone ${index}`, String(index))));
      if (bone < 0) select.add(new Option('add a bone…', '-1'), 0);
      select.value = String(bone);
      const input = document.createElement('input');
      input.type = 'number';
      input.min = '0';
      input.max = '1';
      input.step = '0.05';
      input.value = bone >= 0 ? weight.toFixed(3) : '';
      input.setAttribute('aria-label', 'weight');
      row.insertCell().append(select);
      row.insertCell().append(input);
      input.addEventListener('change', () => applyVertexWeights(vertex));
      // A bone chosen for the empty row waits for its weight.
      select.addEventListener('change', () => (input.value === '' ? input.focus() : applyVertexWeights(vertex)));
    };
    for (const [bone, weight] of pairs) addRow(bone, weight);
    if (pairs.length < 4) addRow(-1, 0);
    $('#vertex-steps').innerHTML = threeStepsHtml(vertex, pairs, names);
  }

  const vec = (v) => `(${v.map((x) => x.toFixed(2).replace('-0.00', '0.00')).join(', ')})`;

  /** Seed 000's three steps for each bone of the vertex, and the weighted mean. */
  function threeStepsHtml(vertex, pairs, names) {
    if (pairs.length === 0) return `<p class="muted small">${t('noInfluence', 'No bone moves this vertex: it stays at its rest position.')}</p>`;
    const rows = pairs.map(([bone, weight]) => {
      const steps = app.lab.threeSteps(bone, vertex);
      return `<li><strong>${names[bone] || `bone ${bone}`}</strong> (w = ${weight.toFixed(2)}):
        Q = R<sub>i</sub><sup>−1</sup>P = ${vec(steps.inBoneRest)} →
        T = A<sub>i</sub>Q = ${vec(steps.inBoneAnimated)} →
        Z<sub>i</sub> = C′<sub>p</sub>·T(o)·O·T = ${vec(steps.inModelPosed)}</li>`;
    });
    const positions = app.lab.skinnedPositions(app.viewer.method());
    const result = [0, 1, 2].map((k) => positions[3 * vertex + k]);
    const rest = app.lab.threeSteps(pairs[0][0], vertex).rest;
    return `<p class="small">P = ${vec(rest)}</p><ol class="steps small">${rows.join('')}</ol>
      <p class="small">Z = Σ w<sub>i</sub> Z<sub>i</sub> = ${vec(result)}${app.viewer.method() === 'dqs' ? ' (DQS blends the transforms, not the points)' : ''}</p>`;
  }

  function applyVertexWeights(vertex) {
    const pairs = [];
    for (const row of $('#vertex-weights').rows) {
      const bone = Number(row.querySelector('select').value);
      const input = row.querySelector('input');
      if (bone >= 0 && input.value !== '') pairs.push([bone, Number(input.value)]);
    }
    try {
      app.lab.checkpoint();
      const pruned = app.lab.setInfluences(vertex, pairs);
      if (pruned > 0) app.showNotice(`Vertex ${vertex}: ${pruned} influence(s) pruned; a vertex keeps its four largest.`);
    } catch (error) {
      app.showNotice(error.message, 'error');
    }
    vertexPanelKey = '';
    document.activeElement?.blur();
    app.requestRender();
  }

  function updateQuantisation() {
    const line = $('#quantisation');
    line.hidden = !app.lab.isQuantised();
    if (line.hidden) return;
    const report = app.lab.quantisationReport(app.viewer.method());
    line.textContent = `Largest weight error ${report.maxWeightError.toFixed(4)} (at most 1/255 = 0.0039); `
      + `largest vertex shift in this pose ${report.maxPositionError.toPrecision(2)} units.`;
  }


  function updatePanel() {
    $('#undo').disabled = !app.lab.canUndo();
    $('#redo').disabled = !app.lab.canRedo();
    updateBoneList();
    updateVertexPanel();
    updateQuantisation();
    const bone = app.viewer.selectedBone();
    if (bone < 0 || bone >= app.lab.boneCount()) {
      $('#bone-name').textContent = t('noBone', 'No bone selected');
      $('#bone-rotation').textContent = t('noBoneHint', 'Click a bone to select it; drag to turn it about its origin.');
      $('#matrices').innerHTML = '';
      return;
    }
    const name = app.lab.boneNames()[bone] || `bone ${bone}`;
    $('#bone-name').textContent = `${name} (bone ${bone})`;
    $('#bone-rotation').textContent = rotationText(app.lab.bonePose(bone).rotation);
    $('#matrices').innerHTML = `
      <div class="matrix"><h3>R<sub>i</sub> <span>${t('matrix.rest', 'rest frame, bone → model')}</span></h3>${formatMatrix(app.lab.restFrame(bone))}</div>
      <div class="matrix"><h3>A<sub>i</sub> <span>${t('matrix.animation', 'animation, in the bone’s frame')}</span></h3>${formatMatrix(app.lab.animationMatrix(bone))}</div>
      <div class="matrix"><h3>M<sub>i</sub> = R′<sub>i</sub> · R<sub>i</sub><sup>−1</sup> <span>${t('matrix.skinning', 'skinning matrix')}</span></h3>${formatMatrix(app.lab.skinningMatrix(bone))}</div>
      <p class="pitfall">${t('pitfall', 'Each vertex moves to Z = Σ w<sub>i</sub> M<sub>i</sub> P. Writing R′<sub>i</sub> · A<sub>i</sub> · R<sub>i</sub><sup>−1</sup> would apply the pose twice: R′<sub>i</sub> already contains A<sub>i</sub>.')}</p>`;
  }

  return {
    buildBoneList,
    updatePanel,
    /** Rebuilds the vertex panel on the next frame, even if nothing moved. */
    forgetVertexPanel() {
      vertexPanelKey = '';
    },
  };
}
