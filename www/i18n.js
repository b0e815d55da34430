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

/** Every language the page speaks. */
export const LANGUAGES = Object.keys(LABELS);

/**
 * The page's language for a language tag (`de`, `de-AT`, `zh-CN`): the one
 * it names, or null where the page does not speak it.
 */
export function languageOfTag(tag) {
  const lower = tag?.toLowerCase() ?? '';
  return LANGUAGES.find((lang) => lower === lang || lower.startsWith(`${lang}-`)) ?? null;
}

/** Whether the tables have a label for `key` (captions exist for some examples only). */
export function hasLabel(key) {
  return Object.hasOwn(LABELS.en, key);
}

/**
 * The label for `key` in `lang`, its `{name}` placeholders filled from
 * `values`. A key missing from the table is a bug (tests/node/labels.test.mjs
 * checks every key used): it shows as the key itself, never as nothing.
 */
export function label(lang, key, values) {
  const text = LABELS[lang]?.[key] ?? LABELS.en[key] ?? key;
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

const formats = new Map();

/** `lang`'s `Intl.NumberFormat` for `options`, made once. */
function formatter(lang, options) {
  const id = `${lang}:${JSON.stringify(options)}`;
  if (!formats.has(id)) formats.set(id, new Intl.NumberFormat(lang, options));
  return formats.get(id);
}

/** `value` with `digits` decimals in `lang`'s notation (German: 15.616 bytes, 8,4987), through `Intl.NumberFormat`. */
export function formatNumber(lang, value, digits = 0) {
  return formatter(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/**
 * One page instance's language: what its labels and numbers read in, and
 * the marked elements under `root` (a document or a shadow root) it
 * rewrites; `host` (the page's top element) carries the `lang` attribute.
 * Several labs on one page may each speak their own.
 */
export function createLanguage(root, host) {
  let language = 'en';
  const listeners = [];

  /** The label for `key` in this page's language, placeholders filled from `values` (numbers formatted by `num`). */
  function t(key, values) {
    return label(language, key, values);
  }

  /** `value` with `digits` decimals in the language's notation. */
  function num(value, digits = 0) {
    return formatNumber(language, value, digits);
  }

  /** Rewrites every element marked with data-i18n in the current language. */
  function translate() {
    for (const element of root.querySelectorAll('[data-i18n]')) element.textContent = t(element.dataset.i18n);
    // Labels with subscripts (<sub>, <sup>), built as nodes, never parsed.
    for (const element of root.querySelectorAll('[data-i18n-html]')) {
      element.replaceChildren(...richText(t(element.dataset.i18nHtml)));
    }
    for (const element of root.querySelectorAll('[data-i18n-label]')) element.label = t(element.dataset.i18nLabel);
    for (const element of root.querySelectorAll('[data-i18n-title]')) element.title = t(element.dataset.i18nTitle);
    for (const element of root.querySelectorAll('[data-i18n-aria]')) element.setAttribute('aria-label', t(element.dataset.i18nAria));
    for (const element of root.querySelectorAll('[data-i18n-alt]')) element.alt = t(element.dataset.i18nAlt);
  }

  return {
    t,
    num,
    hasLabel,
    /** The language in use: `en`, `de` or `zh`. */
    current: () => language,
    /**
     * Chooses the language (unknown ones fall back to English), rewrites
     * the marked elements and tells the listeners, which redraw their own
     * texts.
     */
    set(lang) {
      language = Object.hasOwn(LABELS, lang) ? lang : 'en';
      host.lang = language;
      // The page's own lab speaks for the whole document (screen readers, the CJK fonts).
      if (root === document) document.documentElement.lang = language;
      translate();
      for (const listener of listeners) listener(language);
    },
    /** Calls `listener(lang)` after every change of language. */
    onChange: (listener) => listeners.push(listener),
    /**
     * A name the examples give a clip, morph target or path (“walk”,
     * “smile”) in the page's language; names from files stay as they are.
     */
    nameOf: (name) => (hasLabel(`name.${name}`) ? t(`name.${name}`) : name),
    /** `value` to `digits` significant digits in the language's notation. */
    sig: (value, digits = 2) => formatter(language, { maximumSignificantDigits: digits }).format(value),
    /** Numbers as a tuple, `(1.50, -0.50)`; German separates them by “; ”, its decimal mark being the comma. */
    tuple: (values, digits = 2) =>
      `(${values.map((x) => num(Math.abs(x) < 0.5 * 10 ** -digits ? 0 : x, digits)).join(language === 'de' ? '; ' : ', ')})`,
    translate,
  };
}
