// three.js's FBXLoader as the oracle for Skinlab's FBX reader: the world
// positions of every mesh vertex as three.js draws them, in the pose as
// loaded and at a time of a clip. FBXLoader builds one vertex per polygon
// corner, so callers compare point sets.
import * as THREE from 'three';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
import { poseAt, worldPositions } from './three-points.mjs';

export { hausdorff } from './three-points.mjs';

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
 * The times at which every track of `clip` has a key (within a
 * microsecond): there the file's curves pass through their keys' values,
 * whatever their interpolation, which FBXLoader reads as linear.
 */
function sharedKeyTimes(clip) {
  const [first, ...rest] = clip.tracks.map((track) => Array.from(track.times));
  if (!first) return [];
  return first.filter((time) => rest.every((times) => times.some((t) => Math.abs(t - time) < 1e-6)));
}

/**
 * Parses FBX `bytes` (a Uint8Array) with three.js and returns `{positions,
 * clips, durations, keyTimes, unitScale}`: world positions at `time` of
 * clip `clip` (null: as loaded), the clips' names, durations and key times
 * shared by all their tracks, and the file's UnitScaleFactor (centimetres
 * per unit), which three.js does not apply.
 */
export function threeFbxPositions(bytes, clip = null, time = 0) {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const root = quiet(() => new FBXLoader().parse(buffer, ''));
  if (clip !== null) poseAt(root, root.animations[clip], time);
  const positions = worldPositions(root);
  return {
    positions,
    clips: root.animations.map((a) => a.name),
    durations: root.animations.map((a) => a.duration),
    keyTimes: root.animations.map(sharedKeyTimes),
    unitScale: root.userData.unitScaleFactor ?? 1,
  };
}
