// The Skin mode: pose the skeleton and see how the skin follows. It owns
// the layers to show, the 8-bit weights switch, the selected bone's
// matrices with the skinning note's pitfall, and the examples' captions.
import { Lab } from '../pkg/skinlab.js';
import { el, richText, sym } from '../dom.js';
import { boneLabel } from '../parts/bones.js';
import { skinCaption } from '../parts/captions.js';

/** The unit quaternion [x, y, z, w] of a rotation matrix (16 numbers, column-major). */
function rotationOfMatrix(m) {
  const w = Math.sqrt(Math.max(0, 1 + m[0] + m[5] + m[10])) / 2;
  const x = Math.sqrt(Math.max(0, 1 + m[0] - m[5] - m[10])) / 2 * Math.sign(m[6] - m[9] || 1);
  const y = Math.sqrt(Math.max(0, 1 - m[0] + m[5] - m[10])) / 2 * Math.sign(m[8] - m[2] || 1);
  const z = Math.sqrt(Math.max(0, 1 - m[0] - m[5] + m[10])) / 2 * Math.sign(m[1] - m[4] || 1);
  return [x, y, z, w];
}

/** The Skin mode of `app` (see app.js for what `app` offers). */
export function createSkinMode(app) {
  const { num, sig, t, tuple } = app.i18n;
  const { $ } = app;

  /**
   * A 4×4 matrix as a table whose rows and columns are named for a screen
   * reader (columns: the x, y and z axes and the translation t; rows: x, y,
   * z, w), the names hidden on screen where the layout speaks for itself.
   */
  function formatMatrix(columnMajor) {
    const table = el('table');
    const head = table.createTHead().insertRow();
    head.append(el('td', { className: 'visually-hidden' }));
    for (const name of ['x', 'y', 'z', 't']) {
      const th = el('th', { className: 'visually-hidden' }, name);
      th.scope = 'col';
      head.append(th);
    }
    const body = table.createTBody();
    for (let row = 0; row < 4; row++) {
      const tr = body.insertRow();
      const th = el('th', { className: 'visually-hidden' }, ['x', 'y', 'z', 'w'][row]);
      th.scope = 'row';
      tr.append(th);
      for (let col = 0; col < 4; col++) {
        tr.insertCell().textContent = num(Math.abs(columnMajor[col * 4 + row]) < 5e-4 ? 0 : columnMajor[col * 4 + row], 3);
      }
    }
    return table;
  }

  function rotationText(q) {
    const [x, y, z, w] = q;
    const s = Math.hypot(x, y, z);
    const label = t('rotation');
    if (s < 1e-7) return `${label}: 0°`;
    const angle = (2 * Math.atan2(s, w) * 180) / Math.PI;
    const signed = angle > 180 ? angle - 360 : angle;
    if (Math.abs(z) / s > 0.9999) return `${label}: ${num(Math.sign(z) * signed, 1)}° ${t('about')} Z`;
    return `${label}: ${num(signed, 1)}° ${t('about')} ${tuple([x / s, y / s, z / s], 2)}`;
  }

  function matrixBlock(title, note, matrix) {
    return el('div', { className: 'matrix' }, el('h3', {}, ...title, ' ', el('span', {}, note)), formatMatrix(matrix));
  }

  /** The bones note's `L_i = T(origin) · O · T(length)` with its factors in words. */
  function relativeBlock(lab, bone) {
    const { origin, orientation, length, product } = lab.relativeMatrix(bone);
    const q = rotationOfMatrix(orientation);
    const factors = t('matrix.relativeFactors', {
      origin: tuple([origin[12], origin[13], origin[14]], 2),
      orientation: rotationText(q),
      length: num(length[13], 2),
    });
    const block = matrixBlock(['L', el('sub', {}, 'i'), ' = T(', t('matrix.originWord'), ') · O', el('sub', {}, 'i'), ' · T(', t('matrix.lengthWord'), ')'],
      t('matrix.relative'), product);
    block.append(el('p', { className: 'small muted' }, factors));
    return block;
  }
  function setOverlay(name, on) {
    app.viewer.setOverlay(name, on);
    const box = app.root.querySelector(`[data-overlay="${name}"]`);
    if (box) box.checked = on;
    app.requestRender();
  }

  function setQuantised(on) {
    $('#quantised').checked = on;
    app.lab.setQuantised(on);
    app.requestRender();
  }

  // ----- the twist lab (the tube) -----

  let curve = null; // [{degrees, lbs, dqs, cor}] for the current tube

  /** Volume kept (posed / rest) for the three methods at every 10° of twist, on a scratch copy. */
  function measureCurve() {
    const scratch = Lab.example('tube');
    scratch.updateCentres();
    const rest = scratch.restVolume();
    const points = [];
    for (let degrees = 0; degrees <= 180; degrees += 10) {
      const half = (degrees * Math.PI) / 360;
      scratch.setBonePose(1, { rotation: [0, Math.sin(half), 0, Math.cos(half)] });
      points.push({
        degrees, lbs: scratch.volume('lbs') / rest, dqs: scratch.volume('dqs') / rest, cor: scratch.volume('cor') / rest,
      });
    }
    scratch.free();
    return points;
  }

  /** The tube's joint ring: the vertices at rest height 2 (where bone 2 begins), found once per scene. */
  let jointRing = null;
  function ringVertices() {
    if (jointRing?.lab === app.lab) return jointRing.vertices;
    const { positions } = JSON.parse(app.lab.sceneJson()).mesh;
    const vertices = [];
    for (let v = 0; v < positions.length / 3; v++) if (Math.abs(positions[3 * v + 1] - 2) < 1e-4) vertices.push(v);
    jointRing = { lab: app.lab, vertices };
    return vertices;
  }

  /** The joint ring's mean radius about its own centre, skinned by `method`. */
  function ringRadius(method) {
    const points = ringVertices().map((v) => Array.from(app.lab.skinnedVertex(method, v)));
    if (!points.length) return 0;
    const centre = [0, 1, 2].map((k) => points.reduce((sum, p) => sum + p[k], 0) / points.length);
    return points.reduce((sum, p) => sum + Math.hypot(...p.map((c, k) => c - centre[k])), 0) / points.length;
  }

  function twistDegrees() {
    const [, y, , w] = app.lab.bonePose(1).rotation;
    return Math.abs((2 * Math.atan2(y, w) * 180) / Math.PI);
  }

  function plot(current) {
    const canvas = $('#twist-plot');
    const context = canvas.getContext('2d');
    const { width, height } = canvas;
    const pad = 34;
    const x = (degrees) => pad + ((width - 2 * pad) * degrees) / 180;
    const y = (ratio) => height - pad - ((height - 2 * pad) * (ratio - 0.5)) / 0.55;
    context.clearRect(0, 0, width, height);
    context.font = '20px system-ui, sans-serif';
    context.fillStyle = '#5f6b7a';
    context.strokeStyle = '#d7dce2';
    for (const ratio of [0.5, 0.75, 1]) {
      context.beginPath();
      context.moveTo(pad, y(ratio));
      context.lineTo(width - pad, y(ratio));
      context.stroke();
      context.fillText(num(ratio, 2), 0, y(ratio) + 6);
    }
    context.fillText('0°', pad - 6, height - 8);
    context.fillText('180°', width - pad - 30, height - 8);
    // CoR and DQS keep nearly the same volume: CoR's line is dashed over DQS's.
    for (const [key, colour, dash] of [['lbs', '#d55e00', []], ['dqs', '#0072b2', []], ['cor', '#009e73', [10, 8]]]) {
      context.strokeStyle = colour;
      context.setLineDash(dash);
      context.lineWidth = 3;
      context.beginPath();
      curve.forEach((point, k) => (k ? context.lineTo : context.moveTo).call(context, x(point.degrees), y(point[key])));
      context.stroke();
      context.fillStyle = colour;
      const above = key === 'cor' ? 24 : -8;
      context.fillText(key === 'cor' ? 'CoR' : key.toUpperCase(), x(180) - 40, y(curve[curve.length - 1][key]) + above);
    }
    context.setLineDash([]);
    context.strokeStyle = '#1f2933';
    context.lineWidth = 1.5;
    context.beginPath();
    context.moveTo(x(current), pad / 2);
    context.lineTo(x(current), height - pad);
    context.stroke();
  }

  function updateTwistLab() {
    const shown = app.example === 'tube';
    $('#twist-lab').hidden = !shown;
    if (!shown) return;
    curve ??= measureCurve();
    const degrees = twistDegrees();
    const rest = app.lab.restVolume();
    app.lab.updateCentres();
    const lbs = app.lab.volume('lbs') / rest;
    const dqs = app.lab.volume('dqs') / rest;
    const cor = app.lab.volume('cor') / rest;
    $('#twist-figures').textContent = t('twist.figures', {
      degrees: num(degrees), lbs: num(100 * lbs, 1), dqs: num(100 * dqs, 1), cor: num(100 * cor, 1),
      ringLbs: num(ringRadius('lbs'), 3), ringDqs: num(ringRadius('dqs'), 3), ringCor: num(ringRadius('cor'), 3),
    });
    if (app.root.activeElement !== $('#twist-angle')) $('#twist-angle').value = String(Math.round(degrees));
    $('output[for="twist-angle"]').textContent = `${Math.round(degrees)}°`;
    plot(degrees);
  }

  $('#twist-angle').addEventListener('pointerdown', () => app.lab.checkpoint());
  $('#twist-angle').addEventListener('input', (event) => {
    const half = (Number(event.target.value) * Math.PI) / 360;
    app.lab.setBonePose(1, { rotation: [0, Math.sin(half), 0, Math.cos(half)] });
    app.requestRender();
  });

  function updateQuantisation() {
    const line = $('#quantisation');
    line.hidden = !app.lab.isQuantised();
    if (line.hidden) return;
    const report = app.lab.quantisationReport(app.viewer.method());
    line.textContent = t('quantisation.report', {
      weight: num(report.maxWeightError, 4), bound: num(1 / 255, 4), shift: sig(report.maxPositionError),
    });
  }

  function updateBone() {
    const bone = app.viewer.selectedBone();
    if (bone === null || bone >= app.lab.boneCount()) {
      $('#bone-name').textContent = t('noBone');
      $('#bone-rotation').textContent = t('noBoneHint');
      $('#matrices').replaceChildren();
      return;
    }
    $('#bone-name').textContent = boneLabel(t, app.lab.boneNames(), bone);
    $('#bone-rotation').textContent = rotationText(app.lab.bonePose(bone).rotation);
    const pitfall = el('p', { className: 'pitfall' }, richText(t('pitfall')));
    $('#matrices').replaceChildren(
      matrixBlock(sym('R', 'i'), t('matrix.rest'), app.lab.restFrame(bone)),
      relativeBlock(app.lab, bone),
      matrixBlock(sym('A', 'i'), t('matrix.animation'), app.lab.animationMatrix(bone)),
      matrixBlock(['M', el('sub', {}, 'i'), ' = R′', el('sub', {}, 'i'), ' · ', ...sym('R', 'i', '−1')],
        t('matrix.skinning'), app.lab.skinningMatrix(bone)),
      pitfall,
    );
  }

  /** The caption under the view for example `name` (null: a scene of one's own). */
  function caption(name) {
    // The gallery's models have no caption of their own.
    const text = skinCaption(t, name);
    if (name !== 'tube') return [text];
    const twist = el('button', { type: 'button' }, t('twist'));
    twist.addEventListener('click', () => {
      app.lab.checkpoint();
      app.lab.setBonePose(1, { rotation: [0, 1, 0, 0] });
      app.selectBone(1);
    });
    return [text, twist];
  }

  for (const box of app.root.querySelectorAll('[data-overlay]')) {
    box.addEventListener('change', () => setOverlay(box.dataset.overlay, box.checked));
  }
  $('#quantised').addEventListener('change', (event) => setQuantised(event.target.checked));

  return {
    name: 'skin',
    panel: $('#mode-skin'),
    tool: 'pose',
    enter() {
      app.setTool('pose');
    },
    leave() {},
    update() {
      updateQuantisation();
      updateBone();
      updateTwistLab();
    },
    caption,
    /** Called when a scene is loaded. */
    sceneChanged() {
      app.lab.setQuantised($('#quantised').checked);
    },
    api: { setOverlay, setQuantised, twistCurve: () => curve },
  };
}
