// Types of `skinlab/element` (www/skin-lab.js): the <skin-lab> element and
// the API of its lab, the same object as `window.skinlab` on Skinlab's own
// page (docs/api.md, "The page's own instance"). Every name the running
// page puts on that object is declared here (the package's test compares).
import type { Lab, Viewer } from './pkg/skinlab.js';

export type { Lab, Viewer };

/** A point or a vector in model space. */
export type Vec3 = [number, number, number];
/** A quaternion, x y z w. */
export type Quat = [number, number, number, number];
/** A point on the view, CSS pixels from its top-left corner. */
export type ScreenPoint = [number, number];
/** A skinning method. */
export type Method = 'lbs' | 'dqs' | 'cor';
/** The page's modes. */
export type Mode = 'skin' | 'rig' | 'weights' | 'ik' | 'morph' | 'gpu' | 'animate' | 'lessons';
/** The languages the page speaks. */
export type Language = 'en' | 'de' | 'zh';
/** The automatic weighting methods. */
export type WeightMethod = 'nearest' | 'distance' | 'heat' | 'voxel';

/** The weight brush. */
export interface Brush {
  radius?: number;
  strength?: number;
  falloff?: 'smooth' | 'linear' | 'constant';
  mode?: 'add' | 'subtract' | 'set' | 'smooth';
  value?: number;
}

/** A lesson as `lessons()` lists it: per step its buttons' count, its panel and the figures it shows. */
export interface LessonInfo {
  name: string;
  title: string;
  steps: number;
  parts: { actions: number; panel: string | null; shows: string[] }[];
}

/** Where a lesson stands. */
export interface LessonState {
  lesson: string;
  step: number;
  steps: number;
  done: boolean;
}

/** A video as the Video box makes it. */
export interface VideoOptions {
  format?: 'webm' | 'mp4' | 'gif';
  /** 'WxH' or 'view'. */
  size?: string;
  fps?: number;
}

/** The API of one lab: `el.skinlab`, `await el.ready`, or `window.skinlab` on the page. */
export interface SkinlabApi {
  // The scene.
  /** The current `Lab`; changes made through it are drawn on the next frame. */
  readonly lab: Lab;
  /** The example or model shown, by its name. */
  readonly example: string;
  readonly viewer: Viewer;
  /** The core's `Lab` class. */
  Lab: typeof Lab;
  loadConverters(): Promise<void>;
  loadExample(name: string): Promise<void> | void;
  /** The gallery's models, by the names `loadExample` takes. */
  models(): string[];
  /** Resolves when the shown model's texture is drawn. */
  textureReady(): Promise<void> | null;
  loadScene(json: string | object): void;
  /** Loads files as the file picker does. */
  loadFiles(list: FileList | File[]): Promise<void>;
  loadProgress(): number[];
  // Modes, methods, tools and settings.
  modes(): Mode[];
  setMode(mode: Mode): void;
  mode(): Mode;
  setMethod(method: Method): void;
  method(): Method;
  setTool(tool: 'pose' | 'paint'): void;
  tool(): 'pose' | 'paint';
  setCompare(on: boolean): void;
  setComparePair(left: Method, right: Method): void;
  comparePair(): [Method, Method];
  setLanguage(lang: Language): void;
  language(): Language;
  setProjector(on: boolean): void;
  projector(): boolean;
  setOverlay(name: string, on: boolean): void;
  setQuantised(on: boolean): void;
  // Saving.
  /** Saves the scene for the next visit now, instead of after a quiet moment. */
  autosaveNow(): Promise<void> | void;
  autosaves(): unknown[];
  shareLink(): string;
  /** The embed code at `base` (the box's folder unless given; '' for this page's address). */
  embedCode(base?: string): string;
  exportPng(): void;
  svgText(): string;
  exportJson(): void;
  exportGlb(): Promise<void>;
  recordVideo(options?: VideoOptions): Promise<Blob>;
  // Bones, vertices and the view.
  selectBone(bone: number | null): void;
  selectedBone(): number | null;
  selectVertex(vertex: number | null): void;
  selectedVertex(): number | null;
  lockBone(bone: number, locked?: boolean): void;
  /** Lets bone `bone` deform or not, as its box in the Bones list does (one undo step). */
  setBoneDeforms(bone: number, on: boolean): number;
  boneScreenPoint(bone: number): ScreenPoint | null;
  vertexScreenPoint(vertex: number): ScreenPoint | null;
  gpuSkinnedPositions(method?: Method): Float32Array;
  gpuSkinnedNormals(method?: Method): Float32Array;
  undo(): boolean;
  redo(): boolean;
  resetPose(): void;
  requestRender(): void;
  framesRendered(): number;
  /** Milliseconds from navigation to the first frame drawn. */
  firstFrameMs(): number | null;
  /** Main-thread ms of the last frames. */
  frameTimes(): number[];
  /** Main-thread ms of the last pointer moves over the view. */
  inputTimes(): number[];
  /** Bytes of memory the core's wasm instance has grown to. */
  wasmMemoryBytes(): number;
  /** Times the core was restarted after a trap. */
  restarts(): number;
  contextLost(): boolean;
  resume(): void;
  // Skin mode: the vertex's three steps.
  ghosts(): unknown;
  /** Walks the selected vertex's three steps to `phase` ∈ [0, 3]. */
  setStepsPhase(phase: number): void;
  playSteps(): void;
  twistCurve(): unknown;
  // Rig mode.
  /** The markers placed for a template, by name, or null. */
  rigMarkers(): Record<string, Vec3> | null;
  /** Plays the walk capture on the rig by joint names. */
  tryWalk(): Promise<void>;
  // Weights mode.
  setWeightView(view: 'skin' | 'weights' | 'bones'): void;
  setBrush(brush: Brush): void;
  setMirror(on: boolean): void;
  autoWeights(method: WeightMethod): Promise<unknown>;
  cancelAutoWeights(): boolean;
  /** The vertices marked over the view after automatic weights. */
  markedVertices(): number[];
  // IK mode.
  ikTarget(): Vec3 | null;
  setIkTarget(point: Vec3): void;
  ikChain(): { tip: number; chain: number; method: string };
  setIkChain(options: { tip?: number; chain?: number; method?: string }): void;
  ikReport(): unknown;
  forwardKinematics(): void;
  ikRace(): unknown;
  ikRaceStep(step: number): void;
  gaitTrace(gait: string): unknown;
  ikRidePath(): unknown;
  ikRide(): void;
  ikLimitHandle(which: 'min' | 'max' | 'swing'): ScreenPoint | null;
  swingState(): unknown;
  // Morph mode.
  say(): void;
  setJaw(opening: number): void;
  sayText(): void;
  speechState(): unknown;
  recordingState(): unknown;
  // Animate mode.
  animTime(): number;
  setAnimTime(seconds: number): void;
  playAnimation(): void;
  pauseAnimation(): void;
  animPlaying(): boolean;
  play(): void;
  pause(): void;
  playing(): boolean;
  setKeyHere(): void;
  setMorphKeyHere(): void;
  deleteKeyHere(): void;
  selectedKey(): unknown;
  timelinePoint(bone: number, seconds: number): ScreenPoint | null;
  rulerPoint(seconds: number): ScreenPoint | null;
  pathHandlePoint(index: number): ScreenPoint | null;
  setPathEntries(entries: number): void;
  pathEntries(): number;
  pathMarkers(): unknown[];
  speedHandlePoint(k: number): ScreenPoint | null;
  pursuitDistances(): unknown;
  rotationLab(): unknown;
  keyReduction(): unknown;
  clockFrames(): unknown[];
  clockAdvanced(): unknown;
  clockByFrames(): boolean;
  setClock(options: { slow?: boolean; byFrames?: boolean }): void;
  setRotation(options: { preset?: string; t?: number }): void;
  setPursuitCar(speed: number): void;
  setBoneInterpolation(bone: number, how: 'step' | 'linear' | 'smooth' | string): void;
  // GPU mode.
  setPaletteFormat(format: string): void;
  setGpuBudget(vectors: number): void;
  setBatchDrawing(on: boolean): void;
  gpuFigures(): unknown;
  setInfluenceCap(cap: number): void;
  // Lessons mode.
  lessons(): LessonInfo[];
  startLesson(name: string, step?: number): void;
  lessonState(): LessonState | null;
  nextStep(): boolean;
  previousStep(): boolean;
}

/** <skin-lab>: a lab on any page. Attributes are reflected as properties. */
export class SkinLabElement extends HTMLElement {
  /** Resolves to the lab's API once the lab has started (when first scrolled into view). */
  ready: Promise<SkinlabApi>;
  /** The lab's API once started, else null. */
  readonly skinlab: SkinlabApi | null;
  /** Whether the lab is running. */
  readonly started: boolean;
  example: string | null;
  mode: string | null;
  lesson: string | null;
  step: string | null;
  lang: string;
  method: string | null;
  tool: string | null;
  ui: string | null;
  projector: string | null;
  view: string | null;
  overlays: string | null;
  autosave: string | null;
}

/** A width or height attribute as CSS: a number is pixels; a CSS length is taken as it is; else null. */
export function cssLength(value: string | null): string | null;

declare global {
  interface HTMLElementTagNameMap {
    'skin-lab': SkinLabElement;
  }
}
