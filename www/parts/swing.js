// Swinging limbs in the IK mode (the bones note's "pendelnder Arm"): the
// selected bone and every bone below it swing under the core's dynamics
// (`lab.setDynamics`, `lab.stepDynamics`), stepped once a frame by the time
// that frame took, while the hand or a clip moves the bones above.

/** The swing controls of `app` under `#swing-box`. */
export function createSwing(app) {
  const { num, t } = app.i18n;
  const { $ } = app;
  let running = false;
  let last = null;
  let bones = [];

  /** `bone` and every bone below it. */
  function below(bone) {
    const parents = app.lab.boneParents();
    const out = [bone];
    for (let b = bone + 1; b < parents.length; b++) if (out.includes(parents[b])) out.push(b);
    return out;
  }

  function settings() {
    return {
      bones,
      damping: Number($('#swing-damping').value),
      stiffness: Number($('#swing-stiffness').value),
    };
  }

  function frame(now) {
    if (!running) return;
    // A long pause (a hidden tab) is not caught up: at most a tenth of a second.
    const dt = last === null ? 0 : Math.min((now - last) / 1000, 0.1);
    last = now;
    app.lab.stepDynamics(dt);
    showFigures();
    app.requestRender();
    requestAnimationFrame(frame);
  }

  function start() {
    const bone = app.viewer.selectedBone();
    if (bone === null) {
      app.showNotice(t('swing.pick'));
      return;
    }
    bones = below(bone);
    app.lab.checkpoint();
    app.lab.setDynamics(settings());
    running = true;
    last = null;
    $('#swing-toggle').setAttribute('aria-pressed', 'true');
    $('#swing-toggle').textContent = t('swing.stop');
    requestAnimationFrame(frame);
  }

  function stop() {
    if (!running) return;
    running = false;
    app.lab?.clearDynamics();
    $('#swing-toggle').setAttribute('aria-pressed', 'false');
    $('#swing-toggle').textContent = t('swing.start');
    $('#swing-text').textContent = '';
  }

  function showFigures() {
    const speeds = Array.from(app.lab.dynamicsSpeeds());
    $('#swing-text').textContent = t('swing.figures', { n: num(speeds.length), speed: num(Math.max(0, ...speeds), 2) });
  }

  function retune() {
    $('output[for="swing-damping"]').textContent = num(Number($('#swing-damping').value), 1);
    $('output[for="swing-stiffness"]').textContent = num(Number($('#swing-stiffness').value));
    if (running) app.lab.setDynamics(settings());
  }

  $('#swing-toggle').addEventListener('click', () => (running ? stop() : start()));
  $('#swing-damping').addEventListener('input', retune);
  $('#swing-stiffness').addEventListener('input', retune);

  return {
    start,
    stop,
    relabel() { $('#swing-toggle').textContent = running ? t('swing.stop') : t('swing.start'); },
    state: () => ({ running, bones: [...bones], speeds: running ? Array.from(app.lab.dynamicsSpeeds()) : [] }),
  };
}
