// three.js's FBXLoader as the oracle for Skinlab's FBX reader: the world
// positions of every mesh vertex as three.js draws them, in the pose as
// loaded and at a time of a clip. FBXLoader builds one vertex per polygon
// corner, so callers compare point sets.
import * as THREE from 'three';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';

// Textures are not needed for positions, and Node has no image decoder:
// every texture three.js asks for is an empty one.
THREE.TextureLoader.prototype.load = function load(url, onLoad) {
  const texture = new THREE.Texture();
  queueMicrotask(() => onLoad?.(texture));
  return texture;
};
// FBXLoader and GLTFLoader turn an embedded image into a blob URL through
// `window.URL` and `self.URL`.
globalThis.window ??= globalThis;
globalThis.self ??= globalThis;

const quiet = (run) => {
  const { warn, log } = console;
  console.warn = () => {};
  console.log = () => {};
  try {
    return run();
  } finally {
    console.warn = warn;
    console.log = log;
  }
};

/**
 * Parses FBX `bytes` (a Uint8Array) with three.js and returns `{positions,
 * clips, unitScale}`: world positions at `time` of clip `clip` (null: as
 * loaded), the clips' names, and the file's UnitScaleFactor (centimetres
 * per unit), which three.js does not apply.
 */
export function threeFbxPositions(bytes, clip = null, time = 0) {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const root = quiet(() => new FBXLoader().parse(buffer, ''));
  if (clip !== null) {
    const mixer = new THREE.AnimationMixer(root);
    const action = mixer.clipAction(root.animations[clip]);
    action.setLoop(THREE.LoopOnce);
    action.clampWhenFinished = true;
    action.play();
    mixer.setTime(time);
  }
  root.updateMatrixWorld(true);
  const positions = [];
  const v = new THREE.Vector3();
  root.traverse((object) => {
    if (!object.isMesh) return;
    if (object.isSkinnedMesh) object.skeleton.update();
    const count = object.geometry.attributes.position.count;
    for (let i = 0; i < count; i++) {
      object.getVertexPosition(i, v);
      v.applyMatrix4(object.matrixWorld);
      positions.push(v.x, v.y, v.z);
    }
  });
  return {
    positions,
    clips: root.animations.map((a) => a.name),
    durations: root.animations.map((a) => a.duration),
    unitScale: root.userData.unitScaleFactor ?? 1,
  };
}

/**
 * The farthest any point of `a` is from its nearest point of `b`, or the
 * other way round (Hausdorff distance), with points hashed into a grid of
 * cell `cell` so large meshes stay quick; and the points' size.
 */
export function hausdorff(a, b, cell) {
  const key = (x, y, z) => `${Math.floor(x / cell)},${Math.floor(y / cell)},${Math.floor(z / cell)}`;
  const gridOf = (points) => {
    const grid = new Map();
    for (let i = 0; i < points.length; i += 3) {
      const k = key(points[i], points[i + 1], points[i + 2]);
      if (!grid.has(k)) grid.set(k, []);
      grid.get(k).push(i);
    }
    return grid;
  };
  const farthest = (from, to, grid) => {
    let far = 0;
    for (let i = 0; i < from.length; i += 3) {
      let near = Infinity;
      const [cx, cy, cz] = [from[i], from[i + 1], from[i + 2]].map((c) => Math.floor(c / cell));
      for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) for (let dz = -1; dz <= 1; dz++) {
        for (const j of grid.get(`${cx + dx},${cy + dy},${cz + dz}`) ?? []) {
          near = Math.min(near, Math.hypot(from[i] - to[j], from[i + 1] - to[j + 1], from[i + 2] - to[j + 2]));
        }
      }
      far = Math.max(far, near);
    }
    return far;
  };
  let size = 0;
  for (const c of b) size = Math.max(size, Math.abs(c));
  return { worstDistance: Math.max(farthest(a, b, gridOf(b)), farthest(b, a, gridOf(a))), size };
}
