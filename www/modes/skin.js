// The Skin mode: pose the skeleton and see how the skin follows. It owns
// the layers to show, the 8-bit weights switch, the selected bone's
// matrices with seed 000's pitfall, and the examples' captions.
import { Lab } from '../pkg/skinlab.js';
import { $, el, richText, sym } from '../dom.js';
import { t } from '../i18n.js';
import { boneLabel } from '../parts/bones.js';

const CAPTIONS = {
  'two-bone': 'Turn bone 2: bone 1’s vertices do not move. Each vertex belongs to one bone, so the skin creases at the joint.',
  'two-bone-smooth': 'Near the joint the vertices belong to both bones: turn bone 2 and the strip bends smoothly.',
  'y-junction': 'The fork vertex belongs to both branches, half each: bend a branch and the fork follows halfway.',
  'y-junction-unweighted': 'The fork vertex belongs to the left branch only: bend the right branch and the skin tears at the fork.',
  tube: 'Twist bone 2 by 180° and compare (“Side by side” shows both): LBS collapses the joint to a “candy wrapper”, DQS keeps its volume.',
  chain: '300 bones: too many for uniforms, so the matrix palette travels to the shader as a float texture.',
  tail: '240 bones, more than 256 uniform vectors carry in any palette format: in the GPU mode “Draw in batches” splits it into draw calls; Animate plays its swish.',
  fingers: 'Press “Nearest bone” (Weights): the index fingertip is nearer the middle finger’s bone and follows it. “Bone heat” keeps it on its own finger.',
  leg: 'Drag the ring at the foot (IK): the knee is a hinge from 0° to 150° and folds backwards only. Pull the foot in front of the knee: the chain stays within its limits.',
  face: 'Morph targets before skinning (Morph mode): move the sliders for the visemes A, O, M, F and a smile or frown, and open the jaw: the mouth keeps its shape as the jaw moves.',
  arm: 'Four bones with cones at the shoulder and wrist and a hinge at the elbow: drag the ring (IK) to the cup’s rim and compare CCD with FABRIK.',
};

function formatMatrix(columnMajor) {
  const table = el('table');
  for (let row = 0; row < 4; row++) {
    const tr = table.insertRow();
    for (let col = 0; col < 4; col++) {
      tr.insertCell().textContent = columnMajor[col * 4 + row].toFixed(3).replace('-0.000', '0.000');
    }
  }
  return table;
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

function matrixBlock(title, note, matrix) {
  return el('div', { className: 'matrix' }, el('h3', {}, ...title, ' ', el('span', {}, note)), formatMatrix(matrix));
}

/** The Skin mode of `app` (see app.js for what `app` offers). */
export { CAPTIONS };

export function createSkinMode(app) {
  function setOverlay(name, on) {
    app.viewer.setOverlay(name, on);
    const box = document.querySelector(`[data-overlay="${name}"]`);
    if (box) box.checked = on;
    app.requestRender();
  }

  function setQuantised(on) {
    $('#quantised').checked = on;
    app.lab.setQuantised(on);
    app.requestRender();
  }

  // ----- the twist lab (the tube) -----

  let curve = null; // [{degrees, lbs, dqs}] for the current tube

  /** Volume kept (posed / rest) for both methods at every 10° of twist, on a scratch copy. */
  function measureCurve() {
    const scratch = Lab.example('tube');
    const rest = scratch.restVolume();
    const points = [];
    for (let degrees = 0; degrees <= 180; degrees += 10) {
      const half = (degrees * Math.PI) / 360;
      scratch.setBonePose(1, [0, Math.sin(half), 0, Math.cos(half)]);
      points.push({ degrees, lbs: scratch.volume('lbs') / rest, dqs: scratch.volume('dqs') / rest });
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
      context.fillText(ratio.toFixed(2), 0, y(ratio) + 6);
    }
    context.fillText('0°', pad - 6, height - 8);
    context.fillText('180°', width - pad - 30, height - 8);
    for (const [key, colour] of [['lbs', '#d55e00'], ['dqs', '#0072b2']]) {
      context.strokeStyle = colour;
      context.lineWidth = 3;
      context.beginPath();
      curve.forEach((point, k) => (k ? context.lineTo : context.moveTo).call(context, x(point.degrees), y(point[key])));
      context.stroke();
      context.fillStyle = colour;
      context.fillText(key.toUpperCase(), x(180) - 40, y(curve[curve.length - 1][key]) - 8);
    }
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
    const lbs = app.lab.volume('lbs') / rest;
    const dqs = app.lab.volume('dqs') / rest;
    $('#twist-figures').textContent = `${degrees.toFixed(0)}°: volume kept LBS ${(100 * lbs).toFixed(1)}% · DQS ${(100 * dqs).toFixed(1)}%`
      + ` · joint ring radius LBS ${ringRadius('lbs').toFixed(3)} · DQS ${ringRadius('dqs').toFixed(3)}`;
    if (document.activeElement !== $('#twist-angle')) $('#twist-angle').value = String(Math.round(degrees));
    $('output[for="twist-angle"]').textContent = `${Math.round(degrees)}°`;
    plot(degrees);
  }

  $('#twist-angle').addEventListener('pointerdown', () => app.lab.checkpoint());
  $('#twist-angle').addEventListener('input', (event) => {
    const half = (Number(event.target.value) * Math.PI) / 360;
    app.lab.setBonePose(1, [0, Math.sin(half), 0, Math.cos(half)]);
    app.requestRender();
  });

  function updateQuantisation() {
    const line = $('#quantisation');
    line.hidden = !app.lab.isQuantised();
    if (line.hidden) return;
    const report = app.lab.quantisationReport(app.viewer.method());
    line.textContent = `Largest weight error ${report.maxWeightError.toFixed(4)} (at most 1/255 = 0.0039); `
      + `largest vertex shift in this pose ${report.maxPositionError.toPrecision(2)} units.`;
  }

  function updateBone() {
    const bone = app.viewer.selectedBone();
    if (bone < 0 || bone >= app.lab.boneCount()) {
      $('#bone-name').textContent = t('noBone', 'No bone selected');
      $('#bone-rotation').textContent = t('noBoneHint', 'Click a bone to select it; drag to turn it about its origin.');
      $('#matrices').replaceChildren();
      return;
    }
    $('#bone-name').textContent = `${boneLabel(app.lab.boneNames(), bone)} (bone ${bone})`;
    $('#bone-rotation').textContent = rotationText(app.lab.bonePose(bone).rotation);
    const pitfall = el('p', { className: 'pitfall' }, richText(t('pitfall', 'Each vertex moves to Z = Σ w<sub>i</sub> M<sub>i</sub> P. Writing R′<sub>i</sub> · A<sub>i</sub> · R<sub>i</sub><sup>−1</sup> would apply the pose twice: R′<sub>i</sub> already contains A<sub>i</sub>.')));
    $('#matrices').replaceChildren(
      matrixBlock(sym('R', 'i'), t('matrix.rest', 'rest frame, bone → model'), app.lab.restFrame(bone)),
      matrixBlock(sym('A', 'i'), t('matrix.animation', 'animation, in the bone’s frame'), app.lab.animationMatrix(bone)),
      matrixBlock(['M', el('sub', {}, 'i'), ' = R′', el('sub', {}, 'i'), ' · ', ...sym('R', 'i', '−1')],
        t('matrix.skinning', 'skinning matrix'), app.lab.skinningMatrix(bone)),
      pitfall,
    );
  }

  /** The caption under the view for example `name` (null: a scene of one's own). */
  function caption(name) {
    // The gallery's models have no caption of their own.
    const text = !name ? t('custom', 'A scene of your own.')
      : CAPTIONS[name] ? t(`cap.${name}`, CAPTIONS[name])
        : t('cap.model', 'A sample model: drag a bone to pose it, play its clips, paint its weights.');
    if (name !== 'tube') return [text];
    const twist = el('button', { type: 'button' }, t('twist', 'Twist bone 2 by 180°'));
    twist.addEventListener('click', () => {
      app.lab.checkpoint();
      app.lab.setBonePose(1, [0, 1, 0, 0]);
      app.selectBone(1);
    });
    return [text, twist];
  }

  for (const box of document.querySelectorAll('[data-overlay]')) {
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
