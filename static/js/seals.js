// The server's sealed copy of the game, kept in this browser: asked once play pauses, so that if the
// server forgets the session, the restore that carries it keeps the game verified (app/seals.py).
// What asks and keeps it (sealed-copy.js) is loaded when first needed.

import { loadOnce } from './page.js';

const PLAYED_HERE = new Set(['moved', 'kept', 'restored', 'undone']); // the changes this window made

/**
 * The sealed copy's keeper (sealed-copy.js, loaded after the first change made here, or a restore).
 * `state()`: the confirmed game; `ask()`: the server's sealed copy of it; `isBusy()`: play goes on.
 */
export function createSeals(parts) {
  const keeper = loadOnce(() => import('./sealed-copy.js').then((copy) => copy.createKeeper(parts)));

  return {
    /** Resolves to the token of the sealed copy kept for `game`, if the page has one. */
    tokenFor: (game) => keeper().then((k) => k.tokenFor(game), () => undefined),
    /**
     * The confirmed game changed: a new one has no copy yet; after a change made here, ask for one
     * once play pauses (after another window's change, that window asks).
     */
    changed(kind) {
      if (kind !== 'new' && !PLAYED_HERE.has(kind)) return;
      keeper().then((k) => (kind === 'new' ? k.forget() : k.keepLater()), () => {}); // not loaded: next time
    },
  };
}
