// The Skin mode: pose the skeleton and see how the skin follows. It owns
// the layers to show, the 8-bit weights switch, the selected bone's
// matrices with seed 000's pitfall, and the examples' captions.
import { $, el, sym } from '../dom.js';
import { t } from '../i18n.js';
import { boneLabel } from '../parts/bones.js';

const CAPTIONS = {
  'two-bone': 'Turn bone 2: bone 1’s vertices do not move. Each vertex belongs to one bone, so the skin creases at the joint.',
  'two-bone-smooth': 'Near the joint the vertices belong to both bones: turn bone 2 and the strip bends smoothly.',
  'y-junction': 'The fork vertex belongs to both branches, half each: bend a branch and the fork follows halfway.',
  'y-junction-unweighted': 'The fork vertex belongs to the left branch only: bend the right branch and the skin tears at the fork.',
  tube: 'Twist bone 2 by 180° and compare (“Side by side” shows both): LBS collapses the joint to a “candy wrapper”, DQS keeps its volume.',
  chain: '300 bones: too many for uniforms, so the matrix palette travels to the shader as a float texture.',
  fingers: 'Press “Nearest bone” (Weights): the index fingertip is nearer the middle finger’s bone and follows it. “Bone heat” keeps it on its own finger.',
  leg: 'Drag the ring at the foot (IK): the knee is a hinge from 0° to 150° and folds backwards only. Pull the foot in front of the knee: the chain stays within its limits.',
  face: 'Morph targets before skinning (Morph mode): move the sliders for the visemes A, O, M, F and a smile or frown, and open the jaw: the mouth keeps its shape as the jaw moves.',
  arm: 'Four bones with cones at the shoulder and wrist and a hinge at the elbow: drag the ring (IK) and compare CCD with FABRIK.',
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
    const pitfall = el('p', { className: 'pitfall' });
    // A translated label with <sub>/<sup> markup of our own, never user text.
    pitfall.innerHTML = t('pitfall', 'Each vertex moves to Z = Σ w<sub>i</sub> M<sub>i</sub> P. Writing R′<sub>i</sub> · A<sub>i</sub> · R<sub>i</sub><sup>−1</sup> would apply the pose twice: R′<sub>i</sub> already contains A<sub>i</sub>.');
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
    const text = name ? t(`cap.${name}`, CAPTIONS[name]) : t('custom', 'A scene of your own.');
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
    },
    caption,
    /** Called when a scene is loaded. */
    sceneChanged() {
      app.lab.setQuantised($('#quantised').checked);
    },
    api: { setOverlay, setQuantised },
  };
}
