// A lab's messages: the message that stands in for the view when it cannot
// draw, and the notice over the view, which goes by itself after a while
// (an error later than news), at once when hidden, or once what it asks
// for is done.

/** The notices of the markup `$` reaches. */
export function createNotices($) {
  let timer = 0;
  // What the notice on screen asks for (`needBone`), so it goes once that is done.
  let asks = null;

  /** Shows `text` where the view would be. */
  function showMessage(text) {
    $('#message').textContent = text;
    $('#message').hidden = false;
  }

  /** Shows `text` over the view: `kind` 'info' or 'error'; `asking` what it asks for, or null. */
  function showNotice(text, kind = 'info', asking = null) {
    asks = asking;
    const notice = $('#notice');
    notice.textContent = text;
    notice.className = kind === 'error' ? 'notice error' : 'notice';
    notice.hidden = false;
    clearTimeout(timer);
    timer = setTimeout(() => { notice.hidden = true; }, kind === 'error' ? 12000 : 6000);
  }

  /** Hides the notice at once (a new mode, or what it asked for is done). */
  function hideNotice() {
    clearTimeout(timer);
    $('#notice').hidden = true;
    asks = null;
  }

  return {
    showMessage,
    showNotice,
    hideNotice,
    /** What the notice on screen asks for, or null. */
    asks: () => asks,
    /** Lets go of the notice's timer (the lab closes). */
    close: () => clearTimeout(timer),
  };
}
