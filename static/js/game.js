// The game controller: holds the state, the input queue and talks to the server.
//
// Extensions (hint button, auto-play) feed directions into the same queue with enqueue(),
// and can listen to the player's own input (key presses, swipes, new game) with onInput().

import { DIRECTIONS, backoffDelay, isRetryable, sleep, withRetry } from './api.js';
import * as storage from './storage.js';

// {kind: "move", direction} | {kind: "new"} | {kind: "keep"} | {kind: "sync"}
const queue = [];
const inputListeners = new Set();
const stateListeners = new Set();
const idleWaiters = [];

let deps = null;  // {api, view, score, overlay, notice, announcer, messages, format, setBusy}
let state = null; // the API's state object, as last confirmed by the server
let best = 0;
let running = false;
let ready = false;

/** True when the server refuses moves: game over, or won and waiting for "keep going". */
export const isFinished = (s) => !!s && (s.over || (s.won && !s.keep_playing));

export function getState() {
  return state ? storage.pickState(state) : null;
}

/**
 * Listen to the player's input: {kind: "move", direction, source} for a key or swipe,
 * {kind: "new"} for a new game. Returns an unsubscribe function.
 */
export function onInput(listener) {
  inputListeners.add(listener);
  return () => inputListeners.delete(listener);
}

/** Listen to every state the server confirms; returns an unsubscribe function. */
export function onStateChange(listener) {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

/** True while input is queued, a request is on its way or tiles are still animating. */
function isBusy() {
  return !ready || running || queue.length > 0 || (deps && !deps.view.idle);
}

/** Resolves as soon as the game is idle: at once if it is, else when updateBusy finds it so. */
export function whenIdle() {
  return isBusy() ? new Promise((resolve) => idleWaiters.push(resolve)) : Promise.resolve();
}

/** Called wherever busy-ness may change (and by the view when its animations end). */
export function updateBusy() {
  const busy = isBusy();
  if (deps) deps.setBusy(busy);
  if (!busy) for (const resolve of idleWaiters.splice(0)) resolve();
}

function notify(listeners, value) {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch (err) {
      console.warn('2048: listener failed', err); // eslint-disable-line no-console
    }
  }
}

/** A direction the player gave by key or swipe: tell the listeners, then queue it. */
export function userInput(direction, source) {
  notify(inputListeners, { kind: 'move', direction, source });
  return enqueue(direction);
}

/**
 * Queue a move. Moves are sent one after another in the order given, none dropped, except that
 * moves are not sent while the game is finished (the overlay is up: see pump). Returns false for
 * an unknown direction.
 */
export function enqueue(direction) {
  if (!DIRECTIONS.includes(direction)) return false;
  queue.push({ kind: 'move', direction });
  updateBusy();
  pump();
  return true;
}

/** Start a new game; moves still waiting to be sent belong to the old game and are dropped. */
export function newGame() {
  notify(inputListeners, { kind: 'new' });
  const inFlight = running ? queue.splice(0, 1) : [];
  queue.length = 0;
  queue.push(...inFlight, { kind: 'new' });
  updateBusy();
  pump();
}

/** Check the server's copy (e.g. when the tab comes back into view: another tab may have played). */
export function refresh() {
  if (!ready || queue.some((op) => op.kind === 'sync')) return;
  queue.push({ kind: 'sync' });
  updateBusy();
  pump();
}

/** After a win: continue the same game. */
export function keepPlaying() {
  if (!state || !state.won || state.keep_playing || queue.some((op) => op.kind === 'keep')) return;
  queue.push({ kind: 'keep' });
  updateBusy();
  pump();
}

const troubleHooks = {
  onRetry: () => deps.notice.show(),
  onRecover: () => deps.notice.hide(),
};

const sameState = (a, b) => a.score === b.score && a.moves === b.moves
  && a.board.every((row, r) => row.every((v, c) => v === b.board[r][c]));

/** Put a game, ours unless given, back on the server: it lost it (restart, expired session). */
function restoreOnServer(saved = storage.pickState(state)) {
  return withRetry(() => deps.api.putGame(saved), troubleHooks);
}

/** The server's game; if it has forgotten it, ours put back. */
async function serverGame() {
  const server = await withRetry(() => deps.api.getGame(), troubleHooks);
  return server.created && state ? restoreOnServer() : server;
}

/** Send one move; retries network and server failures without ever applying a move twice. */
async function sendMove(direction) {
  let restores = 0;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const data = await deps.api.move(direction);
      if (attempt > 0) deps.notice.hide();
      return { data };
    } catch (err) {
      const body = err.data || {};
      if (err.status === 409 && storage.isGameState(body.state)) return { refused: body.state };
      if (err.status === 404 && restores < 1) {
        // The server has no game for this session any more: restore ours, then send again.
        restores += 1;
        await restoreOnServer();
        continue;
      }
      if (!isRetryable(err)) throw err;
      deps.notice.show();
      await sleep(backoffDelay(attempt, err.retryAfter));
      if (err.status === 429) continue; // refused outright: nothing happened
      // The request may have reached the server before failing; ask before sending it again.
      const server = await serverGame();
      if (!sameState(server, state)) {
        deps.notice.hide();
        return { resynced: server };
      }
    }
  }
}

function applyState(s, { gained = 0, announce = null } = {}) {
  const previous = state;
  state = storage.pickState(s);
  storage.saveGame(state);
  if (state.score > best) {
    best = state.score;
    storage.saveBest(best);
  }
  deps.score.update(state.score, best, gained);
  const { messages } = deps;
  let message = announce;
  if (gained > 0 && !message) message = fill(messages.score, { score: deps.format(state.score) });
  if (isFinished(state)) {
    const kind = state.over && (!state.won || state.keep_playing) ? 'over' : state.over ? 'won-over' : 'won';
    const text = kind === 'over' ? messages.over : messages.win;
    if (!deps.overlay.visible || deps.overlay.kind !== kind) {
      deps.overlay.show(kind, text);
      if (!previous || !isFinished(previous) || previous.over !== state.over) message = text;
    }
  } else {
    deps.overlay.hide();
  }
  if (message) deps.announcer.say(message);
  notify(stateListeners, getState());
}

export function fill(template, values) {
  return String(template || '').replace(/\{(\w+)\}/g, (m, name) => (name in values ? values[name] : m));
}

async function resync() {
  const s = await serverGame();
  deps.view.render(s.board);
  applyState(s);
}

async function runOp(op) {
  if (op.kind === 'move') {
    const result = await sendMove(op.direction);
    if (result.data) {
      const d = result.data;
      deps.view.render(d.board, d.moved ? d.animation : null);
      applyState(d, { gained: d.gained || 0 });
    } else {
      const s = result.refused || result.resynced;
      deps.view.render(s.board);
      applyState(s);
    }
  } else if (op.kind === 'new') {
    const s = await withRetry(() => deps.api.newGame(), troubleHooks);
    deps.view.render(s.board, null, { appear: true });
    applyState(s, { announce: deps.messages.newGame });
  } else if (op.kind === 'sync') {
    await resync();
  } else if (op.kind === 'keep' && state && state.won && !state.keep_playing) {
    const s = await withRetry(() => deps.api.keepPlaying(), troubleHooks);
    deps.view.render(s.board);
    applyState(s, { announce: deps.messages.keepPlaying });
  }
}

async function pump() {
  if (running || !ready) return;
  running = true;
  updateBusy();
  try {
    while (queue.length) {
      const op = queue[0];
      if (op.kind === 'move' && isFinished(state)) {
        queue.shift(); // the overlay is up: this move is not sent
        continue;
      }
      try {
        await runOp(op);
      } catch (err) {
        // Refused for good (a 4xx we don't expect): drop it and show what the server has.
        console.warn('2048: request refused', err); // eslint-disable-line no-console
        try {
          await resync();
        } catch (err2) {
          console.warn('2048: resync failed', err2); // eslint-disable-line no-console
        }
      }
      queue.shift();
    }
  } finally {
    running = false;
    updateBusy();
  }
}

/** Load the game: the server's, else the one saved in this browser, else a new one. */
export async function start(dependencies) {
  deps = dependencies;
  best = storage.loadBest();
  let s = await withRetry(() => deps.api.getGame(), troubleHooks);
  let announce = null;
  if (s.created) {
    const saved = storage.loadGame();
    if (saved) {
      try {
        s = await restoreOnServer(saved);
        announce = deps.messages.restored;
      } catch (err) {
        console.warn('2048: could not restore the saved game', err); // eslint-disable-line no-console
      }
    }
  }
  deps.view.render(s.board, null, { appear: true });
  applyState(s, { announce });
  ready = true;
  updateBusy();
  pump();
}
