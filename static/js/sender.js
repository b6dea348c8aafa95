// What goes to the server when: the keys pressed, one batch of them at a time (at most `maxBatch`,
// sent the moment the last is answered, so a burst costs a round trip per batch, not per key), and
// the control steps (new game, restore...), which run one at a time with nothing on its way.

import { predictMove } from './slide.js';
import { isFinished, isGameState } from './storage.js';

/** The keys on their way: pressed and waiting, and the batch out. */
export function createQueue(maxBatch) {
  let waiting = []; // pressed and not yet sent, in order
  let batch = null; // on their way

  return {
    push(direction) {
      waiting.push(direction);
    },
    /** Drop the keys not yet sent: they were pressed on a board the server does not have. */
    clear() {
      waiting = [];
    },
    hasWaiting: () => waiting.length > 0,
    /** The keys pressed and not yet confirmed, oldest first. */
    pending: () => [...(batch || []), ...waiting],

    /**
     * The next batch to send from `state`, or null when none: keys that move nothing on its board
     * go, and all of them if it is finished (the overlay is up).
     */
    take(state) {
      if (isFinished(state)) waiting = [];
      while (waiting.length && !predictMove(state.board, waiting[0]).moved) waiting.shift();
      batch = waiting.length ? waiting.splice(0, maxBatch) : null;
      return batch;
    },
    /** The batch out was answered. */
    done() {
      batch = null;
    },
  };
}

/**
 * Send `directions`, played from the confirmed game, until the server has them or refuses them; a
 * game the server forgot is put back first (once). Returns the kind of change to tell.
 */
async function sendBatch({ talk, game, queue }, directions) {
  const send = talk.batch(directions, game.state().moves);
  for (let restored = false; ; restored = true) {
    try {
      game.confirm(await send());
      return 'moved';
    } catch (err) {
      const { error, state } = err.data || {};
      if (err.status === 404 && !restored && game.state().moves > 0) {
        await talk.putBack(game.state()); // forgotten: ours back, send again
        continue;
      }
      queue.clear(); // not played: the keys after it were pressed on a board that will not be
      if (err.status === 409 && isGameState(state)) {
        game.confirm(state);
        return error.code === 'game_finished' ? 'finished' : 'reset';
      }
      console.warn('2048: moves refused', err);
      return game.take(await talk.serverGame(game.state));
    }
  }
}

/** `talk`, `game`: server.js's conversation and confirmed game, `queue` (createQueue); `onChange` as server.js's. */
export function createSender({ talk, game, queue, onChange }) {
  let flight = null; // settles once the batch out is answered and its answer taken
  let paused = false; // a control step runs: nothing is sent
  let chain = Promise.resolve();

  /** Send the next batch, if nothing is out and there is one; else tell that busy-ness may have changed. */
  function pump() {
    if (paused || flight || !game.verified()) return;
    const directions = queue.take(game.state());
    if (!directions) {
      onChange({ kind: 'busy' });
      return;
    }
    flight = sendBatch({ talk, game, queue }, directions)
      .catch((err) => {
        console.warn('2048: moves lost', err);
        queue.clear();
        return 'resync';
      })
      .then((kind) => {
        queue.done();
        flight = null;
        onChange({ kind, directions });
        pump();
      });
  }

  /** Run `step` with nothing on its way and nothing sent meanwhile; steps run one at a time. */
  function control(step) {
    const run = chain.then(async () => {
      paused = true;
      onChange({ kind: 'busy' });
      try {
        await flight;
        return await step();
      } finally {
        paused = false;
        pump();
      }
    });
    chain = run.catch((err) => console.warn('2048: request refused', err));
    return run;
  }

  return { pump, control, busy: () => paused || !!flight };
}
