// The Rig mode: a skeleton placed in a mesh, at rest. A click on the mesh
// puts a joint inside it, midway between where the ray through the click
// enters the surface and where it leaves (viewer.volumePointAt): with no
// bone selected the first click places a head and the second its tail;
// with a bone selected a click adds a child from its tip. A click on a
// bone selects it. The selected bone is renamed, reparented, rolled,
// extruded (E: a child along it) or deleted (Delete) from the panel or the
// keys; its head and tail are dragged, into the volume under the pointer or
// (Shift) in the view plane; every edit is one undo step. By keyboard, the
// arrows move a pointer over the view and Enter clicks there; G and T take
// the selected bone's head and tail (as G grabs the root and T pulls the
// tip when posing): the arrows move it, into the volume under the pointer,
// Enter (or the same letter) puts it down, Esc puts it back. "Bind" hands the rig to the Weights
// mode's bone heat or geodesic voxels. The mesh report says what the mesh brings to binding.
// A template is fitted from markers clicked in the same way, in the
// order the panel asks for them; with symmetry on, a left marker places its
// right twin too, mirrored across the mesh's middle (x).
import { ARROWS, el, placeCircle } from '../dom.js';
import { boneLabel } from '../parts/bones.js';
import { exampleLab, loadConverters, whenConverters } from '../converters.js';

/** The Rig mode of `app` (see app.js for what `app` offers). */
export function createRigMode(app) {
  const { num, t } = app.i18n;
  const { $ } = app;
  let pendingHead = null; // a placed head waiting for its tail, model space
  let shownFor = null; // the lab and revision the panel shows
  let markers = null; // {name: [x, y, z]} while markers are placed, else null

  /** One undo step around `edit`; a refusal is said, not thrown. */
  function edit(action) {
    try {
      app.lab.checkpoint();
      const result = action();
      app.requestRender();
      return result;
    } catch (error) {
      app.showNotice(error.message.replace(/^\w+: /, ''), 'error');
      return null;
    }
  }

  function forgetHead() {
    pendingHead = null;
    $('#rig-head').hidden = true;
  }

  /**
   * A bone from `head` to `tail` below `parent`, selected. With X-mirror on
   * and a parent that has a twin (LeftArm, RightArm), the twin gets the
   * mirrored child too, the two named as twins (LeftArm_1, RightArm_1), in
   * the same undo step.
   */
  function addBone(parent, head, tail) {
    const twin = $('#rig-mirror').checked ? app.lab.boneTwin(parent) : undefined;
    const paired = twin !== undefined && twin !== null && twin !== parent;
    const bone = edit(() => {
      if (!paired) return app.lab.addBone({ parent, head, tail });
      const names = app.lab.boneNames();
      let n = 1;
      while (names.includes(`${names[parent]}_${n}`) || names.includes(`${names[twin]}_${n}`)) n += 1;
      const middle = meshMiddle();
      const added = app.lab.addBone({ parent, head, tail, name: `${names[parent]}_${n}` });
      app.lab.addBone({ parent: twin, head: mirrored(head, middle), tail: mirrored(tail, middle), name: `${names[twin]}_${n}` });
      return added;
    });
    if (bone === null) return;
    app.selectBone(bone);
    app.tell.say(t('rig.added', { name: boneLabel(t, app.lab.boneNames(), bone) }));
  }

  /** The markers template `name` asks for, in the order they are clicked. */
  const MARKERS = {
    humanoid: ['chin', 'groin', 'leftElbow', 'leftWrist', 'leftKnee', 'rightElbow', 'rightWrist', 'rightKnee'],
    quadruped: ['nose', 'withers', 'hips', 'tailBase', 'tailTip', 'frontLeftPaw', 'backLeftPaw', 'frontRightPaw', 'backRightPaw'],
    chain: ['start', 'end'],
  };

  /** A left marker's right twin (`leftKnee` → `rightKnee`, `frontLeftPaw` → `frontRightPaw`), or null. */
  const rightTwin = (name) => (name.startsWith('left') ? `right${name.slice(4)}` : name.includes('Left') ? name.replace('Left', 'Right') : null);

  const template = () => $('#rig-template').value;

  /** The next marker to click, or null when all are placed. */
  const nextMarker = () => MARKERS[template()].find((name) => !(name in markers)) ?? null;

  /** The middle of the mesh in x, across which left and right mirror. */
  function meshMiddle() {
    const positions = app.lab.skinnedPositions('lbs');
    let [low, high] = [Infinity, -Infinity];
    for (let k = 0; k < positions.length; k += 3) {
      low = Math.min(low, positions[k]);
      high = Math.max(high, positions[k]);
    }
    return (low + high) / 2;
  }

  const mirrored = (point, middle) => [2 * middle - point[0], point[1], point[2]];

  /** Places marker `name` at `point`, and its right twin where symmetry mirrors it. */
  function placeMarker(name, point) {
    markers[name] = point;
    const twin = rightTwin(name);
    if (!$('#rig-symmetry').checked || twin === null) return;
    markers[twin] = mirrored(point, meshMiddle());
  }

  /**
   * Sets bone `bone`'s rest `change` ({head?, tail?, roll?}) and, with
   * X-mirror on, its twin's (LeftArm/RightArm, arm.L/arm.R) mirrored across
   * the mesh's middle, roll turned the other way. `middle`: the mirror's x,
   * when the caller has it.
   */
  function setRest(bone, change, middle = null) {
    app.lab.setBoneRest(bone, change);
    const twin = $('#rig-mirror').checked ? app.lab.boneTwin(bone) : undefined;
    if (twin === undefined || twin === bone) return;
    // The mirror's x only where a head or a tail moves (a roll needs none).
    const x = change.head || change.tail ? middle ?? meshMiddle() : 0;
    const other = {};
    if (change.head) other.head = mirrored(change.head, x);
    if (change.tail) other.tail = mirrored(change.tail, x);
    if (change.roll !== undefined) other.roll = -change.roll;
    app.lab.setBoneRest(twin, other);
  }

  function showMarkers() {
    const placing = markers !== null;
    $('#rig-markers').setAttribute('aria-pressed', String(placing));
    const list = $('#rig-marker-list');
    list.textContent = '';
    for (const name of MARKERS[template()]) {
      const placed = placing && name in markers;
      list.append(el('li', { className: placed ? 'done' : '' }, `${placed ? '✓ ' : ''}${t(`rig.marker.${name}`)}`));
    }
    const next = placing ? nextMarker() : null;
    $('#rig-marker-next').textContent = !placing ? '' : next ? t('rig.markerNext', { name: t(`rig.marker.${next}`) }) : t('rig.markersDone');
    $('#rig-fit').disabled = !placing || next !== null;
    $('#rig-chain').hidden = template() !== 'chain';
    $('#rig-fingers-field').hidden = template() !== 'humanoid';
  }

  function fit() {
    const given = { ...markers };
    if (template() === 'chain') given.bones = Number($('#rig-chain-bones').value);
    if (template() === 'humanoid') given.fingers = Number($('#rig-fingers').value);
    // The templates are fitted by the file readers' module.
    if (!whenConverters(fit, (error) => app.showNotice(error.message, 'error'))) return;
    const added = edit(() => app.lab.fitSkeleton(template(), given));
    if (added === null) return;
    markers = null;
    showMarkers();
    app.showNotice(t('rig.fitted', { n: num(added) }), 'info', 'undoable');
  }

  /** The selected bone's head or tail within 10 CSS pixels of (x, y): `{bone, end}`, or null. */
  function endAt(x, y) {
    const bone = app.viewer.selectedBone();
    if (bone === null || isRootPoint(bone)) return null;
    const rest = app.lab.boneRest(bone);
    for (const end of ['tail', 'head']) {
      const at = app.viewer.screenPoint(rest[end]);
      if (at && Math.hypot(at[0] - x, at[1] - y) <= 10) return { bone, end };
    }
    return null;
  }

  /**
   * A drag of the selected bone's head or tail: into the volume under the
   * pointer, or in the view plane with Shift held (or off the mesh). One
   * undo step.
   */
  function dragEnd({ bone, end }, x, y) {
    const start = app.lab.boneRest(bone)[end];
    const middle = meshMiddle();
    app.lab.checkpoint();
    return {
      move(mx, my, event) {
        const inside = event.shiftKey ? null : app.viewer.volumePointAt(app.lab, [mx, my]);
        const point = inside ?? app.viewer.planePoint(start, [mx - x, my - y]);
        try {
          setRest(bone, { [end]: point }, middle);
        } catch {
          // A bone of no length on the way: the last good rest stays.
        }
      },
      end() {
        app.tell.say(t('rig.moved', { name: boneLabel(t, app.lab.boneNames(), bone) }));
      },
    };
  }

  /** A press on the view at (x, y); true (or a drag) when the mode took it. */
  function viewClick(x, y, event) {
    const grabbed = endAt(x, y);
    if (grabbed) return dragEnd(grabbed, x, y);
    if (event?.shiftKey) return false;
    if (markers !== null && nextMarker() !== null) {
      const point = app.viewer.volumePointAt(app.lab, [x, y]);
      if (point === null) return false;
      const name = nextMarker();
      placeMarker(name, point);
      app.tell.say(t('rig.markerPlaced', { name: t(`rig.marker.${name}`) }));
      showMarkers();
      return true;
    }
    const bone = app.viewer.pickBone(app.lab, x, y);
    if (bone !== null) {
      forgetHead();
      app.selectBone(bone);
      return true;
    }
    const point = app.viewer.volumePointAt(app.lab, [x, y]);
    if (point === null) return false;
    const selected = app.viewer.selectedBone();
    if (selected !== null && !isRootPoint(selected)) {
      addBone(selected, app.lab.boneRest(selected).tail, point);
    } else if (pendingHead === null) {
      pendingHead = point;
      const marker = $('#rig-head');
      marker.hidden = false;
      placeCircle(marker, x, y, 6);
      app.tell.say(t('rig.headPlaced'));
    } else {
      const head = pendingHead;
      forgetHead();
      addBone(selected ?? 0, head, point);
    }
    return true;
  }

  /** Whether `bone` is a point with no length (a static mesh's root). */
  const isRootPoint = (bone) => app.lab.boneParents()[bone] === null && app.lab.boneLengths()[bone] === 0;

  function extrude() {
    const bone = app.viewer.selectedBone();
    if (bone === null || isRootPoint(bone)) return;
    const { head, tail } = app.lab.boneRest(bone);
    addBone(bone, tail, tail.map((c, k) => 2 * c - head[k]));
  }

  function remove() {
    const bone = app.viewer.selectedBone();
    if (bone === null) return;
    const name = boneLabel(t, app.lab.boneNames(), bone);
    if (edit(() => app.lab.removeBone(bone)) === null) return;
    app.viewer.selectBone(app.lab, null);
    app.tell.say(t('rig.removed', { name }));
  }

  function rename() {
    const bone = app.viewer.selectedBone();
    if (bone === null) return;
    edit(() => app.lab.renameBone(bone, $('#rig-name').value.trim()));
  }

  function reparent() {
    const bone = app.viewer.selectedBone();
    if (bone === null) return;
    const moved = edit(() => app.lab.setBoneParent(bone, Number($('#rig-parent').value)));
    if (moved !== null) app.selectBone(moved);
  }

  function roll() {
    const bone = app.viewer.selectedBone();
    if (bone === null) return;
    edit(() => setRest(bone, { roll: (Number($('#rig-roll').value) * Math.PI) / 180 }));
  }

  /** The selected bone's fields, and the report, as the lab has them now. */
  function show() {
    const bone = app.viewer.selectedBone();
    const key = `${app.lab.revision()} ${bone} ${pendingHead !== null}`;
    if (shownFor?.lab === app.lab && shownFor.key === key) return;
    shownFor = { lab: app.lab, key };
    const chosen = bone !== null && bone < app.lab.boneCount();
    $('#rig-bone').hidden = !chosen;
    $('#rig-do').textContent = t(pendingHead ? 'rig.doTail' : chosen && !isRootPoint(bone) ? 'rig.doChild' : 'rig.doHead');
    if (!chosen) return;
    const names = app.lab.boneNames();
    const parents = app.lab.boneParents();
    if (app.root.activeElement !== $('#rig-name')) $('#rig-name').value = names[bone];
    const parent = $('#rig-parent');
    parent.textContent = '';
    parent.disabled = parents[bone] === null;
    for (let other = 0; other < names.length; other++) {
      if (other === bone) continue;
      parent.add(new Option(`${other + 1} · ${boneLabel(t, names, other)}`, String(other), false, other === parents[bone]));
    }
    const degrees = (app.lab.boneRest(bone).roll * 180) / Math.PI;
    if (app.root.activeElement !== $('#rig-roll')) $('#rig-roll').value = String(Math.round(degrees));
    $('#rig-roll-value').textContent = `${num(degrees, 0)}°`;
  }

  /** The mesh report, with what each figure means for binding. */
  function showReport() {
    // The report is measured by the file readers' module.
    if (!whenConverters(() => { if (app.lab && app.shows('rig')) showReport(); })) return;
    const report = app.lab.meshReport();
    const list = $('#rig-report');
    list.textContent = '';
    for (const key of ['looseParts', 'duplicateVertices', 'nonManifoldEdges', 'openEdges', 'degenerateTriangles', 'flippedTriangles', 'seamsApart']) {
      const item = el('li', {}, el('strong', {}, num(report[key])), ' ', t(`rig.report.${key}`));
      const fine = key === 'looseParts' ? report[key] <= 1 : report[key] === 0;
      item.classList.toggle('pitfall', !fine);
      list.append(item);
    }
  }

  /**
   * Plays the walk capture on the rig by joint names (the humanoid's are
   * Mixamo's, which the capture shares) as a new clip, in the Animate mode.
   */
  async function tryWalk() {
    let capture = null;
    try {
      capture = await exampleLab('capture');
      app.lab.checkpoint();
      const report = app.lab.retargetClip(capture, 0);
      app.clipsChanged();
      // In a lesson's step the clip plays where the step is.
      if (app.mode() === 'rig') app.setMode('animate');
      $('#clip').value = String(report.clip);
      $('#clip').dispatchEvent(new Event('change'));
      app.play();
      app.showNotice(t('rig.walking', { n: num(report.matched) }), 'info', 'undoable');
    } catch (error) {
      app.showNotice(error.message.replace(/^\w+: /, ''), 'error');
    } finally {
      capture?.free();
    }
  }

  $('#rig-walk').addEventListener('click', tryWalk);
  $('#rig-markers').addEventListener('click', () => {
    markers = markers === null ? {} : null;
    forgetHead();
    showMarkers();
  });
  $('#rig-template').addEventListener('change', () => {
    if (markers !== null) markers = {};
    showMarkers();
  });
  $('#rig-fit').addEventListener('click', fit);
  $('#rig-extrude').addEventListener('click', extrude);
  $('#rig-delete').addEventListener('click', remove);
  $('#rig-rename').addEventListener('click', rename);
  $('#rig-name').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') rename();
  });
  $('#rig-parent').addEventListener('change', reparent);
  $('#rig-roll').addEventListener('change', roll);
  for (const [id, method] of [['#rig-bind', 'heat'], ['#rig-bind-voxel', 'voxel']]) {
    $(id).addEventListener('click', () => {
      if (app.mode() === 'rig') app.setMode('weights');
      app.autoWeights(method);
    });
  }
  // The selected bone's head or tail moved by keys: {drag, key} while G or T is on.
  let keyDrag = null;

  /** G or T: the selected bone's `end` ('head' or 'tail') taken, the key pointer on it. */
  function takeEnd(end, key) {
    const bone = app.viewer.selectedBone();
    const at = bone === null || isRootPoint(bone) ? null : app.viewer.screenPoint(app.lab.boneRest(bone)[end]);
    if (!at) {
      app.tell.say(t('rig.noEnd'));
      return;
    }
    keyPointer = [at[0], at[1]];
    moveKeyPointer([0, 0]);
    keyDrag = { drag: dragEnd({ bone, end }, at[0], at[1]), key };
    app.tell.say(t(end === 'head' ? 'rig.takeHead' : 'rig.takeTail', { name: boneLabel(t, app.lab.boneNames(), bone) }));
  }

  /** Ends a key move: put down where it is, or (`back`) put back where it was. */
  function putDown(back) {
    const { drag } = keyDrag;
    keyDrag = null;
    if (back) {
      app.lab.undo();
      app.tell.say(t('rig.putBack'));
    } else {
      drag.end();
    }
    app.requestRender();
  }

  // The keyboard's pointer: the arrows move it over the view (10 px a
  // press, 2 with Shift) and Enter or Space clicks there, as the mouse does.
  let keyPointer = null;
  function moveKeyPointer([dx, dy]) {
    const view = $('#view');
    const [x, y] = keyPointer ?? [view.clientWidth / 2, view.clientHeight / 2];
    keyPointer = [Math.min(view.clientWidth, Math.max(0, x + dx)), Math.min(view.clientHeight, Math.max(0, y + dy))];
    const cursor = $('#brush-cursor');
    cursor.hidden = false;
    placeCircle(cursor, keyPointer[0], keyPointer[1], 8);
  }

  app.root.addEventListener('keydown', (event) => {
    if (!app.shows('rig') || event.composedPath()[0] !== $('#view')) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (keyDrag && ARROWS[event.key]) {
      moveKeyPointer(ARROWS[event.key].map((d) => d * (event.shiftKey ? 2 : 10)));
      keyDrag.drag.move(keyPointer[0], keyPointer[1], { shiftKey: false });
      app.requestRender();
    } else if (keyDrag && (event.key === 'Enter' || event.key === ' ' || key === keyDrag.key || event.key === 'Escape')) {
      putDown(event.key === 'Escape');
    } else if (keyDrag) {
      return;
    } else if (key === 'g' || key === 't') {
      takeEnd(key === 'g' ? 'head' : 'tail', key);
    } else if (ARROWS[event.key]) {
      moveKeyPointer(ARROWS[event.key].map((d) => d * (event.shiftKey ? 2 : 10)));
    } else if ((event.key === 'Enter' || event.key === ' ') && keyPointer) {
      if (!viewClick(keyPointer[0], keyPointer[1])) app.tell.say(t('rig.offMesh'));
      app.requestRender();
    } else if (event.key === 'Delete' || event.key === 'Backspace') remove();
    else if (event.key.toLowerCase() === 'e') extrude();
    else if (event.key === 'Escape') forgetHead();
    else return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, { capture: true, signal: app.signal });

  return {
    name: 'rig',
    panel: $('#mode-rig'),
    tool: 'pose',
    enter() {
      app.viewClick = viewClick;
      shownFor = null;
      // Binding's solvers, ready before a button asks for them.
      loadConverters().catch(() => {});
      showMarkers();
      // Opened by a link before its scene is there: the scene's arrival
      // fills the report (sceneChanged).
      if (!app.lab) return;
      app.setCompare?.(false);
      // The rig is edited at rest, as it is drawn there.
      const posed = app.lab.boneNames().some((_, bone) => {
        const { rotation, translation, scale } = app.lab.bonePose(bone);
        return rotation[3] < 1 - 1e-7 || translation.some((c) => c !== 0) || scale.some((c) => c !== 1);
      });
      if (posed) {
        app.lab.checkpoint();
        app.lab.resetPose();
        app.showNotice(t('rig.atRest'), 'info', 'undoable');
      }
      showReport();
    },
    leave() {
      if (app.viewClick === viewClick) app.viewClick = null;
      if (keyDrag) putDown(false);
      forgetHead();
      keyPointer = null;
      $('#brush-cursor').hidden = true;
      markers = null;
    },
    update() {
      if (app.lab) show();
    },
    caption() {
      return [t('cap.rig')];
    },
    sceneChanged() {
      keyDrag = null;
      forgetHead();
      markers = null;
      showMarkers();
      shownFor = null;
      if (app.shows('rig')) showReport();
    },
    languageChanged() {
      shownFor = null;
      showMarkers();
      if (app.shows('rig')) showReport();
    },
    api: {
      /** The markers placed so far in the Rig mode, or null when none are being placed. */
      rigMarkers: () => (markers === null ? null : { ...markers }),
      /** Plays the walk capture on the rig by joint names, as "Try the walk" does. */
      tryWalk,
    },
  };
}
