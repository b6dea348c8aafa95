// Asking the server for its sealed copy of the game once play pauses, and keeping it
// (storage.js loads this module after the first change made in this window).

import { loadSealedCopy, saveSealedCopy } from './storage.js';

const SEAL_AFTER_MS = 1000; // a pause in play this long asks for the game's sealed copy

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

  return { keepLater };
}
