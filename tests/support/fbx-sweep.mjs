// Skinlab's FBX reader against three.js's FBXLoader on every .fbx file of a
// folder (for example ufbx's test data, https://github.com/ufbx/ufbx,
// data/), as loaded and at half and all of each clip, positions compared as
// point sets in metres. Not part of `cargo xtask test`: a tool for checking
// the reader on many exporters' files at once. After `cargo xtask build`:
//
//     node tests/support/fbx-sweep.mjs FOLDER [NAME-PART]
//
// Prints each file that does not match (and why), then the counts: match,
// MISMATCH (worst distance over the size, and where), ours-failed (the
// error Skinlab names), three-failed (three.js could not read it), and
// no-mesh-in-three.
import { readdirSync, readFileSync } from 'node:fs';
import { Lab } from '../node/wasm.mjs';
import { threeFbxPositions, hausdorff } from './fbx-oracle.mjs';

const [folder, only] = process.argv.slice(2);
if (!folder) throw new Error('usage: node tests/support/fbx-sweep.mjs FOLDER [NAME-PART]');
const rows = [];
for (const name of readdirSync(folder).filter((n) => n.endsWith('.fbx') && (!only || n.includes(only))).sort()) {
  const bytes = new Uint8Array(readFileSync(`${folder}/${name}`));
  let lab;
  let three;
  try {
    three = threeFbxPositions(bytes);
  } catch (error) {
    rows.push([name, 'three-failed', String(error.message).slice(0, 100)]);
    continue;
  }
  try {
    lab = Lab.fromFbx(bytes);
  } catch (error) {
    rows.push([name, 'ours-failed', String(error.message).slice(0, 160)]);
    continue;
  }
  if (three.positions.length === 0) {
    rows.push([name, 'no-mesh-in-three', `${lab.vertexCount()} vertices here`]);
    continue;
  }
  const poses = [[null, 0]];
  three.durations.forEach((duration, clip) => poses.push([clip, duration * 0.5], [clip, duration]));
  let worst = 0;
  let where = '';
  for (const [clip, time] of poses) {
    if (clip !== null) {
      const ours = lab.animationNames().indexOf(three.clips[clip]);
      if (ours < 0) continue; // a take that moves nothing Skinlab draws
      lab.setAnimationTime(ours, time);
    }
    const theirs = threeFbxPositions(bytes, clip, time);
    const metres = theirs.positions.map((c) => c * theirs.unitScale / 100);
    const size = Math.max(1e-9, metres.reduce((m, c) => Math.max(m, Math.abs(c)), 0));
    const relative = hausdorff([...lab.skinnedPositions('lbs')], metres, size / 10).worstDistance / size;
    if (!(relative <= worst)) {
      worst = relative;
      where = clip === null ? 'as loaded' : `${three.clips[clip]} at ${time.toFixed(2)} s`;
    }
  }
  rows.push([name, worst <= 1e-4 ? 'match' : 'MISMATCH', `${worst.toExponential(1)} ${where}`]);
  lab.free();
}
const counts = {};
for (const [name, verdict, detail] of rows) {
  counts[verdict] = (counts[verdict] ?? 0) + 1;
  if (verdict !== 'match') console.log(`${name}  ${verdict}  ${detail}`);
}
console.log(counts);
