// Bones that deform nothing (a file's end bones, IK controllers, a root at
// the floor): the Bones list's "deforms" box sets the flag as one undo
// step; the brush and typed weights asked to give such a bone skin say so,
// and the Weights mode offers to let the selected one deform.
import { boneLabel } from './bones.js';

/** The deforming bones of `app` (which offers `lab`, `viewer`, `i18n`, `$`, `showNotice`, `tell`, `mode`). */
export function createDeforming(app) {
  const { num, t } = app.i18n;
  const { $ } = app;
  const label = (bone) => boneLabel(t, app.lab.boneNames(), bone);

  /** Sets bone `bone`'s flag as one undo step and says what it did; false when refused. */
  function set(bone, on) {
    const { lab } = app;
    const others = Array.from({ length: lab.boneCount() }, (_, b) => b !== bone && lab.boneDeforms(b));
    if (!on && !others.includes(true)) {
      // The last bone that deforms keeps the skin.
      app.showNotice(t('deforms.last'), 'error');
      return false;
    }
    lab.checkpoint();
    let moved = 0;
    try {
      moved = lab.setBoneDeforms(bone, on);
    } catch (error) {
      app.showNotice(error.message, 'error');
      return false;
    }
    const text = on ? t('deforms.on', { bone: label(bone) })
      : moved > 0 ? t('deforms.offMoved', { bone: label(bone), n: num(moved) }) : t('deforms.off', { bone: label(bone) });
    app.showNotice(text, 'info', 'undoable');
    app.tell.say(text);
    app.requestRender();
    return true;
  }

  /** True, and said, when weight is asked for bone `bone`, which deforms nothing. */
  function refuses(bone) {
    if (bone === null || app.lab.boneDeforms(bone)) return false;
    const text = t('deforms.nothing', { bone: label(bone) });
    app.showNotice(text);
    app.tell.say(text);
    return true;
  }

  /** The Weights mode's offer, shown while the selected bone deforms nothing. */
  function update() {
    const bone = app.viewer.selectedBone();
    const offer = $('#deform-offer');
    const shown = app.mode() === 'weights' && bone !== null && bone < app.lab.boneCount() && !app.lab.boneDeforms(bone);
    if (offer.hidden === !shown && (!shown || offer.dataset.bone === String(bone))) return;
    offer.hidden = !shown;
    offer.dataset.bone = shown ? String(bone) : '';
    if (shown) $('#deform-offer-text').textContent = t('deforms.nothing', { bone: label(bone) });
  }

  $('#deform-on').addEventListener('click', () => {
    const bone = Number($('#deform-offer').dataset.bone);
    if (Number.isInteger(bone) && set(bone, true)) $('#deform-offer').hidden = true;
  });

  return {
    set,
    refuses,
    update,
    /** The offer's text again in a new language. */
    relabel() {
      $('#deform-offer').dataset.bone = '';
      update();
    },
  };
}
