// The page's JS API, the names other code relies on, driven in Node against the real wasm.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Lab, aboutZ, aboutY, vertexOf } from './wasm.mjs';

const close = (a, b, eps = 1e-5) =>
  assert.ok(a.every((x, k) => Math.abs(x - b[k]) <= eps), `${a} ≉ ${b}`);

function stripScene() {
  // The skinning note's strip along +Y: two bones of length 2, vertex k at y = k.
  const positions = [];
  const influences = [];
  for (let y = 0; y <= 4; y++) {
    positions.push(0, y, 0);
    influences.push(y < 2 ? [[0, 1]] : [[1, 1]]);
  }
  return {
    bones: [
      { name: 'bone 1', parent: null, origin: [0, 0, 0], orientation: [0, 0, 0, 1], length: 2 },
      { name: 'bone 2', parent: 0, origin: [0, 0, 0], orientation: [0, 0, 0, 1], length: 2 },
    ],
    mesh: { positions, indices: [] },
    influences,
  };
}

test('load a scene, pose bone 2 by 90°, read positions', () => {
  const lab = Lab.fromSceneJson(JSON.stringify(stripScene()));
  assert.equal(lab.boneCount(), 2);
  assert.equal(lab.vertexCount(), 5);
  lab.setBonePose(1, { rotation: aboutZ(Math.PI / 2), translation: [0, 0, 0], scale: [1, 1, 1] });
  for (const method of ['lbs', 'dqs']) {
    const positions = lab.skinnedPositions(method);
    assert.ok(positions instanceof Float32Array);
    close(vertexOf(positions, 3), [-1, 2, 0]);
    // Bone 1's vertices stay exactly where they were.
    assert.deepEqual(vertexOf(positions, 0), [0, 0, 0]);
    assert.deepEqual(vertexOf(positions, 1), [0, 1, 0]);
  }
  const m = Array.from(lab.skinningMatrix(1));
  assert.equal(m.length, 16);
  close(m, [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 2, 2, 0, 1]);
});

test('bonePose, resetPose and sceneJson round trip', () => {
  const lab = Lab.example('two-bone-smooth');
  const rotation = aboutZ(0.4);
  lab.setBonePose(1, { rotation, translation: [0.5, 0, 0], scale: [1, 2, 1] });
  const pose = lab.bonePose(1);
  close(pose.rotation, rotation);
  close(pose.translation, [0.5, 0, 0]);
  close(pose.scale, [1, 2, 1]);
  const copy = Lab.fromSceneJson(lab.sceneJson());
  assert.equal(copy.sceneJson(), lab.sceneJson());
  close(Array.from(copy.skinnedPositions('dqs')), Array.from(lab.skinnedPositions('dqs')));
  lab.resetPose();
  assert.deepEqual(lab.bonePose(1), { rotation: [0, 0, 0, 1], translation: [0, 0, 0], scale: [1, 1, 1] });
  // Translation and scale may be left out.
  lab.setBonePose(0, { rotation: aboutZ(0.1) });
  assert.deepEqual(lab.bonePose(0).scale, [1, 1, 1]);
});

test('a whole pose in one call: the positions of its bones set one by one, given back, refused whole when bad', () => {
  const whole = Lab.example('y-junction');
  const each = Lab.example('y-junction');
  const n = whole.boneCount();
  const rotations = [];
  for (let b = 0; b < n; b++) rotations.push(...aboutZ(0.3 * (b + 1)));
  const translations = Array.from({ length: 3 * n }, (_, k) => (k % 3 === 0 ? 0.1 : 0));
  const scales = new Array(3 * n).fill(1);
  whole.setPoseArrays(new Float32Array(rotations), translations, scales);
  for (let b = 0; b < n; b++) {
    each.setBonePose(b, { rotation: rotations.slice(4 * b, 4 * b + 4), translation: translations.slice(3 * b, 3 * b + 3) });
  }
  assert.deepEqual(whole.skinnedPositions('lbs'), each.skinnedPositions('lbs'));
  const back = whole.poseArrays();
  assert.ok(back.rotations instanceof Float32Array && back.rotations.length === 4 * n);
  assert.deepEqual(Array.from(back.translations), Array.from(new Float32Array(translations)));
  const before = whole.skinnedPositions('lbs');
  assert.throws(() => whole.setPoseArrays(rotations.slice(4), translations, scales), /setPoseArrays: rotations: expected \d+ numbers, got/);
  assert.throws(() => whole.setPoseArrays(rotations.map((r, k) => (k === 4 * n - 1 ? NaN : r)), translations, scales), /setPoseArrays/);
  assert.deepEqual(whole.skinnedPositions('lbs'), before, 'the pose before kept');
  whole.free();
  each.free();
});

test('influences and setInfluences normalise and prune', () => {
  const lab = Lab.example('y-junction');
  assert.deepEqual(lab.influences(0), [[0, 1]]);
  const pruned = lab.setInfluences(0, [[0, 2], [1, 1], [2, 1]]);
  assert.equal(pruned, 0);
  assert.deepEqual(lab.influences(0), [[0, 0.5], [1, 0.25], [2, 0.25]]);
});

test('every example loads, and the tube shows the candy wrapper', () => {
  for (const name of Lab.exampleNames()) {
    const lab = Lab.example(name);
    assert.ok(lab.vertexCount() > 0, name);
    const rest = lab.skinnedPositions('lbs');
    assert.equal(rest.length, 3 * lab.vertexCount());
  }
  const tube = Lab.example('tube');
  tube.setBonePose(1, { rotation: aboutY(Math.PI) });
  const radius = (positions) => {
    let sum = 0;
    for (let k = 0; k < 24; k++) {
      const [x, , z] = vertexOf(positions, 8 * 24 + k);
      sum += Math.hypot(x, z);
    }
    return sum / 24 / 0.5;
  };
  assert.ok(radius(tube.skinnedPositions('lbs')) < 0.2);
  assert.ok(Math.abs(radius(tube.skinnedPositions('dqs')) - 1) < 0.02);
});

// Each bad input gets an Error whose message names the problem.
const badScenes = [
  ['not JSON', '{"bones": [', /scene JSON/],
  ['unknown parent', (s) => { s.bones[1].parent = 7; }, /bones\[1\]\.parent: bone 7 does not exist/],
  ['parent after child', (s) => { s.bones[0].parent = 1; s.bones[1].parent = null; }, /bones\[0\]\.parent: parent 1 is listed after its child/],
  ['cycle', (s) => { s.bones[1].parent = 1; }, /bones\[1\]\.parent: the parent chain loops/],
  ['infinity', (s) => { s.mesh.positions[4] = 1e39; }, /mesh\.positions\[4\]: inf is not a finite number/],
  ['positions length', (s) => { s.mesh.positions.push(1); }, /mesh\.positions: length 16, expected a multiple of 3/],
  ['influences length', (s) => { s.influences.pop(); }, /influences: length 4, expected one list per vertex \(5\)/],
  ['origin length', (s) => { s.bones[0].origin = [0, 0]; }, /bones\[0\]\.origin: invalid length 2/],
  ['bone out of range', (s) => { s.influences[2] = [[2, 1]]; }, /influences\[2\]\[0\]: bone 2 is out of range \(the scene has 2 bones\)/],
  ['negative weight', (s) => { s.influences[2] = [[1, -0.5]]; }, /influences\[2\]\[0\]: weight -0\.5 is negative/],
  ['empty bones', (s) => { s.bones = []; s.influences = s.influences.map(() => []); }, /bones: a scene needs at least one bone/],
];

for (const [name, edit, message] of badScenes) {
  test(`fromSceneJson refuses: ${name}`, () => {
    let text = edit;
    if (typeof edit === 'function') {
      const scene = stripScene();
      edit(scene);
      text = JSON.stringify(scene);
    }
    assert.throws(() => Lab.fromSceneJson(text), (error) => {
      assert.ok(error instanceof Error, 'an Error');
      assert.match(error.message, message);
      return true;
    });
  });
}

test('bad arguments are refused and change nothing', () => {
  const lab = Lab.example('two-bone');
  lab.setBonePose(1, { rotation: aboutZ(0.3) });
  const before = lab.sceneJson();
  const cases = [
    [() => lab.setBonePose(5, { rotation: [0, 0, 0, 1] }), /setBonePose: bone 5 is out of range/],
    [() => lab.setBonePose(-1, { rotation: [0, 0, 0, 1] }), /setBonePose: bone: -1 is not a valid index/],
    [() => lab.setBonePose(1, { rotation: [0, 0, NaN, 1] }), /setBonePose: pose\[1\]\.rotation\[2\]: NaN is not a finite number/],
    [() => lab.setBonePose(1, { rotation: [0, 0, 1] }), /setBonePose: rotation: expected 4 numbers, got 3/],
    [() => lab.setBonePose(1, { rotation: 'up' }), /setBonePose: rotation must be an array of numbers/],
    [() => lab.setBonePose(1, { rotation: [0, 0, 0, 1], translation: [0, Infinity, 0] }), /translation\[1\]: inf is not a finite number/],
    [() => lab.setBonePose(1, { rotation: [0, 0, 0, 0] }), /zero quaternion/],
    [() => lab.bonePose(2), /bonePose: bone 2 is out of range/],
    [() => lab.influences(99), /influences: vertex 99 is out of range \(the mesh has 18 vertices\)/],
    [() => lab.setInfluences(0, [[0, -1]]), /setInfluences: influences\[0\]\[0\]: weight -1 is negative/],
    [() => lab.setInfluences(0, [[3, 1]]), /setInfluences: influences\[0\]\[0\]: bone 3 is out of range/],
    [() => lab.setInfluences(0, [[0, NaN]]), /NaN is not a finite number/],
    [() => lab.setInfluences(0, 'all'), /setInfluences: influences must be/],
    [() => lab.skinnedPositions('lsb'), /skinnedPositions: unknown skinning method 'lsb'/],
    [() => lab.skinningMatrix(2.5), /skinningMatrix: bone: 2.5 is not a valid index/],
    [() => Lab.example('three-bone'), /example: unknown example 'three-bone'; known examples: two-bone/],
  ];
  for (const [call, message] of cases) {
    assert.throws(call, (error) => error instanceof Error && message.test(error.message), String(message));
  }
  assert.equal(lab.sceneJson(), before);
});

test('painted weights and a pose survive export and import exactly', () => {
  const lab = Lab.example('y-junction-unweighted');
  const points = new Float32Array(2 * lab.vertexCount());
  const rest = JSON.parse(lab.sceneJson()).mesh.positions;
  for (let v = 0; v < lab.vertexCount(); v++) {
    points[2 * v] = rest[3 * v] * 100;
    points[2 * v + 1] = rest[3 * v + 1] * 100;
  }
  for (let k = 0; k < 5; k++) lab.paintDab({ points, bone: 2, at: [-20 + 10 * k, 260], radius: 40, strength: 0.3, mirror: true });
  lab.setBonePose(1, { rotation: [0.1, 0.2, 0.3, 0.9], translation: [0.1, 0.2, 0.3], scale: [1, 1.1, 0.9] });
  const copy = Lab.fromSceneJson(lab.sceneJson());
  for (let v = 0; v < lab.vertexCount(); v++) assert.deepEqual(copy.influences(v), lab.influences(v), `vertex ${v}`);
  assert.deepEqual(copy.bonePose(1), lab.bonePose(1));
  assert.equal(copy.sceneJson(), lab.sceneJson());
  // Setting the same values through the API is exact too, as a shared link does.
  const again = Lab.example('y-junction-unweighted');
  for (let v = 0; v < lab.vertexCount(); v++) again.setInfluences(v, lab.influences(v));
  const pose = lab.bonePose(1);
  again.setBonePose(1, { rotation: pose.rotation, translation: pose.translation, scale: pose.scale });
  assert.equal(again.sceneJson(), lab.sceneJson());
});

test('8-bit weights: the reference skins with the unorm8 round trip and reports the cost', () => {
  const lab = Lab.example('two-bone-smooth');
  lab.setInfluences(5, [[0, 0.7], [1, 0.3]]);
  lab.setBonePose(1, { rotation: aboutZ(1.0) });
  const exact = lab.skinnedPositions('lbs');
  assert.equal(lab.isQuantised(), false);
  lab.setQuantised(true);
  const rounded = lab.skinnedPositions('lbs');
  let worst = 0;
  for (let k = 0; k < exact.length; k++) worst = Math.max(worst, Math.abs(exact[k] - rounded[k]));
  assert.ok(worst > 0, 'the positions move a little');
  const report = lab.quantisationReport('lbs');
  assert.ok(report.maxPositionError >= worst - 1e-6 && report.maxPositionError < 0.01, JSON.stringify(report));
  assert.ok(report.maxWeightError <= 1 / 255 + 1e-7);
  assert.deepEqual(lab.influences(5), [[0, 0.699999988079071], [1, 0.30000001192092896]], 'the stored weights stay f32');
  assert.throws(() => lab.quantisationReport('lsb'), /quantisationReport: unknown skinning method 'lsb'/);
});

test('reach: two-bone IK puts the tip of bone 2 on the target', () => {
  const lab = Lab.fromSceneJson(JSON.stringify(stripScene()));
  lab.reach(1, [1.5, 2.5, 0]);
  // The tip of bone 2 is M_2 applied to its rest tip (0, 4, 0).
  const m = Array.from(lab.skinningMatrix(1));
  const tip = [0, 1, 2].map((r) => m[4 + r] * 4 + m[12 + r]);
  close(tip, [1.5, 2.5, 0], 1e-4);
  assert.throws(() => lab.reach(0, [1, 1, 0]), /reach: bone 0 has no parent/);
  assert.throws(() => lab.reach(1, [1, 1]), /reach: target: expected 3 numbers, got 2/);
});

test('every shipped model reads the same from .gltf, from a .glb, and from .gltf with .bin files', async () => {
  const { readFileSync } = await import('node:fs');
  const { glbFromGltf, splitGltf } = await import('../support/packing.mjs');
  for (const name of ['SimpleSkin', 'RiggedSimple', 'RiggedFigure', 'Fox']) {
    const text = readFileSync(new URL(`../../www/models/${name}/${name}.gltf`, import.meta.url), 'utf8');
    const fromText = Lab.fromGltf(text);
    const fromGlb = Lab.fromGlb(glbFromGltf(text));
    console.log(`# ${name}: ${fromGlb.vertexCount()} vertices, ${fromGlb.boneCount()} bones`);
    assert.equal(fromGlb.sceneJson(), fromText.sceneJson());
    assert.deepEqual(fromGlb.animationNames(), fromText.animationNames());
    const { gltf, files } = splitGltf(text, name);
    assert.equal(Lab.fromGltfFiles(gltf, files).sceneJson(), fromText.sceneJson());
    assert.throws(() => Lab.fromGltfFiles(gltf, {}), new RegExp(`'${name}0.bin', which was not given`));
  }
  assert.throws(() => Lab.fromGlb(new Uint8Array([1, 2, 3])), /glb: the file does not start with 'glTF'/);
});

test('splitByBoneBudget: the 300-bone chain in draws of at most 80 bones (the engine note\'s 4x3 budget)', () => {
  const lab = Lab.example('chain');
  const batches = lab.splitByBoneBudget(80);
  console.log(`# chain: ${batches.length} batches of ${batches.map((b) => b.bones.length).join(', ')} bones`);
  assert.ok(batches.length >= 4);
  assert.ok(batches.every((b) => b.bones.length <= 80 && b.triangles > 0));
  const triangles = JSON.parse(lab.sceneJson()).mesh.indices.length / 3;
  assert.equal(batches.reduce((n, b) => n + b.triangles, 0), triangles);
  assert.throws(() => Lab.example('y-junction').splitByBoneBudget(1), /needs 3 bones, more than the 1/);
});

test('the relative matrices L_i = T(origin) · O · T(length) chain up to each bone\'s rest frame', () => {
  const mul = (a, b) => Array.from({ length: 16 }, (_, k) => {
    const [col, row] = [Math.floor(k / 4), k % 4];
    let sum = 0;
    for (let j = 0; j < 4; j++) sum += a[4 * j + row] * b[4 * col + j];
    return sum;
  });
  for (const name of ['fingers', 'leg', 'arm', 'y-junction']) {
    const lab = Lab.example(name);
    const parents = lab.boneParents();
    for (let bone = 0; bone < lab.boneCount(); bone++) {
      const { origin, orientation, length, product } = lab.relativeMatrix(bone);
      const factors = mul(mul(origin, orientation), length);
      factors.forEach((v, k) => assert.ok(Math.abs(v - product[k]) < 1e-5, `${name} ${bone}: L is its factors' product`));
      // Chain the L's from the root: the frame this bone hands on.
      const chain = [];
      for (let b = bone; b !== null && b !== undefined && b >= 0; b = parents[b]) chain.unshift(b);
      let frame = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
      for (const b of chain) frame = mul(frame, lab.relativeMatrix(b).product);
      const expected = mul(lab.restFrame(bone), length);
      frame.forEach((v, k) => assert.ok(Math.abs(v - expected[k]) < 1e-4, `${name} bone ${bone}: Π L = R · T(length), entry ${k}: ${v} vs ${expected[k]}`));
    }
    lab.free();
  }
});

test('the core\'s LBS, positions alone and with normals, is the closed formula on every vertex, the last few too', () => {
  // 4 bones in a chain, 103 vertices (not a multiple of four) in a strip of
  // triangles, one to four influences each and some with none, posed with
  // turns, a scale and a move.
  const bones = [0, 1, 2, 3].map((b) => ({ name: `b${b}`, parent: b ? b - 1 : null, origin: [0, b ? 1 : 0, 0], orientation: [0, 0, 0, 1], length: 1 }));
  const count = 103;
  const positions = [];
  const indices = [];
  const influences = [];
  for (let v = 0; v < count; v++) {
    positions.push(Math.sin(v * 0.7), (4 * v) / count, Math.cos(v * 1.3));
    if (v + 2 < count) indices.push(v, v + 1, v + 2);
    const k = v % 5;
    const total = (k * (k + 1)) / 2;
    influences.push(Array.from({ length: k }, (_, j) => [(j + v) % 4, (j + 1) / total]));
  }
  const lab = Lab.fromSceneJson(JSON.stringify({ bones, mesh: { positions, indices }, influences }));
  const rest = lab.skinnedNormals('lbs');
  lab.setBonePose(1, { rotation: aboutZ(0.7), scale: [1.5, 0.6, 1] });
  lab.setBonePose(2, { rotation: [Math.sin(0.4), 0, 0, Math.cos(0.4)] });
  lab.setBonePose(3, { rotation: aboutZ(-1.1), translation: [0.2, 0, 0.3] });
  // Each read skins afresh: the positions alone, then the normals with them.
  const alone = lab.skinnedPositions('lbs');
  const normals = lab.skinnedNormals('lbs');
  const matrices = bones.map((_, b) => Array.from(lab.skinningMatrix(b)));
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  let moved = 0;
  for (let v = 0; v < count; v++) {
    const pairs = lab.influences(v);
    const p = positions.slice(3 * v, 3 * v + 3);
    const n0 = vertexOf(rest, v);
    if (pairs.length === 0) {
      assert.deepEqual(vertexOf(alone, v), p.map(Math.fround), `vertex ${v} has no influence and stays`);
      continue;
    }
    const m = new Array(16).fill(0);
    for (const [b, w] of pairs) matrices[b].forEach((x, k) => { m[k] += w * x; });
    close(vertexOf(alone, v), [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]), 1e-5);
    // The normal: the blend's cofactor (its inverse-transpose's direction)
    // times the rest normal, normalised.
    const [a, b, c] = [0, 1, 2].map((k) => [m[4 * k], m[4 * k + 1], m[4 * k + 2]]);
    const rows = [cross(b, c), cross(c, a), cross(a, b)];
    const det = a[0] * rows[0][0] + a[1] * rows[0][1] + a[2] * rows[0][2];
    const n = [0, 1, 2].map((i) => Math.sign(det) * (rows[0][i] * n0[0] + rows[1][i] * n0[1] + rows[2][i] * n0[2]));
    const want = n.map((x) => x / Math.hypot(...n));
    assert.ok(vertexOf(normals, v).every((x, k) => Math.abs(x - want[k]) <= 1e-5), `vertex ${v} ${JSON.stringify(pairs)}: ${vertexOf(normals, v)} ≉ ${want}`);
    if (Math.hypot(...[0, 1, 2].map((k) => vertexOf(alone, v)[k] - p[k])) > 0.1) moved += 1;
  }
  assert.ok(moved > 40, `the pose moves most vertices (${moved})`);
});

test('a clip goes out and back in as JSON: the keys as they were, a clip of bones the scene lacks refused', () => {
  const lab = Lab.example('two-bone');
  const clip = lab.addAnimation('bend');
  lab.setBonePose(1, { rotation: aboutZ(0.5) });
  lab.setKey(clip, 1, { time: 0.5, interpolation: 'smooth' });
  lab.setBonePose(1, { rotation: aboutZ(-0.3) });
  lab.setKey(clip, 1, { time: 1.25 });
  const json = lab.clipJson(clip);
  const copy = lab.addClipJson(json);
  assert.equal(copy, clip + 1);
  assert.deepEqual(lab.keyTimes(copy, 1), lab.keyTimes(clip, 1));
  assert.equal(lab.clipJson(copy), json);
  for (const time of [0.2, 0.8, 1.1]) {
    lab.setAnimationTime(clip, time);
    const first = lab.bonePose(1).rotation;
    lab.setAnimationTime(copy, time);
    close(lab.bonePose(1).rotation, first, 0);
  }
  // The first clip replaced by the second's keys with bone 1's moved to bone 5.
  const moved = JSON.parse(json);
  for (const channel of moved.channels) channel.bone = 5;
  assert.throws(() => lab.setClipJson(clip, JSON.stringify(moved)), /^Error: setClipJson: .*bone/);
  assert.deepEqual([...lab.keyTimes(clip, 1)], [0.5, 1.25]);
  lab.free();
});
