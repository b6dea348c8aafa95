// localStorage persistence that never throws: private mode, disabled storage or a full quota
// just mean no persistence. The game state as the API gives it (its shape, a copy of its fields,
// whether it is finished), and the keeper of the server's sealed copy of the game (seals.js):
// asked once play pauses, so that if the server forgets the session, the restore that carries it
// keeps the game verified (app/seals.py).

import { loadOnce } from './page.js';

const BEST_KEY = 'bestScore';
const STATE_KEY = 'gameState';

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
    return s ? s.getItem(key) : null;
  } catch {
    return null;
  }
}

/** Keep `value` (a string) under `key`, if this browser keeps anything. */
export function write(key, value) {
  try {
    const s = storage();
    if (s) s.setItem(key, value);
  } catch {
    // quota exceeded or storage disabled: play on without persistence
  }
}

/** The best score ever seen here, 0 when unknown. */
export function loadBest() {
  const n = Number(read(BEST_KEY));
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

export function saveBest(score) {
  write(BEST_KEY, String(score));
}

function isTile(v) {
  return Number.isInteger(v) && (v === 0 || (v >= 2 && (v & (v - 1)) === 0));
}

/** True when `s` has the shape of the API's state object. */
export function isGameState(s) {
  return !!s && typeof s === 'object'
    && Array.isArray(s.board) && s.board.length === 4
    && s.board.every((row) => Array.isArray(row) && row.length === 4 && row.every(isTile))
    && Number.isInteger(s.score) && s.score >= 0
    && typeof s.won === 'boolean' && typeof s.over === 'boolean'
    && typeof s.keep_playing === 'boolean'
    && Number.isInteger(s.moves) && s.moves >= 0
    // the server's own rules: keep_playing only after a win, and a 2048 tile means won
    && (!s.keep_playing || s.won)
    && (s.won || s.board.every((row) => row.every((v) => v < 2048)));
}

/** Only the fields of the API's state object. */
export function pickState(s) {
  return {
    board: s.board.map((row) => row.slice()),
    score: s.score,
    won: s.won,
    over: s.over,
    keep_playing: s.keep_playing,
    moves: s.moves,
  };
}

/** Whether two states are the same game at the same point (either may be missing). */
export const sameState = (a, b) => !!a && !!b && a.score === b.score && a.moves === b.moves
  && a.won === b.won && a.keep_playing === b.keep_playing
  && a.board.every((row, r) => row.every((v, c) => v === b.board[r][c]));

/** True when the server refuses moves: game over, or won and the player has not chosen to keep playing. */
export const isFinished = (s) => !!s && (s.over || (s.won && !s.keep_playing));

export function loadGame() {
  const raw = read(STATE_KEY);
  if (!raw) return null;
  try {
    const s = JSON.parse(raw);
    return isGameState(s) ? pickState(s) : null;
  } catch {
    return null;
  }
}

export function saveGame(state) {
  write(STATE_KEY, JSON.stringify(pickState(state)));
}

/** Call listener() when another window of this browser saves a game; returns an unsubscribe. */
export function onGameSaved(listener) {
  const handler = (event) => {
    if (event.key === STATE_KEY) listener();
  };
  window.addEventListener('storage', handler);
  return () => window.removeEventListener('storage', handler);
}

const PLAYED_HERE = new Set(['moved', 'kept', 'restored', 'undone']); // the changes this window made

/**
 * The sealed copy's keeper (seals.js, loaded after the first change made here, or a restore).
 * `state()`: the confirmed game; `ask()`: the server's sealed copy of it; `isBusy()`: play goes on.
 */
export function createSeals(parts) {
  const keeper = loadOnce(() => import('./seals.js').then((seals) => seals.createKeeper(parts)));

  return {
    /** Resolves to the token of the sealed copy kept for `game`, if the page has one. */
    tokenFor: (game) => keeper().then((k) => k.tokenFor(game), () => undefined),
    /**
     * The confirmed game changed: a new one has no copy yet; after a change made here, ask for one
     * once play pauses (after another window's change, that window asks).
     */
    changed(kind) {
      if (kind !== 'new' && !PLAYED_HERE.has(kind)) return;
      keeper().then((k) => (kind === 'new' ? k.forget() : k.keepLater()), () => {}); // not loaded: next time
    },
  };
}
