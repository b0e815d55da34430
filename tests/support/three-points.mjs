// What the three.js oracles share: a scene posed at a time of a clip, every
// mesh vertex of it in world space as three.js draws it, and how far two
// such point sets are apart.
import * as THREE from 'three';

/**
 * Poses `root` at `time` (seconds) of `animation`, played once and held at
 * its last key, as Skinlab, glTF and FBX hold a clip's ends.
 */
export function poseAt(root, animation, time) {
  const mixer = new THREE.AnimationMixer(root);
  const action = mixer.clipAction(animation);
  action.setLoop(THREE.LoopOnce);
  action.clampWhenFinished = true;
  action.play();
  mixer.setTime(time);
}

/**
 * Every mesh vertex under `root` in world space, in traversal order, as
 * three.js draws it: `getVertexPosition` (skinning and morphs applied),
 * then the mesh's world matrix. Skeleton bones outside the scene graph are
 * brought up to date first.
 */
export function worldPositions(root) {
  root.updateMatrixWorld(true);
  const out = [];
  const v = new THREE.Vector3();
  root.traverse((object) => {
    if (!object.isMesh) return;
    if (object.isSkinnedMesh) {
      object.skeleton.bones.forEach((bone) => bone.updateMatrixWorld(true));
      object.skeleton.update();
    }
    const count = object.geometry.attributes.position.count;
    for (let i = 0; i < count; i++) {
      object.getVertexPosition(i, v);
      v.applyMatrix4(object.matrixWorld);
      out.push(v.x, v.y, v.z);
    }
  });
  return out;
}

/**
 * The farthest any point of `a` is from its nearest point of `b`, or the
 * other way round (Hausdorff distance), for point sets whose order differs;
 * points are hashed into a grid of cell `cell`, and only neighbouring cells
 * are searched, so a point with no partner within a cell counts as
 * infinitely far. Also returns the largest coordinate of `b` (its size).
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
