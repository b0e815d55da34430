// Words of the English page that a translated page never uses: an English
// word seen in the German or Chinese page was left untranslated.
import { EN } from '../../www/labels/en.js';
import { LESSONS } from '../../www/lessons.js';

/** Lower-case words of three or more letters in `text` (placeholders and markup left out). */
export const words = (text) => text.replace(/\{\w+\}|<\/?(sub|sup)>/g, ' ').toLowerCase().match(/\p{L}{3,}/gu) ?? [];

/** Every label and lesson text of `table` and the lessons in `lang`. */
const textsIn = (table, lang) => [...Object.values(table), ...LESSONS.flatMap((l) => [l.title[lang], ...l.steps.flatMap((s) => [s.do[lang], s.notice[lang]])])];

/** Words the English page uses that the page in `lang` (labels `table`) never does. */
export function englishOnlyWords(table, lang) {
  const english = new Set(textsIn(EN, 'en').flatMap(words));
  const other = new Set(textsIn(table, lang).flatMap(words));
  return new Set([...english].filter((word) => !other.has(word)));
}
