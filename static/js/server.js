// The conversation with the server: the game as the server last confirmed it, and the moves on
// their way to it.
//
// A key is sent the moment it is pressed when nothing else is on its way; keys pressed while a
// batch is out go together in the next one, sent after it without waiting for its answer
// (sender.js). Every request carries an id and names where it is played from: the valid-move
// count ("moves"), or the id of the batch sent just before ("after"). The server plays it only
// from there, and answers a repeat of it (a retry whose first try landed) without playing it
// again, so a move is never played twice, and a change made elsewhere (another window, a restore)
// is refused rather than played over.

import { isRetryable, withRetry } from './api.js';
import { createQueue, createSender } from './sender.js';
import { pickState, sameState } from './state.js';

function requestId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12)); // randomUUID needs a secure context
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The requests, each retried by api.js's policy, with the connection notice shown while the server
 * cannot be reached (network errors, 5xx; not a rate limit, which is a wait) and hidden by any
 * answer. `onDown()` runs when the server stops answering: from then until it answers, the page
 * shows nothing it has not confirmed (reachable() is false). `sealedCopy(state)` resolves to the server's
 * sealed copy of that state, if the page kept one: sent with a restore, it gives the game back as
 * the server had it.
 */
function createConversation({ api, notice, sealedCopy, onDown }) {
  let down = false;
  /** One try of `call`: an answer hides the notice, and so does a failure that is no connection problem. */
  async function noticed(call) {
    try {
      const value = await call();
      down = false;
      notice.hide();
      return value;
    } catch (err) {
      if (!isRetryable(err) || err.status === 429) notice.hide();
      throw err;
    }
  }
  const hooks = {
    onRetry(err) {
      if (err.status === 429) return;
      notice.show();
      if ((err.network || err.status >= 500) && !down) {
        down = true;
        onDown();
      }
    },
  };
  const ask = (call) => withRetry(() => noticed(call), hooks);
  const putBack = async (state) => {
    const token = await sealedCopy(state);
    return ask(() => api.putGame(state, token));
  };

  return {
    reachable: () => !down,
    getGame: () => ask(api.getGame),
    newGame: (size) => ask(() => api.newGame({ size })),
    keepPlaying: () => ask(api.keepPlaying),
    undo: (moves) => ask(() => api.undo(moves)),
    hint: () => ask(api.hint),
    /** The server's sealed copy of its game, {token, moves}: asked once, again after the next change. */
    sealedCopy: () => noticed(api.sealedCopy),
    /** Put `state` back on a server that forgot it: the server's game then. */
    putBack,
    /**
     * A sender of one batch, played `from` ({moves}: the count it was played from, or {after}: the
     * id of the batch sent just before); every try carries its `id`, so the server plays it once at
     * most. `failed(err)` hears each try that fails.
     */
    batch(directions, from, failed = () => {}) {
      const id = requestId();
      const send = () => ask(() => api.move(directions, from, id).catch((err) => {
        failed(err);
        throw err;
      }));
      return Object.assign(send, { id });
    },

    /**
     * The server's game (its `answer`, if already asked) as {state, restored}: if it has forgotten
     * our game (`ours()`) and ours has moves, ours put back. A forgotten game with no move is not
     * put back: the server's new game is as good.
     */
    async serverGame(ours, answer) {
      const server = answer || (await ask(api.getGame));
      if (!server.created || !ours() || ours().moves === 0) return { state: server, restored: false };
      try {
        return { state: await putBack(ours()), restored: true };
      } catch (err) {
        console.warn('2048: could not restore the saved game', err);
        return { state: server, restored: false };
      }
    },
  };
}

/**
 * The game as the server last confirmed it, or the saved one shown until the server answers.
 * `queue`: the keys on their way, dropped when the server's game is another.
 */
function createConfirmed(queue) {
  let state = null; // null before there is one
  let confirmed = false; // whether `state` is the server's (an answer), not the browser's saved game

  function confirm(theirs) {
    state = pickState(theirs);
    confirmed = true;
  }

  return {
    state: () => state,
    confirmed: () => confirmed,
    /** A saved game, shown until the server answers. */
    load(saved) {
      state = pickState(saved);
    },
    confirm,
    /** Take the server's game ({state, restored}); keys pressed on another board are dropped. Returns the kind. */
    take({ state: theirs, restored }) {
      const same = sameState(theirs, state);
      if (!same) queue.reset();
      confirm(theirs);
      return restored ? 'restored' : same ? 'resync' : 'reset';
    },
  };
}

/**
 * onChange(event) runs whenever the confirmed game, the pending moves or busy-ness change. Its
 * kind: "moved" (a batch was confirmed; event.directions are its keys), "finished" (refused: the
 * game is finished), "new", "kept", "loaded" (a saved game shown before the server answered),
 * "restored" (the server had forgotten the game and has ours back), "resync" (the server has our
 * game), "reset" (it has another), "undone" (the last move was taken back), "held" (the server stopped answering: the keys not sent are
 * dropped) or "busy". Whenever the server's game is not the one the keys
 * were pressed on, the keys not yet played are dropped. `sealedCopy(state)`: see createConversation.
 */
export function connect({ api, notice, onChange, maxBatch, sealedCopy }) {
  const queue = createQueue(maxBatch);
  // Keys pressed after the batch the server did not answer are dropped: no board is shown that
  // the game may never have. Only the batch out stays, sent again until it is answered.
  const onDown = () => {
    queue.clear();
    onChange({ kind: 'held' });
  };
  const talk = createConversation({ api, notice, sealedCopy, onDown });
  const game = createConfirmed(queue);
  const sender = createSender({ talk, game, queue, onChange });
  const { control } = sender;
  let replacing = false; // a new game or an undo is on its way: there is no board to play on

  const busy = () => !game.confirmed() || replacing || sender.busy() || queue.hasWaiting();
  /** Take the server's game (its `answer`, if already asked), or ours put back on it, and tell. */
  const resync = async (answer) => onChange({ kind: game.take(await talk.serverGame(game.state, answer)) });
  const parts = { game, talk, control, onChange, busy, resync, queue };
  /** Run `step` as a control step while keys are refused: the board they would slide is being replaced. */
  const replace = (step) => {
    replacing = true;
    return control(async () => {
      try {
        return await step();
      } finally {
        replacing = false;
      }
    });
  };

  return {
    isBusy: busy,
    /** The confirmed game (null before there is one). */
    state: game.state,
    /** The directions pressed and not yet confirmed, oldest first. */
    directions: queue.pending,
    /** Whether moves can be pressed: there is a board to predict on, and the server answers. */
    accepting: () => !!game.state() && !replacing && talk.reachable(),

    /**
     * Load: show the saved game at once (if any) with the moves `kept` on it, then the server's, or
     * ours put back on it; the kept moves are sent if the server's game is the saved one.
     */
    start(saved, kept = []) {
      if (saved) {
        game.load(saved);
        queue.keep(kept);
        onChange({ kind: 'loaded' });
      }
      return control(() => resync());
    },

    move(direction) {
      queue.push(direction);
      sender.pump();
    },

    /** A new game of `size` rows (the server's classic when undefined). */
    newGame: (size) => replace(async () => {
      queue.clear();
      game.confirm(await talk.newGame(size));
      onChange({ kind: 'new' });
    }),

    /** Take the last confirmed move back; resolves to "undone", "refused" (nothing to take back) or "resync". */
    undo: () => replace(async () => (await import('./undo.js')).undoLastMove(parts)),

    keepPlaying: () => control(async () => (await import('./steps.js')).keepPlaying(parts)),
    refresh: async () => (await import('./steps.js')).refresh(parts),
    sealedCopy: talk.sealedCopy,
    hint: async () => (await import('./steps.js')).hint(parts),
  };
}
