// Writes www/models/Walk/walk.bvh: a figure of 25 joints walking two steps
// a second along +X (seen from the side in Skinlab's front view) for two seconds at 30 frames a second, made up here
// from a few sines (no recorded data). Run: node tests/support/walk-bvh.mjs
// > www/models/Walk/walk.bvh ; tests/node/bvh.test.mjs checks the shipped
// file is this script's output.
import { fileURLToPath } from 'node:url';

const FPS = 30;
const SECONDS = 2;
const CYCLE = 1; // seconds per two steps

/** [name, offset, children, channels]; rotations in Z X Y order as most capture files write them. */
const ROT = ['Zrotation', 'Xrotation', 'Yrotation'];
const leg = (side, z) => [`${side}UpLeg`, [0, -0.05, z], [
  [`${side}Leg`, [0, -0.42, 0], [
    [`${side}Foot`, [0, -0.42, 0], [
      [`${side}Toe`, [0.12, -0.06, 0], [], ROT, [0.06, 0, 0]],
    ], ROT],
  ], ROT],
], ROT];
const arm = (side, z) => [`${side}Shoulder`, [0, 0.12, z * 0.4], [
  [`${side}Arm`, [0, 0, z], [
    [`${side}ForeArm`, [0, -0.28, 0], [
      [`${side}Hand`, [0, -0.26, 0], [], ROT, [0, -0.08, 0]],
    ], ROT],
  ], ROT],
], ROT];
const FIGURE = ['Hips', [0, 0, 0], [
  ['Spine', [0, 0.1, 0], [
    ['Chest', [0, 0.22, 0], [
      ['Neck', [0, 0.2, 0], [
        ['Head', [0, 0.1, 0], [], ROT, [0, 0.2, 0]],
      ], ROT],
      arm('Left', -0.18),
      arm('Right', 0.18),
    ], ROT],
  ], ROT],
  leg('Left', -0.1),
  leg('Right', 0.1),
], ['Xposition', 'Yposition', 'Zposition', ...ROT]];

const deg = (v) => v;
/** Each joint's channel values at time t (degrees, model units). */
function channels(name, t) {
  const phase = (2 * Math.PI * t) / CYCLE;
  const side = name.startsWith('Left') ? 0 : Math.PI; // the right half a cycle behind
  const s = Math.sin(phase + side);
  const c = Math.cos(phase + side);
  const rot = (z, x, y) => [deg(z), deg(x), deg(y)];
  // Forward is +X: a swing forward is a turn about +Z, a knee bends about −Z.
  if (name === 'Hips') {
    return [0.6 * t - 0.6, 0.95 + 0.02 * Math.cos(2 * phase), 0, ...rot(-3, 2 * Math.sin(phase), 6 * Math.sin(phase))];
  }
  if (name === 'Spine') return rot(-2, 0, -4 * Math.sin(phase));
  if (name === 'Chest') return rot(-1, -2 * Math.sin(phase), -6 * Math.sin(phase));
  if (name === 'Head') return rot(3 - Math.cos(2 * phase), 0, 5 * Math.sin(phase));
  if (name.endsWith('UpLeg')) return rot(25 * s, 0, 0);
  if (name.endsWith('Leg')) return rot(-30 - 30 * Math.cos(phase + side + 0.9), 0, 0);
  if (name.endsWith('Foot')) return rot(10 * s + 5, 0, 0);
  if (name.endsWith('Arm') && !name.endsWith('ForeArm')) {
    return rot(-20 * s, name.startsWith('Left') ? 8 : -8, 0);
  }
  if (name.endsWith('ForeArm')) return rot(20 - 10 * c, 0, 0);
  return rot(0, 0, 0);
}

export function walkBvh() {
  const lines = ['HIERARCHY'];
  const order = [];
  const f = (v) => v.toFixed(4);
  const write = ([name, offset, children, channelNames, end], depth) => {
    const pad = '\t'.repeat(depth);
    order.push(name);
    lines.push(`${pad}${depth === 0 ? 'ROOT' : 'JOINT'} ${name}`, `${pad}{`);
    lines.push(`${pad}\tOFFSET ${offset.map(f).join(' ')}`);
    lines.push(`${pad}\tCHANNELS ${channelNames.length} ${channelNames.join(' ')}`);
    for (const child of children) write(child, depth + 1);
    if (children.length === 0) {
      lines.push(`${pad}\tEnd Site`, `${pad}\t{`, `${pad}\t\tOFFSET ${(end ?? [0, 0.1, 0]).map(f).join(' ')}`, `${pad}\t}`);
    }
    lines.push(`${pad}}`);
  };
  write(FIGURE, 0);
  const frames = FPS * SECONDS;
  lines.push('MOTION', `Frames: ${frames}`, `Frame Time: ${(1 / FPS).toFixed(6)}`);
  for (let k = 0; k < frames; k += 1) {
    const t = k / FPS;
    lines.push(order.flatMap((name) => channels(name, t)).map(f).join(' '));
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(walkBvh());
}
