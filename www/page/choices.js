// What a person chooses that the page keeps for the next visit (where the
// lab is the page's own, not an element on someone else's page): the
// language and whether single-key shortcuts are on. Storage may be closed
// (a private window, some embeds): the choice then holds for this visit,
// and the address still carries the language.
import { LANGUAGES, languageOfTag } from '../i18n.js';

/** Where the page keeps the language chosen last. */
const LANGUAGE_KEY = 'skinlab.lang';
/** Where the page keeps whether single-key shortcuts are on. */
const SHORTCUTS_KEY = 'skinlab.shortcuts';

/** The language of the browser, where the page speaks it, else English. */
function browserLanguage() {
  return languageOfTag(navigator.language) ?? 'en';
}

/** Per font family, whether it draws Chinese: asked once a page, not once a lab. */
const chineseDrawn = new Map();

/**
 * Whether `fontFamily` draws Chinese: without a font for them, two different
 * characters are drawn as the same empty box.
 */
function drawsChinese(fontFamily) {
  if (!chineseDrawn.has(fontFamily)) chineseDrawn.set(fontFamily, testDrawsChinese(fontFamily));
  return chineseDrawn.get(fontFamily);
}

function testDrawsChinese(fontFamily) {
  const canvas = document.createElement('canvas');
  [canvas.width, canvas.height] = [32, 32];
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return true;
  const draw = (character) => {
    context.clearRect(0, 0, 32, 32);
    context.font = `24px ${fontFamily}`;
    context.fillText(character, 2, 26);
    return context.getImageData(0, 0, 32, 32).data.join(',');
  };
  return draw('中') !== draw('丁');
}

/** Localstorage's `key`, or null where storage is closed. */
function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Keeps `value` under `key` where storage is open. */
function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Not kept: it holds for this visit.
  }
}

/**
 * The choices of `app`'s lab: the language buttons and the shortcuts box
 * wired, the Chinese button reading "ZH" where no font draws Chinese.
 * `settings` are the address's; `remembersLanguage` whether choices are
 * kept for the next visit.
 */
export function createChoices(app, { address, settings, remembersLanguage }) {
  const { $, root, i18n } = app;

  /** The language to start in: the link's, else the one chosen last here, else the browser's. */
  function startLanguage() {
    if (settings.lang) return settings.lang;
    const last = remembersLanguage ? stored(LANGUAGE_KEY) : null;
    return LANGUAGES.includes(last) ? last : browserLanguage();
  }

  /**
   * Switches the lab to `lang`, keeps it in the address and, where asked,
   * remembers it for the next visit.
   */
  function chooseLanguage(lang) {
    i18n.set(lang);
    if (remembersLanguage) store(LANGUAGE_KEY, i18n.current());
    const url = new URL(address.href);
    url.searchParams.set('lang', i18n.current());
    address.replace(url);
  }

  for (const button of root.querySelectorAll('#language [data-lang]')) {
    button.addEventListener('click', () => chooseLanguage(button.dataset.lang));
  }
  // Without a Chinese font "中文" would be two empty boxes: the button reads
  // "ZH" there (its title still says 简体中文).
  const chinese = root.querySelector('#language [data-lang="zh"]');
  if (!drawsChinese(getComputedStyle(chinese).fontFamily || 'sans-serif')) {
    chinese.textContent = 'ZH';
    chinese.lang = 'en';
  }

  // Single-key shortcuts (on the view or the page only) can be turned off.
  app.shortcutsOn = () => $('#shortcuts').checked;
  if (remembersLanguage) $('#shortcuts').checked = stored(SHORTCUTS_KEY) !== 'off';
  $('#shortcuts').addEventListener('change', () => {
    if (remembersLanguage) store(SHORTCUTS_KEY, $('#shortcuts').checked ? 'on' : 'off');
  });

  return { startLanguage, chooseLanguage };
}
