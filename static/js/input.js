// Keyboard and touch input: turns key presses and swipes into directions, and the keys of the
// page's other actions (undo) into actions.

const KEYS = {
  ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
  Up: 'up', Down: 'down', Left: 'left', Right: 'right', // old Edge
  w: 'up', a: 'left', s: 'down', d: 'right',
  k: 'up', j: 'down', h: 'left', l: 'right',           // vim
};

// Physical keys, used only when the layout produces no Latin letter (e.g. Cyrillic).
const CODES = {
  KeyW: 'up', KeyA: 'left', KeyS: 'down', KeyD: 'right',
  KeyK: 'up', KeyJ: 'down', KeyH: 'left', KeyL: 'right',
};

/** Text fields and dialogs keep their keys; everywhere else the mapped keys play. */
function keepsKeys(target) {
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable) return true;
  return !!target.closest('input, textarea, dialog, [contenteditable]:not([contenteditable="false"])');
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

/**
 * Call onDirection(direction) for a one-finger swipe on `el`: the larger axis decides, moves
 * shorter than `threshold` CSS pixels are ignored. The swipe never scrolls the page.
 */
export function bindSwipe(el, onDirection, { threshold = 16 } = {}) {
  let start = null;

  const onStart = (event) => {
    if (event.touches.length !== 1 || (event.target instanceof Element && event.target.closest('button, a'))) {
      start = null;
      return;
    }
    const t = event.touches[0];
    start = { id: t.identifier, x: t.clientX, y: t.clientY };
  };

  const onMove = (event) => {
    if (event.cancelable) event.preventDefault();
    if (event.touches.length > 1) start = null; // a second finger cancels the swipe
  };

  const onEnd = (event) => {
    if (!start) return;
    if (event.touches.length > 0) {
      start = null;
      return;
    }
    const t = Array.from(event.changedTouches).find((touch) => touch.identifier === start.id);
    const from = start;
    start = null;
    if (!t) return;
    const dx = t.clientX - from.x;
    const dy = t.clientY - from.y;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < threshold) return;
    if (Math.abs(dx) > Math.abs(dy)) onDirection(dx > 0 ? 'right' : 'left');
    else onDirection(dy > 0 ? 'down' : 'up');
  };

  const onCancel = () => {
    start = null;
  };

  el.addEventListener('touchstart', onStart, { passive: true });
  el.addEventListener('touchmove', onMove, { passive: false });
  el.addEventListener('touchend', onEnd);
  el.addEventListener('touchcancel', onCancel);
  return () => {
    el.removeEventListener('touchstart', onStart);
    el.removeEventListener('touchmove', onMove);
    el.removeEventListener('touchend', onEnd);
    el.removeEventListener('touchcancel', onCancel);
  };
}
