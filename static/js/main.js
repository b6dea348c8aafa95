// Entry point: builds the page's parts and hands them to the game.

import { createApi } from './api.js';
import { createGame, isFinished } from './game.js';
import { bindKeyboard, bindSwipe } from './input.js';
import { Announcer, BoardView, Notice, Overlay, ScoreView } from './render.js';
import * as storage from './storage.js';

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
const messages = readMessages();
const announcer = new Announcer($('announcer'));
const format = numberFormat();
const api = createApi(boardEl.dataset.apiRoot || '/api');
const view = new BoardView($('tiles'), { onIdle: () => game.updateBusy() });

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
});

bindKeyboard(document, (direction) => game.userInput(direction, 'keyboard'));
bindSwipe(boardEl, (direction) => game.userInput(direction, 'touch'));
for (const id of ['new-game', 'overlay-new-game', 'try-again']) $(id).addEventListener('click', () => game.newGame());
$('keep-playing').addEventListener('click', () => game.keepPlaying());
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
recordMenu.addEventListener('toggle', () => import('./records.js').then((m) => m.bindRecordMenu(recordMenu, game)), { once: true });
game.onStateChange((state) => {
  if (isFinished(state)) recordMenu.open = true;
});

// Other windows of this session: a game they saved is shown here at once; coming back into
// view or focus asks the server, in case a change went by unseen (e.g. without localStorage).
storage.onGameSaved((state) => game.adopt(state));
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') game.refresh();
});
window.addEventListener('focus', () => game.refresh());

game.start().catch((err) => {
  console.error('2048: could not load the game', err); // eslint-disable-line no-console
});
