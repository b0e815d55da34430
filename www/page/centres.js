// The centres of rotation CoR skins about, kept up to date with the
// weights: once a stroke or other weight edit is over, at once on a small
// mesh and in the weights worker (with progress and Cancel) on a large
// one, which meanwhile is drawn about the stale centres; during a stroke
// CoR shows the centres of the weights before it, and says so.
import { weightsJob } from '../weights-job.js';

/** Meshes over this many vertices get their centres of rotation in a worker. */
const WORKER_CENTRES_VERTICES = 20000;

/**
 * The centres of `app`'s lab (which offers `lab`, `viewer`, `showNotice`,
 * `noticeAsks` and `requestRender`).
 */
export function createCentres(app) {
  const { t } = app.i18n;
  const { $ } = app;
  // The worker computing centres, and for which lab and weights revision;
  // the lab and revision whose centres Cancel declined (stale until the
  // weights change again).
  let job = null;
  let declined = null;

  /** Whether the view shows the centres of rotation: CoR drawn (alone or side by side), or their dots. */
  function shown() {
    const { viewer } = app;
    return viewer.method() === 'cor' || viewer.overlay('centres') || (viewer.compare() && viewer.comparePair().includes('cor'));
  }

  /** Brings the centres up to date before a frame, where the view shows them. */
  function keep() {
    const { lab, viewer } = app;
    if (!shown() || lab.centresCurrent()) return;
    if (viewer.dragging()) {
      if (app.noticeAsks() !== 'staleCentres') app.showNotice(t('cor.stale'), 'info', 'staleCentres');
    } else if (lab.vertexCount() > WORKER_CENTRES_VERTICES) {
      inWorker(lab);
    } else {
      lab.updateCentres();
    }
  }

  /**
   * Computes the centres of `lab` in a worker (the weights worker's core),
   * with progress; takes them if the weights are still those they were
   * computed for (otherwise the next frame starts again).
   */
  function inWorker(lab) {
    const revision = lab.influencesRevision();
    if (job?.lab === lab && job.revision === revision) return;
    if (declined?.lab === lab && declined.revision === revision) return;
    job?.running.cancel();
    const started = { lab, revision, running: null };
    started.running = weightsJob({ scene: lab.sceneJson(), centres: true }, (fraction) => {
      if (job === started) $('#work progress').value = fraction;
    });
    if (!started.running) {
      lab.updateCentres();
      return;
    }
    job = started;
    $('#work-text').textContent = t('cor.working');
    $('#work progress').value = 0;
    $('#work').hidden = false;
    started.running.result.then((answer) => {
      if (job === started) job = null;
      if (!job) $('#work').hidden = true;
      if (answer.failed) app.showNotice(answer.failed, 'error');
      // Another scene (or a restarted core) since: not this one's centres.
      if (app.lab !== lab || !(answer.done || answer.unavailable)) return;
      if (answer.unavailable) lab.updateCentres();
      else {
        try {
          lab.setCentresArray(answer.centres, revision);
        } catch {
          // The weights changed while it worked: the next frame starts again.
        }
      }
      app.requestRender();
    });
  }

  $('#work-cancel').addEventListener('click', () => {
    if (!job) return;
    job.running.cancel();
    declined = { lab: job.lab, revision: job.revision };
  });

  return {
    shown,
    keep,
    /** Ends a worker's job without taking its centres (the scene or the core went). */
    cancel() {
      job?.running.cancel();
      job = null;
    },
  };
}
