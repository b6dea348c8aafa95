// The conversation with the server: the game as the server last confirmed it, and the moves on
// their way to it.
//
// A key is sent the moment it is pressed when nothing else is on its way; keys pressed while a
// request is out go together in the next one, so a burst costs a round trip per batch, not per
// key. Every request names the valid-move count it was played from ("moves") and carries an id:
// the server plays it only from that count, and answers a repeat of it (a retry whose first try
// landed) without playing it again, so a move is never played twice, and a change made elsewhere
// (another window, a restore) is refused rather than played over.

import { isRetryable, withRetry } from './api.js';
import { predictMove } from './slide.js';
import { isGameState, pickState } from './storage.js';

/** True when the server refuses moves: game over, or won and the player has not chosen to keep playing. */
export const isFinished = (s) => !!s && (s.over || (s.won && !s.keep_playing));

const sameState = (a, b) => !!a && !!b && a.score === b.score && a.moves === b.moves
  && a.won === b.won && a.keep_playing === b.keep_playing
  && a.board.every((row, r) => row.every((v, c) => v === b.board[r][c]));

function requestId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12)); // randomUUID needs a secure context
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * `api`, with the connection notice shown while the server cannot be reached (network errors,
 * 5xx; not a rate limit) and hidden by any answer.
 */
function noticing(api, notice) {
  const wrap = (call) => async (...args) => {
    try {
      const value = await call(...args);
      notice.hide();
      return value;
    } catch (err) {
      if (!isRetryable(err) || err.status === 429) notice.hide();
      throw err;
    }
  };
  return Object.fromEntries(Object.entries(api).map(([name, call]) => [name, wrap(call)]));
}

/**
 * onChange(event) runs whenever the confirmed game, the pending moves or busy-ness change. Its
 * kind: "moved" (a batch was confirmed; event.directions are its keys), "finished" (refused: the game is finished), "new",
 * "kept", "loaded" (a saved game shown before the server answered), "restored" (the server had
 * forgotten the game and has ours back), "resync" (the server has our game), "reset" (it has
 * another) or "busy". Whenever the server's game is not the one the keys were pressed on, the
 * keys not yet played are dropped. `sealedCopy(state)` gives the server's sealed copy of that state,
 * if the page kept one: sent with a restore, it gives the game back as the server had it.
 *
 * A forgotten game with no move is not put back: the server's new game is as good.
 */
export function connect({ api: plainApi, notice, onChange, maxBatch, sealedCopy }) {
  const api = noticing(plainApi, notice);
  let confirmed = null; // the server's game as last heard, or the saved one until it answers
  let verified = false; // whether `confirmed` came from the server
  let starting = false; // a new game is on its way: there is no board to play on
  let queued = []; // directions pressed and not yet sent, in order
  let batch = null; // directions on their way
  let flight = null; // settles once the batch is answered and its answer taken
  let paused = false; // a control step runs (new game, restore...): nothing is sent
  let chain = Promise.resolve();
  const hooks = {
    onRetry(err) {
      if (err.status !== 429) notice.show(); // a rate limit is a wait, not a connection problem
    },
  };

  const busy = () => !verified || starting || paused || !!flight || queued.length > 0;

  function confirm(state, kind) {
    confirmed = pickState(state);
    verified = true;
    onChange({ kind });
  }

  function pump() {
    if (paused || flight || !verified) return;
    if (isFinished(confirmed)) queued = []; // the overlay is up: these are not sent
    while (queued.length && !predictMove(confirmed.board, queued[0]).moved) queued.shift(); // no-ops
    if (!queued.length) {
      onChange({ kind: 'busy' });
      return;
    }
    const directions = queued.splice(0, maxBatch);
    batch = directions;
    flight = sendBatch(directions, confirmed.moves)
      .catch((err) => {
        console.warn('2048: moves lost', err);
        queued = [];
        return 'resync';
      })
      .then((kind) => {
        batch = null;
        flight = null;
        onChange({ kind, directions });
        pump();
      });
  }

  /** Send until the server has the batch or refuses it; returns the kind of event to tell. */
  async function sendBatch(directions, from) {
    const id = requestId();
    for (let restored = false; ; restored = true) {
      try {
        confirmed = pickState(await withRetry(() => api.move(directions, from, id), hooks));
        return 'moved';
      } catch (err) {
        const { error, state } = err.data || {};
        if (err.status === 404 && !restored && confirmed.moves > 0) {
          await withRetry(() => api.putGame(confirmed, sealedCopy(confirmed)), hooks); // forgotten: ours back, send again
          continue;
        }
        queued = []; // not played: the keys after it were pressed on a board that will not be
        if (err.status === 409 && isGameState(state)) {
          confirmed = pickState(state);
          return error.code === 'game_finished' ? 'finished' : 'reset';
        }
        console.warn('2048: moves refused', err);
        return take(await serverGame());
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
    chain = run.catch((err) => console.warn('2048: request refused', err));
    return run;
  }

  /** The server's game (its `answer`, if already asked); if it has forgotten one with moves, ours put back. */
  async function serverGame(answer) {
    const server = answer || (await withRetry(() => api.getGame(), hooks));
    if (!server.created || !confirmed || confirmed.moves === 0) return { state: server, restored: false };
    return restore(server);
  }

  async function restore(fallback) {
    try {
      return { state: await withRetry(() => api.putGame(confirmed, sealedCopy(confirmed)), hooks), restored: true };
    } catch (err) {
      console.warn('2048: could not restore the saved game', err);
      return { state: fallback, restored: false };
    }
  }

  /** Take the server's game; keys pressed on another board than it are dropped. Returns the kind. */
  function take({ state, restored }) {
    const same = sameState(state, confirmed);
    if (!same) queued = [];
    confirmed = pickState(state);
    verified = true;
    return restored ? 'restored' : same ? 'resync' : 'reset';
  }

  return {
    isBusy: busy,
    /** The confirmed game (null before there is one). */
    state: () => confirmed,
    /** The directions pressed and not yet confirmed, oldest first. */
    directions: () => [...(batch || []), ...queued],
    /** Whether moves can be pressed: there is a board to predict on. */
    accepting: () => !!confirmed && !starting,

    /** Load: show the saved game at once (if any), then the server's, or ours put back on it. */
    start(saved) {
      if (saved) {
        confirmed = pickState(saved);
        onChange({ kind: 'loaded' });
      }
      return control(async () => onChange({ kind: take(await serverGame()) }));
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
          console.warn('2048: keep playing refused', err);
          onChange({ kind: take(await serverGame()) });
        }
      });
    },

    /**
     * Ask the server whether its game is still ours (another window may have played, or the
     * window was away). Keys are not held up meanwhile: if one is pressed, its answer tells.
     */
    async refresh() {
      if (busy()) return;
      const before = confirmed;
      const server = await withRetry(() => api.getGame(), hooks);
      if (confirmed !== before || busy()) return;
      if (server.created) {
        await control(async () => onChange({ kind: take(await serverGame(server)) }));
      } else if (!sameState(server, confirmed)) {
        confirm(server, 'reset');
      }
    },

    /** The server's sealed copy of its game: {token, moves}. */
    sealedCopy: () => api.sealedCopy(),

    /** The solver's move for the confirmed game; a forgotten game is put back first. */
    async hint() {
      for (let restored = false; ; restored = true) {
        try {
          return await withRetry(() => api.hint(), hooks);
        } catch (err) {
          if (err.status !== 404 || restored || !confirmed) throw err;
          await control(async () => onChange({ kind: take(await serverGame()) }));
        }
      }
    },
  };
}
