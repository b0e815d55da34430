// Files in and out: PNG of the view, the scene as JSON, loading a scene
// JSON, an embedded .gltf or a .glb (button or drop), and the clipboard.
import { Lab } from './pkg/skinlab.js';
import { $ } from './dom.js';

function download(blob, name) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Whether `bytes` are a binary glTF: named .glb, or starting with 'glTF'. */
function isGlb(name, bytes) {
  return /\.glb$/i.test(name) || (bytes.length >= 4 && String.fromCharCode(...bytes.subarray(0, 4)) === 'glTF');
}

/** Whether `text` is a glTF document rather than Skinlab's scene JSON. */
function isGltf(name, text) {
  if (/\.gltf$/i.test(name)) return true;
  try {
    return Object.hasOwn(JSON.parse(text), 'asset');
  } catch {
    return false;
  }
}

/** Copies `text`, or shows it to copy by hand where the clipboard is closed. */
export async function copyText(text, what, showNotice) {
  try {
    await navigator.clipboard.writeText(text);
    showNotice(`${what} copied to the clipboard.`);
  } catch {
    window.prompt(`Copy the ${what.toLowerCase()}:`, text);
  }
}

/**
 * The file actions of `app`, which offers `lab`, `example`, `canvas`,
 * `setLab(lab, name)`, `loadScene(json)`, `requestRender` and `showNotice`.
 */
export function createFiles(app) {
  const baseName = () => `skinlab-${app.example ?? 'scene'}`;

  function exportPng() {
    app.requestRender();
    requestAnimationFrame(() => app.canvas.toBlob((blob) => download(blob, `${baseName()}.png`), 'image/png'));
  }

  function exportJson() {
    download(new Blob([app.lab.sceneJson()], { type: 'application/json' }), `${baseName()}.json`);
  }

  async function importFile(file) {
    let bytes;
    try {
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch (error) {
      app.showNotice(`Could not read ${file.name}: ${error.message}`, 'error');
      return;
    }
    try {
      if (isGlb(file.name, bytes)) {
        app.setLab(Lab.fromGlb(bytes), null);
      } else {
        const text = new TextDecoder().decode(bytes);
        if (isGltf(file.name, text)) app.setLab(Lab.fromGltf(text), null);
        else app.loadScene(text);
      }
      app.showNotice(`Loaded ${file.name}.`);
    } catch (error) {
      app.showNotice(`Could not load ${file.name}: ${error.message}. The current scene is unchanged.`, 'error');
    }
  }

  $('#export-png').addEventListener('click', exportPng);
  $('#export-json').addEventListener('click', exportJson);
  $('#import-json').addEventListener('click', () => $('#import-file').click());
  $('#import-file').addEventListener('change', (event) => {
    const [file] = event.target.files;
    if (file) importFile(file);
    event.target.value = '';
  });
  const stage = $('#stage');
  stage.addEventListener('dragover', (event) => {
    event.preventDefault();
    stage.classList.add('drop-target');
  });
  stage.addEventListener('dragleave', () => stage.classList.remove('drop-target'));
  stage.addEventListener('drop', (event) => {
    event.preventDefault();
    stage.classList.remove('drop-target');
    const [file] = event.dataTransfer?.files ?? [];
    if (file) importFile(file);
  });

  return { exportPng, exportJson, importFile };
}
