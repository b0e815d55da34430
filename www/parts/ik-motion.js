// The IK mode's motions over time (the animation talk): the `leg` walking a cycle
// three ways (the goose step of pure FK, FK with hip and knee, IK on the
// ankle's path), measured against the ground, and the IK target riding a
// closed path timed by arc length while the chain follows. One runs at a
// time; each run is one undo step.

/**
 * The motions of the IK mode of `app`; `host` offers `target()`,
 * `reachFor(point)` (move the target there and solve), `walkEnded()`,
 * `chainBones()` and `boneLength(bone)`.
 */
export function createIkMotion(app, host) {
  const { num, t } = app.i18n;
  const { $ } = app;
  /** The leg example's shin: the two-bone chain the walk drives. */
  const WALK_TIP = 1;
  const GAIT_SAMPLES = 64;
  const CYCLE_SECONDS = 1.6;
  let walking = null; // the animation frame's id while the leg walks
  let gaitTraces = null; // per gait, one cycle's ankle path (per scene and limits)

  function traces() {
    gaitTraces ??= Object.fromEntries(['goose', 'hip-knee', 'ik'].map((gait) => [gait, app.lab.gaitTrace(gait, WALK_TIP, GAIT_SAMPLES)]));
    return gaitTraces;
  }

  function showWalk() {
    const leg = app.example === 'leg';
    $('#ik-walk').hidden = !leg;
    if (!leg) return;
    const { stanceOffGround, swingClearance } = traces()[$('#ik-gait').value];
    $('#ik-walk-figures').textContent = t(swingClearance < -1e-4 ? 'ik.walkBelow' : 'ik.walkAbove', {
      stance: num(stanceOffGround, 3), swing: num(Math.abs(swingClearance), 3),
    });
  }

  function stopWalking() {
    if (walking === null) return;
    cancelAnimationFrame(walking);
    walking = null;
    // The ring goes where the walk left the chain's tip.
    host.walkEnded();
    $('#ik-walk-play').textContent = t('ik.walkPlay');
  }

  function walk() {
    if (walking !== null) {
      stopWalking();
      return;
    }
    stopRiding();
    app.lab.checkpoint();
    const start = performance.now();
    const step = (now) => {
      const phase = (((now - start) / 1000) / CYCLE_SECONDS) % 1;
      try {
        app.lab.poseGait($('#ik-gait').value, WALK_TIP, phase);
      } catch (error) {
        app.showNotice(error.message, 'error');
        stopWalking();
        return;
      }
      app.requestRender();
      walking = requestAnimationFrame(step);
    };
    walking = requestAnimationFrame(step);
    $('#ik-walk-play').textContent = t('ik.walkStop');
  }

  $('#ik-walk-play').addEventListener('click', walk);
  $('#ik-gait').addEventListener('change', () => {
    showWalk();
    app.requestRender();
  });

  // ----- the target riding a path -----

  const RIDE_SECONDS = 4;
  let riding = null; // the animation frame's id while the target rides
  let ridePath = -1; // the path the target rides, once there is one

  /**
   * A closed path for the target in the view plane (XY, as the IK examples
   * are seen): a circle through where the target is, its centre a fifth of
   * the chain's reach toward the chain's root, so all of it is within
   * reach; two cubic segments (control points 4r/3 out), timed by arc length.
   */
  function addTargetPath() {
    const bones = host.chainBones();
    const reach = bones.reduce((sum, bone) => sum + host.boneLength(bone), 0);
    const root = app.lab.boneOrigin(bones[0]);
    const [x, y, z] = host.target();
    const length = Math.hypot(root[0] - x, root[1] - y) || 1;
    const u = [(root[0] - x) / length, (root[1] - y) / length];
    const v = [-u[1], u[0]];
    const r = 0.2 * reach;
    const centre = [x + r * u[0], y + r * u[1]];
    // In the circle's own axes: −u is where the target is now.
    const at = (a, b) => [centre[0] + a * u[0] + b * v[0], centre[1] + a * u[1] + b * v[1], z];
    const k = (4 / 3) * r;
    const points = [at(-r, 0), at(-r, k), at(r, k), at(r, 0), at(r, -k), at(-r, -k), at(-r, 0)].flat();
    ridePath = app.lab.addPath({ points, duration: RIDE_SECONDS, timing: 'uniform' });
  }

  function stopRiding() {
    if (riding === null) return;
    cancelAnimationFrame(riding);
    riding = null;
    $('#ik-ride').textContent = t('ik.ride');
  }

  function ride() {
    if (riding !== null) {
      stopRiding();
      return;
    }
    if (!host.target()) return;
    stopWalking();
    app.lab.checkpoint();
    // A path undone away, or none yet: make one through the target.
    if (ridePath < 0 || ridePath >= app.lab.pathCount()) addTargetPath();
    const start = performance.now();
    const step = (now) => {
      host.reachFor(Array.from(app.lab.pathPosition(ridePath, ((now - start) / 1000) % RIDE_SECONDS)));
      riding = requestAnimationFrame(step);
    };
    riding = requestAnimationFrame(step);
    $('#ik-ride').textContent = t('ik.rideStop');
  }

  $('#ik-ride').addEventListener('click', ride);

  return {
    walking: () => walking !== null,
    /** Stops whatever runs. */
    stop() {
      stopWalking();
      stopRiding();
    },
    /** A new scene: nothing runs, nothing measured or made for the old one is kept. */
    forget() {
      stopWalking();
      stopRiding();
      gaitTraces = null;
      ridePath = -1;
    },
    /** The limits changed: the walk is measured again. */
    limitsChanged() {
      gaitTraces = null;
    },
    showWalk,
    walkPaths: () => ($('#ik-walk').hidden ? null : { gait: $('#ik-gait').value, traces: traces() }),
    ridePath: () => (ridePath >= 0 && ridePath < app.lab.pathCount() ? app.lab.pathTable(ridePath, 129).points : null),
    api: {
      gaitTrace: (gait) => traces()[gait],
      ikRidePath: () => ridePath,
      ikRide: ride,
    },
  };
}
