// The page's two label tables and the lessons' texts: every key in both
// languages, German that is German (not the English left standing), the
// same placeholders on both sides, every key the page uses present, and no
// raw TeX where mathematics is shown.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EN } from '../../www/labels/en.js';
import { DE } from '../../www/labels/de.js';
import { LESSONS } from '../../www/lessons.js';

const WWW = new URL('../../www/', import.meta.url).pathname;

/** Labels that read the same in both languages: names, units, loan words the lecture notes use. */
export const SAME_IN_BOTH = new Set([
  'exportPng', 'exportSvg', 'ov.dots', 'ov.bones', 'radius', 'falloff.linear', 'bones', 'modeName.ik', 'modeName.morph',
  'modeName.gpu', 'gpu.format', 'gpu.budget', 'anim.clip', 'gpu.short.mat4', 'gpu.short.mat4x3', 'aria.clip',
  'aria.anim-clip', 'aria.anim-interp', 'boneName.hand', 'speed.time', 'speed.distance', 'rot.det',
  'exportVideo', 'video.format',
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

test('every English label has a German one and the other way round', () => {
  assert.deepEqual(Object.keys(DE).filter((key) => !Object.hasOwn(EN, key)), [], 'German labels without an English one');
  assert.deepEqual(Object.keys(EN).filter((key) => !Object.hasOwn(DE, key)), [], 'English labels without a German one');
});

test('a German label differs from the English one unless listed as the same word', () => {
  const same = Object.keys(EN).filter((key) => EN[key] === DE[key] && !SAME_IN_BOTH.has(key));
  assert.deepEqual(same, [], 'German labels that are still English');
});

test('both languages fill the same placeholders', () => {
  for (const key of Object.keys(EN)) {
    assert.deepEqual(placeholders(DE[key] ?? ''), placeholders(EN[key]), `placeholders of '${key}'`);
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

test('each lesson step says what to do and what to notice in both languages, German being German', () => {
  for (const lesson of LESSONS) {
    assert.ok(lesson.title.en && lesson.title.de, `${lesson.name}: titled in both`);
    lesson.steps.forEach((step, k) => {
      for (const part of ['do', 'notice']) {
        const where = `${lesson.name}/${k + 1} ${part}`;
        assert.ok(step[part].en.length > 10 && step[part].de.length > 10, `${where}: both languages`);
        assert.notEqual(step[part].de, step[part].en, `${where}: the German is not the English`);
      }
    });
  }
});

test('mathematics is written with sub- and superscripts, never as raw TeX', () => {
  const texts = [...Object.values(EN), ...Object.values(DE)];
  for (const lesson of LESSONS) for (const step of lesson.steps) texts.push(step.do.en, step.do.de, step.notice.en, step.notice.de);
  const tex = texts.filter((text) => /[_^]\{|\\[a-z]+|\$[^$]+\$/.test(text));
  assert.deepEqual(tex, []);
});
