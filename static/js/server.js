// The conversation with the server: the game as the server last confirmed it, and the moves on
// their way to it.
//
// A key is sent the moment it is pressed when nothing else is on its way; keys pressed while a
// request is out go together in the next one, so a burst costs a round trip per batch, not per
// key. Every request names the valid-move count it was played from ("moves"): the server applies
// it only there, so a retry never applies a move twice and a change made elsewhere (another
// window, a restore) is refused rather than played over.

import { isRetryable, withRetry } from './api.js';
import { predictMove } from './slide.js';
import { isGameState, pickState } from './storage.js';

const MAX_BATCH = 64; // as the server's

const sameState = (a, b) => !!a && !!b && a.score === b.score && a.moves === b.moves
  && a.won === b.won && a.keep_playing === b.keep_playing
  && a.board.every((row, r) => row.every((v, c) => v === b.board[r][c]));

/** `api` whose every answer (success or a refusal) hides the connection notice. */
function noticing(api, notice) {
  const wrap = (call) => async (...args) => {
    try {
      const value = await call(...args);
      notice.hide();
      return value;
    } catch (err) {
      if (!isRetryable(err)) notice.hide();
      throw err;
    }
  };
  return Object.fromEntries(Object.entries(api).map(([name, call]) => [name, wrap(call)]));
}

/**
 * onChange(event) runs whenever the confirmed game, the pending moves or busy-ness change. Its
 * kind: "moved" (a batch was confirmed), "finished" (refused: the game is finished; pending moves
 * dropped), "new", "kept", "loaded" (a saved game shown before the server answered), "restored"
 * (the server had forgotten the game and has ours back), "resync" (the server has our game),
 * "reset" (it has another: pending moves dropped) or "busy".
 */
export function connect({ api: plainApi, notice, onChange }) {
  const api = noticing(plainApi, notice);
  let confirmed = null; // the server's game as last heard, or the saved one until it answers
  let verified = false; // whether `confirmed` came from the server
  let starting = false; // a new game is on its way: there is no board to play on
  let queued = []; // directions pressed and not yet sent, in order
  let batch = null; // directions on their way
  let flight = null; // settles once the batch is answered and its answer taken
  let paused = false; // a control step runs (new game, refresh...): nothing is sent
  let chain = Promise.resolve();
  const hooks = { onRetry: () => notice.show() };

  function confirm(state, kind) {
    confirmed = pickState(state);
    verified = true;
    onChange({ kind });
  }

  function pump() {
    if (paused || flight || !verified) return;
    while (queued.length && !predictMove(confirmed.board, queued[0]).moved) queued.shift(); // no-ops
    if (!queued.length) {
      onChange({ kind: 'busy' });
      return;
    }
    batch = queued.splice(0, MAX_BATCH);
    flight = sendBatch(batch, confirmed.moves).then((kind) => {
      batch = null;
      flight = null;
      onChange({ kind });
      pump();
    });
  }

  /** Send until the server has the batch (or refuses it); returns the event to tell. */
  async function sendBatch(directions, from) {
    let retried = false;
    const onRetry = () => {
      retried = true;
      notice.show();
    };
    for (let restored = false; ; restored = true) {
      try {
        confirmed = pickState(await withRetry(() => api.move(directions, from), { onRetry }));
        return 'moved';
      } catch (err) {
        const { error, state } = err.data || {};
        if (err.status === 409 && isGameState(state)) {
          // A retry that finds the game ahead by no more than the batch: the first try landed.
          const ahead = state.moves - from;
          const landed = error.code === 'out_of_sync' && retried && ahead > 0 && ahead <= directions.length;
          const finished = error.code === 'game_finished';
          if (!landed) queued = []; // the game is finished, or another board than the one pressed on
          confirmed = pickState(state);
          return landed ? 'moved' : finished ? 'finished' : 'reset';
        }
        if (err.status !== 404 || restored) {
          console.warn('2048: moves refused', err); // eslint-disable-line no-console
          return reconcile(await serverGame());
        }
        await withRetry(() => api.putGame(confirmed), hooks); // forgotten: put ours back, send again
      }
    }
  }

  /** Run `step` with nothing on its way and nothing sent meanwhile; steps run one at a time. */
  function control(step) {
    const run = chain.then(async () => {
      paused = true;
      onChange({ kind: 'busy' });
      try {
        await flight;
        await step();
      } finally {
        paused = false;
        pump();
      }
    });
    chain = run.catch(() => {});
    return run;
  }

  /** The server's game; if it has forgotten it, ours put back. */
  async function serverGame() {
    const server = await withRetry(() => api.getGame(), hooks);
    if (!server.created || !confirmed) return { state: server, restored: false };
    try {
      return { state: await withRetry(() => api.putGame(confirmed), hooks), restored: true };
    } catch (err) {
      console.warn('2048: could not restore the saved game', err); // eslint-disable-line no-console
      return { state: server, restored: false };
    }
  }

  /** Take the server's game; keys pressed for another board than it are dropped. Returns the kind. */
  function reconcile({ state, restored }) {
    const same = sameState(state, confirmed);
    if (!same) queued = [];
    confirmed = pickState(state);
    verified = true;
    return restored ? 'restored' : same ? 'resync' : 'reset';
  }

  return {
    /** The confirmed game (null before there is one). */
    state: () => confirmed,
    /** The directions pressed and not yet confirmed, oldest first. */
    directions: () => [...(batch || []), ...queued],
    /** Whether moves can be pressed: there is a board to predict on. */
    accepting: () => !!confirmed && !starting,
    busy: () => !verified || starting || paused || !!flight || queued.length > 0,

    /** Load: show the saved game at once (if any), then the server's, or ours put back on it. */
    start(saved) {
      if (saved) {
        confirmed = pickState(saved);
        onChange({ kind: 'loaded' });
      }
      return control(async () => onChange({ kind: reconcile(await serverGame()) }));
    },

    move(direction) {
      queued.push(direction);
      pump();
    },

    newGame() {
      starting = true;
      return control(async () => {
        queued = [];
        try {
          confirm(await withRetry(() => api.newGame(), hooks), 'new');
        } finally {
          starting = false;
        }
      });
    },

    keepPlaying() {
      return control(async () => {
        if (!confirmed || !confirmed.won || confirmed.keep_playing) return;
        try {
          confirm(await withRetry(() => api.keepPlaying(), hooks), 'kept');
        } catch (err) {
          console.warn('2048: keep playing refused', err); // eslint-disable-line no-console
          onChange({ kind: reconcile(await serverGame()) });
        }
      });
    },

    /** Ask the server (the window came back into view: another window may have played). */
    refresh() {
      if (!verified || paused || flight || queued.length) return Promise.resolve();
      return control(async () => onChange({ kind: reconcile(await serverGame()) }));
    },

    /** Another window of this session confirmed `state`: show it here too, if nothing is on its way. */
    adopt(state) {
      if (!verified || paused || flight || queued.length || sameState(state, confirmed)) return;
      confirm(state, 'reset');
    },

    /** The solver's move for the confirmed game; a forgotten game is put back first. */
    async hint() {
      for (let restored = false; ; restored = true) {
        try {
          return await withRetry(() => api.hint(), hooks);
        } catch (err) {
          if (err.status !== 404 || restored || !confirmed) throw err;
          await withRetry(() => api.putGame(confirmed), hooks);
        }
      }
    },
  };
}
