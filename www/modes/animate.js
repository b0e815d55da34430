// The Animate mode (the animation talk): keyframe clips on a timeline and bones
// riding Bézier paths. Pose a bone, press K: the pose is a key at the
// playhead. Keys interpolate step, linear or smooth (glTF CUBICSPLINE with
// Catmull-Rom tangents); the graph shows the selected bone's angle over
// time, so the three are told apart at a glance. A path's arc-length table
// is drawn as ticks and its timing as markers at equal time steps.
import { createTimeline } from '../parts/timeline.js';
import { createPathLayer } from '../parts/paths.js';
import { createClock } from '../clock.js';
import { createClockStrip } from '../parts/clock-strip.js';
import { createSpeedGraph } from '../parts/speed-graph.js';
import { createPursuit } from '../parts/pursuit.js';
import { createRotationLab } from '../parts/rotation-lab.js';
import { createKeyReduction } from '../parts/key-reduction.js';
import { ownCaption } from '../parts/captions.js';
import { forShortcuts } from '../parts/shortcuts.js';

const GRAPH_SAMPLES = 240;
const HOW = { STEP: 'step', LINEAR: 'linear', CUBICSPLINE: 'smooth' };

/**
 * The arc-length table's figures: its length against the integrated one
 * and the worst lookup error, each also as a percentage of the length, in
 * the language of `i18n`.
 */
export function pathErrorText({ num, sig, t }, e, entries) {
  const percent = (value) => sig((100 * Math.abs(value)) / e.exactLength);
  return t('path.figures', {
    entries: num(entries), length: num(e.length, 4), exact: num(e.exactLength, 4),
    short: percent(e.lengthError), lookup: sig(e.lookupError), lookupPercent: percent(e.lookupError),
  });
}

/** The Animate mode of `app` (see app.js for what `app` offers). */
export function createAnimateMode(app) {
  const { nameOf, num, t } = app.i18n;
  const { $ } = app;
  let time = 0;
  let playing = false;
  const clock = createClock();
  const clockStrip = createClockStrip(app, clock);
  let selectedKey = null;
  let active = false;
  let shownFor = null;

  const clip = () => {
    const value = Number($('#anim-clip').value);
    return Number.isInteger(value) && value >= 0 && value < app.lab.animationNames().length ? value : -1;
  };
  const path = () => (app.lab.pathCount() > 0 ? Math.min(Number($('#path-pick').value) || 0, app.lab.pathCount() - 1) : -1);
  const entries = () => 2 ** Number($('#path-entries').value);

  /** The time everything runs to: the longest of the clip and the paths. */
  function duration() {
    let longest = clip() >= 0 ? app.lab.animationDuration(clip()) : 0;
    for (let k = 0; k < app.lab.pathCount(); k++) longest = Math.max(longest, app.lab.path(k).duration);
    return longest;
  }

  /** Poses the scene at `seconds`: the clip first, then the paths. */
  function setTime(seconds) {
    time = Math.max(0, Number(seconds) || 0);
    if (clip() >= 0) app.lab.setAnimationTime(clip(), time);
    if (app.lab.pathCount() > 0) app.lab.applyPaths(time, entries());
    app.requestRender();
  }

  function frame(now) {
    if (!playing) return;
    if ($('#clock-slow').checked) {
      // The slow machine the lesson asks for: this frame takes 50 ms.
      const until = performance.now() + 50;
      while (performance.now() < until) { /* busy, as a slow machine is */ }
    }
    const step = clock.tick(now);
    clockStrip.frame(now, step);
    if (step.kind === 'skipped') {
      requestAnimationFrame(frame);
      return;
    }
    const length = duration();
    let seconds = time + step.advance;
    if (seconds > length) {
      if ($('#anim-loop').checked && length > 0) {
        seconds %= length;
      } else {
        seconds = length;
        pause();
      }
    }
    setTime(seconds);
    if (playing) requestAnimationFrame(frame);
  }

  function play() {
    if (playing || duration() <= 0) return;
    app.lab.checkpoint();
    if (time >= duration() - 1e-3) time = 0;
    playing = true;
    clock.reset();
    clockStrip.started(performance.now());
    $('#anim-play').setAttribute('aria-pressed', 'true');
    $('#anim-play').textContent = t('pause');
    requestAnimationFrame(frame);
  }

  function pause() {
    playing = false;
    $('#anim-play').setAttribute('aria-pressed', 'false');
    $('#anim-play').textContent = t('play');
  }

  // ----- keys -----

  function ensureClip() {
    if (clip() >= 0) return clip();
    const index = app.lab.addAnimation(t('anim.newName') + ` ${app.lab.animationNames().length + 1}`);
    listClips(index);
    return index;
  }

  function setKey() {
    const bone = app.viewer.selectedBone();
    if (bone === null) {
      app.showNotice(t('anim.pickBone'));
      return;
    }
    pause();
    app.lab.checkpoint();
    const index = ensureClip();
    const how = app.lab.keyInterpolation(index, bone);
    try {
      app.lab.setKey(index, bone, { time, interpolation: how ? HOW[how] : $('#anim-interp').value });
    } catch (error) {
      app.showNotice(error.message, 'error');
      return;
    }
    selectedKey = { bone, time };
    app.requestRender();
  }

  /** Keys the current morph weights (the Morph mode's sliders) at the playhead. */
  function setMorphKey() {
    if (!app.lab.morphNames().length) return;
    pause();
    app.lab.checkpoint();
    const index = ensureClip();
    app.lab.setMorphKey(index, time, $('#anim-interp').value);
    selectedKey = { bone: 'morphs', time };
    app.requestRender();
  }

  function deleteKey() {
    const index = clip();
    const bone = app.viewer.selectedBone();
    const key = selectedKey ?? (bone !== null ? { bone, time } : null);
    if (index < 0 || !key) return;
    app.lab.checkpoint();
    const removed = key.bone === 'morphs'
      ? app.lab.removeMorphKey(index, key.time)
      : app.lab.removeKey(index, key.bone, key.time);
    if (removed) {
      selectedKey = null;
      setTime(time);
    }
  }

  function setInterpolation() {
    const index = clip();
    const bone = app.viewer.selectedBone();
    if (index < 0 || bone === null || app.lab.keyTimes(index, bone).length === 0) return;
    app.lab.checkpoint();
    app.lab.setKeyInterpolation(index, bone, $('#anim-interp').value);
    setTime(time);
  }

  const timeline = createTimeline(app, {
    clip,
    time: () => time,
    setTime: (seconds) => { pause(); setTime(seconds); },
    selectedKey: () => selectedKey,
    selectKey: (key) => { selectedKey = key; app.requestRender(); },
    keyMoved(bone, from, to) {
      app.lab.checkpoint();
      if (bone === 'morphs') app.lab.moveMorphKey(clip(), from, to);
      else app.lab.moveKey(clip(), bone, { from, to });
      selectedKey = { bone, time: to };
      setTime(time);
    },
  });

  const pursuit = createPursuit(app, { path, time: () => time });
  const pathLayer = createPathLayer(app, {
    path: () => ($('#path-show').checked ? path() : -1),
    entries,
    pathEdited: () => { setTime(time); showPathError(); },
    decorate: (layer, screen) => pursuit.drawOnPath(layer, screen),
  });
  const speedGraph = createSpeedGraph(app, { path, time: () => time, edited: () => setTime(time) });
  const rotationLab = createRotationLab(app);
  const keyReduction = createKeyReduction(app, { clip, edited: () => setTime(time) });

  /** What one keyframe costs, every vertex against every bone. */
  function showMemory() {
    const { vertexBytes, boneBytes } = app.lab.keyframeBytes();
    $('#anim-memory').textContent = t('anim.memory', {
      vertices: num(app.lab.vertexCount()), vertexBytes: num(vertexBytes),
      bones: num(app.lab.boneCount()), boneBytes: num(boneBytes),
      ratio: num(vertexBytes / Math.max(boneBytes, 1), 1),
    });
  }

  // ----- the graph of the selected bone's angle -----

  function drawGraph() {
    const canvas = $('#anim-graph');
    const context = canvas.getContext('2d');
    const { width, height } = canvas;
    context.clearRect(0, 0, width, height);
    const index = clip();
    const bone = app.viewer.selectedBone();
    const keys = index >= 0 && bone !== null ? app.lab.keyTimes(index, bone) : [];
    $('#anim-graph-note').hidden = keys.length > 0;
    canvas.hidden = keys.length === 0;
    if (!keys.length) return;
    const length = Math.max(app.lab.animationDuration(index), 1e-3);
    // rotationCurve samples the clip without touching the pose on screen.
    const angles = Array.from(app.lab.rotationCurve(index, bone, GRAPH_SAMPLES)).map((a) => (a * 180) / Math.PI);
    const low = Math.min(-10, ...angles);
    const high = Math.max(10, ...angles);
    const pad = 36;
    const x = (seconds) => pad + ((width - 2 * pad) * seconds) / length;
    const y = (degrees) => height - pad / 2 - ((height - pad) * (degrees - low)) / (high - low);
    context.font = '18px system-ui, sans-serif';
    context.fillStyle = '#5f6b7a';
    context.strokeStyle = '#c9d1db';
    context.lineWidth = 1;
    context.beginPath();
    context.moveTo(pad, y(0));
    context.lineTo(width - pad, y(0));
    context.stroke();
    context.fillText(`${Math.round(high)}°`, 2, y(high) + 14);
    context.fillText(`${Math.round(low)}°`, 2, y(low));
    context.fillText('0°', 2, y(0) + 6);
    context.strokeStyle = '#0072b2';
    context.lineWidth = 3;
    context.beginPath();
    angles.forEach((a, k) => {
      const px = x((length * k) / (GRAPH_SAMPLES - 1));
      (k ? context.lineTo : context.moveTo).call(context, px, y(a));
    });
    context.stroke();
    context.fillStyle = '#d55e00';
    for (const key of keys) {
      const k = Math.round((key / length) * (GRAPH_SAMPLES - 1));
      context.beginPath();
      context.arc(x(key), y(angles[Math.min(k, GRAPH_SAMPLES - 1)]), 6, 0, 2 * Math.PI);
      context.fill();
    }
    context.strokeStyle = '#1a1a1a';
    context.lineWidth = 1.5;
    context.beginPath();
    context.moveTo(x(Math.min(time, length)), 4);
    context.lineTo(x(Math.min(time, length)), height - 4);
    context.stroke();
  }

  // ----- paths -----

  function showPathError() {
    const index = path();
    $('#path-panel').hidden = false;
    $('#path-controls').hidden = index < 0;
    $('output[for="path-entries"]').textContent = String(entries());
    if (index < 0) {
      $('#path-error').textContent = '';
      return;
    }
    $('#path-timing').value = app.lab.path(index).timing;
    const e = app.lab.pathError(index, entries());
    $('#path-error').textContent = pathErrorText(app.i18n, e, entries());
  }

  function newPath() {
    const bone = app.viewer.selectedBone();
    const origin = bone !== null ? app.lab.boneOrigin(bone) : [0, 0, 0];
    const [ox, oy, oz] = origin;
    // An S through the bone's origin, two segments, in the view plane.
    const points = [
      [ox - 2, oy, oz], [ox - 1.9, oy + 0.1, oz], [ox - 0.7, oy + 2, oz], [ox, oy, oz],
      [ox + 0.7, oy - 2, oz], [ox + 1.9, oy - 0.1, oz], [ox + 2, oy, oz],
    ].flat();
    app.lab.checkpoint();
    const index = app.lab.addPath({ points, bone: bone >= 0 ? bone : null, duration: 4, timing: $('#path-timing').value });
    listPaths(index);
    setTime(time);
  }

  // ----- the panel -----

  function listClips(select = 0) {
    const picker = $('#anim-clip');
    picker.textContent = '';
    const names = app.lab.animationNames();
    names.forEach((name, index) => picker.add(new Option(name ? nameOf(name) : `${t('anim.newName')} ${index + 1}`, String(index))));
    if (!names.length) picker.add(new Option(t('anim.noClip'), '-1'));
    picker.value = String(names.length ? select : -1);
  }

  function listPaths(select = 0) {
    const picker = $('#path-pick');
    picker.textContent = '';
    for (let k = 0; k < app.lab.pathCount(); k++) picker.add(new Option(nameOf(app.lab.path(k).name) || `${t('path.title')} ${k + 1}`, String(k)));
    picker.value = String(select);
    picker.hidden = app.lab.pathCount() === 0;
    showPathError();
  }

  function showTime() {
    $('#anim-time').textContent = `${num(time, 2)} s / ${num(duration(), 2)} s`;
    // The slider reaches a second past the clip, where the next key may go.
    const scrub = $('#anim-scrub');
    scrub.max = String(Math.max(2, Math.ceil(duration() + 1)));
    if (app.root.activeElement !== scrub) scrub.value = String(time);
    $('output[for="anim-scrub"]').textContent = `${num(time, 2)} s`;
    const index = clip();
    const bone = app.viewer.selectedBone();
    const how = index >= 0 && bone !== null ? app.lab.keyInterpolation(index, bone) : null;
    if (how && app.root.activeElement !== $('#anim-interp')) $('#anim-interp').value = HOW[how];
  }

  $('#anim-play').addEventListener('click', () => (playing ? pause() : play()));
  $('#anim-key').addEventListener('click', setKey);
  $('#anim-delete').addEventListener('click', deleteKey);
  $('#anim-morph-key').addEventListener('click', setMorphKey);
  $('#anim-interp').addEventListener('change', setInterpolation);
  $('#anim-new').addEventListener('click', () => {
    app.lab.checkpoint();
    const index = app.lab.addAnimation(`${t('anim.newName')} ${app.lab.animationNames().length + 1}`);
    listClips(index);
    app.requestRender();
  });
  $('#anim-clip').addEventListener('change', () => { selectedKey = null; setTime(0); });
  $('#path-new').addEventListener('click', newPath);
  $('#path-pick').addEventListener('change', () => { showPathError(); app.requestRender(); });
  $('#path-timing').addEventListener('change', () => {
    if (path() < 0) return;
    app.lab.checkpoint();
    app.lab.setPathTiming(path(), $('#path-timing').value);
    setTime(time);
  });
  $('#path-entries').addEventListener('input', () => { showPathError(); setTime(time); });
  $('#path-show').addEventListener('change', () => app.requestRender());
  $('#pursuit-car').addEventListener('input', () => app.requestRender());
  $('#pursuit-box').addEventListener('toggle', () => app.requestRender());
  $('#clock-frames').addEventListener('change', () => clock.setByFrames($('#clock-frames').checked));

  // The timeline's own keys, while it has the focus.
  $('#timeline').addEventListener('keydown', (event) => {
    const index = clip();
    const bone = app.viewer.selectedBone();
    if (!['ArrowLeft', 'ArrowRight'].includes(event.key) || index < 0 || bone === null) return;
    event.preventDefault();
    event.stopPropagation();
    const keys = Array.from(app.lab.keyTimes(index, bone));
    const forward = event.key === 'ArrowRight';
    if (event.shiftKey && selectedKey && selectedKey.bone === bone) {
      // The selected key a tenth of a second later or earlier, never before 0.
      const to = Math.max(0, Math.round((selectedKey.time + (forward ? 0.1 : -0.1)) * 1000) / 1000);
      if (to === selectedKey.time || keys.some((k) => Math.abs(k - to) < 1e-6)) return;
      app.lab.checkpoint();
      app.lab.moveKey(index, bone, { from: selectedKey.time, to });
      selectedKey = { bone, time: to };
      pause();
      setTime(to);
    } else {
      const next = forward ? keys.find((k) => k > time + 1e-6) : keys.filter((k) => k < time - 1e-6).at(-1);
      if (next === undefined) return;
      selectedKey = { bone, time: next };
      pause();
      setTime(next);
    }
    app.tell.say(t('anim.keyAt', { seconds: num(selectedKey.time, 2) }));
  });
  $('#anim-scrub').addEventListener('input', () => {
    pause();
    setTime(Number($('#anim-scrub').value));
  });

  app.root.addEventListener('keydown', (event) => {
    if (!active || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest?.('input, select, textarea')) return;
    // On the view, the page or the timeline only: never on a focused button.
    if (!forShortcuts(app, event) && !event.composedPath()[0].closest?.('#timeline')) return;
    if (event.key === 'k' || event.key === 'K') {
      event.preventDefault();
      setKey();
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      deleteKey();
    } else if (event.key === ' ') {
      event.preventDefault();
      if (playing) pause();
      else play();
    }
  }, { signal: app.signal });

  /** Lists the clips and paths again, keeping the chosen ones, and the memory figures. */
  function relist() {
    showMemory();
    listClips(Math.max(0, clip()));
    listPaths(Math.max(0, Number($('#path-pick').value) || 0));
  }

  return {
    name: 'animate',
    panel: $('#mode-animate'),
    tool: 'pose',
    enter() {
      active = true;
      app.setTool('pose');
      // The lists again (a clip may have come from elsewhere), the time kept:
      // a lesson step sets it before this mode joins it.
      if (app.lab && shownFor === app.lab) relist();
    },
    leave() {
      active = false;
      pause();
    },
    update() {
      if (shownFor !== app.lab) {
        shownFor = app.lab;
        selectedKey = null;
        time = 0;
        listClips(0);
        listPaths(0);
        showMemory();
      }
      // A clip added elsewhere (the Morph mode's lip-sync) joins the list.
      if ($('#anim-clip').options.length !== Math.max(1, app.lab.animationNames().length)) listClips(Math.max(0, clip()));
      $('#anim-morph-key').hidden = app.lab.morphNames().length === 0;
      showTime();
      timeline.draw();
      drawGraph();
      speedGraph.draw();
      pursuit.drawPlot();
      keyReduction.draw();
    },
    /** Draws the path layer and the rotation lab's bodies over the view (`shown`: in this mode or a lesson) or takes them away. */
    overlay(shown) {
      if (shown) pathLayer.draw();
      else if (pathLayer.shown()) pathLayer.clear();
      rotationLab.place(shown);
    },
    caption(name) {
      return [ownCaption(t, name, 'animate') ?? t('cap.animate')];
    },
    languageChanged() {
      // The rotation lab depends on no scene: it redraws on its own inputs.
      rotationLab.draw();
      if (app.lab && shownFor === app.lab) relist();
    },
    sceneChanged() {
      shownFor = null;
      pause();
      keyReduction.reset();
      // Listed now, not at the next frame in this mode: a lesson plays the
      // clip and draws the path without opening the mode.
      if (app.lab) {
        shownFor = app.lab;
        selectedKey = null;
        time = 0;
        listClips(0);
        listPaths(0);
        showMemory();
      }
    },
    /** What a video records here: the clip and paths from 0 to their end. */
    timeSource() {
      const length = duration();
      if (!(length > 0)) return null;
      const name = clip() >= 0 ? nameOf(app.lab.animationNames()[clip()]) : t('video.paths');
      return { name, duration: length, time: () => time, setTime: (seconds) => { pause(); setTime(seconds); } };
    },
    api: {
      animTime: () => time,
      setAnimTime: (seconds) => { pause(); setTime(seconds); },
      playAnimation: play,
      pauseAnimation: pause,
      animPlaying: () => playing,
      setKeyHere: setKey,
      setMorphKeyHere: setMorphKey,
      deleteKeyHere: deleteKey,
      selectedKey: () => (selectedKey ? { ...selectedKey } : null),
      timelinePoint: (bone, seconds) => timeline.clientPoint(bone, seconds),
      rulerPoint: (seconds) => timeline.rulerPoint(seconds),
      pathHandlePoint: (index) => pathLayer.handlePoint(index),
      /** Sets the arc-length table to `entries` (rounded to a power of two, 2…512). */
      setPathEntries(entries) {
        $('#path-entries').value = String(Math.max(1, Math.min(9, Math.round(Math.log2(entries)))));
        showPathError();
        setTime(time);
      },
      pathEntries: entries,
      speedHandlePoint: (k) => speedGraph.handlePoint(k),
      pursuitDistances: () => pursuit.finalDistances(),
      rotationLab: () => rotationLab.state(),
      keyReduction: () => keyReduction.lastReduction(),
      clockFrames: () => clock.history(),
      clockAdvanced: () => clockStrip.advanced(),
      clockByFrames: () => clock.byFrames(),
      /** Sets the clock's switches: `{slow, byFrames}`. */
      setClock({ slow = false, byFrames = false } = {}) {
        $('#clock-slow').checked = slow;
        $('#clock-frames').checked = byFrames;
        clock.setByFrames(byFrames);
      },
      /** Sets the rotation lab's turn and t. */
      setRotation({ preset = 'x', t: at = 0.5 } = {}) {
        $('#rot-preset').value = preset;
        $('#rot-t').value = String(at);
        rotationLab.draw();
      },
      /** Sets the pursuing car's speed, units a second. */
      setPursuitCar(speed) {
        $('#pursuit-car').value = String(speed);
        app.requestRender();
      },
      /** Sets bone `bone`'s interpolation in the current clip: 'step', 'linear' or 'smooth'. */
      setBoneInterpolation(bone, how) {
        if (clip() < 0) return;
        app.lab.checkpoint();
        app.lab.setKeyInterpolation(clip(), bone, how);
        setTime(time);
      },
      pathMarkers: () => {
        const index = path();
        if (index < 0) return [];
        const { duration: length } = app.lab.path(index);
        return Array.from({ length: 17 }, (_, k) => Array.from(app.lab.pathPosition(index, (length * k) / 16, entries())));
      },
    },
  };
}
