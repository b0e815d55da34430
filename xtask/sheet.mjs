// The contact sheet (`cargo xtask shots --sheet`): a picture of every screen
// the screen test measures (tests/support/screens.mjs), on one page to look
// at before a release: test-output/sheet/index.html, each picture beside it
// as PNG, grouped by screen size and language, the elements last.
//   --only TEXT     only the screens whose name holds TEXT ("lesson rotations", "weights")
//   --lang L        only language L (en, de or zh)
//   --screen TEXT   only the screen sizes whose name holds TEXT ("projector", "phone", "element")
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { launchBrowser, serveStatic, root } from '../tests/e2e/browser.mjs';
import { ELEMENT_MODES, ELEMENT_WIDTHS, LANGUAGES, SCREENS, openElement, visitPage } from '../tests/support/screens.mjs';

const OUT = join(root, 'test-output', 'sheet');

/** The command line's `--name value` options. */
function options(args) {
  const known = ['--only', '--lang', '--screen'];
  const picked = {};
  for (let i = 0; i < args.length; i += 2) {
    if (!known.includes(args[i]) || args[i + 1] === undefined) {
      throw new Error(`shots --sheet: unknown option ${args[i]} (known: ${known.join(', ')}, each with a value)`);
    }
    picked[args[i].slice(2)] = args[i + 1];
  }
  return picked;
}

const escape = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The sheet's HTML: one section per group, each picture with its name. */
function sheetHtml(groups) {
  const sections = groups.map(({ title, shots }) => `<section><h2>${escape(title)}</h2><div class="grid">${shots.map(({ file, where }) =>
    `<figure><a href="${file}"><img src="${file}" loading="lazy" alt="${escape(where)}"></a><figcaption>${escape(where)}</figcaption></figure>`).join('')}</div></section>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Skinlab: contact sheet</title>
<style>body { font: 14px system-ui, sans-serif; margin: 1rem; background: #eee; }
.grid { display: flex; flex-wrap: wrap; gap: 0.6rem; } figure { margin: 0; width: 20rem; }
img { width: 100%; border: 1px solid #999; background: #fff; } figcaption { font-size: 12px; }</style></head>
<body><h1>Skinlab: every mode and lesson step as a hall sees it</h1>${sections.join('\n')}</body></html>\n`;
}

async function main() {
  const picked = options(process.argv.slice(3));
  const keep = (where) => !picked.only || where.includes(picked.only);
  const languages = LANGUAGES.filter((lang) => !picked.lang || lang === picked.lang);
  await rm(OUT, { recursive: true, force: true });
  await mkdir(OUT, { recursive: true });
  const server = await serveStatic(join(root, 'www'));
  const browser = await launchBrowser();
  const groups = [];
  let count = 0;
  const take = async (page, group, where) => {
    const file = `${String(++count).padStart(4, '0')}.png`;
    await writeFile(join(OUT, file), await page.screenshot());
    group.shots.push({ file, where });
  };
  try {
    for (const screen of SCREENS.filter((s) => !picked.screen || s.name.includes(picked.screen))) {
      for (const lang of languages) {
        const group = { title: `${screen.name}${screen.projector ? ', projector on' : ''}, ${lang}`, shots: [] };
        const errors = await visitPage(browser, server.url, screen, lang, (page, where) => take(page, group, where), keep);
        if (errors.length) console.log(`${group.title}: page errors: ${errors.join('; ')}`);
        if (group.shots.length) groups.push(group);
        console.log(`${group.title}: ${group.shots.length} screens`);
      }
    }
    if (!picked.screen || 'element'.includes(picked.screen)) {
      for (const width of ELEMENT_WIDTHS) {
        for (const lang of languages) {
          const group = { title: `<skin-lab> ${width} px wide, ${lang}`, shots: [] };
          for (const [mode, example] of ELEMENT_MODES.filter(([m, e]) => keep(`${m} (${e})`))) {
            const { page } = await openElement(browser, server.url, width, lang, [mode, example]);
            await take(page, group, `${mode} (${example})`);
            await page.close();
          }
          if (group.shots.length) groups.push(group);
        }
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  await writeFile(join(OUT, 'index.html'), sheetHtml(groups));
  console.log(`${count} screens on test-output/sheet/index.html`);
}

await main();
