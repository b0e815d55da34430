// The JS API's one convention (docs/api.md), checked on the
// exports themselves: "none" is null, a function of more than three
// parameters takes an options object, every setter has a getter, no test
// hook ships, and the API page's tables name exactly the exported methods.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as glue from '../../www/pkg/skinlab.js';
import { Lab } from './wasm.mjs';

const own = (object) => Object.getOwnPropertyNames(object).filter((name) => typeof object[name] === 'function'
  && !['constructor', 'free', 'length', 'name', 'prototype'].includes(name) && !name.startsWith('__'));
const { Viewer } = glue;
/** Every method a caller reaches, as docs/api.md writes it: `Lab.x`, `lab.x`, `viewer.x`. */
const exported = [
  ...own(Lab).map((name) => `Lab.${name}`),
  ...own(Lab.prototype).map((name) => `lab.${name}`),
  ...own(Viewer.prototype).map((name) => `viewer.${name}`),
];
const method = (qualified) => {
  const [owner, name] = qualified.split('.');
  return { Lab: Lab[name], lab: Lab.prototype[name], viewer: Viewer.prototype[name] }[owner];
};

test('no test hook ships in the API', () => {
  assert.ok(exported.length > 150, `the exports are read (${exported.length})`);
  assert.deepEqual(exported.filter((name) => /ForTest|\.(test|trap)[A-Z]/.test(name)), []);
});

test('a function of more than three parameters takes an options object instead', () => {
  const long = exported.filter((name) => method(name).length > 3).map((name) => `${name} (${method(name).length})`);
  assert.deepEqual(long, []);
});

// Setters whose getter reads a collection the setter edits one item of.
const GETTER_OF = {
  setKey: 'keyTimes',
  setMorphKey: 'morphKeyTimes',
  setPathSpeedPoint: 'pathSpeed',
  setPathPoint: 'path',
  setPathTiming: 'path',
  setBaseColourPixels: 'baseColourPixelsSize',
};

test('every setter has a getter', () => {
  const names = new Set(exported);
  const missing = exported.filter((name) => /\.set[A-Z]/.test(name)).filter((name) => {
    const [owner, setter] = name.split('.');
    const base = setter[3].toLowerCase() + setter.slice(4);
    const candidates = [GETTER_OF[setter], base, `is${setter.slice(3)}`, `${base}s`].filter(Boolean);
    return !candidates.some((getter) => names.has(`${owner}.${getter}`));
  });
  assert.deepEqual(missing, []);
});

test('"none" is null: a free joint\'s limit angle, a root\'s parent, a bone without keys, no clip posed', () => {
  const lab = Lab.example('two-bone');
  assert.equal(lab.limits(0), null);
  assert.equal(lab.limitAngleToward(0, [1, 0, 0]), null);
  assert.equal(lab.boneParents()[0], null);
  assert.equal(lab.boneParents()[1], 0);
  assert.equal(lab.animationTime(), null);
  assert.equal(lab.dynamics(), null);
  const clip = lab.addAnimation('keys');
  assert.equal(lab.keyInterpolation(clip, 1), null);
  lab.setKey(clip, 1, { time: 0, interpolation: 'step' });
  assert.equal(lab.keyInterpolation(clip, 1), 'STEP');
  lab.setAnimationTime(clip, 0.5);
  assert.deepEqual(lab.animationTime(), { clip, time: 0.5 });
  lab.setBonePose(1, { rotation: [0, 0, 0.2, 0.98] });
  assert.equal(lab.animationTime(), null, 'a later change ends it');
  lab.free();
});

test('a point is an array of numbers, and a pose goes back as it came', () => {
  const lab = Lab.example('two-bone');
  for (const point of [lab.boneEnd(1), lab.boneOrigin(1), lab.skinnedVertex('lbs', 3)]) {
    assert.ok(Array.isArray(point) && point.length === 3 && point.every(Number.isFinite), String(point));
  }
  lab.setBonePose(1, { rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2], translation: [0.5, 0, 0], scale: [1, 2, 1] });
  const pose = lab.bonePose(1);
  lab.resetPose();
  lab.setBonePose(1, pose);
  assert.deepEqual(lab.bonePose(1), pose);
  assert.throws(() => lab.setBonePose(1, { rotaton: [0, 0, 0, 1] }), /setBonePose: unknown option 'rotaton'; known: rotation, translation, scale/);
  const points = new Float32Array(2 * lab.vertexCount());
  assert.throws(() => lab.paintDab({ points, bone: 1, at: [0, 0], radius: 10, strenght: 0.5 }), /paintDab: unknown option 'strenght'/);
  assert.ok(lab.paintDab({ points, bone: 1, at: [0, 0], radius: 10, strength: 0.5 }) > 0, 'the same options without the typo paint');
  lab.free();
});

test('the API page\'s tables name exactly the exported methods', () => {
  const page = readFileSync(fileURLToPath(new URL('../../docs/api.md', import.meta.url)), 'utf8');
  // The tables, up to the page's own instance (window.skinlab).
  const table = page.slice(0, page.indexOf('\n## The page\'s own instance'));
  const named = new Set([...table.matchAll(/\b(Lab|lab|viewer)\.([a-zA-Z]+)\(/g)].map(([, owner, name]) => `${owner}.${name}`));
  // The file readers' methods, put on Lab by www/converters.js, and the gallery's (www/gallery.js).
  const readers = ['Lab.fromGltf', 'Lab.fromGlb', 'Lab.fromGltfFiles', 'Lab.fromBvh', 'lab.toGlb', 'Lab.modelNames', 'Lab.model'];
  assert.deepEqual(exported.filter((name) => !named.has(name)), [], 'exported but not in docs/api.md');
  assert.deepEqual([...named].filter((name) => !exported.includes(name) && !readers.includes(name)), [], 'in docs/api.md but not exported');
});

test('a scene without its own colours says so with null, the face gives one colour per vertex', () => {
  const strip = Lab.example('two-bone');
  assert.equal(strip.vertexColours(), null);
  assert.equal(strip.baseColour(), null);
  strip.free();
  const face = Lab.example('face');
  const colours = face.vertexColours();
  assert.ok(colours instanceof Float32Array && colours.length === 3 * face.vertexCount());
  assert.ok(colours.every((c) => c >= 0 && c <= 1));
  face.free();
});
