// Types of `skinlab`, the core as a library (www/skinlab.js). `Lab` and
// `Viewer` are wasm-bindgen's declarations of the core (pkg/skinlab.d.ts);
// the file readers and the gallery add the methods declared below once
// `loadConverters()` has resolved (the readers) or at once (the gallery).
import { Lab, Viewer } from './pkg/skinlab.js';

export { Lab, Viewer };

/** Starts the core once (its wasm fetched and compiled as it streams in); resolves when `Lab` and `Viewer` work. */
export function init(): Promise<void>;

/** Loads and starts the file readers' wasm once; resolves when `Lab.fromGltf`, `lab.autoWeights` and the others can be called. */
export function loadConverters(): Promise<void>;

/** A texture or buffer beside a file: its bytes, by the name the file gives. */
export type Files = Record<string, Uint8Array>;

/** One mouth shape of a spoken text. */
export type Viseme = {
  time: number;
  duration: number;
  viseme: 'rest' | 'A' | 'E' | 'I' | 'O' | 'U' | 'MBP' | 'FV' | 'C';
  char: number;
};

declare module './pkg/skinlab.js' {
  // The readers (after `await loadConverters()`) and the gallery.
  namespace Lab {
    /** A .gltf whose buffers and images are embedded (data: URIs). */
    function fromGltf(text: string): Lab;
    /** A binary glTF (.glb). */
    function fromGlb(bytes: Uint8Array): Lab;
    /** A .gltf with its buffers and images given by their URIs. */
    function fromGltfFiles(text: string, files: Files): Lab;
    /** A BVH motion capture. */
    function fromBvh(text: string): Lab;
    /** A binary or ASCII FBX file, with its textures when given. */
    function fromFbx(bytes: Uint8Array, files?: Files): Lab;
    /** A Wavefront OBJ, with its MTL and textures when given: static meshes to rig. */
    function fromObj(text: string, files?: Files): Lab;
    /** The gallery's models, by the names `Lab.model` takes. */
    function modelNames(): string[];
    /** A gallery model, fetched beside the package's page (the readers are loaded for it). */
    function model(name: string): Promise<Lab>;
    /** The rotation lab: `steps` orientations from Euler angles `from` to `to` (radians), three ways. */
    function rotationSamples(request: {
      method: 'matrix' | 'euler' | 'slerp';
      from: number[];
      to: number[];
      steps: number;
    }): { t: number; matrix: number[]; determinant: number; orthonormalityError: number }[];
    /** The visemes of `text` in `lang`; `char` is the index in the text each comes from. */
    function visemeTrack(text: string, lang: 'en' | 'de'): Viseme[];
  }
  // The one-shot tools of weighting, rigging and lip-sync, solved by the
  // readers' module on a copy of the scene (after `await loadConverters()`).
  interface Lab {
    /** The scene as a binary glTF (after `await loadConverters()`). */
    toGlb(): Uint8Array;
    /** Replaces all weights by automatic ones on the bones that deform; returns the report. */
    autoWeights(method: 'nearest' | 'distance' | 'heat' | 'voxel'): {
      prunedVertices: number;
      visibilityChecked: boolean;
      iterations: number;
      unreachedVertices: number;
      nearestNonDeforming: number;
      handedOver: number[];
    };
    /** What the mesh brings to binding. */
    meshReport(): {
      looseParts: number;
      duplicateVertices: number;
      nonManifoldEdges: number;
      openEdges: number;
      degenerateTriangles: number;
      flippedTriangles: number;
      seamsApart: number;
      size: number;
    };
    /** Fits a skeleton template to marked points (model space); returns how many bones were added. */
    fitSkeleton(template: 'humanoid' | 'quadruped' | 'chain', markers: Record<string, number[] | number>): number;
    /** Removes keys of clip `clip` within `tolerance`; with `apply === false` only measures. */
    reduceKeys(clip: number, tolerance: number, apply?: boolean): { before: number; after: number; maxError: number };
    /** Adds clip `clip` of `source` played on this scene's bones by joint names. */
    retargetClip(source: Lab, clip: number): { clip: number; matched: number; unmatched: string[] };
    /** Keys `text` as the clip "speech" on the face's morph targets and jaw. */
    sayText(text: string, lang: 'en' | 'de'): { clip: number; track: Viseme[] };
    /** Keys a mono recording as the clip "recording": the jaw opens with the loudness. */
    sayRecording(samples: Float32Array, sampleRate: number): { clip: number; openness: number[] };
  }
}
