// Lip-sync from a recording (the animation talk: "bei Originalaufnahme"):
// an audio file is decoded, mixed to one channel and keyed by the core as
// the clip "recording" (`lab.sayRecording`, of the readers' module: the jaw and the A target open
// with the loudness, 30 keys a second), then played with its sound where
// the browser can; the microphone drives the jaw live by the same measure.
import { playClip } from './clip-player.js';
import { loadConverters } from '../converters.js';

/** The recording controls of `app` under `#speech-box`. */
export function createRecording(app) {
  const { num, t } = app.i18n;
  const { $ } = app;
  let frame = 0;
  let playing = null;
  let heard = null;
  let mic = null;

  /** The file's samples, one channel, and their rate. */
  async function decode(file) {
    const bytes = await file.arrayBuffer();
    // Offline: decoding needs no sound device.
    const context = new OfflineAudioContext(1, 1, 44100);
    const audio = await context.decodeAudioData(bytes);
    const mono = new Float32Array(audio.length);
    for (let c = 0; c < audio.numberOfChannels; c++) {
      const channel = audio.getChannelData(c);
      for (let k = 0; k < mono.length; k++) mono[k] += channel[k] / audio.numberOfChannels;
    }
    return { samples: mono, rate: audio.sampleRate, buffer: audio };
  }

  function play(clip, buffer) {
    playing?.stop();
    try {
      const context = new AudioContext();
      const source = context.createBufferSource();
      source.buffer = buffer;
      source.connect(context.destination);
      source.start();
    } catch {
      app.showNotice(t('speech.silent'));
    }
    // Started with the sound: the clip's time is the sound's.
    playing = playClip(app, clip);
  }

  async function fromFile(file) {
    let decoded;
    try {
      decoded = await decode(file);
    } catch (error) {
      app.showNotice(t('speech.noAudio', { error: error?.message ?? String(error) }), 'error');
      return;
    }
    let result;
    try {
      await loadConverters();
      app.lab.checkpoint();
      result = app.lab.sayRecording(decoded.samples, decoded.rate);
    } catch (error) {
      app.showNotice(error.message, 'error');
      return;
    }
    app.clipsChanged();
    const open = result.openness.filter((o) => o > 0.2).length / Math.max(1, result.openness.length);
    heard = { name: file.name, clip: result.clip, openness: Array.from(result.openness) };
    $('#speech-heard').textContent = t('speech.heard', {
      name: file.name, seconds: num(decoded.samples.length / decoded.rate, 2), percent: num(100 * open),
    });
    play(result.clip, decoded.buffer);
  }

  /** The microphone: each frame's loudness against the quietest and loudest of the last seconds. */
  async function toggleMicrophone() {
    if (mic) {
      stopMicrophone();
      return;
    }
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      app.showNotice(t('speech.noMic', { error: error?.name ?? String(error) }), 'error');
      return;
    }
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    context.createMediaStreamSource(stream).connect(analyser);
    const data = new Float32Array(analyser.fftSize);
    const recent = [];
    const jaw = app.lab.boneNames().indexOf('jaw');
    const a = app.lab.morphNames().indexOf('A');
    mic = { stream, context };
    $('#speech-mic').setAttribute('aria-pressed', 'true');
    $('#speech-mic').textContent = t('speech.micStop');
    $('#speech-heard').textContent = t('speech.listening');
    const step = () => {
      if (!mic) return;
      analyser.getFloatTimeDomainData(data);
      const rms = Math.sqrt(data.reduce((sum, s) => sum + s * s, 0) / data.length);
      recent.push(rms);
      if (recent.length > 180) recent.shift();
      const sorted = [...recent].sort((x, y) => x - y);
      const quiet = sorted[Math.floor(0.2 * (sorted.length - 1))];
      const loud = Math.max(sorted[Math.floor(0.95 * (sorted.length - 1))], quiet + 1e-4);
      const open = Math.min(1, Math.max(0, (rms - quiet) / (loud - quiet)));
      if (jaw >= 0) app.lab.setBonePose(jaw, { rotation: [0, 0, 0, 1], translation: [0, 0.12 * open, 0] });
      if (a >= 0) app.lab.setMorphWeights(app.lab.morphNames().map((_, k) => (k === a ? open : 0)));
      app.requestRender();
      frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
  }

  function stopMicrophone() {
    if (!mic) return;
    for (const track of mic.stream.getTracks()) track.stop();
    mic.context.close();
    mic = null;
    $('#speech-mic').setAttribute('aria-pressed', 'false');
    $('#speech-mic').textContent = t('speech.mic');
  }

  $('#speech-file-pick').addEventListener('click', () => $('#speech-file').click());
  $('#speech-file').addEventListener('change', (event) => {
    const [file] = event.target.files;
    if (file) fromFile(file);
    event.target.value = '';
  });
  $('#speech-mic').addEventListener('click', toggleMicrophone);

  return {
    stop() {
      playing?.stop();
      cancelAnimationFrame(frame);
      stopMicrophone();
    },
    state: () => (heard ? { ...heard, openness: [...heard.openness] } : null),
  };
}
