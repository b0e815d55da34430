// Seed 000's three steps and seed 001's weighted mean, drawn: for the
// selected vertex, its rest position P; for each bone, T = A_i Q (the
// animation applied in the bone's rest frame, drawn at R_i T) and the
// ghost Z_i = M_i P where that bone alone would put the vertex, with arrows
// P → R_i T → Z_i; then lines from each ghost to the blended Z with the
// weights written on them. An SVG layer over the canvas; every number comes
// from the core, projected by the viewer's camera.
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

  /** A vertex no bone moves: it stays at rest, where it is skinned. */
  function vertexRest(vertex) {
    return Array.from(app.lab.skinnedVertex(app.viewer.method(), vertex));
  }

  /** Where each bone alone would put the vertex, and where the blend puts it, model space. */
  function compute(vertex) {
    const pairs = app.lab.influences(vertex);
    // P, the rest position, as the core's three steps report it.
    const rest = pairs.length ? Array.from(app.lab.threeSteps(pairs[0][0], vertex).rest) : vertexRest(vertex);
    const ghosts = pairs.map(([bone, weight]) => ({
      bone,
      weight,
      point: transform(app.lab.skinningMatrix(bone), rest),
      // Step 2 seen in the model: the animated point, still in the rest frame.
      animated: transform(app.lab.restFrame(bone), app.lab.threeSteps(bone, vertex).inBoneAnimated),
    }));
    return { rest, ghosts, blended: Array.from(app.lab.skinnedVertex(app.viewer.method(), vertex)) };
  }

  function update() {
    const vertex = app.viewer.selectedVertex();
    layer.textContent = '';
    points = null;
    if (vertex < 0 || vertex >= app.lab.vertexCount() || app.viewer.compare()) return;
    const { rest, ghosts, blended } = compute(vertex);
    if (ghosts.length === 0) return;
    const screen = (p) => app.viewer.screenPointOf(new Float32Array(p));
    const rect = app.canvas.getBoundingClientRect();
    layer.setAttribute('viewBox', `0 0 ${rect.width} ${rect.height}`);
    layer.style.height = `${rect.height}px`;
    const [zx, zy] = screen(blended);
    const [px, py] = screen(rest);
    points = { blended: { x: zx, y: zy }, rest: { x: px, y: py }, ghosts: [] };
    const arrow = (from, to, colour) => layer.append(svg('line', {
      x1: from[0], y1: from[1], x2: to[0], y2: to[1], stroke: colour, 'stroke-width': 1.5, 'marker-end': 'url(#arrow)', opacity: 0.8,
    }));
    const defs = svg('defs', {});
    const marker = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    marker.append(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#5f6b7a' }));
    defs.append(marker);
    layer.append(defs);
    layer.append(svg('rect', { x: px - 5, y: py - 5, width: 10, height: 10, fill: 'white', stroke: '#1f2933', 'stroke-width': 2, 'data-rest': 1 }));
    const restLabel = svg('text', { x: px - 16, y: py - 9, fill: '#1f2933', 'font-size': 15, 'font-weight': 700 });
    restLabel.textContent = 'P';
    layer.append(restLabel);
    ghosts.forEach(({ bone, weight, point, animated }, k) => {
      const [x, y] = screen(point);
      const [ax, ay] = screen(animated);
      const colour = GHOST_COLOURS[k % GHOST_COLOURS.length];
      // The three steps: P → R_i·(A_i Q) → Z_i.
      arrow([px, py], [ax, ay], colour);
      arrow([ax, ay], [x, y], colour);
      layer.append(svg('circle', { cx: ax, cy: ay, r: 3.5, fill: colour, 'data-animated': bone }));
      const stepLabel = svg('text', { x: ax + 6, y: ay - 6, fill: colour, 'font-size': 14 });
      stepLabel.textContent = `T${ghosts.length > 1 ? bone + 1 : ''}`;
      layer.append(stepLabel);
      layer.append(svg('line', { x1: x, y1: y, x2: zx, y2: zy, stroke: colour, 'stroke-width': 2, 'stroke-dasharray': '5 4' }));
      layer.append(svg('circle', { cx: x, cy: y, r: 6, fill: 'white', stroke: colour, 'stroke-width': 2.5, 'data-bone': bone }));
      const label = svg('text', { x: (x + zx) / 2 + 6, y: (y + zy) / 2 - 6, fill: colour, 'font-size': 15, 'font-weight': 600 });
      label.textContent = `w = ${weight.toFixed(2)}`;
      layer.append(label);
      points.ghosts.push({ bone, x, y, animated: { x: ax, y: ay } });
    });
    if (ghosts.length < 2) return; // one bone: its ghost is the result
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
