// The bone list: a coloured dot, the name, a lock per bone and (in Weights)
// whether it deforms. Clicking a row selects the bone.
import { el } from '../dom.js';
import { hasLabel } from '../i18n.js';

/** Colours of the bones, as the renderer's palette (Okabe and Ito). */
export const BONE_COLORS = [
  [213, 94, 0], [0, 114, 178], [0, 158, 115], [204, 121, 167],
  [230, 159, 0], [86, 180, 233], [240, 228, 66], [77, 77, 77],
];

/** The most rows listed; further bones are picked in the view. */
const MAX_ROWS = 64;

/**
 * A bone's label: its name, or “bone N” (counted from 1, as the examples
 * name theirs) when it has none. The examples' names (“left branch”,
 * “link 12”) are shown in the page's language (`t`); a file's own names as
 * they are.
 */
export function boneLabel(t, names, bone) {
  const name = names[bone];
  if (!name) return t('bone.unnamed', { n: bone + 1 });
  const [, base, number] = /^(.*?)(?: (\d+))?$/.exec(name);
  if (!hasLabel(`boneName.${base}`)) return name;
  return number === undefined ? t(`boneName.${base}`) : `${t(`boneName.${base}`)} ${number}`;
}

/** The bone list of `app` (which offers `lab`, `viewer`, `selectBone`, `deforming`). */
export function createBoneList(app) {
  const { num, t } = app.i18n;
  const { $ } = app;
  // The lab and revision the deform boxes were last read at, and the
  // bones' names the list was built with.
  let synced = { lab: null, revision: -1 };
  let builtNames = '';
  function build() {
    const list = $('#bone-list');
    list.textContent = '';
    const names = app.lab.boneNames();
    builtNames = JSON.stringify(names);
    const shown = Math.min(names.length, MAX_ROWS);
    for (let bone = 0; bone < shown; bone++) {
      const [r, g, b] = BONE_COLORS[bone % BONE_COLORS.length];
      const lock = el('input', { type: 'checkbox', checked: app.lab.isLocked(bone) });
      // Named for its bone: a list of boxes all called "lock" tells nothing.
      lock.setAttribute('aria-label', t('aria.lock', { bone: boneLabel(t, names, bone) }));
      lock.addEventListener('click', (event) => event.stopPropagation());
      lock.addEventListener('change', () => app.lab.setLocked(bone, lock.checked));
      const deforms = el('input', { type: 'checkbox', checked: app.lab.boneDeforms(bone) });
      deforms.setAttribute('aria-label', t('aria.deforms', { bone: boneLabel(t, names, bone) }));
      deforms.addEventListener('click', (event) => event.stopPropagation());
      deforms.addEventListener('change', () => {
        if (!app.deforming.set(bone, deforms.checked)) deforms.checked = !deforms.checked;
      });
      // The mark the view's dots of this bone have: shape and colour.
      const dot = el('span', { className: `dot shape-${bone % 4}` });
      dot.style.background = `rgb(${r}, ${g}, ${b})`;
      const item = el('li', {},
        dot,
        // A button, so that the keyboard reaches and picks each bone.
        el('button', { type: 'button', className: 'name' }, boneLabel(t, names, bone)),
        // Each box sits under its column's head; its own name is its label.
        el('label', { className: 'deforms' }, deforms),
        el('label', { className: 'lock' }, lock));
      item.classList.toggle('no-deform', !deforms.checked);
      item.dataset.bone = String(bone);
      item.addEventListener('click', () => app.selectBone(bone));
      list.append(item);
    }
    if (names.length > shown) {
      list.append(el('li', { className: 'muted' }, t('bones.more', { n: num(names.length - shown) })));
    }
    synced = { lab: app.lab, revision: app.lab.revision() };
  }

  /**
   * The deform boxes as the lab has them (after an undo, a link, a
   * lesson); the whole list again when bones were added, removed, renamed
   * or renumbered (a rig edited, or that edit undone).
   */
  function syncDeforms() {
    if (synced.lab === app.lab && synced.revision === app.lab.revision()) return;
    synced = { lab: app.lab, revision: app.lab.revision() };
    const names = app.lab.boneNames();
    if (JSON.stringify(names) !== builtNames) {
      const selected = app.viewer.selectedBone();
      if (selected !== null && selected >= names.length) app.viewer.selectBone(app.lab, null);
      build();
      return;
    }
    for (const item of app.root.querySelectorAll('#bone-list li[data-bone]')) {
      const on = app.lab.boneDeforms(Number(item.dataset.bone));
      const box = item.querySelector('.deforms input');
      if (box.checked !== on) box.checked = on;
      item.classList.toggle('no-deform', !on);
    }
  }

  function update() {
    syncDeforms();
    const selected = app.viewer.selectedBone();
    for (const item of app.root.querySelectorAll('#bone-list li')) {
      const chosen = Number(item.dataset.bone) === selected;
      if (item.classList.contains('selected') === chosen) continue;
      item.classList.toggle('selected', chosen);
      item.querySelector('.name')?.setAttribute('aria-pressed', String(chosen));
    }
  }

  return { build, update };
}
