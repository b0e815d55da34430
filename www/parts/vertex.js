// The selected vertex: its weights, editable, and the skinning note's three steps for
// each of its bones, then the weighted mean.
import { el, sym } from '../dom.js';
import { boneLabel } from './bones.js';

/** How long the pose must hold still before the GPU's value is read back. */
const GPU_READ_DELAY_MS = 200;

/**
 * The vertex panel of `app`, which offers `lab`, `viewer`, `showNotice` and
 * `requestRender`.
 */
export function createVertexPanel(app) {
  const { num, t, tuple } = app.i18n;
  const { $ } = app;
  const vec = (v) => tuple(v, 2);
  let shownKey = '';

  function weightRow(table, names, vertex, bone, weight) {
    const row = table.insertRow();
    const select = el('select');
    // A bone that deforms nothing is listed as such (it takes no weight).
    names.forEach((_, index) => {
      const name = boneLabel(t, names, index);
      select.add(new Option(app.lab.boneDeforms(index) ? name : t('deforms.option', { bone: name }), String(index)));
    });
    if (bone < 0) select.add(new Option(t('vertex.addBone'), '-1'), 0);
    select.value = String(bone);
    const input = el('input', {
      type: 'number', min: '0', max: '1', step: '0.05', value: bone >= 0 ? weight.toFixed(3) : '',
    });
    input.setAttribute('aria-label', t('vertex.weight'));
    row.insertCell().append(select);
    row.insertCell().append(input);
    input.addEventListener('change', () => apply(vertex));
    // A bone chosen for the empty row waits for its weight.
    select.addEventListener('change', () => (input.value === '' ? input.focus() : apply(vertex)));
  }

  /** The skinning note's three steps for each bone of the vertex, and the weighted mean. */
  function threeSteps(vertex, pairs, names) {
    if (pairs.length === 0) {
      return [el('p', { className: 'muted small' }, t('noInfluence'))];
    }
    const rows = pairs.map(([bone, weight]) => {
      const steps = app.lab.threeSteps(bone, vertex);
      return el('li', {},
        el('strong', {}, boneLabel(t, names, bone)), ` (w = ${num(weight, 2)}): `,
        'Q = ', sym('R', 'i', '−1'), `P = ${vec(steps.inBoneRest)} → `,
        'T = ', sym('A', 'i'), `Q = ${vec(steps.inBoneAnimated)} → `,
        sym('Z', 'i'), ` = C′`, el('sub', {}, 'p'), `·T(o)·O·T = ${vec(steps.inModelPosed)}`);
    });
    const method = app.viewer.method();
    const result = Array.from(app.lab.skinnedVertex(method, vertex));
    const rest = app.lab.threeSteps(pairs[0][0], vertex).rest;
    return [
      el('p', { className: 'small' }, `P = ${vec(rest)}`),
      el('ol', { className: 'steps small' }, rows),
      el('p', { className: 'small' }, 'Z = Σ ', sym('w', 'i'), ' ', sym('Z', 'i'), ` = ${vec(result)}`,
        method === 'dqs' ? ` ${t('vertex.dqsNote')}` : ''),
      el('p', { className: 'small muted' }, `CPU ${vec(result)} · GPU `, gpuLine(vertex, method)),
    ];
  }

  // The GPU's value is read back (the whole mesh, by transform feedback)
  // once the pose has held still, not on every frame of a drag.
  let gpuTimer = 0;
  function gpuLine(vertex, method) {
    const span = el('span', {}, '…');
    clearTimeout(gpuTimer);
    gpuTimer = setTimeout(() => { span.textContent = vec(gpuPosition(vertex, method)); }, GPU_READ_DELAY_MS);
    return span;
  }

  /** The vertex as the vertex shader skins it, read back by transform feedback. */
  function gpuPosition(vertex, method) {
    if (!app.viewer || !app.lab) return [NaN, NaN, NaN];
    try {
      const gpu = app.viewer.gpuSkinnedPositions(app.lab, method);
      return [0, 1, 2].map((k) => gpu[3 * vertex + k]);
    } catch {
      return [NaN, NaN, NaN];
    }
  }

  function apply(vertex) {
    const pairs = [];
    for (const row of $('#vertex-weights').rows) {
      const bone = Number(row.querySelector('select').value);
      const input = row.querySelector('input');
      if (bone >= 0 && input.value !== '') pairs.push([bone, Number(input.value)]);
    }
    // Weight for a bone that deforms nothing: said, and the bone selected,
    // so the panel offers to let it deform.
    const still = pairs.find(([bone, weight]) => weight > 0 && !app.lab.boneDeforms(bone));
    if (still) {
      app.deforming.refuses(still[0]);
      app.selectBone(still[0]);
      shownKey = '';
      app.requestRender();
      return;
    }
    try {
      app.lab.checkpoint();
      const pruned = app.lab.setInfluences(vertex, pairs);
      if (pruned > 0) app.showNotice(t('msg.vertexPruned', { vertex, n: pruned }));
    } catch (error) {
      app.showNotice(error.message, 'error');
    }
    shownKey = '';
    app.root.activeElement?.blur();
    app.requestRender();
  }

  function update() {
    const vertex = app.viewer.selectedVertex();
    const panel = $('#vertex-panel');
    if (vertex === null || vertex >= app.lab.vertexCount()) {
      panel.hidden = true;
      shownKey = '';
      return;
    }
    panel.hidden = false;
    const key = `${vertex}:${app.lab.revision()}:${app.viewer.method()}`;
    if (key === shownKey || panel.contains(app.root.activeElement)) return;
    shownKey = key;
    $('#vertex-title').textContent = t('vertex.title', { n: vertex });
    const names = app.lab.boneNames();
    const table = $('#vertex-weights');
    table.textContent = '';
    const pairs = app.lab.influences(vertex);
    for (const [bone, weight] of pairs) weightRow(table, names, vertex, bone, weight);
    if (pairs.length < 4) weightRow(table, names, vertex, -1, 0);
    $('#vertex-steps').replaceChildren(...threeSteps(vertex, pairs, names));
  }

  return {
    update,
    /** Rebuilds the panel on the next frame, even if nothing moved. */
    forget() {
      shownKey = '';
    },
  };
}
