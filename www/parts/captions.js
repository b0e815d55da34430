// What the caption under the view says of an example in a mode. An example
// made for one mode (the walk for Animate, the leg for IK) has a caption
// that speaks of that mode's controls: it shows there. Elsewhere the mode
// says what it shows, and the Skin mode names the mode the example is for.
import { hasLabel } from '../i18n.js';

/** The mode each example is made for, where it is not the Skin mode. */
const HOME_MODES = {
  walk: 'animate', path: 'animate', flip: 'animate', capture: 'animate',
  face: 'morph', leg: 'ik', arm: 'ik', robot: 'ik', tail: 'gpu', chain: 'gpu', fingers: 'weights',
};

/** The mode example `name` is made for ('skin' for the rest). */
export const homeMode = (name) => HOME_MODES[name] ?? 'skin';

/**
 * Example `name`'s own caption in `mode`, or null where it has none there
 * (another mode's example, a gallery model, a file of one's own). `t` is the
 * page's translator.
 */
export function ownCaption(t, name, mode) {
  return name && homeMode(name) === mode && hasLabel(`cap.${name}`) ? t(`cap.${name}`) : null;
}

/**
 * The Skin mode's caption of example `name`: its own, or for another mode's
 * example what posing shows and which mode the example is for; for a model
 * or a file of one's own, what can be done with it.
 */
export function skinCaption(t, name) {
  if (!name) return t('custom');
  const own = ownCaption(t, name, 'skin');
  if (own) return own;
  if (hasLabel(`ex.${name}`) && homeMode(name) !== 'skin') {
    return t('cap.elsewhere', { example: t(`ex.${name}`), mode: t(`modeName.${homeMode(name)}`) });
  }
  return t('cap.model');
}
