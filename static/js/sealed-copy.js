// Asking the server for its sealed copy of the game once play pauses, and keeping it in this
// browser (game.js loads this module after the first change made in this window, or to put a
// game back).

import { read, write } from './storage.js';

const SEAL_AFTER_MS = 1000; // a pause in play this long asks for the game's sealed copy
const SEALED_KEY = 'gameSealed';

/** The server's sealed copy of the game at `moves` valid moves ({token, moves}), or null. */
function loadSealedCopy() {
  try {
    const sealed = JSON.parse(read(SEALED_KEY));
    return sealed && typeof sealed.token === 'string' && Number.isInteger(sealed.moves) ? sealed : null;
  } catch {
    return null;
  }
}

/** Keep `sealed` ({token, moves}); null forgets the copy kept (a new game). */
function saveSealedCopy(sealed) {
  write(SEALED_KEY, JSON.stringify(sealed && { token: sealed.token, moves: sealed.moves }));
}

/** `state()`: the confirmed game; `ask()`: the server's sealed copy of it; `isBusy()`: play goes on. */
export function createKeeper({ state, ask, isBusy }) {
  let timer = 0;

  /** Ask for the copy of the game once play has paused, unless the one kept is of it. */
  function keepLater() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const now = state();
      const kept = loadSealedCopy();
      if (isBusy() || !now || now.moves === 0 || (kept && kept.moves === now.moves)) return;
      try {
        const sealed = await ask();
        if (sealed.token && sealed.moves === state().moves) saveSealedCopy(sealed);
      } catch {
        // asked again after the next change
      }
    }, SEAL_AFTER_MS);
  }

  return {
    keepLater,
    /** The token of the copy kept for `game`, if there is one. */
    tokenFor(game) {
      const kept = loadSealedCopy();
      return kept && kept.moves === game.moves ? kept.token : undefined;
    },
    /** A new game: no copy kept is of it. */
    forget: () => saveSealedCopy(null),
  };
}
