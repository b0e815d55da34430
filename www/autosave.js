// Autosave: the scene on screen (pose, weights, clips, paths, morph
// weights) and the mode are kept in the browser's IndexedDB a moment after
// each change, so a reload, a crash or a closed tab does not lose the
// lecturer's work; the next visit offers to restore it. Embedded copies
// (ui=minimal or none, or inside a frame) stay out of it unless the
// address asks with autosave=1, so slides never overwrite the lecturer's
// session.

const DATABASE = 'skinlab';
const STORE = 'autosave';
/** How long the page waits after a change before saving (a drag is many changes). */
const QUIET_MS = 1500;
/** Entries of each bulky list written in one task (vertices; corners for `indices`). */
const CHUNK = { positions: 20000, indices: 60000, influences: 20000 };
/**
 * The most bytes of a scene's look (its textures as base64, mostly) the
 * autosave keeps: beyond, it keeps the scene without them and says so.
 */
const LOOK_MAX_BYTES = 48e6;

/** Opens (or creates) the database; resolves to it, or null where IndexedDB is closed. */
function openDatabase() {
  return new Promise((resolve) => {
    let request;
    try {
      request = indexedDB.open(DATABASE, 1);
    } catch {
      resolve(null);
      return;
    }
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
  });
}

/** Runs `action(store)` in a transaction; resolves to its request's result. */
async function withStore(mode, action) {
  const database = await openDatabase();
  if (!database) return null;
  return new Promise((resolve, reject) => {
    const transaction = database.transaction(STORE, mode);
    const request = action(transaction.objectStore(STORE));
    transaction.oncomplete = () => {
      database.close();
      resolve(request.result);
    };
    transaction.onerror = () => {
      database.close();
      reject(transaction.error);
    };
  });
}

/**
 * Autosave for `app` (which offers `lab`, `example`, `mode()`, `loadScene`,
 * `setMode` and `showNotice`); `enabled` says whether this copy saves, and
 * `key` names its record (one per lab on a page: the page's own is `current`).
 */
export function createAutosave(app, { enabled, key }) {
  const { num, t } = app.i18n;
  const { $ } = app;
  let timer = 0;
  let savedRevision = -1;
  let savedLab = null;
  // The record last saved, kept for a restart of the core.
  let savedRecord = null;
  let pristineRevision = -1;
  let pristineLab = null;
  let saves = 0;
  // When the offered save was kept (ms since the epoch), for its text.
  let offeredAt = null;
  /** "kept 7 s ago", "kept 3 min ago": the time as it is, not rounded up to a minute. */
  const offerText = () => {
    const seconds = Math.max(1, Math.round((Date.now() - offeredAt) / 1000));
    return seconds < 60
      ? t('autosave.offerSeconds', { seconds: num(seconds) })
      : t('autosave.offer', { minutes: num(Math.round(seconds / 60)) });
  };

  let meshPart = { lab: null, blob: null };
  // The scene's look (materials and textures), once per lab; null when it
  // has none or it is too large to keep, which is said when first saved.
  let lookPart = { lab: null, blob: null };
  let influencesPart = { lab: null, revision: -1, blob: null };

  /**
   * One of the scene JSON's bulky lists (`positions`, `indices`,
   * `influences`), bracketed, as a Blob of UTF-8 bytes written a chunk a
   * task: each chunk a few milliseconds of the core's time, so even a
   * 1,000,000-vertex mesh never blocks the page for long. Null when the
   * scene (or, with `revision`, its weights) changed meanwhile.
   */
  async function listBlob(lab, list, total, revision = null) {
    const parts = ['['];
    for (let first = 0; first < total; first += CHUNK[list]) {
      if (first > 0) {
        parts.push(',');
        await new Promise((resolve) => setTimeout(resolve));
        if (app.lab !== lab || (revision !== null && lab.influencesRevision() !== revision)) return null;
      }
      parts.push(lab.bulkJsonChunk(list, first, CHUNK[list]));
    }
    parts.push(']');
    return new Blob(parts);
  }

  /**
   * The look's part, once per lab (materials and textures never change in
   * one). Past LOOK_MAX_BYTES it is left out of the autosave, and the
   * notice says so now, not after a crash.
   */
  function writeLookPart(lab) {
    if (lookPart.lab === lab) return;
    const look = lab.lookJson();
    lookPart = { lab, blob: look.length && look.length <= LOOK_MAX_BYTES ? new Blob([look]) : null };
    if (look.length > LOOK_MAX_BYTES) {
      app.showNotice(t('autosave.lookTooLarge', { mb: num(look.length / 1e6, 0), max: num(LOOK_MAX_BYTES / 1e6, 0) }));
    }
  }

  /** The mesh's part, once per lab (it never changes); false if the scene changed meanwhile. */
  async function writeMeshPart(lab) {
    if (meshPart.lab === lab) return true;
    const positions = await listBlob(lab, 'positions', lab.vertexCount());
    const indices = positions && await listBlob(lab, 'indices', lab.indexCount());
    if (!indices) return false;
    meshPart = { lab, blob: new Blob(['{"positions":', positions, ',"indices":', indices, '}']) };
    return true;
  }

  /** The influences' part, when they changed since it was last written; false if they changed meanwhile. */
  async function writeInfluencesPart(lab) {
    const revision = lab.influencesRevision();
    if (influencesPart.lab === lab && influencesPart.revision === revision) return true;
    const blob = await listBlob(lab, 'influences', lab.vertexCount(), revision);
    if (!blob) return false;
    influencesPart = { lab, revision, blob };
    return true;
  }

  /**
   * The scene as it is now, with what it was opened as. Its scene is the
   * compact JSON as UTF-8 bytes in a Blob: half the text and time of the
   * pretty JSON a download gets, no decoding into a string, and a Blob
   * IndexedDB keeps without copying it on this thread (on `dense`, 100,000
   * vertices, 9 MB: a string's put took 19 ms, a Blob's 0.3). The bulk is
   * written only when it changed, in chunks: the mesh, two thirds of it,
   * once per scene; the influences after weights were edited; a pose
   * change writes only the text around them (`sceneJsonAroundBulk`).
   */
  function snapshot(lab) {
    const [head, between, tail] = lab.sceneJsonAroundBulk();
    // The look goes last, as the scene JSON writes it: the tail's closing
    // brace after it.
    const end = lookPart.blob ? [tail.subarray(0, tail.length - 1), ',"look":', lookPart.blob, '}'] : [tail];
    return {
      version: 1,
      scene: new Blob([head, meshPart.blob, between, influencesPart.blob, ...end], { type: 'application/json' }),
      example: app.example,
      mode: app.mode(),
      savedAt: Date.now(),
    };
  }

  async function saveNow() {
    clearTimeout(timer);
    if (!enabled || !app.lab) return;
    const lab = app.lab;
    // An example as it opened is nothing to save.
    if (lab === pristineLab && lab.revision() === pristineRevision) return;
    if (lab === savedLab && lab.revision() === savedRevision) return;
    // A scene or weights changed while their bulk was written: the next
    // quiet moment saves.
    if (!(await writeMeshPart(lab)) || !(await writeInfluencesPart(lab))) return;
    writeLookPart(lab);
    if (app.lab !== lab || influencesPart.revision !== lab.influencesRevision()) return;
    // Taken now, while the parts match the scene (opening the database
    // takes a moment, during which the scene may change).
    const revision = lab.revision();
    const record = snapshot(lab);
    try {
      await withStore('readwrite', (store) => store.put(record, key));
      savedLab = lab;
      savedRevision = revision;
      savedRecord = record;
      saves += 1;
    } catch {
      // A full or closed storage: the page works on, unsaved.
    }
  }

  return {
    /** Called after each frame: saves once the page has been quiet a moment. */
    changed() {
      // A lesson sets its scenes up itself: nothing there is the lecturer's work.
      if (!enabled || !app.lab || app.mode() === 'lessons') return;
      if (app.lab === savedLab && app.lab.revision() === savedRevision) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        if ('requestIdleCallback' in window) requestIdleCallback(() => saveNow(), { timeout: 2000 });
        else saveNow();
      }, QUIET_MS);
    },
    /** Called when a scene is opened: as it opens it is not worth saving. */
    opened() {
      pristineLab = app.lab;
      pristineRevision = app.lab?.revision() ?? -1;
    },
    /**
     * Offers the last session's scene, if there is one, in a bar at the top
     * of the panel: Restore loads it (as a scene of one's own) in its mode;
     * Discard deletes it.
     */
    async offer() {
      if (!enabled) return;
      let saved;
      try {
        saved = await withStore('readonly', (store) => store.get(key));
      } catch {
        return;
      }
      if (!saved?.scene) return;
      const bar = $('#restore');
      offeredAt = saved.savedAt;
      $('#restore-text').textContent = offerText();
      bar.hidden = false;
      $('#restore-yes').onclick = async () => {
        bar.hidden = true;
        try {
          // A Blob since the autosave wrote bytes; a string before.
          app.loadScene(typeof saved.scene === 'string' ? saved.scene : await saved.scene.text());
          if (saved.mode) app.setMode(saved.mode);
          app.showNotice(t('autosave.restored'));
        } catch (error) {
          app.showNotice(t('autosave.failed', { error: error.message }), 'error');
        }
      };
      $('#restore-no').onclick = () => {
        bar.hidden = true;
        withStore('readwrite', (store) => store.delete(key)).catch(() => {});
      };
    },
    /** Says the offer again in the page's language. */
    relabel() {
      if (offeredAt !== null) $('#restore-text').textContent = offerText();
    },
    saveNow,
    /**
     * What was last saved of the scene on screen (`{scene: Blob, mode}`),
     * or null where this scene was never saved: a core restarted after a
     * trap reopens a scene of one's own from it. Only a reference is
     * taken, so it can be asked with the core already gone.
     */
    lastSaved: () => (savedLab !== null && savedLab === app.lab ? savedRecord : null),
    /** How many times this page has saved (for tests). */
    saves: () => saves,
  };
}
