// The vertices automatic weights handed to a bone other than their nearest
// (the nearest deforms nothing, or no bone reached them), marked over the
// view as rings until the weights change, the mode changes or another
// scene opens: what the notice counts, shown where it is.
import { svg } from './svg.js';

/** The most vertices marked; the notice counts them all. */
const MAX_MARKS = 2000;

/** The marks of `app` (which offers `lab`, `viewer`, `mode()`, `$`). */
export function createVertexMarks(app) {
  const { $ } = app;
  const layer = $('#vertex-marks');
  let marked = { lab: null, revision: -1, vertices: [] };

  function clear() {
    marked = { lab: null, revision: -1, vertices: [] };
    layer.textContent = '';
  }

  return {
    /** Marks `vertices` of the lab as its weights are now. */
    show(vertices) {
      marked = { lab: app.lab, revision: app.lab.influencesRevision(), vertices: Array.from(vertices ?? []).slice(0, MAX_MARKS) };
    },
    /** Redraws the marks where the vertices are now; gone once the weights, mode or scene changed. */
    update() {
      if (!marked.vertices.length) return;
      if (marked.lab !== app.lab || marked.revision !== app.lab.influencesRevision() || app.mode() !== 'weights') {
        clear();
        return;
      }
      layer.textContent = '';
      for (const vertex of marked.vertices) {
        const [x, y] = app.viewer.vertexScreenPoint(app.lab, vertex);
        layer.append(svg('circle', { cx: x, cy: y, r: 6, class: 'vertex-mark' }));
      }
    },
    /** The vertices marked now (for tests). */
    marked: () => [...marked.vertices],
  };
}
