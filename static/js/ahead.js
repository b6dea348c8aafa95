// Sending a batch of keys before the last one's answer (sender.js loads this module with the first
// batch): the keys pressed while a batch is out go "after" it, once it has been out AHEAD_AFTER_MS
// (by then the server has it, so the next rarely reaches the server first; on a quick network its
// answer comes sooner), and the server plays them only where that batch left the game
// (app/games.py). Their answer is taken once the batch before's is.

const AHEAD_AFTER_MS = 50;

/**
 * Take the answer (`reply`) of a batch sent after another, once that one's is taken (its kind,
 * `before`). Played, it is confirmed. Refused with no try that may have landed (`uncertain()`
 * says) because the one before was not played, or the server had it first, or its session was
 * forgotten: nothing of it was played, and it goes "again" if the keys before it still stand.
 * Else the server's game is asked.
 */
async function takeAfter({ talk, game, queue }, uncertain, reply, before) {
  const { state, err } = await reply;
  if (state) {
    game.confirm(state);
    return 'moved';
  }
  const code = err.data && err.data.error && err.data.error.code;
  if (err.status === 404 || (err.status === 409 && code === 'out_of_sync' && !uncertain())) {
    return before === 'moved' || before === 'again' ? 'again' : 'dropped';
  }
  if (err.status !== 409) console.warn('2048: moves sent ahead refused', err);
  queue.clear();
  return game.take(await talk.serverGame(game.state));
}

/** sender.js's parts (`pump()`: send what is due); `send(before, launch)` sends the keys waiting after `before`. */
export function createAhead({ talk, game, queue, pump }) {
  let timer = 0;
  return {
    /** Send the keys waiting after `before` (the batch out) when it has been out long enough; `launch` (sender.js's) tracks it. */
    send(before, launch) {
      const early = before.sent + AHEAD_AFTER_MS - performance.now();
      if (early > 0) {
        if (queue.hasWaiting() && !timer) {
          timer = setTimeout(() => {
            timer = 0;
            pump();
          }, early);
        }
        return;
      }
      const directions = queue.take(null);
      if (!directions) return;
      let landed = false; // whether a try failed that the server may have played (no answer, a 5xx)
      const batch = talk.batch(directions, { after: before.id }, (err) => {
        landed ||= err.network || err.status >= 500;
      });
      const reply = batch().then((state) => ({ state }), (err) => ({ err })); // on its way now
      const taken = before.done.then((kind) => takeAfter({ talk, game, queue }, () => landed, reply, kind));
      launch(directions, batch.id, taken);
    },
  };
}
