// The animation talk's pursuit beside the selected path: a slow and a fast
// grey point run along it at steady arc-length speeds, each chased by a car
// at the speed the slider sets; both drawn on the path at the player's
// time, and the distance between each car and its point plotted over time.
// The simulation is the core's (`lab.pursuit`).
import { svg, triples } from './svg.js';

/** The points' speeds as fractions of the path's length a duration: the
 * fast one reaches the end as the path's own rider does, the slow one a
 * third of the way. */
export const POINT_PACE = { slow: 1 / 3, fast: 1 };
const LEAD = 1;
const STEPS = 480;
const WIDTH = 600;
const HEIGHT = 200;
const PAD = { left: 56, right: 16, top: 14, bottom: 36 };

/** The pursuit of `app`'s selected path; `host` offers `path()` and `time()`. */
export function createPursuit(app, host) {
  const { num, t } = app.i18n;
  const { $ } = app;
  const plot = $('#pursuit-plot');
  plot.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  let cache = null;

  const open = () => $('#pursuit-box').open && host.path() >= 0;
  const carSpeed = () => Number($('#pursuit-car').value);

  /** Both runs, computed again when the path, the scene or the car's speed changed. */
  function runs() {
    const key = `${host.path()}:${app.lab.revision()}:${carSpeed()}`;
    if (cache?.key !== key || cache.lab !== app.lab) {
      const { duration: seconds } = app.lab.path(host.path());
      const pace = app.lab.pathLength(host.path(), 4096) / seconds;
      const speeds = { slow: POINT_PACE.slow * pace, fast: POINT_PACE.fast * pace };
      const run = (speed) => app.lab.pursuit(host.path(), {
        targetSpeed: speed, followerSpeed: carSpeed(), lead: LEAD, seconds, steps: STEPS,
      });
      cache = { key, lab: app.lab, seconds, speeds, slow: run(speeds.slow), fast: run(speeds.fast) };
    }
    return cache;
  }

  /** Draws the points and cars on the path layer (`screen` projects a model point). */
  function drawOnPath(layer, screen) {
    if (!open()) return;
    const step = Math.min(STEPS, Math.max(0, Math.round((host.time() / runs().seconds) * STEPS)));
    for (const kind of ['slow', 'fast']) {
      const run = runs()[kind];
      const target = screen(triples(run.targets)[step]);
      const cars = triples(run.followers);
      const car = screen(cars[step]);
      const ahead = screen(cars[Math.min(step + 1, STEPS)]);
      const angle = (Math.atan2(ahead[1] - car[1], ahead[0] - car[0]) * 180) / Math.PI;
      layer.append(svg('circle', { cx: target[0], cy: target[1], r: 9, class: `pursuit-target ${kind}` }));
      layer.append(svg('polygon', {
        points: '-11,-8 13,0 -11,8',
        transform: `translate(${car[0]} ${car[1]}) rotate(${Number.isFinite(angle) ? angle : 0})`,
        class: `pursuit-car ${kind}`,
      }));
    }
  }

  function drawPlot() {
    if (!open()) return;
    const { slow, fast, seconds: SECONDS, speeds } = runs();
    const high = Math.max(1e-3, ...slow.distances, ...fast.distances);
    const x = (seconds) => PAD.left + ((WIDTH - PAD.left - PAD.right) * seconds) / SECONDS;
    const y = (d) => HEIGHT - PAD.bottom - ((HEIGHT - PAD.top - PAD.bottom) * d) / high;
    plot.textContent = '';
    plot.append(svg('rect', { x: PAD.left, y: PAD.top, width: WIDTH - PAD.left - PAD.right, height: HEIGHT - PAD.top - PAD.bottom, class: 'plot-frame' }));
    plot.append(svg('text', { x: PAD.left - 8, y: y(high) + 5, class: 'plot-label end' }, num(high, 1)));
    plot.append(svg('text', { x: PAD.left - 8, y: y(0) + 5, class: 'plot-label end' }, '0'));
    plot.append(svg('text', { x: x(SECONDS), y: HEIGHT - 8, class: 'plot-label end' }, `${num(SECONDS)} s`));
    for (const [kind, run] of [['slow', slow], ['fast', fast]]) {
      const points = run.distances.map((d, k) => `${x(run.times[k])},${y(d)}`).join(' ');
      plot.append(svg('polyline', { points, class: `plot-line pursuit-${kind}` }));
      const last = run.distances.length - 1;
      plot.append(svg('text', { x: x(run.times[last]) - 4, y: y(run.distances[last]) - 6, class: 'plot-label end' }, t(`pursuit.${kind}`)));
    }
    const now = Math.min(host.time(), SECONDS);
    plot.append(svg('line', { x1: x(now), y1: PAD.top, x2: x(now), y2: HEIGHT - PAD.bottom, class: 'plot-playhead' }));
    $('output[for="pursuit-car"]').textContent = num(carSpeed(), 1);
    $('#pursuit-text').textContent = t('pursuit.figures', {
      slow: num(speeds.slow, 2), fast: num(speeds.fast, 2), seconds: num(SECONDS),
      slowEnd: num(slow.distances[slow.distances.length - 1], 2), fastEnd: num(fast.distances[fast.distances.length - 1], 2),
    });
  }

  return {
    drawOnPath,
    drawPlot,
    /** The distance between car and point at the end of each run (for tests). */
    finalDistances() {
      const { slow, fast } = runs();
      return { slow: slow.distances[slow.distances.length - 1], fast: fast.distances[fast.distances.length - 1] };
    },
  };
}
