// Swipes on the board: input.js loads this module on the first touch.

/**
 * Call onDirection(direction) for a one-finger swipe on `el`: the larger axis decides, moves
 * shorter than `threshold` CSS pixels are ignored. The swipe never scrolls the page. `early`: the
 * touch events that came before this module was loaded, taken first.
 */
export function bindSwipe(el, onDirection, { threshold = 16, early = [] } = {}) {
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

  const handlers = { touchstart: onStart, touchmove: onMove, touchend: onEnd, touchcancel: onCancel };
  for (const event of early) handlers[event.type](event);
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
