// The game as the player sees it: the server's confirmed game with the moves on their way
// predicted on top of it, shown on the board, the scores and the overlay.
//
// A key press slides the tiles at once (static/js/slide.js predicts the slide); the new tile
// appears when the server's answer brings it, and the server's answer always wins. The
// conversation with the server lives in static/js/server.js.

import { predictMove } from './slide.js';
import { connect, isFinished } from './server.js';
import { directionName, fill } from './text.js';

const SEAL_AFTER_MS = 1000; // a pause in play this long asks for the game's sealed copy
const PLAYED_HERE = new Set(['moved', 'kept', 'restored']); // the changes this window made

function notify(listeners, value) {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch (err) {
      console.warn('2048: listener failed', err);
    }
  }
}

export function createGame({ api, view, storage, score, overlay, notice, announcer, messages, format, setBusy, maxBatch }) {
  const inputListeners = new Set();
  const stateListeners = new Set();
  const idleWaiters = [];
  let best = storage.loadBest();
  let shownFinished = null; // the finished state the overlay was last shown for

  const server = connect({ api, notice, onChange, maxBatch, sealedCopy });

  /** The token of the sealed copy kept for `state`, if the page has one. */
  function sealedCopy(state) {
    const kept = storage.loadSealedCopy();
    return kept && kept.moves === state.moves ? kept.token : undefined;
  }

  let sealTimer = 0;
  /**
   * Once play pauses, keep the server's sealed copy of the game: if the server forgets the session,
   * the restore that carries it keeps the game verified (app/seals.py).
   */
  function keepSealedCopy() {
    clearTimeout(sealTimer);
    sealTimer = setTimeout(async () => {
      const state = server.state();
      const kept = storage.loadSealedCopy();
      if (isBusy() || !state || state.moves === 0 || (kept && kept.moves === state.moves)) return;
      try {
        const sealed = await server.sealedCopy();
        if (sealed.token && sealed.moves === server.state().moves) storage.saveSealedCopy(sealed);
      } catch {
        // asked again after the next change
      }
    }, SEAL_AFTER_MS);
  }

  /** The confirmed game with every pending move's slide applied: what the board shows. */
  function projection() {
    let { board, score: points } = server.state();
    for (const direction of server.directions()) {
      const slid = predictMove(board, direction);
      board = slid.board;
      points += slid.gained;
    }
    return { board, score: points };
  }

  const isBusy = () => server.isBusy() || !view.idle;

  /** Called wherever busy-ness may change (and by the view when its animations end). */
  function updateBusy() {
    const busy = isBusy();
    setBusy(busy);
    if (!busy) for (const resolve of idleWaiters.splice(0)) resolve();
  }

  function showOverlay(state) {
    if (!isFinished(state)) {
      overlay.hide();
      shownFinished = null;
      return null;
    }
    const kind = state.over && (!state.won || state.keep_playing) ? 'over' : state.over ? 'won-over' : 'won';
    const text = kind === 'over' ? messages.over : messages.win;
    const isNew = !shownFinished || shownFinished.over !== state.over;
    overlay.show(kind, text);
    shownFinished = state;
    return isNew ? text : null;
  }

  const ANNOUNCEMENTS = { new: 'newGame', restored: 'restored', kept: 'keepPlaying' };

  /** What confirmed moves did, briefly: the keys, the merges, the new tile, the score. */
  function describeMoves(before, state, directions) {
    let { board } = before;
    const merged = [];
    for (const direction of directions) {
      const slid = predictMove(board, direction);
      board = slid.board;
      merged.push(...slid.tiles.filter((t) => t.from.length === 2).map((t) => format(t.value)));
    }
    const keys = directions.map((d) => directionName(messages, d)).join(', ');
    const parts = [`${keys.charAt(0).toUpperCase()}${keys.slice(1)}.`];
    if (merged.length) parts.push(fill(messages.merged, { tiles: merged.join(', ') }));
    state.board.forEach((row, r) => row.forEach((value, c) => {
      if (value && board[r][c] !== value) {
        parts.push(fill(messages.newTile, { value: format(value), row: r + 1, col: c + 1 }));
      }
    }));
    if (state.score !== before.score) parts.push(fill(messages.score, { score: format(state.score) }));
    return parts.join(' ');
  }

  let heard = null; // the confirmed state the last change was told from

  function onChange(event) {
    if (event.kind !== 'busy') {
      const state = server.state();
      const shown = projection();
      view.show(shown.board, { replace: event.kind === 'new' });
      storage.saveGame(state);
      if (event.kind === 'new') storage.saveSealedCopy(null);
      if (PLAYED_HERE.has(event.kind)) keepSealedCopy(); // another window's change: that window asks
      if (state.score > best) {
        best = state.score;
        storage.saveBest(best);
      }
      score.update(shown.score, Math.max(best, shown.score));
      if (event.kind === 'moved' && heard && state.moves !== heard.moves) {
        announcer.say(describeMoves(heard, state, event.directions));
      }
      const message = showOverlay(state) || messages[ANNOUNCEMENTS[event.kind]];
      if (message) announcer.say(message);
      heard = state;
      notify(stateListeners, getState());
    }
    updateBusy();
  }

  function getState() {
    const state = server.state();
    return state && { ...state, board: state.board.map((row) => row.slice()) };
  }

  /**
   * Play `direction`: its slide is shown now and the move sent. A key that changes nothing on a
   * board the server has confirmed costs nothing. Returns whether the move was taken.
   */
  function play(direction) {
    const state = server.state();
    if (!server.accepting() || isFinished(state)) return false;
    const from = projection();
    const slid = predictMove(from.board, direction);
    if (!slid.moved && server.directions().length === 0) {
      announcer.say(messages.noMove);
      return false;
    }
    if (slid.moved && !view.slide(slid.tiles)) view.show(slid.board);
    server.move(direction);
    if (slid.gained > 0) {
      const points = from.score + slid.gained;
      score.update(points, Math.max(best, points), slid.gained);
    }
    updateBusy();
    return true;
  }

  return {
    getState,
    isBusy,

    /** Whether starting over would throw a game away: it has moves, made or on their way. */
    inProgress() {
      const state = server.state();
      return !!state && !isFinished(state) && (state.moves > 0 || server.directions().length > 0);
    },
    updateBusy,

    /** Resolves as soon as the game is idle: at once if it is, else when updateBusy finds it so. */
    whenIdle() {
      return isBusy() ? new Promise((resolve) => idleWaiters.push(resolve)) : Promise.resolve();
    },

    /**
     * Listen to the player's input: {kind: "move", direction, source} for a key or swipe,
     * {kind: "new"} for a new game. Returns an unsubscribe function.
     */
    onInput(listener) {
      inputListeners.add(listener);
      return () => inputListeners.delete(listener);
    },

    /** Listen to every state the server confirms; returns an unsubscribe function. */
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },

    /** A direction the player gave by key or swipe: tell the listeners, then play it. */
    userInput(direction, source) {
      notify(inputListeners, { kind: 'move', direction, source });
      return play(direction);
    },

    /** A move that is not the player's own (auto-play). */
    play,

    /** Start a new game; moves still waiting to be sent belong to the old game and are dropped. */
    newGame() {
      notify(inputListeners, { kind: 'new' });
      return server.newGame();
    },

    /** After a win: continue the same game. */
    keepPlaying: () => server.keepPlaying(),

    /** Check the server's copy (another window played, or this one was away). */
    refresh: () => server.refresh(),

    hint: () => server.hint(),

    /** Load the game: the one saved in this browser at once, then the server's (or ours put back). */
    start: () => server.start(storage.loadGame()),
  };
}
