// The front page and the reference: the README stays short and shows
// pictures that exist, every docs/ page is linked from it, every relative
// link and anchor in the README and docs/ resolves, every picture named is
// in the repository (made by `cargo xtask shots`), and the pictures stay
// small.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LESSONS } from '../../www/lessons.js';
import { SHOTS } from '../../xtask/shots.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = join(ROOT, 'docs');
const pages = ['README.md', ...readdirSync(DOCS).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const read = (page) => readFileSync(join(ROOT, page), 'utf8');

/** Markdown without its fenced code blocks and inline code, where nothing is a link. */
const prose = (text) => text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');

/** Every `[text](target)` and `![alt](target)` of a page: `{image, target}`. */
const links = (text) => [...prose(text).matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)\)/g)].map(([, bang, target]) => ({ image: bang === '!', target }));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

/** The anchors a Markdown page offers: one per heading (repeats numbered as GitHub does). */
function anchors(text) {
  const seen = new Map();
  const found = new Set();
  for (const [, heading] of prose(text).matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    found.add(count ? `${base}-${count}` : base);
    seen.set(base, count + 1);
  }
  return found;
}

test('the README fits on two screens and shows at least three pictures that exist', () => {
  const readme = read('README.md');
  const lines = readme.split('\n').length;
  assert.ok(lines <= 150, `the README has ${lines} lines`);
  const pictures = links(readme).filter((link) => link.image);
  assert.ok(pictures.length >= 3, `${pictures.length} pictures`);
  for (const { target } of pictures) assert.ok(existsSync(join(ROOT, target)), `${target} exists`);
  assert.match(readme, /cargo xtask serve/);
  assert.match(readme, /cargo xtask test/);
});

test('the README links every reference page in docs/', () => {
  const linked = new Set(links(read('README.md')).map(({ target }) => target.split('#')[0]));
  const unlinked = pages.filter((page) => page.startsWith('docs/') && !linked.has(page));
  assert.deepEqual(unlinked, []);
});

test('every relative link and anchor in the README and docs/ resolves', () => {
  const broken = [];
  let checked = 0;
  for (const page of pages) {
    for (const { target } of links(read(page))) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, anchor] = target.split('#');
      const file = path ? normalize(join(dirname(join(ROOT, page)), decodeURIComponent(path))) : join(ROOT, page);
      checked += 1;
      if (!existsSync(file)) {
        broken.push(`${page}: ${target} (no such file)`);
      } else if (anchor && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor)) {
        broken.push(`${page}: ${target} (no such heading)`);
      }
    }
  }
  assert.ok(checked > 30, `${checked} links checked`);
  assert.deepEqual(broken, []);
});

test('every picture `cargo xtask shots` makes is committed, and all of them stay small', () => {
  let total = 0;
  for (const { name } of SHOTS) {
    const file = join(DOCS, 'pictures', `${name}.webp`);
    assert.ok(existsSync(file), `docs/pictures/${name}.webp: run cargo xtask shots`);
    total += statSync(file).size;
  }
  assert.ok(total < 600 * 1024, `the pictures take ${Math.round(total / 1024)} KB`);
  const named = new Set(pages.flatMap((page) => links(read(page)).filter((l) => l.image).map((l) => l.target.split('/').pop())));
  assert.deepEqual(SHOTS.map(({ name }) => `${name}.webp`).filter((file) => !named.has(file)), [], 'made but shown nowhere');
});

test('the lessons page lists every lesson', () => {
  const page = read('docs/lessons.md');
  assert.deepEqual(LESSONS.map((lesson) => lesson.name).filter((name) => !page.includes(`| \`${name}\` |`)), []);
});

test('the anchors follow GitHub\'s rule', () => {
  assert.equal(slug('Video for PowerPoint, Keynote and Google Slides'), 'video-for-powerpoint-keynote-and-google-slides');
  assert.equal(slug('The page\'s own instance'), 'the-pages-own-instance');
  assert.deepEqual([...anchors('# A\n## B c\n## B c\n')], ['a', 'b-c', 'b-c-1']);
});
