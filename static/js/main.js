// Entry point: builds the page's parts and hands them to the game, then binds the keys, the
// swipes and the buttons to it.

import { createApi } from './api.js';
import { bindControls } from './controls.js';
import { createGame } from './game.js';
import { bindKeyboard, bindSwipe } from './input.js';
import { pageData } from './page.js';
import { createScreen } from './render.js';
import * as storage from './storage.js';

const { apiRoot, maxBatch, messages, serviceWorker } = pageData();
const api = createApi(apiRoot);
const screen = createScreen(document, messages, () => game.updateBusy());
const game = createGame({ ...screen, api, storage, messages, maxBatch });

bindKeyboard(document, (direction) => game.userInput(direction, 'keyboard'));
bindSwipe(screen.board, (direction) => game.userInput(direction, 'touch'));
bindControls(document, { game, api, messages, storage, screen });
game.start().catch((err) => {
  console.error('2048: could not load the game', err);
});

/** Keep this page and its files for a visit when the server cannot be reached (sw.js). */
function keepForOffline() {
  const { serviceWorker: workers } = navigator;
  workers.register(serviceWorker)
    .then(() => workers.ready)
    .then((registration) => registration.active.postMessage({
      keep: [window.location.href, ...performance.getEntriesByType('resource').map((entry) => entry.name)],
    }))
    .catch((err) => console.warn('2048: no offline copy', err));
}
if (serviceWorker && navigator.serviceWorker) window.addEventListener('load', keepForOffline, { once: true });
