// Skinlab's page: wires the wasm core and viewer to the controls, and
// renders on demand (only when something changed).
import init, { Lab, Viewer } from './pkg/skinlab.js';

const CAPTIONS = {
  'two-bone': 'Turn bone 2: bone 1’s vertices do not move. Each vertex belongs to one bone, so the skin creases at the joint.',
  'two-bone-smooth': 'Near the joint the vertices belong to both bones: turn bone 2 and the strip bends smoothly.',
  'y-junction': 'The fork vertex belongs to both branches, half each: bend a branch and the fork follows halfway.',
  'y-junction-unweighted': 'The fork vertex belongs to the left branch only: bend the right branch and the skin tears at the fork.',
  tube: 'Twist bone 2 by 180° and compare: LBS collapses the joint to a “candy wrapper”, DQS keeps its volume.',
  chain: '300 bones: too many for uniforms, so the matrix palette travels to the shader as a float texture.',
};
const MUTATING = new Set(['setBonePose', 'resetPose', 'setInfluences', 'undo', 'redo', 'checkpoint']);

const $ = (selector) => document.querySelector(selector);
const canvas = $('#view');
const message = $('#message');

function showMessage(text) {
  message.textContent = text;
  message.hidden = false;
}

let viewer = null;
let lab = null;
let exampleName = null;
let frameRequested = false;

function requestRender() {
  if (frameRequested || !viewer) return;
  frameRequested = true;
  requestAnimationFrame(drawFrame);
}

function resizeCanvas() {
  const ratio = window.devicePixelRatio || 1;
  const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
  const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
}

function drawFrame() {
  frameRequested = false;
  resizeCanvas();
  try {
    viewer.render(lab);
  } catch (error) {
    showMessage(`Drawing failed: ${error.message}`);
    return;
  }
  updatePanel();
}

// A lab whose mutating calls schedule a frame, so edits made from the
// console or by other code show up.
function watched(target) {
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      return (...args) => {
        const result = value.apply(object, args);
        if (MUTATING.has(property)) requestRender();
        return result;
      };
    },
  });
}

// ----- the side panel -----

function formatMatrix(columnMajor) {
  const rows = [0, 1, 2, 3].map((row) =>
    `<tr>${[0, 1, 2, 3].map((col) => `<td>${columnMajor[col * 4 + row].toFixed(3).replace('-0.000', '0.000')}</td>`).join('')}</tr>`);
  return `<table>${rows.join('')}</table>`;
}

function rotationText(q) {
  const [x, y, z, w] = q;
  const s = Math.hypot(x, y, z);
  const angle = (2 * Math.atan2(s, w) * 180) / Math.PI;
  if (s < 1e-7) return 'Rotation: 0°';
  const signed = angle > 180 ? angle - 360 : angle;
  if (Math.abs(z) / s > 0.9999) return `Rotation: ${(Math.sign(z) * signed).toFixed(1)}° about Z`;
  const axis = [x, y, z].map((v) => (v / s).toFixed(2)).join(', ');
  return `Rotation: ${signed.toFixed(1)}° about (${axis})`;
}

function updatePanel() {
  const bone = viewer.selectedBone();
  const undo = $('#undo');
  const redo = $('#redo');
  undo.disabled = false;
  redo.disabled = false;
  if (bone < 0 || bone >= lab.boneCount()) {
    $('#bone-name').textContent = 'No bone selected';
    $('#bone-rotation').textContent = 'Click a bone to select it; drag to turn it about its origin.';
    $('#matrices').innerHTML = '';
    return;
  }
  const name = lab.boneNames()[bone] || `bone ${bone}`;
  $('#bone-name').textContent = `${name} (bone ${bone})`;
  $('#bone-rotation').textContent = rotationText(lab.bonePose(bone).rotation);
  $('#matrices').innerHTML = `
    <div class="matrix"><h3>R<sub>i</sub> <span>rest frame, bone → model</span></h3>${formatMatrix(lab.restFrame(bone))}</div>
    <div class="matrix"><h3>A<sub>i</sub> <span>animation, in the bone’s frame</span></h3>${formatMatrix(lab.animationMatrix(bone))}</div>
    <div class="matrix"><h3>M<sub>i</sub> = R′<sub>i</sub> · R<sub>i</sub><sup>−1</sup> <span>skinning matrix</span></h3>${formatMatrix(lab.skinningMatrix(bone))}</div>
    <p class="pitfall">Each vertex moves to Z = Σ w<sub>i</sub> M<sub>i</sub> P. Writing R′<sub>i</sub> · A<sub>i</sub> · R<sub>i</sub><sup>−1</sup>
    would apply the pose twice: R′<sub>i</sub> already contains A<sub>i</sub>.</p>`;
}

// ----- state changes -----

function setLab(next, name) {
  lab = next;
  exampleName = name;
  viewer.selectBone(lab, -1);
  viewer.frameScene(lab, 'auto');
  const caption = $('#caption');
  caption.textContent = CAPTIONS[name] ?? 'A scene of your own.';
  if (name === 'tube') {
    const twist = document.createElement('button');
    twist.type = 'button';
    twist.textContent = 'Twist bone 2 by 180°';
    twist.addEventListener('click', () => {
      lab.checkpoint();
      lab.setBonePose(1, [0, 1, 0, 0]);
      viewer.selectBone(lab, 1);
      requestRender();
    });
    caption.append(twist);
  }
  if ($('#example').value !== name && CAPTIONS[name]) $('#example').value = name;
  requestRender();
}

function loadExample(name) {
  setLab(Lab.example(name), name);
}

function loadScene(json) {
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  setLab(Lab.fromSceneJson(text), null);
}

function setMethod(method) {
  viewer.setMethod(method);
  for (const button of document.querySelectorAll('[data-method]')) {
    button.setAttribute('aria-pressed', String(button.dataset.method === method));
  }
  requestRender();
}

function setTool(tool) {
  if (tool !== 'pose' && tool !== 'paint') throw new Error(`setTool: unknown tool '${tool}'; use 'pose' or 'paint'`);
  if (tool === 'paint') throw new Error('setTool: weight painting is not available yet');
}

function undo() {
  const done = lab.undo();
  requestRender();
  return done;
}

function redo() {
  const done = lab.redo();
  requestRender();
  return done;
}

function resetPose() {
  lab.checkpoint();
  lab.resetPose();
  requestRender();
}

// ----- input -----

function canvasPoint(event) {
  const rect = canvas.getBoundingClientRect();
  return [event.clientX - rect.left, event.clientY - rect.top];
}

function wireInput() {
  canvas.addEventListener('pointerdown', (event) => {
    const [x, y] = canvasPoint(event);
    canvas.setPointerCapture(event.pointerId);
    viewer.pointerDown(lab, x, y, event.button, event.shiftKey);
    canvas.classList.add('dragging');
    canvas.focus();
    requestRender();
  });
  canvas.addEventListener('pointermove', (event) => {
    if (!viewer.dragging()) return;
    const [x, y] = canvasPoint(event);
    if (viewer.pointerMove(lab, x, y)) requestRender();
  });
  const end = () => {
    viewer.pointerUp();
    canvas.classList.remove('dragging');
    requestRender();
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
  canvas.addEventListener('contextmenu', (event) => event.preventDefault());
  canvas.addEventListener('wheel', (event) => {
    event.preventDefault();
    viewer.zoom(Math.exp(event.deltaY * 0.001));
    requestRender();
  }, { passive: false });

  window.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    const key = event.key.toLowerCase();
    if ((event.ctrlKey || event.metaKey) && key === 'z') {
      event.preventDefault();
      if (event.shiftKey) redo(); else undo();
    } else if ((event.ctrlKey || event.metaKey) && key === 'y') {
      event.preventDefault();
      redo();
    } else if (!event.ctrlKey && !event.metaKey && !event.altKey) {
      const names = Lab.exampleNames();
      const index = Number(event.key) - 1;
      if (Number.isInteger(index) && index >= 0 && index < names.length) loadExample(names[index]);
      else if (key === 'r') resetPose();
    }
  });

  $('#example').addEventListener('change', (event) => loadExample(event.target.value));
  for (const button of document.querySelectorAll('[data-method]')) {
    button.addEventListener('click', () => setMethod(button.dataset.method));
  }
  for (const box of document.querySelectorAll('[data-overlay]')) {
    box.addEventListener('change', () => {
      viewer.setOverlay(box.dataset.overlay, box.checked);
      requestRender();
    });
  }
  $('#reset').addEventListener('click', resetPose);
  $('#undo').addEventListener('click', undo);
  $('#redo').addEventListener('click', redo);
  new ResizeObserver(requestRender).observe(canvas);
}

// ----- start -----

async function start() {
  try {
    await init();
  } catch (error) {
    showMessage(`Skinlab could not load its WebAssembly core: ${error.message}`);
    return;
  }
  try {
    viewer = new Viewer(canvas);
  } catch (error) {
    showMessage(`${error.message}. Skinlab draws with WebGL2; try a current Chrome, Firefox or Safari, or enable hardware acceleration.`);
    return;
  }
  wireInput();
  loadExample('two-bone');
  window.skinlab = {
    get lab() { return watched(lab); },
    get example() { return exampleName; },
    viewer,
    Lab,
    loadExample,
    loadScene,
    setMethod,
    method: () => viewer.method(),
    setTool,
    tool: () => 'pose',
    selectBone(bone) { viewer.selectBone(lab, bone); requestRender(); },
    selectedBone: () => viewer.selectedBone(),
    setOverlay(name, on) {
      viewer.setOverlay(name, on);
      const box = document.querySelector(`[data-overlay="${name}"]`);
      if (box) box.checked = on;
      requestRender();
    },
    gpuSkinnedPositions: (method) => viewer.gpuSkinnedPositions(lab, method),
    boneScreenPoint(bone) { const [x, y] = viewer.boneScreenPoint(lab, bone); return { x, y }; },
    vertexScreenPoint(vertex) { const [x, y] = viewer.vertexScreenPoint(lab, vertex); return { x, y }; },
    undo,
    redo,
    resetPose,
    framesRendered: () => viewer.framesRendered(),
    requestRender,
  };
}

start();
