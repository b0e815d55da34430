// The weighted mean drawn (seed 001): for the selected vertex, one ghost
// point per bone at M_i · P, a line from each to the blended result Z with
// the weight written on it, and Z itself. An SVG layer over the canvas;
// the numbers come from the core, projected by the viewer's camera.
import { $ } from '../dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const GHOST_COLOURS = ['#d55e00', '#0072b2', '#009e73', '#cc79a7'];

function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/** `M · p` for a column-major 4x4 `m` and a point `p`. */
function transform(m, [x, y, z]) {
  return [0, 1, 2].map((r) => m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r]);
}

/** The ghost layer of `app` (which offers `lab`, `viewer`, `canvas`). */
export function createGhosts(app) {
  const layer = $('#ghosts');
  let points = null;

  /** Where each bone alone would put the vertex, and where the blend puts it, model space. */
  function compute(vertex) {
    const scene = JSON.parse(app.lab.sceneJson());
    const rest = scene.mesh.positions.slice(3 * vertex, 3 * vertex + 3);
    const ghosts = app.lab.influences(vertex).map(([bone, weight]) => ({
      bone, weight, point: transform(app.lab.skinningMatrix(bone), rest),
    }));
    const skinned = app.lab.skinnedPositions(app.viewer.method());
    return { ghosts, blended: [0, 1, 2].map((k) => skinned[3 * vertex + k]) };
  }

  function update() {
    const vertex = app.viewer.selectedVertex();
    layer.textContent = '';
    points = null;
    if (vertex < 0 || vertex >= app.lab.vertexCount() || app.viewer.compare()) return;
    const { ghosts, blended } = compute(vertex);
    if (ghosts.length < 2) return; // one bone: the ghost is the result
    const screen = (p) => app.viewer.screenPointOf(new Float32Array(p));
    const rect = app.canvas.getBoundingClientRect();
    layer.setAttribute('viewBox', `0 0 ${rect.width} ${rect.height}`);
    layer.style.height = `${rect.height}px`;
    const [zx, zy] = screen(blended);
    points = { blended: { x: zx, y: zy }, ghosts: [] };
    ghosts.forEach(({ bone, weight, point }, k) => {
      const [x, y] = screen(point);
      const colour = GHOST_COLOURS[k % GHOST_COLOURS.length];
      layer.append(svg('line', { x1: x, y1: y, x2: zx, y2: zy, stroke: colour, 'stroke-width': 2, 'stroke-dasharray': '5 4' }));
      layer.append(svg('circle', { cx: x, cy: y, r: 6, fill: 'white', stroke: colour, 'stroke-width': 2.5, 'data-bone': bone }));
      const label = svg('text', { x: (x + zx) / 2 + 6, y: (y + zy) / 2 - 6, fill: colour, 'font-size': 15, 'font-weight': 600 });
      label.textContent = `w = ${weight.toFixed(2)}`;
      layer.append(label);
      points.ghosts.push({ bone, x, y });
    });
    layer.append(svg('circle', { cx: zx, cy: zy, r: 5, fill: '#1f2933', 'data-blended': 1 }));
    const label = svg('text', { x: zx + 8, y: zy + 18, fill: '#1f2933', 'font-size': 15, 'font-weight': 700 });
    label.textContent = app.viewer.method() === 'dqs' ? 'Z (DQS: blended transform)' : 'Z = Σ wᵢ Mᵢ P';
    layer.append(label);
  }

  return {
    update,
    /** What was drawn, in CSS pixels: `{blended: {x, y}, ghosts: [{bone, x, y}]}` or null. */
    drawn: () => points,
  };
}
