// Placing the text labels of a figure drawn over the view so that none
// covers another or the point it names: a greedy pass over the labels in
// order of importance, each taking the first spot around its anchor that
// is free (the candidate spots ring the anchor at growing distances).

/** Gap kept between a label and anything else, CSS pixels. */
const MARGIN = 3;

/** Directions tried around an anchor, preferred first: right-up, right, up, … */
const DIRECTIONS = [
  [1, -1], [1, 0], [0, -1], [-1, -1], [1, 1], [-1, 0], [0, 1], [-1, 1],
];

const overlap = (a, b) => Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x))
  * Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

/** The box of a circle of radius `r` at (x, y), grown by the margin. */
export const pointBox = ({ x, y, r = 6 }) => ({ x: x - r - MARGIN, y: y - r - MARGIN, width: 2 * (r + MARGIN), height: 2 * (r + MARGIN) });

/**
 * Moves each SVG `<text>` of `labels` ({element, x, y}, the anchor in the
 * layer's pixels, most important first) to a spot near its anchor where
 * its box meets no box in `obstacles` (the drawn points), no label placed
 * before it, and stays inside `bounds` ({width, height}) where it can.
 * Where every spot is taken the one with the least overlap wins. Returns
 * the boxes placed, in order.
 */
export function placeLabels(labels, obstacles, bounds) {
  const taken = [...obstacles];
  const placed = [];
  for (const { element, x, y } of labels) {
    // The text's own size: measured once at the origin, then moved.
    element.setAttribute('x', '0');
    element.setAttribute('y', '0');
    const own = element.getBBox();
    let best = null;
    for (const distance of [10, 18, 28, 42, 60]) {
      for (const [dx, dy] of DIRECTIONS) {
        // The box's near corner or edge sits `distance` from the anchor.
        const left = dx > 0 ? x + distance : dx < 0 ? x - distance - own.width : x - own.width / 2;
        const top = dy > 0 ? y + distance : dy < 0 ? y - distance - own.height : y - own.height / 2;
        const box = { x: left - MARGIN, y: top - MARGIN, width: own.width + 2 * MARGIN, height: own.height + 2 * MARGIN };
        const outside = box.x < 0 || box.y < 0 || box.x + box.width > bounds.width || box.y + box.height > bounds.height;
        const cost = taken.reduce((sum, other) => sum + overlap(box, other), 0) + (outside ? 1e6 : 0);
        if (!best || cost < best.cost) best = { cost, box, left, top };
        if (cost === 0) break;
      }
      if (best.cost === 0) break;
    }
    element.setAttribute('x', String(best.left - own.x));
    element.setAttribute('y', String(best.top - own.y));
    taken.push(best.box);
    placed.push(best.box);
  }
  return placed;
}
