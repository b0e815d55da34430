// The view told to a screen reader. Its description (the view's
// aria-describedby) follows what it shows: the example, the mode, the
// method, the selected bone and its turn, what a lesson step asks. A polite
// live region reports a change made by keys or a drag once, when it is
// made, never every frame.
import { boneLabel } from './bones.js';
import { hasLabel } from '../i18n.js';

/** The turn of a unit quaternion `[x, y, z, w]`: degrees from rest and the axis's main component. */
export function turnOfQuaternion([x, y, z, w]) {
  const degrees = (2 * Math.acos(Math.min(1, Math.abs(w))) * 180) / Math.PI;
  const axis = ['X', 'Y', 'Z'][[x, y, z].map(Math.abs).reduce((best, v, k, all) => (v > all[best] ? k : best), 0)];
  return { degrees, axis };
}

/** The telling of `app`'s view (`app` offers `lab`, `viewer`, `i18n`, `example`, `mode()`, `$`). */
export function createTelling(app) {
  const { num, t } = app.i18n;
  const { $ } = app;
  let said = '';

  /** The selected bone and its turn, as a phrase. */
  function boneNow() {
    const bone = app.viewer.selectedBone();
    if (bone === null || bone >= app.lab.boneCount()) return t('tell.noBone');
    const { degrees, axis } = turnOfQuaternion(app.lab.bonePose(bone).rotation);
    return t('tell.bone', { bone: boneLabel(t, app.lab.boneNames(), bone), angle: num(degrees, 1), axis });
  }

  /** What the view shows now, in a sentence or three. */
  function description() {
    const named = app.example && hasLabel(`ex.${app.example}`);
    const example = named ? t(`ex.${app.example}`) : (app.example ?? t('tell.ownScene'));
    const mode = t(`modeName.${app.mode()}`);
    const method = app.viewer.compare() ? app.viewer.comparePair().map((m) => m.toUpperCase()).join(' | ') : app.viewer.method().toUpperCase();
    const step = app.mode() === 'lessons' ? ` ${$('#lesson-do')?.textContent ?? ''}` : '';
    return `${t('tell.view', { example, mode, method, bones: num(app.lab.boneCount()), vertices: num(app.lab.vertexCount()) })} ${boneNow()}${step} ${t('tell.keys')}`;
  }

  return {
    /** Brings the description up to date (each frame; it is written only when it changed). */
    update() {
      if (!app.lab) return;
      const text = description();
      if (text !== said) {
        said = text;
        $('#view-description').textContent = text;
      }
    },
    /** Says `text` once through the live region. */
    say(text) {
      const region = $('#announce');
      // The same words twice are a second report: cleared, then set.
      region.textContent = '';
      requestAnimationFrame(() => { region.textContent = text; });
    },
    /** The selected bone and its turn, as said after a turn. */
    boneNow,
  };
}
