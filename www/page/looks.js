// How a scene opens: a dense mesh's wireframe and vertex dots are a grey
// blur that costs the GPU most of each frame (on a software renderer, 0.75 s
// a frame of `dense` with them, 0.27 s without), and over a loaded
// character (a gallery model, a file) they bury the skin: such a scene
// opens with its skin and bones. A scene painted in its own colours (the
// face) opens with its skin alone, as it looks: its bones would cross it.
// The checkboxes bring the layers back, and the next built example gets
// them again. An `overlays` parameter decides instead.
import { Lab } from '../pkg/skinlab.js';
import { LARGE_EXAMPLES } from '../link.js';

/** Meshes over this many vertices open with the skin and bones alone. */
const DENSE_VIEW_VERTICES = 20000;

/** The looks of `app`'s scenes, set through the Skin mode's `setOverlay`; `settings` are the address's. */
export function createLooks(app, setOverlay, settings) {
  // The layers hidden for the scene (not by a person), to bring back after.
  let hiddenForLooks = [];

  /** Hides or brings back the layers for the scene now on screen. */
  function showDenseAsSkin() {
    if (settings.overlays) return;
    const { lab, example } = app;
    const loaded = !Lab.exampleNames().includes(example) && !LARGE_EXAMPLES.includes(example);
    const painted = lab.vertexColours() !== null;
    const dense = loaded || painted || lab.vertexCount() > DENSE_VIEW_VERTICES;
    const hide = dense ? ['wireframe', 'dots', ...(painted && !loaded ? ['bones'] : [])] : [];
    for (const name of hiddenForLooks.filter((name) => !hide.includes(name))) setOverlay(name, true);
    const shown = hide.filter((name) => app.root.querySelector(`[data-overlay="${name}"]`)?.checked);
    for (const name of shown) setOverlay(name, false);
    hiddenForLooks = [...new Set([...shown, ...hiddenForLooks.filter((name) => hide.includes(name))])];
  }

  return { showDenseAsSkin };
}
