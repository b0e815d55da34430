// What a person sees of the lab, measured in the browser: controls cut off
// or outside their host, controls on top of each other, a menu whose chosen
// entry does not fit, a graph's labels on top of each other, a lesson step
// whose instruction, check or Next is out of sight, and the view's share of
// the screen. `inspectScreen(page, options)` returns the problems as lines a
// person can act on, and the figures measured.

/**
 * Runs in the page. `hostId`: the id of a <skin-lab> element, or null for the
 * page itself. Returns `{ problems, viewShare, viewLargest, toolbarRows }`.
 */
function measure({ hostId, lesson }) {
  const element = hostId ? document.getElementById(hostId) : null;
  const root = element ? element.shadowRoot : document;
  const hostRect = element
    ? element.getBoundingClientRect()
    : { left: 0, top: 0, right: innerWidth, bottom: innerHeight, width: innerWidth, height: innerHeight };
  const problems = [];
  const name = (node) => {
    const id = node.id ? `#${node.id}` : '';
    const text = (node.getAttribute('aria-label') || node.textContent || node.value || '').trim().replace(/\s+/g, ' ').slice(0, 40);
    const where = node.closest('[data-mode-panel]')?.id ?? node.closest('header, .stage, .panel')?.className.split(' ')[0] ?? '';
    return `${node.tagName.toLowerCase()}${id} "${text}"${where ? ` in ${where}` : ''}`;
  };
  const shown = (node) => {
    if (!node.getClientRects().length) return false;
    // Inside a closed <details> (its content is laid out but not drawn).
    if (!node.checkVisibility({ contentVisibilityAuto: true })) return false;
    const style = getComputedStyle(node);
    return style.visibility !== 'hidden' && Number(style.opacity) > 0;
  };
  const parentOf = (node) => node.parentElement ?? (node.parentNode instanceof ShadowRoot ? node.parentNode.host : null);

  /** The part of `node` not clipped by a box that hides overflow; `scrolled` where a scroller clips it. */
  function visiblePart(node) {
    const own = node.getBoundingClientRect();
    let clip = { left: hostRect.left, top: hostRect.top, right: hostRect.right, bottom: hostRect.bottom };
    let cutX = own.left < clip.left - 1 || own.right > clip.right + 1;
    // Below the host's edge inside a scroller is scrolled to, not cut.
    const hostCutY = own.top < clip.top - 2 || own.bottom > clip.bottom + 2;
    let cutY = false;
    let scrolledY = false;
    for (let up = parentOf(node); up && up !== element; up = parentOf(up)) {
      const style = getComputedStyle(up);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const box = up.getBoundingClientRect();
      const inner = { left: box.left + up.clientLeft, top: box.top + up.clientTop };
      inner.right = inner.left + up.clientWidth;
      inner.bottom = inner.top + up.clientHeight;
      if (own.left < inner.left - 1 || own.right > inner.right + 1) cutX = true;
      if (own.top < inner.top - 1 || own.bottom > inner.bottom + 1) {
        if (style.overflowY === 'auto' || style.overflowY === 'scroll') scrolledY = true;
        else cutY = true;
      }
      clip = {
        left: Math.max(clip.left, inner.left), top: Math.max(clip.top, inner.top),
        right: Math.min(clip.right, inner.right), bottom: Math.min(clip.bottom, inner.bottom),
      };
    }
    const rect = {
      left: Math.max(own.left, clip.left), top: Math.max(own.top, clip.top),
      right: Math.min(own.right, clip.right), bottom: Math.min(own.bottom, clip.bottom),
    };
    return { own, rect, cutX, cutY: cutY || (hostCutY && !scrolledY), scrolledY };
  }

  // What a pinned (sticky) box covers is scrolled beneath it, out of sight, not overlapped.
  const pinned = [...root.querySelectorAll('*')].filter((node) => getComputedStyle(node).position === 'sticky' && shown(node));
  const underPinned = (node, rect) => {
    for (const pin of pinned) {
      if (pin.contains(node)) continue;
      const box = pin.getBoundingClientRect();
      if (rect.top < box.bottom && rect.bottom > box.top) rect.top = Math.max(rect.top, box.bottom);
    }
    return rect;
  };
  const drawn = (node) => {
    const style = getComputedStyle(node);
    return style.clipPath !== 'inset(50%)' && node.getBoundingClientRect().width > 1;
  };
  // The page's controls; a figure's handles drawn over the view (a path's
  // control points, which may lie on each other) are points of the figure.
  const controls = [...root.querySelectorAll('button, select, input:not([type=hidden]), output, a[href], [role=button], h2, legend, .slider > span, .field > span')]
    .filter((node) => !(node instanceof SVGElement) && shown(node) && drawn(node));
  const parts = new Map(controls.map((node) => {
    const part = visiblePart(node);
    part.rect = underPinned(node, part.rect);
    return [node, part];
  }));
  for (const [node, part] of parts) {
    if (part.cutX) problems.push(`cut off at the side: ${name(node)}`);
    else if (part.cutY && !part.scrolledY) problems.push(`cut off: ${name(node)}`);
    // Text cut short inside its own box (an ellipsis, or a label squeezed).
    if (node.tagName !== 'SELECT' && node.clientWidth > 0 && node.scrollWidth > node.clientWidth + 1) {
      problems.push(`text does not fit: ${name(node)}`);
    }
  }
  // A menu's chosen entry must fit inside it (the arrow takes about 20 px).
  const context = document.createElement('canvas').getContext('2d');
  for (const select of controls.filter((node) => node.tagName === 'SELECT')) {
    const option = select.selectedOptions[0];
    if (!option) continue;
    const style = getComputedStyle(select);
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 18;
    if (context.measureText(option.text).width > room + 1) problems.push(`menu entry does not fit: ${name(select)}: "${option.text}"`);
  }
  // Two controls on top of each other (neither inside the other).
  const boxes = [...parts].filter(([, part]) => part.rect.right - part.rect.left > 1 && part.rect.bottom - part.rect.top > 1);
  for (let a = 0; a < boxes.length; a++) {
    for (let b = a + 1; b < boxes.length; b++) {
      const [p, pr] = boxes[a];
      const [q, qr] = boxes[b];
      if (p.contains(q) || q.contains(p) || (p.tagName === 'LABEL' || q.tagName === 'LABEL')) continue;
      const w = Math.min(pr.rect.right, qr.rect.right) - Math.max(pr.rect.left, qr.rect.left);
      const h = Math.min(pr.rect.bottom, qr.rect.bottom) - Math.max(pr.rect.top, qr.rect.top);
      if (w > 2 && h > 2) problems.push(`on top of each other: ${name(p)} and ${name(q)}`);
    }
  }
  // A plot's labels apart.
  for (const svg of root.querySelectorAll('svg.small-plot')) {
    if (!shown(svg)) continue;
    const labels = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() && shown(t)).map((t) => [t, t.getBoundingClientRect()]);
    for (let a = 0; a < labels.length; a++) {
      for (let b = a + 1; b < labels.length; b++) {
        const [p, pr] = labels[a];
        const [q, qr] = labels[b];
        const w = Math.min(pr.right, qr.right) - Math.max(pr.left, qr.left);
        const h = Math.min(pr.bottom, qr.bottom) - Math.max(pr.top, qr.top);
        if (w > 1 && h > 1) problems.push(`graph labels on top of each other in ${svg.id || svg.getAttribute('class')}: "${p.textContent}" and "${q.textContent}"`);
      }
    }
  }
  // The lesson's instruction, its check and Next, whole and in sight.
  if (lesson) {
    for (const id of ['lesson-do', 'lesson-check', 'lesson-next']) {
      const node = root.querySelector(`#${id}`);
      const part = node && shown(node) ? visiblePart(node) : null;
      const whole = part && part.rect.top <= part.own.top + 1 && part.rect.bottom >= part.own.bottom - 1
        && part.rect.left <= part.own.left + 1 && part.rect.right >= part.own.right - 1;
      if (!whole) problems.push(`out of sight: #${id}`);
    }
  }
  const area = (r) => Math.max(0, r.right - r.left) * Math.max(0, r.bottom - r.top);
  const view = root.querySelector('#view').getBoundingClientRect();
  const viewShare = area(view) / area(hostRect);
  const panel = root.querySelector('.panel');
  const panelArea = panel && shown(panel) ? area(panel.getBoundingClientRect()) : 0;
  // The toolbar's rows: its shown items grouped by where they stand.
  const tops = [...root.querySelector('.toolbar').querySelectorAll(':scope > *, :scope > .toolbar-more > *')]
    .filter((node) => shown(node) && getComputedStyle(node).display !== 'contents' && getComputedStyle(node).position !== 'absolute')
    .map((node) => node.getBoundingClientRect())
    .map((r) => (r.top + r.bottom) / 2)
    .sort((a, b) => a - b);
  const toolbarRows = tops.filter((y, k) => k === 0 || y - tops[k - 1] > 12).length;
  return { problems, viewShare, viewLargest: area(view) > panelArea, toolbarRows };
}

/**
 * The problems on screen now, and the view's share of the host (the window,
 * or the <skin-lab> with id `hostId`). `lesson`: also require the step's
 * instruction, check and Next in sight.
 */
export function inspectScreen(page, { hostId = null, lesson = false } = {}) {
  return page.evaluate(measure, { hostId, lesson });
}
