// The model gallery: the sample models shipped in models/, each with the
// credit its licence asks for. They are fetched when first opened and read
// by the same readers as a file of one's own (glTF, or FBX for a .fbx).
import { Lab } from './pkg/skinlab.js';
import { assetBytes, assetText } from './assets.js';
import { loadConverters } from './converters.js';

/** Name in the URL → file and credit (from models/NAME/SOURCE.md). */
export const MODELS = {
  fox: {
    file: 'models/Fox/Fox.gltf',
    title: 'Fox',
    credit: 'Fox: low poly fox by PixelMannen (CC0); rigging and animation by @tomkranis (CC BY 4.0); '
      + 'glTF conversion by @AsoboStudio and @scurest; from the Khronos glTF sample models.',
  },
  'rigged-figure': {
    file: 'models/RiggedFigure/RiggedFigure.gltf',
    title: 'RiggedFigure',
    credit: 'RiggedFigure by Cesium, from the Khronos glTF sample models, licensed under CC BY 4.0.',
  },
  'rigged-figure-fbx': {
    file: 'models/RiggedFigure/RiggedFigure.fbx',
    title: 'RiggedFigure (FBX)',
    credit: 'RiggedFigure by Cesium, from the Khronos glTF sample models, licensed under CC BY 4.0; '
      + 'written as FBX by Blender 4.2.',
  },
  'rigged-simple': {
    file: 'models/RiggedSimple/RiggedSimple.gltf',
    title: 'RiggedSimple',
    credit: 'RiggedSimple by Cesium, from the Khronos glTF sample models, licensed under CC BY 4.0.',
  },
  'simple-skin': {
    file: 'models/SimpleSkin/SimpleSkin.gltf',
    title: 'SimpleSkin',
    credit: 'SimpleSkin, from the Khronos glTF sample models (CC0).',
  },
};

export const MODEL_NAMES = Object.keys(MODELS);

const files = new Map();
const isFbx = (name) => MODELS[name].file.endsWith('.fbx');

/** Whether `name` is a gallery model (rather than a built-in example). */
export const isModel = (name) => Object.hasOwn(MODELS, name);

/** A fresh `Lab` of gallery model `name`; the file is fetched once. */
export async function modelLab(name) {
  if (!isModel(name)) throw new Error(`unknown model '${name}'; known: ${MODEL_NAMES.join(', ')}`);
  if (!files.has(name)) {
    const { file } = MODELS[name];
    files.set(name, isFbx(name) ? await assetBytes(file) : await assetText(file));
  }
  await loadConverters();
  return isFbx(name) ? Lab.fromFbx(files.get(name)) : Lab.fromGltf(files.get(name));
}

// The gallery on the Lab class itself: `Lab.modelNames()` and
// `Lab.model(name)`. The models are files beside the page, not inside the
// wasm (the Fox alone is 240 KB), so `Lab.model` fetches and resolves to a
// new Lab: `await Lab.model('fox')`.
Lab.modelNames = () => [...MODEL_NAMES];
Lab.model = modelLab;
