// A corpus of skinned glTF files, one per case real exporters write, built
// with glTF-Transform (an independent glTF writer), and the positions
// three.js draws for them (GLTFLoader, AnimationMixer, getVertexPosition,
// every mesh in world space): the oracle Skinlab is compared with.
import { Document, NodeIO, Format } from '@gltf-transform/core';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { poseAt, worldPositions } from './three-points.mjs';

// three.js's FileLoader reports progress with the browser's ProgressEvent,
// which Node lacks; it fetches the data URIs with Node's own fetch.
globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) {
    super(type);
    Object.assign(this, init);
  }
};

const JOINTS = 3;
const SEGMENT = 1; // joint spacing, before any scale

/** The bind-time global matrices of a chain of nodes given as [t, r, s]. */
function globals(locals, parents) {
  const out = [];
  locals.forEach(([t, r, s], k) => {
    const local = new THREE.Matrix4().compose(new THREE.Vector3(...t), new THREE.Quaternion(...r), new THREE.Vector3(...s));
    out.push(parents[k] === null ? local : out[parents[k]].clone().multiply(local));
  });
  return out;
}

/** A strip of quads around a chain of joints up +Y, weighted to the two nearest joints. */
function strip(unit) {
  const positions = [];
  const joints = [];
  const weights = [];
  const indices = [];
  const rows = 13;
  for (let row = 0; row < rows; row++) {
    const y = (row / (rows - 1)) * JOINTS * SEGMENT * unit;
    const along = y / (SEGMENT * unit);
    const lower = Math.min(Math.floor(along), JOINTS - 1);
    const upper = Math.min(lower + 1, JOINTS - 1);
    const f = Math.min(Math.max(along - lower, 0), 1);
    const wUpper = upper === lower ? 0 : Math.max(0, f - 0.5) ;
    const wLower = 1 - wUpper;
    for (const [x, z] of [[-0.2, 0.05], [0.2, -0.05]]) {
      positions.push(x * unit, y, z * unit);
      joints.push(lower, upper, 0, 0);
      weights.push(wLower, wUpper, 0, 0);
    }
    if (row > 0) {
      const a = 2 * (row - 1);
      indices.push(a, a + 1, a + 3, a, a + 3, a + 2);
    }
  }
  return { positions, joints, weights, indices };
}

const IDENTITY_Q = [0, 0, 0, 1];
const aboutZ = (angle) => [0, 0, Math.sin(angle / 2), Math.cos(angle / 2)];
const aboutX = (angle) => [Math.sin(angle / 2), 0, 0, Math.cos(angle / 2)];

/**
 * Builds one case as embedded .gltf text. Options:
 * armature: [t, r, s] of a node above the root joint (or null);
 * jointScales: per-joint rest scale; bindScale: a scale the bind pose had
 * that the rest pose lacks (scaled inverse bind matrices); rigid: a box on
 * the last joint; secondSkin: a second skinned mesh with a superset skin;
 * joints1: a second set of four influences; outside: joints left out of
 * the scene; animateArmature: the armature is animated; required: extra
 * extensionsRequired.
 */
export async function buildCase(options = {}) {
  const unit = options.unit ?? 1;
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (type, array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const scene = doc.createScene('scene');

  // Nodes: optional armature, then the joint chain.
  const locals = [];
  const parents = [];
  let armature = null;
  if (options.armature) {
    armature = doc.createNode('Armature').setTranslation(options.armature[0]).setRotation(options.armature[1]).setScale(options.armature[2]);
    locals.push(options.armature);
    parents.push(null);
  }
  const jointNodes = [];
  for (let k = 0; k < JOINTS; k++) {
    const t = k === 0 ? [0, 0, 0] : [0, SEGMENT * unit, 0];
    const s = options.jointScales?.[k] ?? [1, 1, 1];
    const node = doc.createNode(`joint ${k}`).setTranslation(t).setRotation(IDENTITY_Q).setScale(s);
    jointNodes.push(node);
    locals.push([t, IDENTITY_Q, s]);
    parents.push(k === 0 ? (armature ? 0 : null) : locals.length - 2);
    if (k > 0) jointNodes[k - 1].addChild(node);
  }
  if (armature) armature.addChild(jointNodes[0]);
  const skeletonRoot = armature ?? jointNodes[0];
  if (!options.outside) scene.addChild(skeletonRoot);

  // Inverse bind matrices from the bind pose (three.js math, not Skinlab's).
  const bindLocals = locals.map(([t, r, s], k) => {
    const jointIndex = armature ? k - 1 : k;
    if (options.bindScale && jointIndex === 1) return [t, r, s.map((v) => v * options.bindScale)];
    return [t, r, s];
  });
  const bindGlobals = globals(bindLocals, parents);
  const firstJoint = armature ? 1 : 0;
  const inverseBind = (k) => bindGlobals[firstJoint + k].clone().invert().toArray();
  const ibm = new Float32Array(JOINTS * 16);
  for (let k = 0; k < JOINTS; k++) ibm.set(inverseBind(k), 16 * k);
  const skin = doc.createSkin('skin').setSkeleton(skeletonRoot).setInverseBindMatrices(accessor('MAT4', ibm));
  jointNodes.forEach((node) => skin.addJoint(node));

  // The skinned strip, in bind space (the mesh node at the identity).
  const { positions, joints, weights, indices } = strip(unit);
  const bindPositions = new Float32Array(positions.length);
  for (let v = 0; v < positions.length / 3; v++) {
    // Rest the strip where the bind pose puts it: the joint chain's bind
    // globals applied to the chain-relative positions of joint 0's space.
    const p = new THREE.Vector3(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]).applyMatrix4(bindGlobals[firstJoint]);
    bindPositions.set([p.x, p.y, p.z], 3 * v);
  }
  const primitive = doc.createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', bindPositions))
    .setAttribute('JOINTS_0', accessor('VEC4', new Uint16Array(joints)))
    .setAttribute('WEIGHTS_0', accessor('VEC4', new Float32Array(weights)))
    .setIndices(accessor('SCALAR', new Uint16Array(indices)));
  if (options.joints1Merged) {
    // What Skinlab keeps of the eight influences below: the same joints
    // merged, the four largest, renormalised, all in set 0.
    const j0 = [];
    const w0 = [];
    for (let v = 0; v < positions.length / 3; v++) {
      const merged = new Map();
      const add = (j, w) => merged.set(j, (merged.get(j) ?? 0) + w);
      for (let k = 0; k < 4; k++) if (weights[4 * v + k] > 0) add(joints[4 * v + k], weights[4 * v + k]);
      add(2, 0.01);
      add(1, 0.005);
      const kept = [...merged].sort((a, b) => b[1] - a[1]).slice(0, 4);
      const total = kept.reduce((sum, [, w]) => sum + w, 0);
      for (let k = 0; k < 4; k++) {
        j0.push(kept[k]?.[0] ?? 0);
        w0.push((kept[k]?.[1] ?? 0) / total);
      }
    }
    primitive.setAttribute('JOINTS_0', accessor('VEC4', new Uint16Array(j0)));
    primitive.setAttribute('WEIGHTS_0', accessor('VEC4', new Float32Array(w0)));
  }
  if (options.joints1) {
    // Eight influences: the four largest in set 0 (normalised there, as
    // Skinlab keeps them), small ones in set 1.
    const j1 = [];
    const w1 = [];
    const w0 = new Float32Array(weights);
    for (let v = 0; v < positions.length / 3; v++) {
      j1.push(2, 1, 0, 2);
      w1.push(0.01, 0.005, 0, 0);
    }
    primitive.setAttribute('JOINTS_1', accessor('VEC4', new Uint16Array(j1)));
    primitive.setAttribute('WEIGHTS_1', accessor('VEC4', new Float32Array(w1)));
    primitive.setAttribute('WEIGHTS_0', accessor('VEC4', w0));
  }
  const stripMesh = doc.createMesh('strip').addPrimitive(primitive);
  if (options.morphs) {
    // Two morph targets written as sparse accessors (as Blender writes
    // shape keys): the top rows lean in x, one vertex in four bulges in z.
    const count = bindPositions.length / 3;
    const lean = new Float32Array(3 * count);
    const bulge = new Float32Array(3 * count);
    for (let v = 0; v < count; v++) {
      if (v >= count - 6) lean[3 * v] = 0.3 * unit;
      if (v % 4 === 0) bulge[3 * v + 2] = 0.2 * unit;
    }
    for (const offsets of [lean, bulge]) {
      primitive.addTarget(doc.createPrimitiveTarget().setAttribute('POSITION', accessor('VEC3', offsets).setSparse(true)));
    }
    stripMesh.setWeights([0.5, 0.75]);
  }
  const skinned = doc.createNode('skinned').setMesh(stripMesh).setSkin(skin);
  if (options.meshUnderArmature) {
    // As older Blender versions wrote a mesh parented to its armature: the
    // skinned mesh node under the armature's transform, with a small
    // transform of its own; glTF says to ignore both, and three.js does
    // (its SkinnedMesh in "attached" mode undoes its own world matrix).
    skinned.setTranslation([0, 0.1 * unit, 0]);
    armature.addChild(skinned);
  } else {
    scene.addChild(skinned);
  }

  if (options.secondSkin) {
    // A second mesh bound by a skin that lists the joints in another
    // order, with one more joint (the armature or a new node).
    const extra = doc.createNode('extra joint').setTranslation([0.5 * unit, 0, 0]);
    jointNodes[0].addChild(extra);
    const order = [2, 0, 1];
    const ibm2 = new Float32Array(16 * 4);
    order.forEach((k, slot) => ibm2.set(inverseBind(k), 16 * slot));
    const extraGlobal = bindGlobals[firstJoint].clone().multiply(new THREE.Matrix4().makeTranslation(0.5 * unit, 0, 0));
    ibm2.set(extraGlobal.invert().toArray(), 48);
    const skin2 = doc.createSkin('skin 2').setInverseBindMatrices(accessor('MAT4', ibm2));
    order.forEach((k) => skin2.addJoint(jointNodes[k]));
    skin2.addJoint(extra);
    const slotOf = (k) => order.indexOf(k);
    const j2 = joints.map((j, n) => (n % 4 === 2 ? 3 : slotOf(j)));
    const w2 = weights.map((w, n) => (n % 4 === 2 ? 0.25 : w * 0.75));
    const moved = new Float32Array(bindPositions.map((p, n) => (n % 3 === 2 ? p + 0.3 * unit : p)));
    const primitive2 = doc.createPrimitive()
      .setAttribute('POSITION', accessor('VEC3', moved))
      .setAttribute('JOINTS_0', accessor('VEC4', new Uint16Array(j2)))
      .setAttribute('WEIGHTS_0', accessor('VEC4', new Float32Array(w2)))
      .setIndices(accessor('SCALAR', new Uint16Array(indices)));
    scene.addChild(doc.createNode('skinned 2').setMesh(doc.createMesh('strip 2').addPrimitive(primitive2)).setSkin(skin2));
  }

  if (options.rigid || options.staticMesh || options.stripAndLines) {
    const box = [];
    for (const x of [-0.1, 0.1]) for (const y of [0, 0.2]) for (const z of [-0.1, 0.1]) box.push(x * unit, y * unit, z * unit);
    const boxIndices = [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6];
    const boxMesh = () => doc.createMesh('box').addPrimitive(doc.createPrimitive()
      .setAttribute('POSITION', accessor('VEC3', new Float32Array(box)))
      .setIndices(accessor('SCALAR', new Uint16Array(boxIndices))));
    if (options.rigid) {
      const hand = doc.createNode('hand').setMesh(boxMesh()).setTranslation([0, SEGMENT * unit, 0]).setRotation(aboutX(0.3)).setScale([1, 1.5, 1]);
      jointNodes[JOINTS - 1].addChild(hand);
    }
    if (options.stripAndLines) {
      // A triangle strip and a line loop beside the character.
      const strip = new Float32Array([0, 0, 0, 0.2, 0, 0, 0, 0.2, 0, 0.2, 0.2, 0, 0, 0.4, 0.1].map((v) => v * unit));
      const mesh = doc.createMesh('ribbon')
        .addPrimitive(doc.createPrimitive().setMode(5).setAttribute('POSITION', accessor('VEC3', strip)))
        .addPrimitive(doc.createPrimitive().setMode(2).setAttribute('POSITION', accessor('VEC3', strip.slice(0, 9))));
      scene.addChild(doc.createNode('ribbon').setMesh(mesh).setTranslation([-1 * unit, 0, 0]));
    }
    if (options.staticMesh) {
      scene.addChild(doc.createNode('table').setMesh(boxMesh()).setTranslation([1.5 * unit, 0, 0]).setScale([3, 0.5, 3]));
    }
  }

  // A clip: the middle joint bends, the root turns and rises.
  const animation = doc.createAnimation('bend');
  const channel = (node, path, times, values, type) => {
    const sampler = doc.createAnimationSampler()
      .setInput(accessor('SCALAR', new Float32Array(times)))
      .setOutput(accessor(type, new Float32Array(values)))
      .setInterpolation('LINEAR');
    animation.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler));
  };
  channel(jointNodes[1], 'rotation', [0, 1, 2], [...IDENTITY_Q, ...aboutZ(1.2), ...aboutZ(-0.6)], 'VEC4');
  channel(jointNodes[0], 'rotation', [0, 2], [...IDENTITY_Q, ...aboutX(0.5)], 'VEC4');
  channel(jointNodes[0], 'translation', [0, 2], [0, 0, 0, 0, 0.3 * unit, 0], 'VEC3');
  if (options.animateJointScale) channel(jointNodes[2], 'scale', [0, 2], [1, 1, 1, 1.5, 0.5, 1], 'VEC3');
  if (options.animateArmature && armature) {
    channel(armature, 'rotation', [0, 2], [...options.armature[1], ...new THREE.Quaternion(...options.armature[1]).multiply(new THREE.Quaternion(...aboutZ(0.7))).toArray()], 'VEC4');
  }

  const io = new NodeIO();
  const { json, resources } = await io.writeJSON(doc, { format: Format.GLTF });
  for (const b of json.buffers ?? []) {
    const bytes = resources[b.uri];
    b.uri = `data:application/octet-stream;base64,${Buffer.from(bytes).toString('base64')}`;
  }
  if (options.required) {
    json.extensionsUsed = [...(json.extensionsUsed ?? []), ...options.required];
    json.extensionsRequired = [...(json.extensionsRequired ?? []), ...options.required];
  }
  return JSON.stringify(json);
}

/** three.js's world positions of every mesh, in scene order, at `time` of clip `clip` (or the default pose). */
export async function threePositions(text, clip = null, time = 0) {
  const gltf = await new Promise((resolve, reject) => new GLTFLoader().parse(text, '', resolve, reject));
  const root = gltf.scene;
  if (clip !== null) {
    // glTF's rotations are unit quaternions; three.js composes a key as
    // stored, so a file's slightly long keys (SimpleSkin's reach 1.00023)
    // would scale its bones. The oracle normalises them, as the spec means.
    for (const track of gltf.animations[clip].tracks) {
      if (!track.name.endsWith('.quaternion')) continue;
      const v = track.values;
      for (let k = 0; k < v.length; k += 4) {
        const n = Math.hypot(v[k], v[k + 1], v[k + 2], v[k + 3]);
        for (let c = 0; c < 4; c++) v[k + c] /= n;
      }
    }
    poseAt(root, gltf.animations[clip], time);
  }
  return { positions: worldPositions(root), clips: gltf.animations.map((a) => a.name) };
}

/** The cases: name and options. */
export const CASES = [
  ['plain chain', {}],
  ['armature scale 0.01 (Mixamo from Blender)', { unit: 100, armature: [[0, 0, 0], aboutX(Math.PI / 2), [0.01, 0.01, 0.01]] }],
  ['non-uniform armature scale', { armature: [[0.5, 0, 0], aboutZ(0.3), [1, 2, 0.5]] }],
  ['scaled joints', { jointScales: [[1, 1, 1], [1.5, 1.5, 1.5], [1, 2, 1]] }],
  ['animated joint scale', { jointScales: [[1, 1, 1], [1.2, 0.8, 1], [1, 1, 1]], animateJointScale: true }],
  ['scaled bind matrices', { bindScale: 1.7 }],
  ['rigid mesh on a joint', { rigid: true }],
  ['static mesh beside the character', { staticMesh: true, armature: [[0, 0, 0], IDENTITY_Q, [2, 2, 2]] }],
  ['two skins, the second a superset', { secondSkin: true }],
  // three.js draws JOINTS_0 only: its oracle is the same file with the
  // eight influences merged, pruned to the four largest and renormalised.
  ['JOINTS_1 and WEIGHTS_1', { joints1: true }, { joints1Merged: true }],
  ['texture-only required extension', { required: ['EXT_texture_webp'] }],
  // three.js leaves joints outside the scene out of its animation: the
  // default pose is compared.
  ['joints outside the scene', { outside: true }, null, { defaultPoseOnly: true }],
  ['skinned mesh under a 0.01, turned armature (its own transform ignored, as glTF says and three.js does)', { unit: 100, armature: [[0, 0, 0], aboutX(Math.PI / 2), [0.01, 0.01, 0.01]], meshUnderArmature: true }],
  ['morph targets in sparse accessors', { morphs: true, unit: 100, armature: [[0, 0, 0], [0, 0, 0, 1], [0.01, 0.01, 0.01]] }],
  ['a triangle strip and a line loop beside the character', { stripAndLines: true }],
  ['animated non-joint ancestor', { armature: [[0, 0.2, 0], aboutX(0.2), [1, 1, 1]], animateArmature: true }],
];

/**
 * The case `text` compressed with Draco or meshopt by glTF-Transform, as a
 * .glb, and its oracle: the same .glb decoded by glTF-Transform's own
 * reader (an implementation independent of Skinlab's `www/decompress.js`),
 * written back uncompressed as embedded .gltf text, same vertex order.
 */
export async function compressedCase(text, how) {
  const { NodeIO } = await import('@gltf-transform/core');
  const { ALL_EXTENSIONS } = await import('@gltf-transform/extensions');
  const { draco, meshopt } = await import('@gltf-transform/functions');
  const draco3d = (await import('draco3dgltf')).default;
  const { MeshoptEncoder, MeshoptDecoder } = await import('meshoptimizer');
  await MeshoptEncoder.ready;
  await MeshoptDecoder.ready;
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
    'draco3d.encoder': await draco3d.createEncoderModule(),
    'draco3d.decoder': await draco3d.createDecoderModule(),
    'meshopt.encoder': MeshoptEncoder,
    'meshopt.decoder': MeshoptDecoder,
  });
  const json = JSON.parse(text);
  const resources = {};
  json.buffers.forEach((buffer, k) => {
    const uri = `buffer${k}.bin`;
    resources[uri] = new Uint8Array(Buffer.from(buffer.uri.split(',')[1], 'base64'));
    buffer.uri = uri;
  });
  const document = await io.readJSON({ json, resources });
  if (how === 'draco') await document.transform(draco({ quantizePosition: 16, quantizeGeneric: 16 }));
  else await document.transform(meshopt({ encoder: MeshoptEncoder, level: 'medium', quantizePosition: 16, quantizeWeight: 16 }));
  const glb = await io.writeBinary(document);
  const decoded = await io.readBinary(glb);
  for (const extension of decoded.getRoot().listExtensionsUsed()) {
    if (/draco|meshopt/i.test(extension.extensionName)) extension.dispose();
  }
  const plain = await io.writeJSON(decoded, { format: Format.GLTF });
  for (const b of plain.json.buffers ?? []) {
    b.uri = `data:application/octet-stream;base64,${Buffer.from(plain.resources[b.uri]).toString('base64')}`;
  }
  return { glb, oracle: JSON.stringify(plain.json), used: JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true)))).extensionsRequired };
}
