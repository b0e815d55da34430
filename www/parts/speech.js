// Lip-sync in the Morph mode (the animation talk: "bei synthetischer
// Stimme"): a typed sentence becomes the core's viseme track, keyed as the
// clip "speech" on the face's targets and jaw (`lab.sayText`, of the
// readers' module, loaded first where a saved face opened without it) and played;
// where the browser has a voice for the page's language it speaks the
// sentence too, and each word boundary it reports pulls the face to that
// word's first shape, so mouth and voice stay together.
import { playClip } from './clip-player.js';
import { whenConverters } from '../converters.js';

const VOICE_LANG = { en: 'en-US', de: 'de-DE', zh: 'zh-CN' };
// The core's letter rules are English and German; Chinese is typed as
// pinyin, whose Latin letters the English rules read.
const LETTER_RULES = { en: 'en', de: 'de', zh: 'en' };

/** The lip-sync controls of `app` under `#speech-box`. */
export function createSpeech(app) {
  const { current: currentLanguage, num, t } = app.i18n;
  const { $ } = app;
  let playing = null;
  let state = null;

  /** A voice for `lang`, if the browser has one loaded. */
  function voiceFor(lang) {
    const voices = globalThis.speechSynthesis?.getVoices?.() ?? [];
    return voices.find((v) => v.lang?.toLowerCase().startsWith(lang)) ?? null;
  }

  function play(clip, track) {
    playing?.stop();
    playing = playClip(app, clip, {
      onFrame: (time) => { state.time = time; },
      onEnd: () => { state.playing = false; },
    });
    const current = playing;
    return {
      /** The voice reached character `index`: jump to the first shape from there. */
      boundary(index) {
        const key = track.find((k) => k.char >= index);
        if (key) current.seek(key.time);
      },
    };
  }

  function say() {
    if (!whenConverters(say, (error) => app.showNotice(error.message, 'error'))) return;
    const text = $('#speech-text').value.slice(0, 300);
    const lang = currentLanguage();
    let said;
    try {
      app.lab.checkpoint();
      said = app.lab.sayText(text, LETTER_RULES[lang] ?? 'en');
    } catch (error) {
      app.showNotice(error.message, 'error');
      return;
    }
    const { clip, track } = said;
    app.clipsChanged();
    const seconds = track.length ? track[track.length - 1].time + track[track.length - 1].duration : 0;
    $('#speech-track').textContent = t('speech.trackLine', {
      // The visemes are the core's names (A, MBP, FV…); the pause between
      // words is said in the page's language.
      n: num(track.length), seconds: num(seconds, 2), shapes: track.map((k) => (k.viseme === 'rest' ? t('viseme.rest') : k.viseme)).join(' '),
    });
    state = { text, lang, track, playing: true, time: 0, voice: false };
    const player = play(clip, track);
    if ($('#speech-voice').checked) {
      const voice = voiceFor(lang);
      if (!voice) {
        app.showNotice(t('speech.noVoice', { lang: lang.toUpperCase() }));
        return;
      }
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.voice = voice;
      utterance.lang = VOICE_LANG[lang] ?? lang;
      utterance.addEventListener('boundary', (event) => {
        if (event.name === 'word') player.boundary(event.charIndex);
      });
      globalThis.speechSynthesis.cancel();
      globalThis.speechSynthesis.speak(utterance);
      state.voice = true;
    }
  }

  $('#speech-say').addEventListener('click', say);
  $('#speech-text').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') say();
  });

  return {
    say,
    stop() {
      playing?.stop();
      globalThis.speechSynthesis?.cancel?.();
      if (state) state.playing = false;
    },
    state: () => (state ? { ...state, track: state.track.map((k) => ({ ...k })) } : null),
  };
}
