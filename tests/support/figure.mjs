// A figure the size of a usual Mixamo character for timing automatic
// weights, built with glTF-Transform: 52 joints (hips, three spine joints,
// neck, head; per side a shoulder, upper arm, forearm, hand, five fingers
// of three joints, and a leg of four), and a closed tube with capped ends
// around every bone, about 16,000 vertices in all. Unlike the random
// character of character.mjs it is a real surface, so bone heat has a
// Laplacian and a visibility test worth the name. For `cargo xtask bench`.
import { Document, NodeIO } from '@gltf-transform/core';

/** The joints as `[name, parent index or -1, offset from the parent]`. */
function joints() {
  const list = [['hips', -1, [0, 1, 0]]];
  const add = (name, parent, offset) => list.push([name, parent, offset]) - 1;
  let spine = 0;
  for (let k = 1; k <= 3; k++) spine = add(`spine ${k}`, spine, [0, 0.15, 0]);
  const neck = add('neck', spine, [0, 0.12, 0]);
  add('head', neck, [0, 0.12, 0]);
  for (const side of [1, -1]) {
    const shoulder = add(`shoulder ${side}`, spine, [side * 0.1, 0.05, 0]);
    const upper = add(`upper arm ${side}`, shoulder, [side * 0.12, 0, 0]);
    const fore = add(`forearm ${side}`, upper, [side * 0.28, 0, 0]);
    const hand = add(`hand ${side}`, fore, [side * 0.25, 0, 0]);
    for (let finger = 0; finger < 5; finger++) {
      let joint = add(`finger ${side} ${finger} 1`, hand, [side * 0.08, 0, (finger - 2) * 0.022]);
      for (let k = 2; k <= 3; k++) joint = add(`finger ${side} ${finger} ${k}`, joint, [side * 0.03, 0, 0]);
    }
    let leg = add(`thigh ${side}`, 0, [side * 0.1, -0.05, 0]);
    leg = add(`shin ${side}`, leg, [0, -0.42, 0]);
    leg = add(`foot ${side}`, leg, [0, -0.42, 0]);
    add(`toe ${side}`, leg, [0, -0.05, 0.12]);
  }
  return list;
}

export async function figureGlb({ rings = 13, segments = 24 } = {}) {
  const list = joints();
  const globals = [];
  for (const [, parent, offset] of list) {
    const base = parent < 0 ? [0, 0, 0] : globals[parent];
    globals.push(base.map((x, k) => x + offset[k]));
  }
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (type, array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const scene = doc.createScene();
  const nodes = list.map(([name, , offset]) => doc.createNode(name).setTranslation(offset));
  list.forEach(([, parent], j) => (parent < 0 ? scene : nodes[parent]).addChild(nodes[j]));
  const ibm = new Float32Array(16 * list.length);
  globals.forEach((g, j) => ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -g[0], -g[1], -g[2], 1], 16 * j));
  const skin = doc.createSkin().setSkeleton(nodes[0]).setInverseBindMatrices(accessor('MAT4', ibm));
  nodes.forEach((node) => skin.addJoint(node));
  // One capped tube from each joint's parent to the joint, weighted from
  // the parent to the joint along its length.
  const positions = [];
  const jointIndices = [];
  const weights = [];
  const indices = [];
  list.forEach(([, parent], j) => {
    if (parent < 0) return;
    const a = globals[parent];
    const b = globals[j];
    const axis = b.map((x, k) => x - a[k]);
    const length = Math.hypot(...axis);
    const u = axis.map((x) => x / length);
    // Two directions across the axis.
    const helper = Math.abs(u[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
    const cross = (p, q) => [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]];
    const n1 = cross(u, helper).map((x, _, v) => x / Math.hypot(...v));
    const n2 = cross(u, n1);
    const radius = Math.min(0.06, 0.3 * length);
    const first = positions.length / 3;
    for (let ring = 0; ring < rings; ring++) {
      const s = ring / (rings - 1);
      for (let k = 0; k < segments; k++) {
        const angle = (2 * Math.PI * k) / segments;
        const [c, d] = [Math.cos(angle) * radius, Math.sin(angle) * radius];
        positions.push(...a.map((x, m) => x + axis[m] * s + n1[m] * c + n2[m] * d));
        jointIndices.push(parent, j, 0, 0);
        weights.push(1 - s, s, 0, 0);
      }
    }
    for (let ring = 0; ring + 1 < rings; ring++) {
      for (let k = 0; k < segments; k++) {
        const p = first + ring * segments + k;
        const q = first + ring * segments + ((k + 1) % segments);
        indices.push(p, q, q + segments, p, q + segments, p + segments);
      }
    }
    // Caps: a centre vertex at each end.
    const caps = [[a, 0, parent, first], [b, rings - 1, j, first + (rings - 1) * segments]];
    for (const [centre, , joint, ringStart] of caps) {
      const index = positions.length / 3;
      positions.push(...centre);
      jointIndices.push(joint, 0, 0, 0);
      weights.push(1, 0, 0, 0);
      const flip = ringStart === first;
      for (let k = 0; k < segments; k++) {
        const p = ringStart + k;
        const q = ringStart + ((k + 1) % segments);
        indices.push(...(flip ? [index, q, p] : [index, p, q]));
      }
    }
  });
  const primitive = doc.createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', new Float32Array(positions)))
    .setAttribute('JOINTS_0', accessor('VEC4', new Uint16Array(jointIndices)))
    .setAttribute('WEIGHTS_0', accessor('VEC4', new Float32Array(weights)))
    .setIndices(accessor('SCALAR', new Uint32Array(indices)));
  scene.addChild(doc.createNode('body').setMesh(doc.createMesh('body').addPrimitive(primitive)).setSkin(skin));
  return new NodeIO().writeBinary(doc);
}
