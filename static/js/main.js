// Entry point: wires the page to the game controller.

import { createApi } from './api.js';
import { bindKeyboard, bindSwipe } from './input.js';
import { Announcer, BoardView, Notice, Overlay, ScoreView } from './render.js';
import * as game from './game.js';

const $ = (id) => document.getElementById(id);

function numberFormat() {
  try {
    const nf = new Intl.NumberFormat(document.documentElement.lang || undefined);
    return (n) => nf.format(n);
  } catch {
    return (n) => String(n);
  }
}

function readMessages() {
  try {
    return JSON.parse($('messages').textContent);
  } catch {
    return {};
  }
}

const boardEl = $('board');
const format = numberFormat();

const setBusy = (busy) => {
  boardEl.dataset.busy = String(busy);
};

const view = new BoardView($('tiles'), { onIdle: game.updateBusy });

const overlay = new Overlay($('game-message'), $('message-text'), {
  keepPlaying: $('keep-playing'),
  tryAgain: $('try-again'),
  newGame: $('overlay-new-game'),
});

bindKeyboard(document, (direction) => game.userInput(direction, 'keyboard'));
bindSwipe(boardEl, (direction) => game.userInput(direction, 'touch'));

// Starting over throws away a game with moves only when the player says so (Escape keeps it).
const confirmNewGame = $('confirm-new-game');
$('new-game').addEventListener('click', () => {
  const state = game.getState();
  if (!state || !state.moves || game.isFinished(state)) {
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

$('overlay-new-game').addEventListener('click', () => game.newGame());
$('try-again').addEventListener('click', () => game.newGame());
$('keep-playing').addEventListener('click', () => game.keepPlaying());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') game.refresh();
});

const api = createApi(boardEl.dataset.apiRoot || '/api');
const messages = readMessages();
const announcer = new Announcer($('announcer'));

// The solver's buttons fetch their code when first pressed (playing does not need it), then
// that first press is handed to them.
let assistLoading = null;
$('assist').addEventListener('click', (event) => {
  const button = event.target.closest('button');
  if (!button || assistLoading) return;
  assistLoading = import('./assist.js').then(({ bindAssist }) => {
    bindAssist({
      hint: $('hint'),
      autoplay: $('autoplay'),
      speed: $('autoplay-speed'),
      arrow: $('hint-arrow'),
    }, { api, messages, announcer });
    button.click();
  }, (err) => {
    assistLoading = null;
    console.warn('2048: no solver', err); // eslint-disable-line no-console
  });
});

game.start({
  api,
  view,
  score: new ScoreView($('score'), $('best-score'), format),
  overlay,
  notice: new Notice($('notice')),
  announcer,
  messages,
  format,
  setBusy,
}).catch((err) => {
  console.error('2048: could not load the game', err); // eslint-disable-line no-console
});
