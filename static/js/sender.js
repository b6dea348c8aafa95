// What goes to the server when: the keys pressed, in batches of at most `maxBatch`, and the control
// steps (new game, restore...), which run one at a time with nothing on its way.
//
// A key is sent the moment it is pressed when nothing is on its way. Keys pressed while a batch is
// out go as the next batch without waiting for its answer, "after" it (ahead.js, loaded with the
// first batch): so a burst costs about a round trip and not one per batch, and every key is still
// played once, in order. Two batches are out at most; answers are taken in the order the batches
// went. A batch the server did not play goes again, from the game the server confirmed, ahead of
// the keys still waiting; while the server cannot be reached, one batch goes at a time.

import { predictMove } from './slide.js';
import { loadOnce } from './page.js';
import { isFinished } from './state.js';

/** The keys on their way: pressed and waiting, and the batches out, oldest first. */
export function createQueue(maxBatch) {
  let kept = []; // pressed before a reload on the saved game, never confirmed: sent first, once the server has that game
  let waiting = []; // pressed and not yet sent, in order
  const out = []; // the batches on their way
  let returned = 0; // keys of batches sent again, at the head of `waiting`, since the last batch was taken

  return {
    push(direction) {
      waiting.push(direction);
    },
    /** The keys kept from before a reload (storage.js's loadPending): as sure to be sent as a batch out. */
    keep(directions) {
      kept = directions.slice();
    },
    /** Drop the keys not yet sent: they were pressed on a board the server does not have. */
    clear() {
      waiting = [];
      returned = 0;
    },
    /** Drop the kept keys too: the server's game is not the one they were pressed on. */
    reset() {
      kept = [];
      this.clear();
    },
    hasWaiting: () => kept.length + waiting.length > 0,
    /** The keys pressed and not yet confirmed, oldest first. */
    pending: () => [...kept, ...out.flat(), ...waiting],

    /**
     * The next batch to send from `state`, or null when none: keys that move nothing on its board
     * go, and all of them if it is finished (the overlay is up). Without `state` (a batch sent
     * after one still out), the server's board decides which keys move.
     */
    take(state) {
      waiting = [...kept, ...waiting];
      kept = [];
      if (state && isFinished(state)) waiting = [];
      while (state && waiting.length && !predictMove(state.board, waiting[0]).moved) waiting.shift();
      returned = 0;
      if (!waiting.length) return null;
      const batch = waiting.splice(0, maxBatch);
      out.push(batch);
      return batch;
    },
    /** The oldest batch out was answered; with `again`, its keys go again, ahead of the waiting ones, in order. */
    done(again = false) {
      const batch = out.shift();
      if (again) {
        waiting.splice(returned, 0, ...batch);
        returned += batch.length;
      }
    },
  };
}

/**
 * Send the first batch out (`send`: talk.batch's, played from the confirmed game) until the server
 * has it or refuses it (steps.js takes a refusal). Returns the kind of change.
 */
async function sendFirst(parts, send) {
  try {
    parts.game.confirm(await send());
    return 'moved';
  } catch (err) {
    return (await import('./steps.js')).movesRefused(parts, send, err);
  }
}

/** `talk`, `game`: server.js's conversation and confirmed game, `queue` (createQueue); `onChange` as server.js's. */
export function createSender({ talk, game, queue, onChange }) {
  let flights = []; // the batches out, oldest first: {id, sent, done (resolves to the kind of change)}
  let paused = false; // a control step runs: nothing is sent
  let settling = false; // a batch went unplayed: none goes ahead until every one out is answered
  let ahead = null; // ahead.js's sender of batches ahead, once loaded
  let chain = Promise.resolve();
  const loadAhead = loadOnce(() => import('./ahead.js').then((m) => {
    ahead = m.createAhead({ talk, game, queue, pump: () => pump() });
  }));

  /** A batch's answer taken: its change told, the next batch sent if there is one. */
  function land(flight, directions, kind) {
    queue.done(kind === 'again');
    flights = flights.filter((f) => f !== flight);
    settling = flights.length > 0 && (settling || kind === 'again');
    if (kind !== 'again' && kind !== 'dropped') onChange({ kind, directions });
    pump();
  }

  /** A batch on its way (`taken`: its kind of change, once its answer is taken). */
  function launch(directions, id, taken) {
    const flight = { id, sent: performance.now() };
    flight.done = taken
      .catch((err) => {
        console.warn('2048: moves lost', err);
        queue.clear();
        return 'resync';
      })
      .then((kind) => {
        land(flight, directions, kind);
        return kind;
      });
    flights.push(flight);
  }

  /**
   * Send the next batch, if there is one: the first when nothing is out, the next after the last
   * one out while the server answers; else tell that busy-ness may have changed.
   */
  function pump() {
    if (paused || !game.confirmed()) return;
    const last = flights[flights.length - 1];
    if (last) {
      if (ahead && flights.length < 2 && !settling && talk.reachable()) ahead.send(last, launch); // two out at most
      return;
    }
    const directions = queue.take(game.state());
    if (!directions) {
      onChange({ kind: 'busy' });
      return;
    }
    const batch = talk.batch(directions, { moves: game.state().moves });
    launch(directions, batch.id, sendFirst({ talk, game, queue }, batch));
    loadAhead().catch(() => {}); // one batch at a time until it loads (tried again with the next)
  }

  /** Run `step` with nothing on its way and nothing sent meanwhile; steps run one at a time. */
  function control(step) {
    const run = chain.then(async () => {
      paused = true;
      onChange({ kind: 'busy' });
      try {
        await Promise.all(flights.map((flight) => flight.done));
        return await step();
      } finally {
        paused = false;
        pump();
      }
    });
    chain = run.catch((err) => console.warn('2048: request refused', err));
    return run;
  }

  return { pump, control, busy: () => paused || flights.length > 0 };
}
