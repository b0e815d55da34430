// The skinning note's three steps and the bones note's weighted mean, drawn: for the
// selected vertex, its rest position P, named; for each bone, T = A_i Q (the
// animation applied in the bone's rest frame, drawn at R_i T) and the
// ghost Z_i = M_i P where that bone alone would put the vertex, each
// labelled, with arrows P → R_i T → Z_i; then lines from each ghost to the blended Z with the
// weights written on them. An SVG layer over the canvas; every number comes
// from the core, projected by the viewer's camera.
import { svg } from './svg.js';
import { placeLabels, pointBox } from './labels.js';

const GHOST_COLOURS = ['#d55e00', '#0072b2', '#009e73', '#cc79a7'];

/** The three steps' names, as the dot shows them. */
const STAGES = ['Q = Rᵢ⁻¹P', 'T = Aᵢ Q', 'Zᵢ'];

/**
 * The step the dot is at or on its way to at `phase` ∈ [0, 3]: 0 up to and
 * at stop 1 (the dot on P, read as Q), 1 up to and at stop 2 (at T), 2 after.
 */
export const stageOf = (phase) => (phase <= 1 ? 0 : phase <= 2 ? 1 : 2);

/** `M · p` for a column-major 4x4 `m` and a point `p`. */
function transform(m, [x, y, z]) {
  return [0, 1, 2].map((r) => m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r]);
}

/** Rotates `v` by the unit quaternion `q` turned only a fraction `u` of its way. */
function turnPart([x, y, z, w], u, v) {
  const sign = w < 0 ? -1 : 1;
  const [qx, qy, qz, qw] = [x * sign, y * sign, z * sign, w * sign];
  const half = Math.acos(Math.min(1, qw));
  const sinHalf = Math.sin(half);
  if (sinHalf < 1e-9) return v;
  const [ax, ay, az] = [qx / sinHalf, qy / sinHalf, qz / sinHalf];
  const s = Math.sin(u * half);
  const [px, py, pz, pw] = [ax * s, ay * s, az * s, Math.cos(u * half)];
  // v + 2 p_w (p × v) + 2 p × (p × v)
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const p = [px, py, pz];
  const c = cross(p, v);
  const cc = cross(p, c);
  return [0, 1, 2].map((k) => v[k] + 2 * pw * c[k] + 2 * cc[k]);
}

/**
 * Where the three steps have taken bone `bone`'s copy of the vertex at
 * `phase` ∈ [0, 3]: [0, 1] P itself, read in the bone's rest frame as Q;
 * [1, 2] the animation A_i applied a part u of the way inside the rest
 * frame, R_i · A_i(u) · Q; [2, 3] carried by the re-posed parent from R_i T
 * to Z_i = M_i P.
 */
export function stepPoint(app, bone, vertex, phase, ends) {
  if (phase <= 1) return ends.rest;
  if (phase >= 2) {
    const u = Math.min(1, phase - 2);
    return [0, 1, 2].map((k) => ends.animated[k] + (ends.point[k] - ends.animated[k]) * u);
  }
  const u = phase - 1;
  const q = Array.from(app.lab.threeSteps(bone, vertex).inBoneRest);
  const { rotation, translation, scale } = app.lab.bonePose(bone);
  const scaled = q.map((c, k) => c * (1 + (scale[k] - 1) * u));
  const turned = turnPart(rotation, u, scaled);
  return transform(app.lab.restFrame(bone), turned.map((c, k) => c + translation[k] * u));
}

/** The ghost layer of `app` (which offers `lab`, `viewer`, `canvas`). */
export function createGhosts(app) {
  const { num, t } = app.i18n;
  const { $ } = app;
  const layer = $('#ghosts');
  let points = null;
  // 3 shows the steps' results; below it a dot walks through them.
  let phase = 3;
  let playing = 0;

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
    if (vertex === null || vertex >= app.lab.vertexCount() || app.viewer.compare()) return;
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
    // Labels are placed together at the end, away from each other and the
    // points they name; most important first.
    const labels = [];
    const obstacles = [];
    const label = (text, x, y, attributes, rank) => {
      const element = svg('text', { class: 'view-label', 'font-size': 15, 'font-weight': 600, ...attributes }, text);
      layer.append(element);
      labels.push({ element, x, y, rank });
    };
    layer.append(svg('rect', { x: px - 5, y: py - 5, width: 10, height: 10, fill: 'white', stroke: '#1f2933', 'stroke-width': 2, 'data-rest': 1 }));
    obstacles.push(pointBox({ x: px, y: py, r: 7 }));
    label(t('ghost.rest'), px, py, { fill: '#1f2933', 'font-weight': 700 }, 0);
    ghosts.forEach(({ bone, weight, point, animated }, k) => {
      const [x, y] = screen(point);
      const [ax, ay] = screen(animated);
      const colour = GHOST_COLOURS[k % GHOST_COLOURS.length];
      // The three steps: P → R_i·(A_i Q) → Z_i.
      arrow([px, py], [ax, ay], colour);
      arrow([ax, ay], [x, y], colour);
      layer.append(svg('circle', { cx: ax, cy: ay, r: 3.5, fill: colour, 'data-animated': bone }));
      obstacles.push(pointBox({ x: ax, y: ay, r: 4 }));
      label(`T${ghosts.length > 1 ? bone + 1 : ''}`, ax, ay, { fill: colour, 'font-size': 14 }, 3);
      layer.append(svg('line', { x1: x, y1: y, x2: zx, y2: zy, stroke: colour, 'stroke-width': 2, 'stroke-dasharray': '5 4' }));
      layer.append(svg('circle', { cx: x, cy: y, r: 6, fill: 'white', stroke: colour, 'stroke-width': 2.5, 'data-bone': bone }));
      obstacles.push(pointBox({ x, y, r: 7 }));
      label(`Z${ghosts.length > 1 ? bone + 1 : ''}`, x, y, { fill: colour, 'font-size': 14 }, 3);
      label(`w = ${num(weight, 2)}`, (x + zx) / 2, (y + zy) / 2, { fill: colour }, 4);
      points.ghosts.push({ bone, x, y, animated: { x: ax, y: ay } });
    });
    if (phase < 3) {
      // At a stop the label names where the dot is; between stops, where it goes.
      const stage = STAGES[stageOf(phase)];
      ghosts.forEach(({ bone, point, animated }, k) => {
        const at = stepPoint(app, bone, vertex, phase, { rest, animated, point });
        const [x, y] = screen(at);
        const colour = GHOST_COLOURS[k % GHOST_COLOURS.length];
        layer.append(svg('circle', { cx: x, cy: y, r: 8, fill: colour, stroke: 'white', 'stroke-width': 2, 'data-step': bone }));
        obstacles.push(pointBox({ x, y, r: 9 }));
        // One label for the stage.
        if (k === 0) label(stage, x, y, { fill: '#1f2933', 'font-size': 16, 'font-weight': 700 }, 1);
        points.ghosts[k].step = { x, y };
      });
    }
    // One bone: its ghost is the result.
    if (ghosts.length >= 2) {
      layer.append(svg('circle', { cx: zx, cy: zy, r: 5, fill: '#1f2933', 'data-blended': 1 }));
      obstacles.push(pointBox({ x: zx, y: zy, r: 6 }));
      label(app.viewer.method() === 'dqs' ? t('ghost.dqs') : 'Z = Σ wᵢ Mᵢ P', zx, zy, { fill: '#1f2933', 'font-weight': 700 }, 2);
    }
    labels.sort((a, b) => a.rank - b.rank);
    points.labels = placeLabels(labels, obstacles, rect);
  }

  function setPhase(value) {
    phase = Math.max(0, Math.min(3, Number(value)));
    $('#steps-phase').value = String(phase);
    $('output[for="steps-phase"]').textContent = phase < 3 ? ['Q', 'T', 'Zᵢ'][stageOf(phase)] : '—';
    app.requestRender();
  }

  /** Walks the dot through the three steps in three seconds. */
  function play() {
    cancelAnimationFrame(playing);
    const start = performance.now();
    const frame = (now) => {
      const t = (now - start) / 1000;
      setPhase(Math.min(t, 3));
      if (t < 3) playing = requestAnimationFrame(frame);
    };
    playing = requestAnimationFrame(frame);
  }

  $('#steps-phase').addEventListener('input', (event) => {
    cancelAnimationFrame(playing);
    setPhase(event.target.value);
  });
  $('#steps-play').addEventListener('click', play);

  return {
    update,
    setPhase,
    playSteps: play,
    /**
     * What was drawn, in CSS pixels: `{blended: {x, y}, ghosts: [{bone, x, y}],
     * labels: [{x, y, width, height}]}` (the labels' boxes), or null.
     */
    drawn: () => points,
  };
}
