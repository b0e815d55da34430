// The Lessons mode: the lecture as guided, checked steps. A step sets up
// the scene and the view, says what to do and what to notice, and ticks
// when the student has done it; Next lights up. Presenters' clickers
// (PageDown/PageUp, and the arrows when no bone is selected) step through,
// except in a slide deck, whose clicker moves the deck (deck-keys.js).
import { el } from '../dom.js';
import { LESSONS } from '../lessons.js';
import { convertersReady, loadConverters } from '../converters.js';
import { OVERLAYS } from '../link.js';
import { leftToDeck } from '../deck-keys.js';
import { forShortcuts } from '../parts/shortcuts.js';

const DEFAULT_OVERLAYS = { mesh: true, wireframe: true, dots: true, bones: true };

/** The Lessons mode of `app` (see app.js for what `app` offers). */
export function createLessonsMode(app) {
  const { current: currentLanguage, t } = app.i18n;
  const { $ } = app;
  let lesson = null;
  let step = 0; // 0-based here; 1-based in the URL and the API
  let done = false;
  let scene = null; // the step's scene document, parsed once as it starts

  const s = () => app.api;
  // The view's settings as they were when the lessons began (`before`) and
  // as the last step left them (`applied`): leaving gives back each one the
  // lessons changed and the student did not change since.
  let before = null;
  let applied = null;
  const settingsNow = () => ({
    overlays: Object.fromEntries(OVERLAYS.map((name) => [name, app.viewer.overlay(name)])),
    method: app.viewer.method(),
    compare: app.viewer.compare(),
    quantised: app.lab?.isQuantised() ?? false,
  });
  function giveBackSettings() {
    if (!before || !applied || !s()) return;
    const now = settingsNow();
    for (const name of OVERLAYS) {
      if (now.overlays[name] === applied.overlays[name]) s().setOverlay(name, before.overlays[name]);
    }
    if (now.method === applied.method) s().setMethod(before.method);
    if (now.compare === applied.compare) s().setCompare(before.compare);
    if (now.quantised === applied.quantised && app.lab) s().setQuantised(before.quantised);
    before = null;
    applied = null;
  }
  const text = (pair) => pair[currentLanguage()] ?? pair.en;
  // The step's check in the caption, for a step in a slide without the panel.
  const captionCheck = el('strong', { className: 'caption-check' });
  captionCheck.setAttribute('role', 'status');

  // The panel sections a step opened (closed before it): the next step
  // closes those it does not use, and leaving closes them all, so a step
  // looks the same reached by Next as opened by its link.
  const opened = new Set();
  function openSections(selectors) {
    for (const selector of opened) {
      if (selectors.includes(selector)) continue;
      const section = app.root.querySelector(selector);
      if (section) section.open = false;
      opened.delete(selector);
    }
    for (const selector of selectors) {
      const section = app.root.querySelector(selector);
      if (!section || section.open) continue;
      section.open = true;
      opened.add(selector);
    }
  }

  /** Gives back what the lessons changed (settings, sections), as when they end. */
  function cleanUp() {
    giveBackSettings();
    openSections([]);
  }

  const ACTIONS = {
    nearest: { label: () => t('auto.nearest'), run: () => s().autoWeights('nearest') },
    heat: { label: () => t('auto.heat'), run: () => s().autoWeights('heat') },
    voxel: { label: () => t('auto.voxel'), run: () => s().autoWeights('voxel') },
    walk: { label: () => t('rig.walk'), run: () => s().tryWalk() },
    kneeStep: { label: () => t('lesson.kneeStep'), run: () => s().setBoneInterpolation(2, 'step') },
    kneeLinear: { label: () => t('lesson.kneeLinear'), run: () => s().setBoneInterpolation(2, 'linear') },
    kneeSmooth: { label: () => t('lesson.kneeSmooth'), run: () => s().setBoneInterpolation(2, 'smooth') },
    keyBone2: {
      label: () => t('lesson.keyBone2'),
      run: () => { s().selectBone(1); s().setKeyHere(); },
    },
    later: {
      label: () => t('lesson.later'),
      run: () => s().setAnimTime(s().animTime() + 1),
    },
    naive: {
      label: () => t('lesson.naive'),
      run: () => { app.lab.checkpoint(); app.lab.setPathTiming(0, 'naive'); s().setAnimTime(s().animTime()); },
    },
    uniform: {
      label: () => t('lesson.uniform'),
      run: () => { app.lab.checkpoint(); app.lab.setPathTiming(0, 'uniform'); s().setAnimTime(s().animTime()); },
    },
    coarse: { label: () => t('lesson.coarse'), run: () => s().setPathEntries(4) },
    format4x3: { label: () => t('lesson.format4x3'), run: () => s().setPaletteFormat('mat4x3') },
    formatQuat: { label: () => t('lesson.formatQuat'), run: () => s().setPaletteFormat('quat-translation') },
    stretch: {
      label: () => t('lesson.stretch'),
      run: () => {
        const { rotation, translation } = app.lab.bonePose(1);
        app.lab.checkpoint();
        app.lab.setBonePose(1, { rotation, translation, scale: [1, 1.5, 1] });
        app.requestRender();
      },
    },
    eightBit: { label: () => t('lesson.eightBit'), run: () => s().setQuantised(true) },
    reach: {
      label: () => t('lesson.reach'),
      run: () => {
        app.lab.checkpoint();
        s().setIkChain({ tip: 1, chain: 2, method: 'analytic' });
        s().setIkTarget([-0.7, -1.6, 0]);
      },
    },
    far: {
      label: () => t('lesson.far'),
      run: () => {
        app.lab.checkpoint();
        s().setIkChain({ tip: 1, chain: 2, method: 'fabrik' });
        s().setIkTarget([-0.5, -3.2, 0]);
      },
    },
    visemeA: {
      label: () => t('lesson.visemeA'),
      run: () => { app.lab.checkpoint(); app.lab.setMorphWeights(app.lab.morphNames().map((name) => (name === 'A' ? 1 : 0))); },
    },
    smile: {
      label: () => t('lesson.smile'),
      run: () => {
        app.lab.checkpoint();
        app.lab.setMorphWeights(app.lab.morphNames().map((name, k) => (name === 'smile' ? 0.6 : app.lab.morphWeights()[k])));
      },
    },
    say: { label: () => t('morph.say'), run: () => s().say() },
    fine: { label: () => t('lesson.fine'), run: () => s().setPathEntries(512) },
    bend: {
      label: () => t('lesson.bend'),
      run: () => {
        app.lab.checkpoint();
        app.lab.setBonePose(1, { rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] });
        app.requestRender();
      },
    },
    twist: {
      label: () => t('twist'),
      run: () => {
        app.lab.checkpoint();
        app.lab.setBonePose(1, { rotation: [0, 1, 0, 0] });
        app.requestRender();
      },
    },
  };

  function buildPicker() {
    const picker = $('#lesson-picker');
    picker.textContent = '';
    for (const item of LESSONS) picker.add(new Option(text(item.title), item.name));
  }

  /** Sets up step `index` of the current lesson. */
  function setStep(index) {
    step = Math.max(0, Math.min(index, lesson.steps.length - 1));
    const current = lesson.steps[step];
    const api = s();
    // A step whose start calls the file readers' module (`readers`), and
    // an example the page's module does not build, wait for that module
    // the first time: the step is set up once it is there.
    const loading = current.readers && !convertersReady()
      ? loadConverters().catch((error) => app.showNotice(error.message, 'error'))
      : app.loadExample(current.example);
    if (loading) {
      loading.then(() => { if (convertersReady() && lesson.steps[step] === current) setStep(step); });
      return;
    }
    // Back in a lesson after another example was opened: what the page had
    // then is what leaving gives back.
    before ??= settingsNow();
    for (const name of OVERLAYS) api.setOverlay(name, Boolean({ ...DEFAULT_OVERLAYS, ...current.overlays }[name]));
    api.setMethod('lbs');
    api.setCompare(false);
    api.pauseAnimation();
    api.setAnimTime(0);
    api.setPathEntries(32);
    api.setClock({});
    api.setPaletteFormat('');
    api.setQuantised(false);
    for (const [bone, rotation] of current.pose ?? []) app.lab.setBonePose(bone, { rotation });
    // The sections the step works in, opened (they start closed on the page).
    openSections(current.opens ?? []);
    current.prepare?.(api);
    scene = JSON.parse(app.lab.sceneJson());
    app.setCompanion(current.panel ?? null);
    if (current.paint) {
      // A bone by its name where the step's skeleton is made in prepare.
      const { bone } = current.paint;
      api.selectBone(typeof bone === 'string' ? app.lab.boneNames().indexOf(bone) : bone);
      api.setBrush(current.paint.brush);
      app.setTool('paint');
      api.setWeightView('weights');
    } else {
      app.setTool('pose');
      api.setWeightView('skin');
    }
    applied = settingsNow();
    done = false;
    showStep();
    app.requestRender();
    // After the frame that fills the panels.
    requestAnimationFrame(() => requestAnimationFrame(revealFigures));
  }

  /** Scrolls the figures the step's text names into view, those shown so far. */
  function revealFigures() {
    // Below the step's card, which stays pinned over the panel's top.
    const panel = $('#mode-lessons').parentElement;
    panel.style.scrollPaddingTop = `${$('#mode-lessons').offsetHeight}px`;
    for (const selector of lesson?.steps[step].shows ?? []) {
      const figure = app.root.querySelector(selector);
      if (figure && figure.offsetParent !== null) figure.scrollIntoView({ block: 'nearest' });
    }
  }

  /** What to notice in `current`, its {placeholders} filled with its figures as they are now. */
  function noticeText(current) {
    const values = current.figures?.(s()) ?? {};
    return text(current.notice).replace(/\{(\w+)\}/g, (whole, key) => values[key] ?? whole);
  }

  function showStep() {
    const current = lesson.steps[step];
    $('#lesson-picker').value = lesson.name;
    $('#lesson-step').textContent = `${t('lesson.step')} ${step + 1} / ${lesson.steps.length}`;
    $('#lesson-do').textContent = text(current.do);
    $('#lesson-notice').textContent = noticeText(current);
    const actions = $('#lesson-actions');
    actions.textContent = '';
    for (const name of current.actions ?? []) {
      const button = el('button', { type: 'button' }, ACTIONS[name].label());
      button.addEventListener('click', ACTIONS[name].run);
      actions.append(button);
    }
    $('#lesson-previous').disabled = step === 0;
  }

  function showDone() {
    $('#lesson-check').textContent = done ? `✓ ${t('lesson.done')}` : t('lesson.todo');
    $('#lesson-check').classList.toggle('done', done);
    captionCheck.textContent = $('#lesson-check').textContent;
    captionCheck.classList.toggle('done', done);
    $('#lesson-notice').hidden = !done;
    // A notice with the core's numbers says them as they are once done.
    if (done && lesson.steps[step].figures) $('#lesson-notice').textContent = noticeText(lesson.steps[step]);
    const last = step === lesson.steps.length - 1;
    const lastLesson = LESSONS.indexOf(lesson) === LESSONS.length - 1;
    $('#lesson-next').classList.toggle('ready', done);
    $('#lesson-next').textContent = !last ? t('lesson.next') : lastLesson ? t('lesson.again') : t('lesson.nextLesson');
  }

  /** Opens lesson `name` at `number` (1-based); throws on an unknown name. */
  function startLesson(name, number = 1) {
    const found = LESSONS.find((item) => item.name === name);
    if (!found) throw new Error(`unknown lesson '${name}'; known: ${LESSONS.map((l) => l.name).join(', ')}`);
    lesson = found;
    if (app.mode() !== 'lessons') app.setMode('lessons');
    setStep(Math.max(1, Math.round(Number(number) || 1)) - 1);
  }

  function nextStep() {
    if (!lesson) return false;
    if (step === lesson.steps.length - 1) {
      // After the last lesson's last step the lecture starts over.
      lesson = LESSONS[(LESSONS.indexOf(lesson) + 1) % LESSONS.length];
      setStep(0);
      return true;
    }
    setStep(step + 1);
    return true;
  }

  function previousStep() {
    if (!lesson || step === 0) return false;
    setStep(step - 1);
    return true;
  }

  // Clickers send PageDown/PageUp; the arrows too when no bone is selected.
  app.root.addEventListener('keydown', (event) => {
    if (app.mode() !== 'lessons' || !lesson || leftToDeck(event)) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
    // The arrows only on the view or the page: a focused ring, handle or
    // timeline moves by them.
    const free = app.viewer?.selectedBone() === null && forShortcuts(app, event);
    const forward = event.key === 'PageDown' || (free && event.key === 'ArrowRight');
    const back = event.key === 'PageUp' || (free && event.key === 'ArrowLeft');
    if (!forward && !back) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (forward) nextStep(); else previousStep();
  }, { capture: true, signal: app.signal });

  $('#lesson-picker').addEventListener('change', (event) => startLesson(event.target.value));
  $('#lesson-next').addEventListener('click', nextStep);
  $('#lesson-previous').addEventListener('click', previousStep);

  return {
    name: 'lessons',
    panel: $('#mode-lessons'),
    tool: 'pose',
    enter() {
      before = settingsNow();
      buildPicker();
      if (!lesson && app.lab) startLesson(LESSONS[0].name);
    },
    leave() {
      cleanUp();
      app.setCompanion(null);
      s()?.pauseAnimation?.();
      s()?.setPaletteFormat?.('');
    },
    update() {
      if (!lesson) return;
      const before = done;
      try {
        done = done || Boolean(lesson.steps[step].check(s(), scene));
      } catch {
        done = false;
      }
      showDone();
      // Done: what to notice appears, and the figure it speaks of with it.
      if (done && !before) requestAnimationFrame(revealFigures);
    },
    caption() {
      // Shown where no panel is (a step in a slide): the step and its check.
      return lesson ? [`${text(lesson.title)} · ${t('lesson.step')} ${step + 1}: ${text(lesson.steps[step].do)}`, captionCheck] : [];
    },
    sceneChanged() {
      // Another example opened in the middle of a step: the step is left.
      if (lesson && app.mode() === 'lessons' && app.example !== lesson.steps[step].example) cleanUp();
    },
    languageChanged() {
      buildPicker();
      if (!lesson) return;
      showStep();
      showDone();
    },
    api: {
      /** The lessons: name, title, number of steps, and per step its buttons' count and the panel it shows. */
      lessons: () => LESSONS.map((item) => ({
        name: item.name,
        title: text(item.title),
        steps: item.steps.length,
        parts: item.steps.map((step) => ({ actions: step.actions?.length ?? 0, panel: step.panel ?? null, shows: step.shows ?? [] })),
      })),
      startLesson,
      lessonState: () => (lesson
        ? { lesson: lesson.name, step: step + 1, steps: lesson.steps.length, done }
        : { lesson: null, step: 0, steps: 0, done: false }),
      nextStep,
      previousStep,
    },
  };
}
