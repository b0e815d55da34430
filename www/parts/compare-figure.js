// A side-by-side comparison as a figure: the two methods' names over their
// halves and the divider between them, as the page draws them over the
// view, for what leaves the page (the PNG, the SVG, each video frame).

import { escapeXml } from './svg.js';

/** The two halves' names as the page shows them (LBS, DQS, CoR), or null when one view shows. */
export function compareNames(app) {
  if (!app.viewer.compare()) return null;
  return [...app.root.querySelectorAll('#compare-labels span')].map((span) => span.textContent);
}

/** `source` (the view's canvas) with the comparison's names and divider drawn on, as a new canvas. */
export function labelledCanvas(source, names) {
  const { width, height } = source;
  const copy = new OffscreenCanvas(width, height);
  const context = copy.getContext('2d');
  context.drawImage(source, 0, 0);
  const size = Math.max(12, Math.round(height / 28));
  context.strokeStyle = '#aab3bd';
  context.lineWidth = Math.max(1, size / 12);
  context.beginPath();
  context.moveTo(width / 2, 0);
  context.lineTo(width / 2, height);
  context.stroke();
  context.font = `600 ${size}px system-ui, sans-serif`;
  context.fillStyle = '#3d4752';
  context.textAlign = 'center';
  context.textBaseline = 'top';
  names.forEach((name, k) => context.fillText(name, (width * (2 * k + 1)) / 4, size * 0.6));
  return copy;
}


/**
 * The SVG of a comparison in a view `width × height` CSS pixels: each half
 * (`halves`, the core's SVG elements of each method in a view half as wide)
 * clipped to its side, the divider, and the names over them as text.
 */
export function compareSvg(halves, names, width, height) {
  const half = width / 2;
  const parts = halves.map((elements, k) => `<clipPath id="half-${k}"><rect width="${half}" height="${height}"/></clipPath>`
    + `<g class="half-${k}" transform="translate(${k * half} 0)" clip-path="url(#half-${k})">${elements}</g>`);
  const labels = names.map((name, k) => `<text x="${(k + 0.5) * half}" y="24" text-anchor="middle" font-size="16" font-weight="600" fill="#3d4752">${escapeXml(name)}</text>`);
  return `${parts.join('')}<line x1="${half}" y1="0" x2="${half}" y2="${height}" stroke="#aab3bd"/>${labels.join('')}`;
}
