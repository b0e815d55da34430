// A character the size of a usual Mixamo figure, built with glTF-Transform:
// a 65-joint tree (spine, neck and head, two arms of 4 plus five fingers of
// 3, two legs of 4, the rest in a tail) under a 0.01 armature, 30,000
// vertices each weighted to up to four joints, and a clip keying every
// joint's rotation 30 times. For `cargo xtask bench`.
import { Document, NodeIO } from '@gltf-transform/core';
import * as THREE from 'three';

export async function characterGlb({ vertices = 30000, joints = 65, keys = 30 } = {}) {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (type, array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const scene = doc.createScene();
  const armature = doc.createNode('Armature').setRotation([Math.SQRT1_2, 0, 0, Math.SQRT1_2]).setScale([0.01, 0.01, 0.01]);
  scene.addChild(armature);
  // A random tree: each joint hangs from an earlier one, 10 cm further.
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const nodes = [];
  const parents = [];
  const globals = [];
  for (let j = 0; j < joints; j++) {
    const parent = j === 0 ? null : Math.floor(random() * j * 0.3 + j * 0.7) % j;
    const t = j === 0 ? [0, 0, 100] : [random() * 10 - 5, random() * 10 - 5, 10];
    const node = doc.createNode(`joint ${j}`).setTranslation(t);
    (parent === null ? armature : nodes[parent]).addChild(node);
    nodes.push(node);
    parents.push(parent);
    const local = new THREE.Matrix4().makeTranslation(...t);
    globals.push(parent === null ? new THREE.Matrix4().makeRotationX(Math.PI / 2).scale(new THREE.Vector3(0.01, 0.01, 0.01)).multiply(local) : globals[parent].clone().multiply(local));
  }
  const ibm = new Float32Array(16 * joints);
  globals.forEach((g, j) => ibm.set(g.clone().invert().toArray(), 16 * j));
  const skin = doc.createSkin().setSkeleton(armature).setInverseBindMatrices(accessor('MAT4', ibm));
  nodes.forEach((node) => skin.addJoint(node));
  // Vertices scattered around the joints, weighted to a joint and its
  // parent chain.
  const positions = new Float32Array(3 * vertices);
  const jointIndices = new Uint16Array(4 * vertices);
  const weights = new Float32Array(4 * vertices);
  const p = new THREE.Vector3();
  for (let v = 0; v < vertices; v++) {
    const j = Math.floor(random() * joints);
    p.set(random() * 0.1 - 0.05, random() * 0.1 - 0.05, random() * 0.1 - 0.05).add(new THREE.Vector3().setFromMatrixPosition(globals[j]));
    positions.set([p.x, p.y, p.z], 3 * v);
    let chain = j;
    let left = 1;
    for (let k = 0; k < 4; k++) {
      const w = k === 3 ? left : left * (0.4 + 0.4 * random());
      jointIndices[4 * v + k] = chain;
      weights[4 * v + k] = w;
      left -= w;
      chain = parents[chain] ?? chain;
    }
  }
  const indices = new Uint32Array(3 * Math.floor(vertices / 3));
  for (let k = 0; k < indices.length; k++) indices[k] = k;
  const primitive = doc.createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', positions))
    .setAttribute('JOINTS_0', accessor('VEC4', jointIndices))
    .setAttribute('WEIGHTS_0', accessor('VEC4', weights))
    .setIndices(accessor('SCALAR', indices));
  scene.addChild(doc.createNode('body').setMesh(doc.createMesh('body').addPrimitive(primitive)).setSkin(skin));
  const animation = doc.createAnimation('dance');
  const times = new Float32Array(keys).map((_, k) => k / 10);
  const input = accessor('SCALAR', times);
  nodes.forEach((node) => {
    const values = new Float32Array(4 * keys);
    for (let k = 0; k < keys; k++) {
      const q = new THREE.Quaternion().setFromEuler(new THREE.Euler(random() - 0.5, random() - 0.5, random() - 0.5));
      values.set(q.toArray(), 4 * k);
    }
    const sampler = doc.createAnimationSampler().setInput(input).setOutput(accessor('VEC4', values));
    animation.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath('rotation').setSampler(sampler));
  });
  return new NodeIO().writeBinary(doc);
}
