// The file readers and writer (glTF, .glb, FBX, BVH, OBJ in; .glb out) are a wasm
// module of their own (converters/, built into pkg/skinlab_converters*),
// loaded when a file is opened or exported, a gallery model or the motion
// capture example is shown: a third of the core's code that a page showing
// an example never runs. The two modules hand scenes over as handover
// bytes (src/formats/handover.rs: scene JSON and what it does not carry).
//
// This module puts the readers on the `Lab` class, under the names the
// page's API has always had: `Lab.fromGltf(text)`,
// `Lab.fromGlb(bytes)`, `Lab.fromGltfFiles(text, files)`,
// `Lab.fromBvh(text)`, `Lab.fromFbx(bytes, files?)`, `Lab.fromObj(text, files?)`, `lab.toGlb()`,
// `lab.autoWeights(method)`, `lab.meshReport()`, `lab.fitSkeleton(template,
// markers)`, `lab.reduceKeys(clip, tolerance, apply?)`,
// `lab.retargetClip(source, clip)`, the lessons' `Lab.rotationSamples(request)`,
// `Lab.visemeTrack(text, lang)`, `lab.sayText(text, lang)` and
// `lab.sayRecording(samples, rate)`, and `Lab.example(name)` of the examples it builds (`needsConverters(name)`). They
// are synchronous once the module is loaded: `await loadConverters()` (in
// the page `await skinlab.loadConverters()`); Node code starts it with
// `useConverters` after its own `initSync`.
import { Lab } from './pkg/skinlab.js';
import * as glue from './pkg/skinlab_converters.js';
import { convertersSource } from './assets.js';


let loading = null;
let ready = false;

/** Loads and starts the readers' module once; resolves when they can be called. */
export function loadConverters() {
  loading ??= convertersSource()
    .then((source) => glue.default({ module_or_path: source }))
    .then(() => { ready = true; }, (error) => {
      loading = null;
      throw error;
    });
  return loading;
}

/** For Node and tools: the readers' module already started with its `initSync`. */
export function useConverters() {
  ready = true;
}

/** Whether the readers can be called now. */
export const convertersReady = () => ready;

/**
 * Whether the readers can be called now; if not, loads them and then calls
 * `then` (or `failed` with the error): `if (!whenConverters(job)) return;`
 * at the top of `job` runs it again once they are there.
 */
export function whenConverters(then, failed = () => {}) {
  if (ready) return true;
  loadConverters().then(then, failed);
  return false;
}

/**
 * Whether example `name` needs the readers' module (and so may open a
 * moment later): the page's module builds the lecture notes' figures and
 * leaves the motion capture and the larger figures to it.
 */
export const needsConverters = (name) => Lab.exampleNames().includes(name) && !Lab.exampleBuiltHere(name);

function readers() {
  if (!ready) throw new Error('the file readers are not loaded yet: await loadConverters() first');
  return glue;
}

Lab.fromGltf = (text) => Lab.fromHandover(readers().sceneFromGltf(text));
Lab.fromGlb = (bytes) => Lab.fromHandover(readers().sceneFromGlb(bytes));
Lab.fromGltfFiles = (text, files) => Lab.fromHandover(readers().sceneFromGltfFiles(text, files));
Lab.fromBvh = (text) => Lab.fromHandover(readers().sceneFromBvh(text));
Lab.fromObj = (text, files = {}) => Lab.fromHandover(readers().sceneFromObjFiles(text, files));
Lab.fromFbx = (bytes, files) => Lab.fromHandover(files
  ? readers().sceneFromFbxFiles(bytes, files)
  : readers().sceneFromFbx(bytes));

const builtExample = Lab.example;
Lab.example = (name) => (needsConverters(name)
  ? Lab.fromHandover(readers().exampleHandover(name))
  : builtExample(name));

/**
 * Replaces all weights by automatic ones (`nearest`, `distance`, `heat`
 * or `voxel`) on the bones that deform, solved by this module on a copy of
 * the scene and taken back as `setInfluenceArrays` takes them; returns
 * the report (`{prunedVertices, visibilityChecked, iterations,
 * unreachedVertices, nearestNonDeforming, handedOver}`).
 */
Lab.prototype.autoWeights = function autoWeights(method) {
  const { report, bones, weights } = readers().autoWeights(this.handover(), method);
  this.setInfluenceArrays(bones, weights);
  return report;
};

/**
 * What the mesh brings to binding: `{looseParts, duplicateVertices,
 * nonManifoldEdges, openEdges, degenerateTriangles, flippedTriangles,
 * seamsApart, size}`, measured by this module on a copy of the scene.
 */
Lab.prototype.meshReport = function meshReport() {
  return readers().meshReport(this.handover());
};

/**
 * Fits skeleton template `template` to `markers` in a scene that has its
 * root alone (a mesh opened to be rigged): the bones this module fits are
 * added by `addBones`, one undo step after `checkpoint()`. Returns how
 * many were added.
 */
Lab.prototype.fitSkeleton = function fitSkeleton(template, markers) {
  const bones = readers().fitSkeleton(this.handover(), template, markers);
  this.addBones(bones);
  return bones.length;
};

/**
 * Removes clip `clip`'s keys while every joint stays within `tolerance`
 * model units of the clip at each of its key times: reduced by this module
 * on a copy, and taken back by `setClipJson` unless `apply === false`.
 * Returns `{before, after, maxError}`.
 */
Lab.prototype.reduceKeys = function reduceKeys(clip, tolerance, apply = true) {
  const { before, after, maxError, clip: json } = readers().reduceKeys(this.handover(), clip, tolerance);
  if (apply !== false) this.setClipJson(clip, json);
  return { before, after, maxError };
};

/**
 * Adds clip `clip` of Lab `source` (a motion file without its character)
 * played on this scene's bones by joint names, retargeted by this module
 * and taken back by `addClipJson`. Returns `{clip, matched, unmatched}`:
 * the new clip's index, how many bones it moves, the source's joints
 * without a match; throws when none match.
 */
Lab.prototype.retargetClip = function retargetClip(source, clip) {
  const { clip: json, matched, unmatched } = readers().retargetClip(this.handover(), source.handover(), clip);
  return { clip: this.addClipJson(json), matched, unmatched };
};

/** Puts clip JSON `json`, keyed on a copy of this scene as its clip `clip`, in place or after the last clip; returns its index. */
function takeClip(lab, clip, json) {
  if (clip < lab.animationNames().length) {
    lab.setClipJson(clip, json);
    return clip;
  }
  return lab.addClipJson(json);
}

/**
 * The rotation lab's samples (`{method, from, to, steps}` → `[{t, matrix,
 * determinant, orthonormalityError}]`), computed by this module.
 */
Lab.rotationSamples = (request) => readers().rotationSamples(request);

/** The visemes of `text` in `lang` (`en`, `de`): `[{time, duration, viseme, char}]`. */
Lab.visemeTrack = (text, lang) => readers().visemeTrack(text, lang);

/**
 * Keys `text` as the clip "speech" on the face's morph targets and jaw
 * (replacing one of that name), keyed by this module on a copy of the
 * scene; returns `{clip, track}`.
 */
Lab.prototype.sayText = function sayText(text, lang) {
  const { clip, json, track } = readers().sayText(this.handover(), text, lang);
  return { clip: takeClip(this, clip, json), track };
};

/**
 * Keys a recording (`samples`, mono, at `sampleRate`) as the clip
 * "recording": the jaw and the "A" target open with the loudness, 30
 * times a second. Returns `{clip, openness}`.
 */
Lab.prototype.sayRecording = function sayRecording(samples, sampleRate) {
  const { clip, json, openness } = readers().sayRecording(this.handover(), samples, sampleRate);
  return { clip: takeClip(this, clip, json), openness };
};

Lab.prototype.toGlb = function toGlb() {
  return readers().glbFromHandover(this.handover());
};

/** Whether a file job (as www/files.js makes it) needs the readers: a glTF, FBX or BVH file, not scene JSON. */
export const isFileJob = (job) => Boolean(job.glb || job.fbx || job.bvh || job.obj !== undefined || job.files);

/**
 * The handover bytes of file job `job` ({glb} bytes, {bvh} text, or {text,
 * files} a .gltf with its files), read by `module`: the page's readers, or
 * a worker's own started readers' module.
 */
export function handoverOf(job, module = readers()) {
  if (job.glb) return module.sceneFromGlb(job.glb);
  if (job.fbx) return job.files ? module.sceneFromFbxFiles(job.fbx, job.files) : module.sceneFromFbx(job.fbx);
  if (job.bvh) return module.sceneFromBvh(job.bvh);
  if (job.obj !== undefined) return module.sceneFromObjFiles(job.obj, job.files ?? {});
  return module.sceneFromGltfFiles(job.text, job.files);
}

/** A new Lab of example `name`, the readers loaded first where it needs them. */
export async function exampleLab(name) {
  if (needsConverters(name)) await loadConverters();
  return Lab.example(name);
}
