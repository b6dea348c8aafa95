// The game as the player sees it: the server's confirmed game with the moves on their way
// predicted on top of it (slide.js's project), shown on the board, the scores and the overlay
// (display.js), and when to ask the server for its sealed copy of the game.
//
// A key press slides the tiles at once (static/js/slide.js predicts the slide); the new tile
// appears when the server's answer brings it, and the server's answer always wins. The
// conversation with the server lives in static/js/server.js.

import { createDisplay } from './display.js';
import { loadOnce } from './page.js';
import { connect } from './server.js';
import { predictMove, project } from './slide.js';
import { isFinished } from './state.js';

const PLAYED_HERE = new Set(['moved', 'kept', 'restored', 'undone']); // the changes this window made

/**
 * The server's sealed copy of the game, kept in this browser: asked once play pauses, so that if
 * the server forgets the session, the restore that carries it keeps the game verified
 * (app/seals.py). What asks and keeps it, sealed-copy.js, is loaded after the first change made
 * here, or a restore. `state()`: the confirmed game; `ask()`: the server's sealed copy of it;
 * `isBusy()`: play goes on.
 */
function createSeals(parts) {
  const keeper = loadOnce(() => import('./sealed-copy.js').then((copy) => copy.createKeeper(parts)));

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

/** A set of listeners; one that throws does not keep the others from hearing. */
function createListeners() {
  const listeners = new Set();
  return {
    /** Returns the unsubscribe. */
    add(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify(value) {
      for (const listener of listeners) {
        try {
          listener(value);
        } catch (err) {
          console.warn('2048: listener failed', err);
        }
      }
    },
  };
}

/** Tells `setBusy(busy)` whenever busy-ness may have changed, and resolves whenIdle() once idle. */
function createIdle(isBusy, setBusy) {
  const waiters = [];
  return {
    update() {
      const busy = isBusy();
      setBusy(busy);
      if (!busy) for (const resolve of waiters.splice(0)) resolve();
    },
    /** Resolves as soon as the game is idle: at once if it is, else when update() finds it so. */
    whenIdle: () => (isBusy() ? new Promise((resolve) => waiters.push(resolve)) : Promise.resolve()),
  };
}

/** A change the server told (server.js's onChange): shown, saved, and told to the listeners. */
function changed({ server, display, storage, seals, states, idle, getState }, event) {
  if (event.kind !== 'busy') {
    const state = server.state();
    display.change(event, state, project(state, server.directions()));
    storage.saveGame(state);
    storage.savePending(state, server.directions());
    seals.changed(event.kind);
    states.notify(getState());
  }
  idle.update();
}

/**
 * Play `direction`: its slide is shown now and the move sent. A key that changes nothing on a
 * board the server has confirmed costs nothing. Returns whether the move was taken.
 */
function play({ server, display, storage, idle }, direction) {
  const state = server.state();
  if (!server.accepting() || isFinished(state)) return false;
  const from = project(state, server.directions());
  const slid = predictMove(from.board, direction);
  if (!slid.moved && server.directions().length === 0) {
    display.noMove();
    return false;
  }
  display.slide(from, slid);
  server.move(direction);
  storage.savePending(state, server.directions()); // a reload before the server answers keeps it
  idle.update();
  return true;
}

/** `view`, `score`, `overlay`, `notice`, `announcer`: render.js's; `setBusy(busy)` marks the page busy. */
export function createGame({ api, view, storage, score, overlay, notice, announcer, messages, format, setBusy, maxBatch }) {
  const inputs = createListeners();
  const states = createListeners();
  const display = createDisplay({ view, score, overlay, announcer, messages, format, storage });
  const isBusy = () => server.isBusy() || !view.idle;
  const idle = createIdle(isBusy, setBusy);
  const seals = createSeals({ isBusy, state: () => server.state(), ask: () => server.sealedCopy() });
  const onChange = (event) => changed(parts, event);
  const server = connect({ api, notice, onChange, maxBatch, sealedCopy: seals.tokenFor });
  const getState = () => {
    const state = server.state();
    return state && { ...state, board: state.board.map((row) => row.slice()) };
  };
  const parts = { server, display, storage, seals, states, idle, getState };

  return {
    getState,
    isBusy,
    /** Whether starting over would throw a game away: it has moves, made or on their way. */
    inProgress() {
      const state = server.state();
      return !!state && !isFinished(state) && (state.moves > 0 || server.directions().length > 0);
    },
    /** Called wherever busy-ness may change (and by the view when its animations end). */
    updateBusy: idle.update,
    /** Resolves as soon as the game is idle: at once if it is, else when updateBusy finds it so. */
    whenIdle: idle.whenIdle,
    /**
     * Listen to the player's input: {kind: "move", direction, source} for a key or swipe,
     * {kind: "new"} for a new game, {kind: "undo"} for an undo. Returns an unsubscribe function.
     */
    onInput: inputs.add,
    /** Listen to every state the server confirms; returns an unsubscribe function. */
    onStateChange: states.add,
    /** A direction the player gave by key or swipe: tell the listeners, then play it. */
    userInput(direction, source) {
      inputs.notify({ kind: 'move', direction, source });
      return play(parts, direction);
    },
    /** A move that is not the player's own (auto-play). */
    play: (direction) => play(parts, direction),
    /**
     * Start a new game of `size` rows (the classic when undefined); moves still waiting to be sent
     * belong to the old game and are dropped.
     */
    newGame(size) {
      inputs.notify({ kind: 'new' });
      return server.newGame(size);
    },
    /**
     * Take the last move back, once the moves on their way are answered; resolves to "undone",
     * "refused" (nothing to take back), "resync" or "held" (the server cannot be reached).
     */
    async undo() {
      if (!server.accepting()) return 'held';
      inputs.notify({ kind: 'undo' });
      await idle.whenIdle();
      return server.undo();
    },
    /** After a win: continue the same game. */
    keepPlaying: () => server.keepPlaying(),
    /** Check the server's copy (another window played, or this one was away). */
    refresh: () => server.refresh(),
    hint: () => server.hint(),
    /** Load the game: the one saved in this browser at once, then the server's (or ours put back). */
    start() {
      const saved = storage.loadGame();
      return server.start(saved, storage.loadPending(saved));
    },
  };
}
