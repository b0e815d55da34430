// The weights view as a figure that reads on its own: a title naming the
// bone whose weight is shown, a colour scale from 0 to 1 (and the grey of no
// influence), and each bone's name beside its glyph, as SVG to put over the
// core's drawing of the skin.
import { boneLabel } from './bones.js';
import { escapeXml } from './svg.js';

/** The page's colour ramp for a weight from 0 to 1 (viridis, as the core colours it). */
const RAMP = ['#440154', '#482475', '#414487', '#355f8d', '#2a788e', '#21918c', '#22a884', '#44bf70', '#7ad151', '#bddf26', '#fde725'];
const NO_INFLUENCE = '#cccccc';

const text = (x, y, words, extra = '') => `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}"${extra}>${escapeXml(words)}</text>`;

/** Whether the view shows one bone's weights (the figure then gets a title, a scale and names). */
export const showsWeights = (app) => app.viewer.weightView() === 'weights' && app.viewer.selectedBone() !== null;

/** Height kept at the sheet's top for the title and the scale, CSS pixels. */
export const HEADER = 56;

/**
 * The title, scale and bone names of the weights view on a sheet showing
 * `[x, y, width, height]` of the view (title top left, scale top right), or
 * '' unless it shows a bone's weights. `app` offers `lab`, `viewer`, `i18n`.
 */
export function weightsFigure(app, [left, top, width]) {
  const { t } = app.i18n;
  if (!showsWeights(app)) return '';
  const bone = app.viewer.selectedBone();
  const names = app.lab.boneNames();
  const title = text(left + 12, top + 26, t('figure.weightOf', { bone: boneLabel(t, names, bone) }), ' font-size="17" font-weight="600" fill="#1f2933" class="figure-title"');
  // The scale, top right: grey for none, then 0 … 1.
  const [barWidth, x, y] = [160, left + width - 190, top + 14];
  const stops = RAMP.map((colour, k) => `<stop offset="${(k / (RAMP.length - 1)).toFixed(2)}" stop-color="${colour}"/>`).join('');
  const scale = `<g class="figure-scale" font-size="12" fill="#1f2933">`
    + `<defs><linearGradient id="weight-ramp">${stops}</linearGradient></defs>`
    + `<rect x="${x - 26}" y="${y}" width="16" height="12" fill="${NO_INFLUENCE}" stroke="#999"/>`
    + `<rect x="${x}" y="${y}" width="${barWidth}" height="12" fill="url(#weight-ramp)" stroke="#999"/>`
    + text(x, y + 26, '0', ' text-anchor="middle"') + text(x + barWidth, y + 26, '1', ' text-anchor="middle"')
    + text(x - 18, y + 40, t('figure.noInfluence'), ' text-anchor="start"')
    + '</g>';
  // Each bone's name beside its glyph (the selected one's in bold).
  const labels = names.map((_, k) => {
    let point;
    try {
      point = app.viewer.boneScreenPoint(app.lab, k);
    } catch {
      return '';
    }
    if (!point) return '';
    const weight = k === bone ? ' font-weight="700"' : '';
    return text(point[0] + 8, point[1] - 6, boneLabel(t, names, k), ` font-size="13" fill="#1f2933" paint-order="stroke" stroke="#ffffff" stroke-width="3"${weight}`);
  }).join('');
  return `${title}${scale}<g class="figure-bones">${labels}</g>`;
}

/**
 * The box `[x, y, width, height]` around the path coordinates in `svg`
 * (the core's drawing), `margin` wider on each side and `header` more at
 * the top, at least `least` wide, within the view; null when nothing is
 * drawn.
 */
export function drawnBox(svg, width, height, margin = 24, header = 0, least = 0) {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [, x, y] of svg.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)) {
    left = Math.min(left, Number(x));
    right = Math.max(right, Number(x));
    top = Math.min(top, Number(y));
    bottom = Math.max(bottom, Number(y));
  }
  if (!(right > left && bottom > top)) return null;
  // At least `least` wide (the header's title and scale), about the middle.
  const grow = Math.max(0, least - (right - left + 2 * margin)) / 2;
  const x0 = Math.max(0, left - margin - grow);
  const y0 = Math.max(0, top - margin - header);
  return [x0, y0, Math.min(width, right + margin + grow) - x0, Math.min(height, bottom + margin) - y0];
}
