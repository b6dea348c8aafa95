// Entry point: builds the page's parts and hands them to the game, then binds the keys, the
// swipes and the buttons to it.

import { createApi } from './api.js';
import { bindControls } from './controls.js';
import { createGame } from './game.js';
import { bindKeyboard, bindSwipe } from './input.js';
import { keepForOffline, pageData } from './page.js';
import { createScreen } from './render.js';
import * as storage from './storage.js';

const { apiRoot, maxBatch, messages } = pageData();
const api = createApi(apiRoot);
const screen = createScreen(document, messages, () => game.updateBusy());
const game = createGame({ ...screen, api, storage, messages, maxBatch });

bindKeyboard(document, (direction) => game.userInput(direction, 'keyboard'));
bindSwipe(screen.board, (direction) => game.userInput(direction, 'touch'));
bindControls(document, { game, api, messages, storage, screen });
game.start().catch((err) => {
  console.error('2048: could not load the game', err);
});
keepForOffline();
