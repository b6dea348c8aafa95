// Entry point: builds the page's parts and hands them to the game.

import { createApi } from './api.js';
import { createGame } from './game.js';
import { bindKeyboard, bindSwipe } from './input.js';
import { Announcer, BoardTable, BoardView, Notice, Overlay, ScoreView } from './render.js';
import { isFinished } from './server.js';
import * as storage from './storage.js';
import { pageData } from './page.js';
import { numberFormat } from './text.js';

const $ = (id) => document.getElementById(id);

const boardEl = $('board');
const { apiRoot, maxBatch, messages } = pageData();
const announcer = new Announcer($('announcer'));
const format = numberFormat();
const api = createApi(apiRoot);
const table = new BoardTable($('cells'), { empty: messages.empty, format });
const view = new BoardView($('tiles'), { onIdle: () => game.updateBusy(), table });

const game = createGame({
  api,
  view,
  storage,
  score: new ScoreView($('score'), $('best-score'), format),
  overlay: new Overlay($('game-message'), $('message-text'), {
    keepPlaying: $('keep-playing'),
    tryAgain: $('try-again'),
    newGame: $('overlay-new-game'),
  }),
  notice: new Notice($('notice')),
  announcer,
  messages,
  format,
  setBusy: (busy) => {
    boardEl.dataset.busy = String(busy);
  },
  maxBatch,
});

bindKeyboard(document, (direction) => game.userInput(direction, 'keyboard'));
bindSwipe(boardEl, (direction) => game.userInput(direction, 'touch'));
for (const id of ['overlay-new-game', 'try-again']) $(id).addEventListener('click', () => game.newGame());
$('keep-playing').addEventListener('click', () => game.keepPlaying());

// Starting over throws away a game with moves only when the player says so (Escape keeps it).
const confirmNewGame = $('confirm-new-game');
$('new-game').addEventListener('click', () => {
  if (!game.inProgress()) {
    game.newGame();
    return;
  }
  confirmNewGame.returnValue = '';
  confirmNewGame.showModal();
});
confirmNewGame.addEventListener('click', (event) => {
  const button = event.target.closest('button');
  if (button) confirmNewGame.close(button.value);
});
confirmNewGame.addEventListener('close', () => {
  if (confirmNewGame.returnValue === 'new') game.newGame();
  boardEl.focus({ preventScroll: true });
});

// After a button's action the keys belong to the board again: a stray Space or Enter must not
// repeat it, and the arrows play.
$('main').addEventListener('click', (event) => {
  if (event.target.closest('button')) boardEl.focus({ preventScroll: true });
});

// Focus rings are drawn for keyboard players only (style.css reads this).
document.addEventListener('pointerdown', (event) => {
  document.documentElement.dataset.input = event.pointerType;
}, true);
document.addEventListener('keydown', () => {
  document.documentElement.dataset.input = 'keyboard';
}, true);

// The auto-play speed: three toggle buttons, one pressed (they take no arrow keys, unlike a menu).
$('autoplay-speed').addEventListener('click', (event) => {
  const chosen = event.target.closest('button');
  if (!chosen) return;
  for (const button of $('autoplay-speed').querySelectorAll('button')) {
    button.setAttribute('aria-pressed', String(button === chosen));
  }
});

$('read-board').addEventListener('click', () => announcer.say(table.describe(messages.boardRow)));

let assist = null;
const solver = () => {
  assist ??= import('./assist.js').then(({ createAssist }) => createAssist(
    { hint: $('hint'), autoplay: $('autoplay'), speed: $('autoplay-speed'), arrow: $('hint-arrow') },
    { game, api, messages, announcer },
  ));
  return assist;
};
$('hint').addEventListener('click', () => solver().then((a) => a.showHint()));
$('autoplay').addEventListener('click', () => solver().then((a) => a.toggleAutoplay()));
// Share or review: loaded lazily, opened when the game ends.
const recordMenu = $('record-menu');
let records = null;
const recordMenuModule = () => (records ??= import('./records.js').then((m) => m.createRecordMenu(recordMenu, { game, api, messages })));
recordMenu.addEventListener('toggle', recordMenuModule, { once: true });
// Clicked before the module is loaded, a button still acts once it is.
recordMenu.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-action]');
  if (button) recordMenuModule().then((menu) => menu.save(button.dataset.action));
});
recordMenu.querySelector('form').addEventListener('submit', (event) => {
  event.preventDefault(); // Enter in the name field shares
  recordMenuModule().then((menu) => menu.save('share'));
});
game.onStateChange((state) => {
  if (isFinished(state)) recordMenu.open = true;
});

// Other windows of this session: when one saves a game, or this one comes back into view or
// focus, ask the server whether its game is still the one shown (no polling). Coming back fires
// both events: the question already on its way answers the second.
storage.onGameSaved(() => game.refresh());
let comingBack = null;
function cameBack() {
  comingBack ??= game.refresh().finally(() => {
    comingBack = null;
  });
}
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') cameBack();
});
window.addEventListener('focus', cameBack);

game.start().catch((err) => {
  console.error('2048: could not load the game', err);
});
