// Keyboard and touch input: turns key presses and swipes into directions, and the keys of the
// page's other actions (undo) into actions.

const KEYS = {
  ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
  w: 'up', a: 'left', s: 'down', d: 'right',
  k: 'up', j: 'down', h: 'left', l: 'right',           // vim
};

// Physical keys, used only when the layout produces no Latin letter (e.g. Cyrillic).
const CODES = {
  KeyW: 'up', KeyA: 'left', KeyS: 'down', KeyD: 'right',
  KeyK: 'up', KeyJ: 'down', KeyH: 'left', KeyL: 'right',
};

/** Text fields, lists to choose from and dialogs keep their keys; everywhere else the mapped keys play. */
function keepsKeys(target) {
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable) return true;
  return !!target.closest('input, select, textarea, dialog, [contenteditable]:not([contenteditable="false"])');
}

/** The direction for a keydown event, or null. */
export function directionForKey(event) {
  if (event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return null;
  const k = event.key || '';
  const byKey = KEYS[k] || KEYS[k.toLowerCase()];
  if (byKey) return byKey;
  if (k.length === 1 && !/[a-z]/i.test(k)) return CODES[event.code] || null;
  return null;
}

// The keys of actions: Ctrl+Z or Cmd+Z as everywhere, and U (by its place, on a non-Latin layout).
const ACTION_KEYS = { z: { modified: true, action: 'undo' }, u: { modified: false, action: 'undo' } };

/** The action ('undo') for a keydown event that is no direction, or null. */
export function actionForKey(event) {
  if (event.altKey || event.shiftKey) return null;
  const k = (event.key || '').toLowerCase();
  const letter = /^[a-z]$/.test(k) ? k : k.length === 1 && (event.code || '').replace(/^Key/, '').toLowerCase();
  const found = ACTION_KEYS[letter];
  return found && found.modified === (event.ctrlKey || event.metaKey) ? found.action : null;
}

/** Call `handle(value)` for the keys `meaning(event)` gives a value, outside text fields and dialogs; they do nothing else. */
function bindKeys(target, meaning, handle) {
  const handler = (event) => {
    if (event.defaultPrevented || event.isComposing || keepsKeys(event.target)) return;
    const value = meaning(event);
    if (!value) return;
    event.preventDefault();
    handle(value);
  };
  target.addEventListener('keydown', handler);
  return () => target.removeEventListener('keydown', handler);
}

/** Call onAction(action) for the keys of actions (actionForKey). */
export const bindActionKeys = (target, onAction) => bindKeys(target, actionForKey, onAction);

/** Call onDirection(direction) for mapped keys; they don't scroll the page. */
export const bindKeyboard = (target, onDirection) => bindKeys(target, directionForKey, onDirection);

const TOUCH_EVENTS = ['touchstart', 'touchmove', 'touchend', 'touchcancel'];

/**
 * Swipes on `el` (swipe.js), loaded on the first touch: a player with a mouse or keys never needs
 * them. The touches that come before it is loaded are handed to it, so the first swipe counts; its
 * moves are held from the browser meanwhile (else the browser takes the touch for a gesture of its
 * own, and the next tap clicks nothing).
 */
export function bindSwipe(el, onDirection) {
  const early = [];
  const keep = (event) => {
    if (event.type === 'touchmove' && event.cancelable) event.preventDefault();
    early.push(event);
  };
  const load = () => import('./swipe.js').then((swipe) => {
    TOUCH_EVENTS.forEach((type) => el.removeEventListener(type, keep, { passive: type !== 'touchmove' }));
    swipe.bindSwipe(el, onDirection, { early });
  }, () => {
    early.length = 0; // not loaded (the server was unreachable): the next touch tries again
    el.addEventListener('touchstart', load, { once: true, passive: true });
  });
  TOUCH_EVENTS.forEach((type) => el.addEventListener(type, keep, { passive: type !== 'touchmove' }));
  el.addEventListener('touchstart', load, { once: true, passive: true });
}
