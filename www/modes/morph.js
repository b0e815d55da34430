// The Morph mode (the bones note): one slider per morph target, the base weight
// 1 − Σ m_k live (negative past a sum of 1: extrapolation, allowed and
// explained), a jaw to open while the mouth keeps its shape, and a word
// said by a keyed clip of morph weights and the jaw (see the Animate mode).
import { el } from '../dom.js';
import { createSpeech } from '../parts/speech.js';
import { createRecording } from '../parts/recording.js';
import { playClip } from '../parts/clip-player.js';
import { ownCaption } from '../parts/captions.js';

/** The Morph mode of `app` (see app.js for what `app` offers). */
export function createMorphMode(app) {
  const { nameOf, num, t } = app.i18n;
  const { $ } = app;
  let shownFor = null;
  let saying = null;

  const names = () => app.lab.morphNames();
  const speech = createSpeech(app);
  const recording = createRecording(app);

  function setWeights(weights) {
    app.lab.setMorphWeights(weights);
    app.requestRender();
  }

  function buildSliders() {
    const box = $('#morph-sliders');
    box.textContent = '';
    const list = names();
    $('#morph-none').hidden = list.length > 0;
    list.forEach((name, index) => {
      const input = el('input', { type: 'range', min: '0', max: '1', step: '0.01', value: '0' });
      input.dataset.morph = String(index);
      input.setAttribute('aria-label', `${t('morph.target')} ${nameOf(name)}`);
      const output = el('output', {}, '0.00');
      // One undo step per drag (or per typed value): a checkpoint when an
      // edit starts, the next after its change event.
      input.addEventListener('change', () => { delete input.dataset.editing; });
      input.addEventListener('input', () => {
        if (!input.dataset.editing) {
          input.dataset.editing = '1';
          app.lab.checkpoint();
        }
        const weights = Array.from(app.lab.morphWeights());
        weights[index] = Number(input.value);
        setWeights(weights);
      });
      box.append(el('label', { className: 'slider' }, el('span', {}, name ? nameOf(name) : `${t('morph.target')} ${index + 1}`), input, output));
    });
  }

  function showWeights() {
    const weights = Array.from(app.lab.morphWeights());
    for (const input of app.root.querySelectorAll('#morph-sliders input')) {
      const weight = weights[Number(input.dataset.morph)] ?? 0;
      if (app.root.activeElement !== input) input.value = String(weight);
      input.nextElementSibling.textContent = num(weight, 2);
    }
    const sum = weights.reduce((a, b) => a + b, 0);
    const base = 1 - sum;
    const line = $('#morph-base');
    line.textContent = weights.length ? t('morph.base', { sum: num(sum, 2), base: num(base, 2) }) : '';
    line.classList.toggle('negative', base < 0);
    $('#morph-extrapolation').hidden = !(base < -1e-6);
    // Said on screen, not only in the console: what the GPU could not draw.
    const dropped = app.viewer.morphsDropped();
    $('#morph-dropped').hidden = dropped === 0;
    if (dropped) $('#morph-dropped').textContent = t('morph.dropped', { n: num(dropped) });
  }

  /** The jaw bone, if the scene has one. */
  const jawBone = () => app.lab.boneNames().indexOf('jaw');

  function setJaw(opening) {
    const jaw = jawBone();
    if (jaw < 0) return;
    // Along the jaw's own +Y, which points down to the chin.
    app.lab.setBonePose(jaw, { rotation: [0, 0, 0, 1], translation: [0, Number(opening), 0] });
    app.requestRender();
  }

  /** The scene's clip called "mama" (the face example's word), or −1. */
  const wordClip = () => app.lab.animationNames().indexOf('mama');

  /** Plays the word's clip: its morph weight keys and the jaw's, as keyed. */
  function say() {
    const clip = wordClip();
    if (clip < 0) return;
    app.lab.checkpoint();
    saying?.stop();
    saying = playClip(app, clip);
  }

  $('#morph-say').addEventListener('click', say);
  $('#morph-zero').addEventListener('click', () => {
    app.lab.checkpoint();
    setWeights(names().map(() => 0));
  });
  $('#morph-jaw').addEventListener('pointerdown', () => app.lab.checkpoint());
  $('#morph-jaw').addEventListener('input', (event) => {
    $('output[for="morph-jaw"]').textContent = num(Number(event.target.value), 2);
    setJaw(event.target.value);
  });

  return {
    name: 'morph',
    panel: $('#mode-morph'),
    tool: 'pose',
    enter() {
      app.setTool('pose');
      shownFor = null;
    },
    leave() {
      saying?.stop();
      speech.stop();
      recording.stop();
    },
    update() {
      if (shownFor !== app.lab) {
        shownFor = app.lab;
        buildSliders();
        $('#morph-jaw').closest('.slider').hidden = jawBone() < 0;
        $('#morph-say').hidden = wordClip() < 0;
        $('#speech-box').hidden = names().length === 0 && app.lab.boneNames().indexOf('jaw') < 0;
      }
      showWeights();
    },
    caption(name) {
      if (app.lab && app.lab.morphNames().length === 0) return [t('cap.noMorphs')];
      return [ownCaption(t, name, 'morph') ?? t('cap.morph')];
    },
    sceneChanged() {
      shownFor = null;
      saying?.stop();
      speech.stop();
      recording.stop();
    },
    languageChanged() {
      if (app.lab) buildSliders();
    },
    api: {
      say,
      setJaw,
      sayText: speech.say,
      speechState: speech.state,
      recordingState: recording.state,
    },
  };
}
