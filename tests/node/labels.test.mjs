// The page's three label tables and the lessons' texts: every key in every
// language, German that is German and Chinese that is Chinese (not the
// English left standing), the same placeholders in every table, every key the page uses present, and no
// raw TeX where mathematics is shown.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EN } from '../../www/labels/en.js';
import { DE } from '../../www/labels/de.js';
import { ZH } from '../../www/labels/zh.js';
import { LESSONS } from '../../www/lessons.js';

const WWW = new URL('../../www/', import.meta.url).pathname;

/** Labels that read the same in both languages: names, units, loan words the lecture notes use. */
export const SAME_IN_BOTH = new Set([
  'exportPng', 'exportSvg', 'ov.dots', 'ov.bones', 'radius', 'falloff.linear', 'bones', 'modeName.ik', 'modeName.morph',
  'modeName.gpu', 'gpu.format', 'gpu.budget', 'anim.clip', 'gpu.short.mat4', 'gpu.short.mat4x3', 'aria.clip',
  'aria.anim-clip', 'aria.anim-interp', 'boneName.hand', 'speed.time', 'speed.distance', 'rot.det',
  'exportVideo', 'video.format', 'vertex.title', 'ik.min', 'ik.max', 'modeName.rig', 'rig.name', 'rig.roll', 'rig.chainBones', 'rig.template.humanoid',
]);

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** The page's own scripts (not the generated core or vendored codecs). */
function scripts(dir = WWW) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (['pkg', 'vendor', 'models'].includes(name)) return [];
    if (statSync(path).isDirectory()) return scripts(path);
    return name.endsWith('.js') ? [path] : [];
  });
}

/** Labels that read the same in Chinese as in English: names, units, symbols. */
export const SAME_IN_CHINESE = new Set([
  'exportPng', 'exportSvg', 'modeName.ik', 'modeName.gpu', 'gpu.short.mat4', 'gpu.short.mat4x3', 'speed.time',
  'speed.distance', 'rot.slerp', 'rot.det',
]);

const TABLES = { German: DE, Chinese: ZH };
const hasHan = (text) => /\p{Script=Han}/u.test(text);

test('every English label has a German and a Chinese one and the other way round', () => {
  for (const [language, table] of Object.entries(TABLES)) {
    assert.deepEqual(Object.keys(table).filter((key) => !Object.hasOwn(EN, key)), [], `${language} labels without an English one`);
    assert.deepEqual(Object.keys(EN).filter((key) => !Object.hasOwn(table, key)), [], `English labels without a ${language} one`);
  }
});

test('a Chinese label is written in Chinese unless listed as the same symbol', () => {
  const english = Object.keys(EN).filter((key) => !SAME_IN_CHINESE.has(key) && !hasHan(ZH[key]));
  assert.deepEqual(english, [], 'Chinese labels without a Chinese character');
  const same = [...SAME_IN_CHINESE].filter((key) => ZH[key] !== EN[key]);
  assert.deepEqual(same, [], 'listed as the same but translated');
});

test('a German label differs from the English one unless listed as the same word', () => {
  const same = Object.keys(EN).filter((key) => EN[key] === DE[key] && !SAME_IN_BOTH.has(key));
  assert.deepEqual(same, [], 'German labels that are still English');
});

test('every language fills the same placeholders', () => {
  for (const [language, table] of Object.entries(TABLES)) {
    for (const key of Object.keys(EN)) {
      assert.deepEqual(placeholders(table[key] ?? ''), placeholders(EN[key]), `${language} placeholders of '${key}'`);
    }
  }
});

test('every label the page asks for exists', () => {
  const html = readFileSync(join(WWW, 'index.html'), 'utf8');
  const used = [...html.matchAll(/data-i18n(?:-html|-title|-label|-aria|-alt)?="([^"]+)"/g)].map((m) => m[1]);
  const dynamic = [];
  for (const file of scripts()) {
    const source = readFileSync(file, 'utf8');
    used.push(...[...source.matchAll(/\bt\(\s*'([^']+)'/g)].map((m) => m[1]));
    // t(`cap.${name}`): the prefix must name some labels.
    dynamic.push(...[...source.matchAll(/\bt\(\s*`([\w.-]+)\$\{/g)].map((m) => m[1]));
  }
  assert.ok(used.length > 250, `the page's labels were found (${used.length})`);
  assert.deepEqual([...new Set(used.filter((key) => !Object.hasOwn(EN, key)))], [], 'labels used but missing');
  for (const prefix of dynamic) {
    assert.ok(Object.keys(EN).some((key) => key.startsWith(prefix)), `labels for t(\`${prefix}…\`)`);
  }
});

test('each lesson step says what to do and what to notice in every language, German being German and Chinese Chinese', () => {
  for (const lesson of LESSONS) {
    assert.ok(lesson.title.en && lesson.title.de && hasHan(lesson.title.zh ?? ''), `${lesson.name}: titled in all three`);
    lesson.steps.forEach((step, k) => {
      for (const part of ['do', 'notice']) {
        const where = `${lesson.name}/${k + 1} ${part}`;
        assert.ok(step[part].en.length > 10 && step[part].de.length > 10, `${where}: English and German`);
        assert.notEqual(step[part].de, step[part].en, `${where}: the German is not the English`);
        assert.ok(hasHan(step[part].zh ?? '') && step[part].zh.length > 5, `${where}: Chinese`);
        assert.deepEqual(placeholders(step[part].zh), placeholders(step[part].en), `${where}: Chinese placeholders`);
      }
    });
  }
});

test('a step that asks for a drag or a click names its keyboard way in every language', () => {
  // The keyboard way: keys on the view, Tab to a control, or a button.
  const ways = { en: /keys|Tab|button|Space/, de: /Tasten|Tab|Knopf|Leertaste/, zh: /按键|Tab|按钮|空格/ };
  const pointer = { en: /\b(drag|click)/i, de: /ziehen|anklicken|klicken/, zh: /拖|点击/ };
  for (const lesson of LESSONS) {
    lesson.steps.forEach((step, k) => {
      for (const lang of ['en', 'de', 'zh']) {
        const text = step.do[lang];
        if (pointer[lang].test(text)) assert.match(text, ways[lang], `${lesson.name}/${k + 1} (${lang}) asks for the pointer and names no key: ${text}`);
      }
    });
  }
});

test('mathematics is written with sub- and superscripts, never as raw TeX', () => {
  const texts = [...Object.values(EN), ...Object.values(DE), ...Object.values(ZH)];
  for (const lesson of LESSONS) for (const step of lesson.steps) texts.push(step.do.en, step.do.de, step.do.zh, step.notice.en, step.notice.de, step.notice.zh);
  const tex = texts.filter((text) => /[_^]\{|\\[a-z]+|\$[^$]+\$/.test(text));
  assert.deepEqual(tex, []);
});
