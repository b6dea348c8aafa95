// Entry point: wires the page to the game controller.

import { createApi } from './api.js';
import { bindAssist } from './assist.js';
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
$('new-game').addEventListener('click', () => game.newGame());
$('overlay-new-game').addEventListener('click', () => game.newGame());
$('try-again').addEventListener('click', () => game.newGame());
$('keep-playing').addEventListener('click', () => game.keepPlaying());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') game.refresh();
});

const api = createApi(boardEl.dataset.apiRoot || '/api');
const messages = readMessages();
const announcer = new Announcer($('announcer'));

bindAssist({
  hint: $('hint'),
  autoplay: $('autoplay'),
  speed: $('autoplay-speed'),
  arrow: $('hint-arrow'),
}, { api, messages, announcer });

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
