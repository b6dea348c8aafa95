// What goes to the server when: the keys pressed, in batches of at most `maxBatch`, and the control
// steps (new game, restore...), which run one at a time with nothing on its way.
//
// A key is sent the moment it is pressed when nothing is on its way. Keys pressed while one batch
// is out go as the next batch, sent "after" it (once it has been out AHEAD_AFTER_MS, unless its
// answer comes first): the server plays it only where that one left the game (app/games.py), so a
// burst costs about a round trip and not one per batch, and every key is still played once, in
// order. Keys pressed while two batches are out wait for the first answer. Answers are taken in
// the order the batches went. A batch the server did not play (the one before it was not played,
// or it reached the server first) goes again, from the game the server confirmed, ahead of the
// keys still waiting; while the server cannot be reached, one batch goes at a time.

import { predictMove } from './slide.js';
import { isFinished, isGameState } from './storage.js';

const DEPTH = 2; // batches on their way at once
// A batch goes after the one out once that one has been on its way this long: by then the server
// has it (on a quick network its answer comes first), so the next rarely reaches the server before it.
const AHEAD_AFTER_MS = 50;

/** The keys on their way: pressed and waiting, and the batches out, oldest first. */
export function createQueue(maxBatch) {
  let waiting = []; // pressed and not yet sent, in order
  const out = []; // the batches on their way
  let returned = 0; // keys of batches sent again, at the head of `waiting`, since the last batch was taken

  return {
    push(direction) {
      waiting.push(direction);
    },
    /** Drop the keys not yet sent: they were pressed on a board the server does not have. */
    clear() {
      waiting = [];
      returned = 0;
    },
    hasWaiting: () => waiting.length > 0,
    /** The keys pressed and not yet confirmed, oldest first. */
    pending: () => [...out.flat(), ...waiting],

    /**
     * The next batch to send from `state`, or null when none: keys that move nothing on its board
     * go, and all of them if it is finished (the overlay is up). Without `state` (a batch sent
     * after one still out), the server's board decides which keys move.
     */
    take(state) {
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

/** The change a refusal brings (`err`, the server's answer): its game shown, the keys not sent dropped. */
async function refused({ talk, game, queue }, err) {
  const { error, state } = err.data || {};
  queue.clear(); // not played: the keys after it were pressed on a board that will not be
  if (err.status === 409 && isGameState(state)) {
    game.confirm(state);
    return error.code === 'game_finished' ? 'finished' : 'reset';
  }
  console.warn('2048: moves refused', err);
  return game.take(await talk.serverGame(game.state));
}

/**
 * Send the first batch out (`send`: talk.batch's, played from the confirmed game) until the server
 * has it or refuses it; a game the server forgot is put back first (once). Returns the kind of change.
 */
async function sendFirst(parts, send) {
  const { talk, game } = parts;
  for (let restored = false; ; restored = true) {
    try {
      game.confirm(await send());
      return 'moved';
    } catch (err) {
      if (err.status === 404 && !restored && game.state().moves > 0) {
        await talk.putBack(game.state()); // forgotten: ours back, send again
        continue;
      }
      return refused(parts, err);
    }
  }
}

/**
 * Take the answer (`reply`) of a `batch` sent after another, once that one's is taken (its kind,
 * `before`). Played, it is confirmed. Refused at its only try (the one before was not played, or
 * the server had it first), or its session forgotten, nothing of it was played: it goes "again"
 * if the keys before it still stand. Else (a try of it may have landed) the server's game is asked.
 */
async function takeAfter(parts, batch, reply, before) {
  const { talk, game, queue } = parts;
  const { state, err } = await reply;
  if (state) {
    game.confirm(state);
    return 'moved';
  }
  const code = err.data && err.data.error && err.data.error.code;
  if (err.status === 404 || (err.status === 409 && code === 'out_of_sync' && !batch.uncertain)) {
    return before === 'moved' || before === 'again' ? 'again' : 'dropped';
  }
  if (err.status !== 409) console.warn('2048: moves sent ahead refused', err);
  queue.clear();
  return game.take(await talk.serverGame(game.state));
}

/** A function that runs `run` `ms` from now, once however often it is called meanwhile. */
function once(run) {
  let timer = 0;
  return (ms) => {
    timer ||= setTimeout(() => {
      timer = 0;
      run();
    }, ms);
  };
}

/** `talk`, `game`: server.js's conversation and confirmed game, `queue` (createQueue); `onChange` as server.js's. */
export function createSender({ talk, game, queue, onChange }) {
  let flights = []; // the batches out, oldest first: {id, done, doomed}
  let paused = false; // a control step runs: nothing is sent
  let chain = Promise.resolve();
  const parts = { talk, game, queue };
  const pumpLater = once(() => pump()); // the next batch, once the one out has been out AHEAD_AFTER_MS

  /** A batch's answer taken: its change told, the batches after one not played doomed, the next sent. */
  function land(flight, directions, kind) {
    queue.done(kind === 'again');
    flights = flights.filter((f) => f !== flight);
    if (kind === 'again') for (const later of flights) later.doomed = true;
    if (kind !== 'again' && kind !== 'dropped') onChange({ kind, directions });
    pump();
  }

  function send(directions) {
    const before = flights[flights.length - 1];
    const batch = talk.batch(directions, before ? { after: before.id } : { moves: game.state().moves });
    const flight = { id: batch.id, doomed: false, sent: performance.now() };
    let taken;
    if (before) {
      const reply = batch().then((state) => ({ state }), (err) => ({ err })); // on its way now
      taken = before.done.then((kind) => takeAfter(parts, batch, reply, kind));
    } else {
      taken = sendFirst(parts, batch);
    }
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
   * one out while the server answers and that one may still be played; else tell that busy-ness
   * may have changed.
   */
  function pump() {
    if (paused || !game.verified()) return;
    const last = flights[flights.length - 1];
    if (flights.length >= DEPTH || (last && (last.doomed || !talk.reachable()))) return;
    const early = last ? last.sent + AHEAD_AFTER_MS - performance.now() : 0;
    if (early > 0) {
      if (queue.hasWaiting()) pumpLater(early);
      return;
    }
    const directions = queue.take(last ? null : game.state());
    if (directions) send(directions);
    else if (!last) onChange({ kind: 'busy' });
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
