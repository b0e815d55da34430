// Skinlab's FBX reader against three.js's FBXLoader on the files of
// tests/fbx/ (made by Blender's FBX exporter from the sample models, some
// rewritten as ASCII): the positions of every mesh as loaded and at times
// of every clip. FBXLoader builds one vertex per polygon corner, so the two
// point sets are compared without regard to order or repeats; Skinlab is
// in metres (the file's UnitScaleFactor / 100), three.js in file units, so
// three.js's points are scaled to metres first.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { Lab } from './wasm.mjs';
import { threeFbxPositions, hausdorff } from '../support/fbx-oracle.mjs';
import { worldPositions } from '../support/three-points.mjs';
import { threePositions } from '../support/corpus.mjs';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';

const dir = new URL('../fbx/', import.meta.url);
const files = readdirSync(dir).filter((name) => name.endsWith('.fbx')).sort();

test('the FBX corpus holds files of several exporters and both encodings', () => {
  assert.ok(files.length >= 6, files.join(', '));
  const ascii = files.filter((name) => readFileSync(new URL(name, dir)).subarray(0, 18).toString() !== 'Kaydara FBX Binary');
  assert.ok(ascii.length >= 1, 'at least one ASCII file');
});

for (const name of files) {
  test(`FBX ${name}: every mesh where three.js's FBXLoader puts it, as loaded and in each clip`, () => {
    const bytes = new Uint8Array(readFileSync(new URL(name, dir)));
    const lab = Lab.fromFbx(bytes);
    const loaded = threeFbxPositions(bytes);
    const skeletonOnly = loaded.positions.length === 0;
    // three.js lists takes by id where ids are small integers, Skinlab in
    // file order: the clips are matched by name.
    assert.deepEqual([...lab.animationNames()].sort(), [...loaded.clips].sort(), `${name}: a clip per take, by its name`);
    // Each clip at a quarter, half and all of its keys shared by every
    // track: FBXLoader reads cubic keys as linear, Skinlab follows their
    // tangents, and at a key the two agree.
    const poses = [[null, 0]];
    loaded.keyTimes.forEach((times, clip) => {
      const at = (f) => times[Math.min(times.length - 1, Math.round(f * (times.length - 1)))];
      for (const time of new Set(times.length > 0 ? [0.25, 0.5, 1].map(at) : [loaded.durations[clip]])) poses.push([clip, time]);
    });
    // As loaded, FBXLoader leaves every blend shape at 0: it reads a
    // channel's DeformPercent and does not use it. Skinlab rests a shape
    // at its DeformPercent, as Blender shows it (the test of Blender's own
    // frames below), so for this comparison its shapes are set to 0 too.
    const shapes = lab.morphWeights();
    lab.setMorphWeights(shapes.map(() => 0));
    for (const [clip, time] of poses) {
      if (clip !== null) lab.setAnimationTime(lab.animationNames().indexOf(loaded.clips[clip]), time);
      if (skeletonOnly) continue;
      const three = threeFbxPositions(bytes, clip, time);
      const metres = three.positions.map((c) => c * three.unitScale / 100);
      const ours = lab.skinnedPositions('lbs');
      const size = metres.reduce((m, c) => Math.max(m, Math.abs(c)), 0);
      const { worstDistance } = hausdorff(ours, metres, size / 20);
      console.log(`# ${name}, ${clip === null ? 'as loaded' : `${loaded.clips[clip]} t = ${time.toFixed(3)}`}: worst ${worstDistance.toExponential(2)} of size ${size.toFixed(3)}`);
      assert.ok(worstDistance <= 1e-4 * size, `${name} ${clip} ${time}: ${worstDistance} of ${size}`);
    }
  });
}

test('an opened FBX exports as a .glb the Khronos validator finds no error in, and three.js reads it back where Skinlab drew it', async () => {
  const { createRequire } = await import('node:module');
  const validator = createRequire(import.meta.url)('gltf-validator');
  for (const name of files) {
    const lab = Lab.fromFbx(new Uint8Array(readFileSync(new URL(name, dir))));
    const glb = lab.toGlb();
    const report = await validator.validateBytes(glb, { maxIssues: 50 });
    const errors = report.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} at ${m.pointer}: ${m.message}`);
    assert.deepEqual(errors, [], `${name}: no validator errors`);
    const three = await threePositions(glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength));
    const ours = [...lab.skinnedPositions('lbs')];
    const size = ours.reduce((m, c) => Math.max(m, Math.abs(c)), 0);
    const { worstDistance } = hausdorff(three.positions, ours, size / 20);
    console.log(`# ${name} exported: ${glb.length} bytes, read back within ${worstDistance.toExponential(2)}`);
    assert.ok(worstDistance <= 1e-4 * size, `${name}: ${worstDistance}`);
  }
});

test("a take of a skeleton-only FBX plays on the figure by joint names as the figure's own take does in three.js", () => {
  const figure = new Uint8Array(readFileSync(new URL('riggedfigure-blender.fbx', dir)));
  const skeleton = new Uint8Array(readFileSync(new URL('riggedfigure-skeleton-blender.fbx', dir)));
  const lab = Lab.fromFbx(figure);
  const motion = Lab.fromFbx(skeleton);
  const report = lab.retargetClip(motion, 0);
  assert.equal(report.clip, lab.animationNames().length - 1);
  assert.ok(report.matched >= 19, `${report.matched} bones moved`);
  const own = threeFbxPositions(figure);
  for (const f of [0.3, 0.6, 1]) {
    const time = own.durations[0] * f;
    lab.setAnimationTime(report.clip, time);
    const three = threeFbxPositions(figure, 0, time);
    const metres = three.positions.map((c) => c * three.unitScale / 100);
    const size = metres.reduce((m, c) => Math.max(m, Math.abs(c)), 0);
    const { worstDistance } = hausdorff(lab.skinnedPositions('lbs'), metres, size / 20);
    console.log(`# the skeleton's take on the figure, t = ${time.toFixed(3)}: worst ${worstDistance.toExponential(2)} of size ${size.toFixed(3)}`);
    assert.ok(worstDistance <= 1e-4 * size, `${time}: ${worstDistance}`);
  }
  // A model sharing no joint name is refused, and keeps its clips.
  const shapes = Lab.fromFbx(new Uint8Array(readFileSync(new URL('shapes-takes-blender.fbx', dir))));
  const before = shapes.animationNames().length;
  assert.throws(() => shapes.retargetClip(motion, 0), /retargetClip: .*share no name/);
  assert.equal(shapes.animationNames().length, before);
});

test('an FBX texture is read embedded, or from the files chosen with the .fbx', () => {
  const fox = Lab.fromFbx(new Uint8Array(readFileSync(new URL('fox-zup-blender.fbx', dir))));
  const [material] = fox.materials();
  assert.equal(material.texture, 0, 'the fox wears its embedded texture');
  const [image] = fox.textureImages();
  assert.equal(image.mimeType, 'image/png');
  assert.deepEqual([image.width, image.height], [1024, 1024]);
  // The figure names no texture: the files given change nothing.
  const figure = Lab.fromFbx(new Uint8Array(readFileSync(new URL('riggedfigure-blender.fbx', dir))), {});
  assert.deepEqual(figure.textureImages(), []);
});

/** The vertices of the OBJ `name` in tests/fbx/frames/ (a program's own frame), as three.js's OBJLoader reads them. */
function programFrame(name) {
  return worldPositions(new OBJLoader().parse(readFileSync(new URL(`frames/${name}`, dir), 'utf8')));
}

test("skins and blend shapes as in Blender's own frames", () => {
  // Blender's OBJ export of the scene as it showed it (from ufbx's test
  // data): a cube squashed and stretched by two shapes at rest (0.35 and
  // −0.4), a cube whose shape's weight is keyed, at frames 5, 15, 25, and
  // the skinned sausage in each of its three takes.
  const sausage = '../ufbx-blender_279_sausage_7400_binary.fbx';
  const frames = [
    ['ufbx-blender_331_static_blend_shape_7400_binary.fbx', null, 0, 'ufbx-blender_331_static_blend_shape.obj'],
    ...[5, 15, 25].map((frame) => ['ufbx-blender440_shape_weight_anim_7400_binary.fbx', 'Cube|Action', frame, `ufbx-blender440_shape_weight_anim_${frame}.obj`]),
    [sausage, 'Skeleton|Base', 0, 'ufbx-blender_279_sausage_base_0.obj'],
    [sausage, 'Skeleton|Spin', 15, 'ufbx-blender_279_sausage_spin_15.obj'],
    [sausage, 'Skeleton|Wiggle', 20, 'ufbx-blender_279_sausage_wiggle_20.obj'],
  ];
  for (const [file, clip, frame, obj] of frames) {
    const lab = Lab.fromFbx(new Uint8Array(readFileSync(new URL(`frames/${file}`, dir))));
    if (clip !== null) lab.setAnimationTime(lab.animationNames().indexOf(clip), frame / 24);
    const blender = programFrame(obj);
    const size = blender.reduce((m, c) => Math.max(m, Math.abs(c)), 0);
    const ours = lab.skinnedPositions('lbs');
    const { worstDistance } = hausdorff(ours, blender, size / 20);
    console.log(`# ${obj}: worst ${worstDistance.toExponential(2)} of size ${size.toFixed(3)} (weights ${[...lab.morphWeights()].map((w) => w.toFixed(3))})`);
    assert.ok(worstDistance <= 1e-4 * size, `${obj}: ${worstDistance} of ${size}`);
    // FBXLoader, which leaves the shapes at 0, draws the plain cube.
    const three = threeFbxPositions(new Uint8Array(readFileSync(new URL(`frames/${file}`, dir))));
    const plain = hausdorff(three.positions.map((c) => c * three.unitScale / 100), blender, size / 20).worstDistance;
    if (obj.includes('static_blend')) assert.ok(plain > 0.05 * size, `three.js draws the cube without its shapes (${plain})`);
  }
});

test("big-endian, zero-ended and audio-holding files draw Maya's cube where three.js draws the plain file", () => {
  const odd = new URL('odd/', dir);
  const plain = threeFbxPositions(new Uint8Array(readFileSync(new URL('ufbx-maya_cube_7400_binary.fbx', odd))));
  const metres = plain.positions.map((c) => c * plain.unitScale / 100);
  const size = metres.reduce((m, c) => Math.max(m, Math.abs(c)), 0);
  for (const name of readdirSync(odd).filter((n) => n.endsWith('.fbx'))) {
    const lab = Lab.fromFbx(new Uint8Array(readFileSync(new URL(name, odd))));
    const { worstDistance } = hausdorff(lab.skinnedPositions('lbs'), metres, size / 20);
    assert.ok(worstDistance <= 1e-6 * size, `${name}: ${worstDistance} of ${size}`);
  }
});

test("3ds Max's geometric transforms, on instances and in their order, as Max draws them", () => {
  // 3ds Max's OBJ exports of its scenes (from ufbx's test data), in inches
  // and Z up; Skinlab's points are in metres and Y up.
  for (const [file, obj] of [
    ['ufbx-max_geometry_transform_instances_7700_binary.fbx', 'ufbx-max_geometry_transform_instances.obj'],
    ['ufbx-max_geometry_transform_order_7700_ascii.fbx', 'ufbx-max_geometry_transform_order.obj'],
  ]) {
    const bytes = new Uint8Array(readFileSync(new URL(`frames/${file}`, dir)));
    const ours = Lab.fromFbx(bytes).skinnedPositions('lbs');
    const inches = [];
    for (let i = 0; i < ours.length; i += 3) inches.push(ours[i] / 0.0254, -ours[i + 2] / 0.0254, ours[i + 1] / 0.0254);
    const max = programFrame(obj);
    const size = max.reduce((m, c) => Math.max(m, Math.abs(c)), 0);
    const worst = Math.max(hausdorff(inches, max, size / 20).worstDistance, hausdorff(max, inches, size / 20).worstDistance);
    console.log(`# ${obj}: worst ${worst.toExponential(2)} of size ${size.toFixed(3)}`);
    assert.ok(worst <= 1e-4 * size, `${obj}: ${worst} of ${size}`);
  }
});

test("MotionBuilder's and Maya's inheritance modes, as the programs draw them and as three.js plays their export", async () => {
  // ufbx's test files with the programs' own OBJ frames (centimetres, Y
  // up): MotionBuilder's sausage of three bones, each scaled twice along
  // another axis and each taking its parent's scale along its own axes
  // (InheritType 0, RrSs), at frames 0–48; Maya's fork whose joints mix
  // plain inheritance with segment scale compensation (InheritType 2,
  // Rrs) under parents scaled unevenly, at frames 0–7. A scene graph of
  // translation, rotation and scale holds neither without the frame nodes
  // that undo the parents' scale.
  const { createRequire } = await import('node:module');
  const validator = createRequire(import.meta.url)('gltf-validator');
  const files = [
    ['ufbx-motionbuilder_sausage_rrss_7700_binary.fbx', [0, 12, 24, 36, 48], (f) => `ufbx-motionbuilder_sausage_rrss${f ? `_${f}` : ''}.obj`],
    ['ufbx-maya_mixed_inherit_mode_7700_ascii.fbx', [0, 1, 2, 3, 4, 5, 6, 7], (f) => `ufbx-maya_mixed_inherit_mode_${f}.obj`],
  ];
  for (const [file, frames, objOf] of files) {
    const lab = Lab.fromFbx(new Uint8Array(readFileSync(new URL(`frames/${file}`, dir))));
    for (const frame of frames) {
      lab.setAnimationTime(0, frame / 24);
      const program = programFrame(objOf(frame));
      const ours = Array.from(lab.skinnedPositions('lbs'), (c) => c * 100);
      const size = program.reduce((m, c) => Math.max(m, Math.abs(c)), 0);
      const worst = Math.max(hausdorff(ours, program, size / 2).worstDistance, hausdorff(program, ours, size / 2).worstDistance);
      console.log(`# ${objOf(frame)}: worst ${worst.toExponential(2)} of size ${size.toFixed(2)}`);
      assert.ok(worst <= 1e-5 * size, `${file} at frame ${frame}: ${worst} of ${size}`);
    }
    // The export, frame nodes and their keys included: valid, and played
    // by three.js's GLTFLoader and AnimationMixer as the program drew it.
    const glb = lab.toGlb();
    const report = await validator.validateBytes(glb, { maxIssues: 50 });
    const errors = report.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} at ${m.pointer}`);
    assert.deepEqual(errors, [], `${file}: no validator errors in its export`);
    for (const frame of [frames[0], frames[frames.length - 1]]) {
      const three = await threePositions(glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength), 0, frame / 24);
      const program = programFrame(objOf(frame));
      const size = program.reduce((m, c) => Math.max(m, Math.abs(c)), 0);
      const played = three.positions.map((c) => c * 100);
      const worst = Math.max(hausdorff(played, program, size / 2).worstDistance, hausdorff(program, played, size / 2).worstDistance);
      console.log(`# ${objOf(frame)} from the export in three.js: worst ${worst.toExponential(2)}`);
      assert.ok(worst <= 1e-4 * size, `${file} exported, at frame ${frame}: ${worst} of ${size}`);
    }
  }
});

/** The area of the triangle `a b c` of the points `p` (x, y, z, x, …). */
function triangleArea(p, a, b, c) {
  const u = [0, 1, 2].map((k) => p[3 * b + k] - p[3 * a + k]);
  const v = [0, 1, 2].map((k) => p[3 * c + k] - p[3 * a + k]);
  return Math.hypot(u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]) / 2;
}

test('concave polygons cover the area three.js covers with them', () => {
  // Blender 3.0's n-gons (from ufbx's test data): a fan from a polygon's
  // first corner covers a concave polygon's notches too, and overlaps.
  // The irregular file's polygons cross themselves: there three.js's ear
  // clipping leaves holes (two triangles for a pentagon) and Skinlab cuts
  // fans, so only its triangle count is checked.
  const ngons = new URL('ngons/', dir);
  const irregular = Lab.fromFbx(new Uint8Array(readFileSync(new URL('ufbx-blender_300_ngon_irregular_7400_binary.fbx', ngons))));
  assert.equal(irregular.indexCount() / 3, 41, 'n − 2 triangles for each polygon');
  for (const name of readdirSync(ngons).filter((n) => n.endsWith('.fbx') && !n.includes('irregular')).sort()) {
    const bytes = new Uint8Array(readFileSync(new URL(name, ngons)));
    const lab = Lab.fromFbx(bytes);
    const positions = lab.skinnedPositions('lbs');
    const { indices } = JSON.parse(lab.sceneJson()).mesh;
    let ours = 0;
    for (let i = 0; i < indices.length; i += 3) ours += triangleArea(positions, indices[i], indices[i + 1], indices[i + 2]);
    const three = threeFbxPositions(bytes);
    const corners = three.positions.map((c) => c * three.unitScale / 100);
    let theirs = 0;
    for (let i = 0; i < corners.length / 3; i += 3) theirs += triangleArea(corners, i, i + 1, i + 2);
    console.log(`# ${name}: ${indices.length / 3} triangles over ${ours.toFixed(6)} m², three.js's over ${theirs.toFixed(6)}`);
    // The 8,030-corner polygon is not quite flat, and the two project it
    // onto different planes before clipping.
    const tolerance = name.includes('big') ? 0.01 : 1e-6;
    assert.ok(Math.abs(ours - theirs) <= tolerance * theirs, `${name}: ${ours} m² for ${theirs}`);
  }
});
