// localStorage persistence that never throws: private mode, disabled storage or a full quota
// just mean no persistence. The best score of each size and the game, kept in this browser so that
// nothing is lost when the server forgets a session. A page whose data names a prefix (`apart`: the daily
// page's) keeps its own, under names of its own.

import { pageData } from './page.js';
import { CLASSIC, isGameState, pickState } from './state.js';

const BEST_KEY = 'bestScore'; // the classic's; another size's adds it: bestScore6
const STATE_KEY = 'gameState';
const PENDING_KEY = 'pendingMoves';
const DIRECTIONS = ['up', 'down', 'left', 'right'];
const apart = pageData().apart || '';

function storage() {
  try {
    return window.localStorage || null;
  } catch {
    return null;
  }
}

/** The value kept under `key`, or null (none, or no storage here). */
export function read(key) {
  try {
    const s = storage();
    return s ? s.getItem(apart + key) : null;
  } catch {
    return null;
  }
}

/** Keep `value` (a string) under `key`, if this browser keeps anything. */
export function write(key, value) {
  try {
    const s = storage();
    if (s) s.setItem(apart + key, value);
  } catch {
    // quota exceeded or storage disabled: play on without persistence
  }
}

const bestKey = (size) => (size === CLASSIC.size ? BEST_KEY : `${BEST_KEY}${size}`);

/** The best score ever seen here on boards of `size`, 0 when unknown. */
export function loadBest(size) {
  const n = Number(read(bestKey(size)));
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

export function saveBest(size, score) {
  write(bestKey(size), String(score));
}

export function loadGame() {
  const raw = read(STATE_KEY);
  if (!raw) return null;
  try {
    const s = { ...CLASSIC, ...JSON.parse(raw) };
    return isGameState(s) ? pickState(s) : null;
  } catch {
    return null;
  }
}

export function saveGame(state) {
  write(STATE_KEY, JSON.stringify(pickState(state)));
}

/**
 * The moves pressed on the game saved (`state`) that its server has not confirmed (the server could
 * not be reached): after a reload they are shown on it and sent once the server answers.
 */
export function savePending(state, directions) {
  write(PENDING_KEY, JSON.stringify({ moves: state.moves, directions }));
}

/** The moves kept by savePending for the saved game `state`; none for another game. */
export function loadPending(state) {
  try {
    const kept = JSON.parse(read(PENDING_KEY));
    const fits = state && kept && kept.moves === state.moves && Array.isArray(kept.directions);
    return fits ? kept.directions.filter((d) => DIRECTIONS.includes(d)) : [];
  } catch {
    return [];
  }
}

/** Call listener() when another window of this browser saves a game; returns an unsubscribe. */
export function onGameSaved(listener) {
  const handler = (event) => {
    if (event.key === apart + STATE_KEY) listener();
  };
  window.addEventListener('storage', handler);
  return () => window.removeEventListener('storage', handler);
}
