import { richText } from './dom.js';

// Labels in English, German (three of the lecture notes are German) and
// Simplified Chinese (the engine note is Chinese), one table per language
// (labels/en.js, labels/de.js, labels/zh.js). Elements carry data-i18n="key"
// (text), data-i18n-html (text with sub- and superscripts), data-i18n-title
// (tooltip), data-i18n-aria (accessible name), data-i18n-alt or
// data-i18n-label (an optgroup's label).

import { EN } from './labels/en.js';
import { DE } from './labels/de.js';
import { ZH } from './labels/zh.js';

const LABELS = { en: EN, de: DE, zh: ZH };

let language = 'en';
const listeners = [];

/** The language in use: `en`, `de` or `zh`. */
export function currentLanguage() {
  return language;
}

/** Every language the page speaks. */
export const LANGUAGES = Object.keys(LABELS);

/**
 * Chooses the language (unknown ones fall back to English), rewrites the
 * page's marked elements and tells the listeners, which redraw their own
 * texts.
 */
export function setLanguage(lang) {
  language = Object.hasOwn(LABELS, lang) ? lang : 'en';
  document.documentElement.lang = language;
  translatePage();
  for (const listener of listeners) listener(language);
}

/** Calls `listener(lang)` after every change of language. */
export function onLanguageChange(listener) {
  listeners.push(listener);
}

/**
 * The label for `key` in the current language, its `{name}` placeholders
 * filled from `values` (numbers should come formatted by `num`). A key
 * missing from the table is a bug (tests/node/labels.test.mjs checks every
 * key used): it shows as the key itself, never as nothing.
 */
export function t(key, values) {
  const text = LABELS[language][key] ?? LABELS.en[key] ?? key;
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

/**
 * A name the examples give a clip, morph target or path (“walk”, “smile”)
 * in the page's language; names from files stay as they are.
 */
export function nameOf(name) {
  return hasLabel(`name.${name}`) ? t(`name.${name}`) : name;
}

/** Whether the tables have a label for `key` (captions exist for some examples only). */
export function hasLabel(key) {
  return Object.hasOwn(LABELS.en, key);
}

const formats = new Map();

/** The current language's `Intl.NumberFormat` for `options`, made once. */
function formatter(options) {
  const id = `${language}:${JSON.stringify(options)}`;
  if (!formats.has(id)) formats.set(id, new Intl.NumberFormat(language, options));
  return formats.get(id);
}

/**
 * `value` with `digits` decimals in the current language's notation
 * (German: 15.616 bytes, 8,4987), through `Intl.NumberFormat`.
 */
export function num(value, digits = 0) {
  return formatter({ minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** `value` to `digits` significant digits in the current language's notation. */
export function sig(value, digits = 2) {
  return formatter({ maximumSignificantDigits: digits }).format(value);
}

/** Numbers as a tuple, `(1.50, -0.50)`; German separates them by “; ”, its decimal mark being the comma. */
export function tuple(values, digits = 2) {
  return `(${values.map((x) => num(Math.abs(x) < 0.5 * 10 ** -digits ? 0 : x, digits)).join(language === 'de' ? '; ' : ', ')})`;
}

/** Rewrites every element marked with data-i18n in the current language. */
export function translatePage() {
  for (const element of document.querySelectorAll('[data-i18n]')) element.textContent = t(element.dataset.i18n);
  // Labels with subscripts (<sub>, <sup>), built as nodes, never parsed.
  for (const element of document.querySelectorAll('[data-i18n-html]')) {
    element.replaceChildren(...richText(t(element.dataset.i18nHtml)));
  }
  for (const element of document.querySelectorAll('[data-i18n-label]')) element.label = t(element.dataset.i18nLabel);
  for (const element of document.querySelectorAll('[data-i18n-title]')) element.title = t(element.dataset.i18nTitle);
  for (const element of document.querySelectorAll('[data-i18n-aria]')) element.setAttribute('aria-label', t(element.dataset.i18nAria));
  for (const element of document.querySelectorAll('[data-i18n-alt]')) element.alt = t(element.dataset.i18nAlt);
}
