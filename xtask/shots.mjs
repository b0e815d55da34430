// The README's and docs/' pictures, rendered from the real page in the
// headless Chromium the tests use, at a fixed size: `cargo xtask shots`
// (which builds www/ first). Each picture is the page at 1280 × 800 CSS
// pixels, saved as WebP (encoded by the browser's own canvas, quality 0.8)
// at 960 × 600 into docs/pictures/.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { launchBrowser, openPage, serveStatic, waitForSkinlab, nextFrame, root } from '../tests/e2e/browser.mjs';

const OUT = join(root, 'docs', 'pictures');
const SIZE = { width: 960, height: 600 };

/** The quaternion of a turn by `degrees` about `axis` (x, y or z). */
const turn = (axis, degrees) => {
  const half = (degrees * Math.PI) / 360;
  const q = [0, 0, 0, Math.cos(half)];
  q['xyz'.indexOf(axis)] = Math.sin(half);
  return q;
};

/** Each picture: its file name, the address it opens, and what is done before it is taken. */
export const SHOTS = [
  {
    name: 'three-steps',
    query: '?example=two-bone-smooth&mode=skin&lang=en',
    async set(page) {
      await page.evaluate((rotation) => {
        const s = window.skinlab;
        // The right-most vertex at rest that both bones move: its steps
        // and its weighted mean are drawn.
        const positions = s.lab.skinnedPositions('lbs');
        let best = 0;
        for (let v = 0; v < positions.length / 3; v++) {
          if (s.lab.influences(v).length === 2 && positions[3 * v] > positions[3 * best]) best = v;
        }
        s.lab.setBonePose(1, { rotation });
        s.selectBone(1);
        s.selectVertex(best);
        s.setStepsPhase(3);
      }, turn('z', 50));
    },
  },
  {
    name: 'y-junction-weights',
    query: '?example=y-junction&mode=weights&lang=en',
    async set(page) {
      await page.evaluate((rotation) => window.skinlab.lab.setBonePose(2, { rotation }), turn('z', -30));
      await page.evaluate(() => window.skinlab.selectBone(1));
      await page.evaluate(() => window.skinlab.setWeightView('weights'));
    },
  },
  {
    name: 'twist-lbs-cor',
    query: '?example=tube&mode=skin&lang=en',
    async set(page) {
      await page.evaluate((rotation) => window.skinlab.lab.setBonePose(1, { rotation }), turn('y', 180));
      await page.evaluate(() => window.skinlab.setComparePair('lbs', 'cor'));
      await page.evaluate(() => window.skinlab.setCompare(true));
    },
  },
  {
    name: 'fox',
    query: '?example=fox&mode=skin&lang=en',
    async set(page) {
      await page.waitForFunction(() => window.skinlab.lab.boneCount() > 10, null, { timeout: 60000 });
      await page.evaluate(() => {
        const s = window.skinlab;
        s.setAnimTime(0.5);
      });
    },
  },
  {
    name: 'lesson-zh',
    query: '?lesson=lbs-dqs&step=4&lang=zh',
    async set(page) {
      // The step done: CoR chosen, its numbers in the notice.
      await page.evaluate(() => window.skinlab.setMethod('cor'));
      await page.waitForFunction(() => window.skinlab.lessonState().done, null, { timeout: 30000 });
    },
  },
  {
    name: 'face-de',
    query: '?example=face&mode=morph&lang=de',
    async set(page) {
      await page.evaluate(() => {
        const lab = window.skinlab.lab;
        lab.setMorphWeights(lab.morphNames().map((name) => ({ smile: 0.8, 'brows up': 0.6, E: 0.3 })[name] ?? 0));
      });
    },
  },
];

/** `png` re-encoded by the page's canvas as WebP at `SIZE`. */
async function webp(page, png) {
  const url = await page.evaluate(async ({ data, width, height }) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [width, height];
    const context = canvas.getContext('2d');
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, 0, 0, width, height);
    return canvas.toDataURL('image/webp', 0.8);
  }, { data: png.toString('base64'), ...SIZE });
  if (!url.startsWith('data:image/webp;base64,')) throw new Error('this browser does not encode WebP');
  return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
}

async function main() {
  await mkdir(OUT, { recursive: true });
  const server = await serveStatic(join(root, 'www'));
  const browser = await launchBrowser();
  let total = 0;
  try {
    for (const shot of SHOTS) {
      const { page, errors } = await openPage(browser, `${server.url}${shot.query}`);
      await page.setViewportSize({ width: 1280, height: 800 });
      await waitForSkinlab(page);
      await shot.set(page);
      await nextFrame(page);
      await page.waitForTimeout(400);
      await nextFrame(page);
      const bytes = await webp(page, await page.screenshot());
      await writeFile(join(OUT, `${shot.name}.webp`), bytes);
      total += bytes.length;
      console.log(`docs/pictures/${shot.name}.webp: ${(bytes.length / 1024).toFixed(0)} KB`);
      if (errors.length) throw new Error(`${shot.name}: ${errors.join('; ')}`);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  console.log(`${SHOTS.length} pictures, ${(total / 1024).toFixed(0)} KB in all`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
