// OBJ files of many exporters (Blender 2.79–4.4, 3ds Max 6 and 7, Maya,
// Marvelous Designer, from ufbx's test data; Spot from Keenan Crane), each
// read by Skinlab and by three.js's OBJLoader: the same triangles in the
// same places, and each MTL's colours.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { Lab } from './wasm.mjs';
import { hausdorff, worldPositions } from '../support/three-points.mjs';

const dirs = [new URL('../obj/', import.meta.url), new URL('../obj/ufbx/', import.meta.url)];
const files = dirs.flatMap((dir) => readdirSync(dir).filter((name) => name.endsWith('.obj')).sort().map((name) => ({ dir, name })));

/** three.js's triangles of `text`: their corners' positions, flat. */
function threeTriangles(text) {
  return worldPositions(new OBJLoader().parse(text));
}

test('the OBJ corpus holds files of several exporters', () => {
  const makers = new Set(files.map(({ name }) => name.split('_')[0]));
  assert.ok(files.length >= 15, `${files.length} files`);
  for (const maker of ['blender', 'max6', 'max7', 'maya', 'marvelous', 'spot.obj']) assert.ok(makers.has(maker), maker);
});

/** The triangles of `text`'s faces counted from its lines: a face of n corners is n − 2. */
function faceTriangles(text) {
  return text.split(/\r?\n/).filter((line) => /^f\s/.test(line)).reduce((sum, line) => sum + line.trim().split(/\s+/).length - 3, 0);
}

// Files kept under a name without the space their OBJ names them by.
const WRITTEN_NAMES = { 'blender_331_space_texture_0_mtl.mtl': 'blender_331_space texture_0_mtl.mtl' };

// three.js's OBJLoader draws an object that has lines (`l`) as lines, its
// faces too; Skinlab draws the faces and leaves the lines and points out.
const DRAWN_AS_LINES_BY_THREE = ['blender_340_line_point_0_obj.obj'];

for (const { dir, name } of files) {
  test(`OBJ ${name}: the triangles its faces make, where three.js's OBJLoader puts them`, () => {
    const text = readFileSync(new URL(name, dir), 'utf8');
    // The MTL files beside it, by name, as a person would choose them together.
    const chosen = Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.mtl')).map((f) => [WRITTEN_NAMES[f] ?? f, new Uint8Array(readFileSync(new URL(f, dir)))]));
    const lab = Lab.fromObj(text, chosen);
    const three = threeTriangles(text);
    console.log(`# ${name}: ${lab.indexCount() / 3} triangles (its faces ${faceTriangles(text)}, three.js ${three.length / 9}), ${lab.vertexCount()} vertices, ${lab.meshCount()} meshes`);
    assert.equal(lab.indexCount() / 3, faceTriangles(text), `${name}: a triangle per face corner past two`);
    if (DRAWN_AS_LINES_BY_THREE.includes(name)) return;
    assert.equal(lab.indexCount(), three.length / 3, `${name}: one triangle per three.js triangle`);
    const size = three.reduce((m, c) => Math.max(m, Math.abs(c)), 0);
    const { worstDistance } = hausdorff([...lab.skinnedPositions('lbs')], three, size);
    assert.ok(worstDistance <= 1e-6 * Math.max(1, size), `${name}: the same places, ${worstDistance} of ${size}`);
    lab.free();
  });
}

test('an MTL named with a space in its file name is found, and an empty usemtl reads', () => {
  const dir = new URL('../obj/ufbx/', import.meta.url);
  const read = (name) => new Uint8Array(readFileSync(new URL(name, dir)));
  // Its mtllib line names the MTL with a space, as Blender wrote it (kept
  // here under a name without one).
  const spaced = Lab.fromObj(readFileSync(new URL('blender_331_space_texture_0_obj.obj', dir), 'utf8'), { 'blender_331_space texture_0_mtl.mtl': read('blender_331_space_texture_0_mtl.mtl') });
  // Its texture, tex.png, is not among the files: that alone is missing.
  assert.deepEqual([...spaced.notDrawn()], ['the texture tex.png'], 'the MTL found by its whole name');
  spaced.free();
  const empty = Lab.fromObj(readFileSync(new URL('blender_441_empty_material_0_obj.obj', dir), 'utf8'), { 'blender_441_empty_material_0_obj.mtl': read('blender_441_empty_material_0_obj.mtl') });
  assert.equal(empty.indexCount() / 3, 24, 'both cubes');
  empty.free();
});
