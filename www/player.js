// The clip player under the view, for scenes that bring keyframe clips
// (glTF animations): play, pause, pick a clip, scrub the time.

/** The player of `app`, which offers `lab` and `requestRender`. */
export function createPlayer(app) {
  const { nameOf, num, t } = app.i18n;
  const { $ } = app;
  let playing = false;
  let playStart = 0;

  const clip = () => Number($('#clip').value);
  const time = () => Number($('#time').value) * app.lab.animationDuration(clip());

  function showTime() {
    $('#time-label').textContent = `${num(time(), 2)} s`;
  }

  function seek() {
    app.lab.setAnimationTime(clip(), time());
    showTime();
    app.requestRender();
  }

  function frame(now) {
    if (!playing) return;
    const duration = app.lab.animationDuration(clip());
    const elapsed = ((now - playStart) / 1000) % Math.max(duration, 1e-3);
    $('#time').value = String(duration > 0 ? elapsed / duration : 0);
    seek();
    requestAnimationFrame(frame);
  }

  function play() {
    if (playing || app.lab.animationNames().length === 0) return;
    app.lab.checkpoint();
    playing = true;
    playStart = performance.now() - time() * 1000;
    $('#play').setAttribute('aria-pressed', 'true');
    $('#play').textContent = t('pause');
    requestAnimationFrame(frame);
  }

  function pause() {
    playing = false;
    $('#play').setAttribute('aria-pressed', 'false');
    $('#play').textContent = t('play');
  }

  /** Lists the clips of the lab just loaded; hidden when it has none. */
  function setup() {
    pause();
    const names = app.lab.animationNames();
    $('#player').hidden = names.length === 0;
    const select = $('#clip');
    select.textContent = '';
    names.forEach((name, index) => select.add(new Option(nameOf(name), String(index))));
    $('#time').value = '0';
    if (names.length) showTime();
  }

  /** Names the clips again in the page's language, keeping the one chosen. */
  function relabel() {
    const select = $('#clip');
    const chosen = select.value;
    select.textContent = '';
    app.lab.animationNames().forEach((name, index) => select.add(new Option(nameOf(name), String(index))));
    select.value = chosen;
    $('#play').textContent = playing ? t('pause') : t('play');
  }

  $('#play').addEventListener('click', () => (playing ? pause() : play()));
  $('#clip').addEventListener('change', () => { $('#time').value = '0'; seek(); });
  $('#time').addEventListener('input', () => { pause(); seek(); });

  /** What a video records outside the Animate mode: the chosen clip. */
  function timeSource() {
    const names = app.lab.animationNames();
    const duration = names.length ? app.lab.animationDuration(clip()) : 0;
    if (!(duration > 0)) return null;
    return {
      name: nameOf(names[clip()]),
      duration,
      time,
      setTime(seconds) {
        pause();
        $('#time').value = String(seconds / duration);
        seek();
      },
    };
  }

  return { setup, relabel, play, pause, playing: () => playing, timeSource };
}
