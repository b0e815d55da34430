// The caption under the view: what the mode says about the scene on
// screen, a gallery model's credit after it, and the button that hides and
// shows it. On a projector a long caption keeps to two lines; a click shows
// it whole.
import { MODELS, isModel } from '../gallery.js';

/** The caption of `app`; `currentMode()` is the mode on screen, whose `caption(example)` it shows. */
export function createCaption(app, currentMode) {
  const { $ } = app;
  const { t } = app.i18n;

  /** The caption's hide/show button, labelled for its state. */
  function showButton() {
    const hidden = $('#stage').classList.contains('caption-hidden');
    const button = $('#caption-hide');
    button.setAttribute('aria-expanded', String(!hidden));
    button.textContent = hidden ? t('caption.show') : '×';
    button.setAttribute('aria-label', hidden ? t('caption.show') : t('caption.hide'));
    button.title = hidden ? t('caption.show') : t('caption.hide');
  }

  $('#caption-hide').addEventListener('click', () => {
    $('#stage').classList.toggle('caption-hidden');
    showButton();
  });
  $('#caption').addEventListener('click', () => $('#caption').classList.toggle('whole'));

  /** Writes the caption for the scene and mode on screen. */
  function show() {
    showButton();
    $('#caption').replaceChildren(...currentMode().caption(app.example));
    if (isModel(app.example)) {
      const credit = document.createElement('small');
      credit.className = 'credit';
      credit.textContent = MODELS[app.example].credit;
      $('#caption').append(' ', credit);
    }
  }

  return { show };
}
