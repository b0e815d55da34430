// The page's state in its address: URL parameters for how it looks, and the
// hash for what is on screen (example, mode, pose, weight edits, camera,
// method).

export const OVERLAYS = ['mesh', 'wireframe', 'dots', 'bones', 'ownFrames', 'childFrames', 'ghost', 'centres'];
/** Examples built on request only, in no menu, that a link may name: the dense tube at 1,000,000 vertices. */
export const LARGE_EXAMPLES = ['million'];
/** The page's modes, in the order the switcher shows them. */
export const MODES = ['skin', 'rig', 'weights', 'ik', 'morph', 'animate', 'gpu', 'lessons'];

const CHOICES = {
  mode: MODES,
  method: ['lbs', 'dqs', 'cor'],
  tool: ['pose', 'paint'],
  ui: ['full', 'minimal', 'none'],
  lang: ['en', 'de', 'zh'],
  view: ['2d', '3d'],
  autosave: ['0', '1'],
  projector: ['0', '1'],
};

/** Notes a value the address names that is not one of `known`, for the page to say so on screen. */
export function unknown(settings, key, value, known) {
  (settings.unknown ??= []).push({ key, value: value.slice(0, 60), known });
}

/**
 * Reads the URL parameters (a value that is not known is listed in
 * `settings.unknown`, `{key, value, known}` each). Unknown parameters and malformed values are
 * dropped with a console warning; the page never fails because of them.
 */
export function readParameters(search, exampleNames = null) {
  const params = new URLSearchParams(search);
  const settings = {};
  for (const [key, value] of params) {
    if (key === 'lesson') {
      if (/^[a-z-]{1,40}$/.test(value)) settings.lesson = value;
      else console.warn(`Skinlab: '${key}=${value}' in the URL is not a lesson name; ignored`);
    } else if (key === 'step') {
      const step = Number(value);
      if (Number.isInteger(step) && step >= 1 && step <= 100) settings.step = step;
      else console.warn(`Skinlab: 'step=${value}' in the URL is not a step number (1, 2, …); ignored`);
    } else if (key === 'example') {
      // Without a list of names (the core has not started), any name of
      // the examples' form is kept, to be checked against the core's list.
      if (exampleNames ? exampleNames.includes(value) : /^[a-z0-9-]{1,40}$/.test(value)) settings.example = value;
      else {
        console.warn(`Skinlab: unknown example '${value}' in the URL; known: ${exampleNames?.join(', ') ?? 'lowercase names'}`);
        unknown(settings, key, value, exampleNames ?? []);
      }
    } else if (key === 'overlays') {
      const names = value.split(',').map((name) => name.trim()).filter(Boolean);
      const known = names.filter((name) => OVERLAYS.includes(name));
      for (const name of names) {
        if (!OVERLAYS.includes(name)) console.warn(`Skinlab: unknown overlay '${name}' in the URL; known: ${OVERLAYS.join(', ')}`);
      }
      settings.overlays = known;
    } else if (Object.hasOwn(CHOICES, key)) {
      if (CHOICES[key].includes(value)) settings[key] = value;
      else {
        console.warn(`Skinlab: '${key}=${value}' in the URL is not one of ${CHOICES[key].join(', ')}; ignored`);
        unknown(settings, key, value, CHOICES[key]);
      }
    } else {
      console.warn(`Skinlab: unknown URL parameter '${key}' ignored`);
    }
  }
  return settings;
}

function toBase64Url(text) {
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const padded = text.replaceAll('-', '+').replaceAll('_', '/');
  return atob(padded + '='.repeat((4 - (padded.length % 4)) % 4));
}

const isNumber = (value) => typeof value === 'number' && Number.isFinite(value);
const numbers = (value, count) => Array.isArray(value) && value.length === count && value.every(isNumber);

/** Bytes as base64url, in chunks (a spread of 100,000 arguments would overflow). */
function bytesToBase64Url(bytes) {
  let text = '';
  for (let k = 0; k < bytes.length; k += 0x8000) text += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
  return toBase64Url(text);
}

/**
 * Encodes a state object as the hash `#s=…`, and the weight edits (the
 * core's `weightEditsBytes()`, when any) after a dot: `#s=….…`. As bytes
 * they take a quarter of the address JSON numbers did (8,565 vertices: 137
 * KB instead of 561), which the browser stores in a fraction of the time.
 */
export function encodeState(state, weightEdits = new Uint8Array()) {
  const edits = weightEdits.length ? `.${bytesToBase64Url(weightEdits)}` : '';
  return `#s=${toBase64Url(JSON.stringify(state))}${edits}`;
}

/**
 * Decodes `#s=…` into a checked state, or throws an Error saying what is
 * wrong. An empty hash gives null.
 */
export function decodeState(hash) {
  if (!hash || hash === '#') return null;
  if (!hash.startsWith('#s=')) throw new Error('the link has an unknown format after #');
  const [json, edits, ...more] = hash.slice(3).split('.');
  if (more.length) throw new Error('the link has an unknown format after #');
  let state;
  try {
    state = JSON.parse(fromBase64Url(json));
  } catch {
    throw new Error('the link is damaged (its state is not readable)');
  }
  if (typeof state !== 'object' || state === null || state.v !== 1) throw new Error('the link comes from an unknown version of Skinlab');
  // Only the part after the dot gives weight edits as bytes.
  delete state.weightEdits;
  if (edits !== undefined) {
    try {
      // Checked by the core when applied (`applyWeightEditsBytes`).
      state.weightEdits = Uint8Array.from(fromBase64Url(edits), (c) => c.charCodeAt(0));
    } catch {
      throw new Error('the link is damaged (its weight edits are not readable)');
    }
  }
  if (typeof state.e !== 'string') throw new Error('the link names no example');
  if (state.m !== undefined && !CHOICES.method.includes(state.m)) throw new Error(`the link's method '${state.m}' is unknown`);
  if (state.kp !== undefined && !(Array.isArray(state.kp) && state.kp.length === 2 && state.kp[0] !== state.kp[1]
    && state.kp.every((m) => CHOICES.method.includes(m)))) throw new Error("the link's side-by-side pair is not two methods");
  if (state.c !== undefined && !numbers(state.c, 6)) throw new Error("the link's camera is not six numbers");
  if (state.c !== undefined && !(state.c[5] > 0)) throw new Error('the camera in the link has no positive distance');
  if (state.d !== undefined && !CHOICES.view.includes(state.d)) throw new Error(`the link's view '${state.d}' is unknown`);
  if (state.q !== undefined && state.q !== 1) throw new Error("the link's weight format is unknown");
  if (state.k !== undefined && state.k !== 1) throw new Error("the link's comparison flag is unknown");
  if (state.o !== undefined && !CHOICES.mode.includes(state.o)) throw new Error(`the link's mode '${state.o}' is unknown`);
  for (const entry of state.p ?? []) {
    if (!numbers(entry, 11)) throw new Error('a pose in the link is not eleven numbers');
  }
  for (const entry of state.w ?? []) {
    const ok = Array.isArray(entry) && entry.length === 2 && isNumber(entry[0])
      && Array.isArray(entry[1]) && entry[1].every((pair) => numbers(pair, 2));
    if (!ok) throw new Error('a weight edit in the link is malformed');
  }
  if (state.f !== undefined && !(Array.isArray(state.f) && state.f.every((entry) => Array.isArray(entry)
    && entry.length === 2 && Number.isInteger(entry[0]) && entry[0] >= 0 && typeof entry[1] === 'boolean'))) {
    throw new Error("the link's deforming bones are not [bone, true | false] pairs");
  }
  return state;
}

/**
 * The browser's address bar, where the page's own lab keeps its link:
 * `href` reads it, `replace(url)` rewrites it (no new history entry).
 */
export function windowAddress() {
  return {
    get href() { return location.href; },
    replace(url) {
      const next = new URL(url, location.href).href;
      if (next !== location.href) history.replaceState(null, '', next);
    },
  };
}

/**
 * An address of a lab's own, starting at `href`, for a lab inside someone
 * else's page (`<skin-lab>`), whose address bar is not the lab's to write:
 * its link is a link to the lab's page with the same state.
 */
export function addressOf(href) {
  let current = new URL(href).href;
  return {
    get href() { return current; },
    replace(url) { current = new URL(url, current).href; },
  };
}
