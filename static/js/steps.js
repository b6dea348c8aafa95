// The rarer steps of the conversation with the server (server.js's parts): going on after a win,
// checking the game when the window comes back, a hint, a batch of moves refused; loaded on first use.

import { isGameState, sameState } from './state.js';

/** After a win: continue the same game (a control step). */
export async function keepPlaying({ game, talk, onChange, resync }) {
  const state = game.state();
  if (!state || !state.won || state.keep_playing) return;
  try {
    game.confirm(await talk.keepPlaying());
    onChange({ kind: 'kept' });
  } catch (err) {
    console.warn('2048: keep playing refused', err);
    await resync();
  }
}

/**
 * Ask the server whether its game is still ours (another window may have played, or the window
 * was away). Keys are not held up meanwhile: if one is pressed, its answer tells.
 */
export async function refresh({ game, talk, control, onChange, busy, resync }) {
  if (busy()) return;
  const before = game.state();
  const server = await talk.getGame();
  if (game.state() !== before || busy()) return;
  if (server.created) {
    await control(() => resync(server));
  } else if (!sameState(server, before)) {
    game.confirm(server);
    onChange({ kind: 'reset' });
  }
}

/** The solver's move for the confirmed game; a forgotten game is put back first. */
export async function hint({ game, talk, control, resync }) {
  for (let restored = false; ; restored = true) {
    try {
      return await talk.hint();
    } catch (err) {
      if (err.status !== 404 || restored || !game.state()) throw err;
      await control(() => resync());
    }
  }
}

/**
 * A batch the server refused (`err`), sent by `send` (talk.batch's) from the confirmed game
 * (sender.js's parts): a game the server forgot is put back and the batch sent again, once; else
 * the refusal's change, the keys not yet sent dropped (pressed on a board that will not be).
 */
export async function movesRefused({ talk, game, queue }, send, err) {
  let refusal = err;
  if (refusal.status === 404 && game.state().moves > 0) {
    await talk.putBack(game.state()); // forgotten: ours back, send again
    try {
      game.confirm(await send());
      return 'moved';
    } catch (again) {
      refusal = again;
    }
  }
  const { error, state } = refusal.data || {};
  queue.clear();
  if (refusal.status === 409 && isGameState(state)) {
    game.confirm(state);
    return error.code === 'game_finished' ? 'finished' : 'reset';
  }
  console.warn('2048: moves refused', refusal);
  return game.take(await talk.serverGame(game.state));
}
