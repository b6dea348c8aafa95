// The daily page (/daily): today's game, played as the game page plays its game (game.js and its
// parts), in a session of its own (every request says X-Game: daily) and under names of its own in
// this browser (the page data's `apart`, storage.js), with no hint, auto-play or undo. Around it: the day's date and
// the countdown to the next, the day's leaderboard (equal scores share a rank, each game beside the
// solver's score after as many moves) and its spread of largest tiles, yesterday's with the solver's
// par, the days in a row played here, the archive of past days to play again, and a share that tells
// the score and the board's colours, nothing of its tiles.

import { createApi, withRetry } from './api.js';
import { ARCHIVE_KEY, boardSquares, clock, markPlayed, playedDays, streaks } from './daily-parts.js';
import { createGame } from './game.js';
import { bindKeyboard, bindSwipe } from './input.js';
import { fill, numberFormat, pageData } from './page.js';
import { createRecordsApi, withBoundedRetry } from './records-api.js';
import { loadRecordName, saveRecordName } from './record-menu.js';
import { createScreen } from './render.js';
import { handOver } from './share.js';
import { isFinished } from './state.js';
import * as storage from './storage.js';

const $ = (id) => document.getElementById(id);
const { apiRoot, maxBatch, messages, home } = pageData();
const lang = document.documentElement.lang || undefined;
const format = numberFormat();
const DAY_KEY = 'daily:day'; // the day of the game kept under the daily names
const MINE_KEY = 'daily:mine'; // the ids of the records saved here, marked on the leaderboards
const ARCHIVE_DAYS = 7; // the past days offered to play again
const EMPTY = [0, 0, 0, 0];
const NO_GAME = { board: [EMPTY, EMPTY, EMPTY, EMPTY], score: 0, won: false, over: false, keep_playing: false, moves: 0 };

const server = createApi(apiRoot, { 'X-Game': 'daily' });
const recordsApi = createRecordsApi(apiRoot, { 'X-Game': 'daily' });
let today = null; // GET /api/daily's answer
// The game on the board, as the server last said: its day, whether ranked, whether a past day's from the archive.
let shown = { day: null, ranked: false, archive: false };
let target = 0; // when the next day starts, by this browser's clock
let pastDay = null; // the archive's day the next game starts on (null: today's game)
let parAsked = null; // the finished game whose solver's score after as many moves was asked for

function remember(key, value) {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // no storage: forgotten with the page
  }
}

function recall(key, fallback) {
  try {
    return JSON.parse(window.localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

const timeOfDay = (moment) => new Intl.DateTimeFormat(lang, { timeStyle: 'short' }).format(moment);
const isNoGame = (state) => !state || state.board.every((row) => row.every((value) => value === 0));

/**
 * An answer with a game in it tells which day's game the board shows, and whether it is ranked; the
 * answers that start or find a day's game (/api/daily's) say whether it is from the archive too.
 */
function noted(answer) {
  if (answer && Array.isArray(answer.board)) {
    const archive = answer.archive ?? (answer.daily === shown.day && shown.archive);
    shown = answer.daily ? { day: answer.daily, ranked: !!answer.ranked, archive } : { day: null, ranked: false, archive: false };
    if (shown.day) remember(DAY_KEY, shown.day);
  }
  return answer;
}

// The game's conversation, as game.js has it with the game page's: the session's game is its day's
// game (GET /api/daily says which; none shows an empty board), and a new game is a new attempt.
const api = {
  ...server,
  async getGame() {
    today = await server.call('GET', '/daily');
    showDay();
    return today.game ? noted(today.game) : { ...NO_GAME, created: true };
  },
  async newGame() {
    const date = pastDay;
    pastDay = null;
    if (date) return noted(await server.call('POST', '/daily', { date }));
    const started = noted(await server.call('POST', '/daily', {}));
    if (today) today.next_ranked = false; // the browser's first attempt of the day is played
    return started;
  },
  putGame: async (state, token) => noted(await server.putGame(state, token)),
  move: async (...args) => noted(await server.move(...args)),
  keepPlaying: async () => noted(await server.keepPlaying()),
};

const screen = createScreen(document, messages, () => game.updateBusy());
const game = createGame({ ...screen, api, storage, messages, maxBatch });

const longDate = (day) => new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

/** The words above the board and the start button, for the game shown and the day. */
function showStatus(state) {
  const status = $('daily-status');
  const start = $('daily-start');
  const yesterday = today && shown.day === today.previous.date && !shown.archive;
  const finished = isFinished(state);
  if (isNoGame(state)) status.textContent = status.dataset.intro ??= status.textContent;
  else if (!shown.day) status.textContent = messages.notToday;
  else if (shown.archive) status.textContent = fill(messages.archiveGame, { date: longDate(shown.day) });
  else if (yesterday && !finished) {
    const closes = new Date(Date.now() + today.previous.reveals_in * 1000);
    status.textContent = fill(messages.yesterdayGame, { time: timeOfDay(closes) });
  } else status.textContent = shown.ranked ? messages.ranked : messages.practice;
  start.hidden = !(isNoGame(state) || !shown.day || finished || yesterday || shown.archive);
  start.textContent = today && today.next_ranked ? messages.startRanked : messages.startPractice;
  $('daily-result').hidden = !(finished && shown.day);
}

function showDay() {
  const date = new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${today.date}T00:00:00Z`));
  $('daily-date').textContent = fill(messages.date, { date });
  $('daily-date').dateTime = today.date;
  $('today-commitment').textContent = today.commitment;
  $('yesterday-commitment').textContent = today.previous.commitment;
  const reveal = new Date(Date.now() + today.previous.reveals_in * 1000);
  $('yesterday-seed').textContent = today.previous.seed ?? fill(messages.seedHidden, { time: timeOfDay(reveal) });
  target = Date.now() + today.ends_in * 1000;
  $('next-at').textContent = fill(messages.nextAt, { time: timeOfDay(new Date(target)) });
  const { current, longest } = streaks(playedDays(), today.date);
  $('streak').textContent = format(current);
  $('best-streak').textContent = format(longest);
  showStatus(game.getState());
}

/** A rank as the leaderboard shows it: "=2" when another row shares it. */
function rankText(record, records) {
  const shared = records.some((other) => other !== record && other.rank === record.rank);
  return `${shared ? '=' : ''}${format(record.rank)}`;
}

/**
 * A leaderboard's rows (the API's records) in its table; yesterday's names lead to their replays,
 * and its table has a column for the solver's score after as many moves.
 */
function showBoard(id, records, linked) {
  const table = $(id);
  const labels = [...table.tHead.rows[0].cells].map((cell) => cell.textContent);
  const mine = new Set(recall(MINE_KEY, []));
  table.tBodies[0].replaceChildren(...records.map((record) => {
    const row = document.createElement('tr');
    row.setAttribute('role', 'row');
    row.dataset.testid = 'leaderboard-row';
    const name = linked ? Object.assign(document.createElement('a'), { href: `/records/${record.id}`, textContent: record.name }) : record.name;
    const par = record.par === null ? '–' : format(record.par);
    const cells = [rankText(record, records), name, format(record.score), format(record.max_tile), format(record.moves), par];
    row.append(...cells.slice(0, labels.length).map((value, column) => {
      const cell = document.createElement('td');
      cell.setAttribute('role', 'cell');
      cell.className = ['rank', 'name', 'score', '', '', ''][column];
      if (column > 2) cell.dataset.label = labels[column];
      cell.append(value);
      return cell;
    }));
    if (mine.has(record.id)) {
      row.classList.add('mine');
      row.cells[1].append(` (${messages.you})`);
    }
    return row;
  }));
  table.hidden = !records.length;
  return records.length;
}

/**
 * The day's spread: a row a largest tile, its bar as long as its share of the games (a table, so a
 * screen reader reads the numbers), the bar of this browser's own ranked game of the day marked.
 */
function showSpread(tiles) {
  const counts = Object.entries(tiles).map(([tile, count]) => [Number(tile), count]).sort((a, b) => a[0] - b[0]);
  const most = Math.max(1, ...counts.map(([, count]) => count));
  const state = game.getState();
  const own = shown.day === today.date && shown.ranked && isFinished(state) ? Math.max(...state.board.flat()) : null;
  $('spread-table').tBodies[0].replaceChildren(...counts.map(([tile, count]) => {
    const row = document.createElement('tr');
    row.dataset.testid = 'spread-row';
    const head = Object.assign(document.createElement('th'), { scope: 'row', textContent: format(tile) });
    const bar = Object.assign(document.createElement('span'), { className: 'spread-bar' });
    bar.style.width = `calc(${count / most} * (100% - 5em))`; // room for the count and "(you)" beside it
    bar.setAttribute('aria-hidden', 'true');
    const cell = document.createElement('td');
    cell.append(bar, format(count));
    if (tile === own) {
      row.classList.add('mine');
      cell.append(` (${messages.you})`);
    }
    row.append(head, cell);
    return row;
  }));
  $('spread').hidden = !counts.length;
}

/** The archive: the revealed days, newest first, each with a button that plays it again; the days
 * played here (on the day or again) marked. */
async function showArchive() {
  const { days } = await withBoundedRetry(() => server.call('GET', `/daily/archive?limit=${ARCHIVE_DAYS}`));
  const played = new Set([...playedDays(), ...playedDays(ARCHIVE_KEY)]);
  $('archive').replaceChildren(...days.map((day) => {
    const item = document.createElement('li');
    item.dataset.testid = 'archive-day';
    const words = { ranked: format(day.ranked), par: day.par === null ? '' : format(day.par) };
    const facts = Object.assign(document.createElement('span'), { textContent: fill(day.par === null ? messages.dayFactsNoPar : messages.dayFacts, words) });
    const button = Object.assign(document.createElement('button'), { type: 'button', className: 'button', textContent: fill(messages.playDay, { date: longDate(day.date) }) });
    button.dataset.testid = 'archive-play';
    button.addEventListener('click', () => {
      pastDay = day.date;
      startAttempt();
    });
    item.append(button, ' ', facts);
    if (played.has(day.date)) {
      item.classList.add('played');
      item.dataset.played = 'true';
      item.append(' ', Object.assign(document.createElement('strong'), { textContent: `✓ ${messages.playedMark}` }));
    }
    return item;
  }));
}

/** Today's and yesterday's leaderboards, today's spread, yesterday's par, and the archive. */
async function showLeaderboards() {
  const [ofToday, ofYesterday] = await Promise.all([today.date, today.previous.date].map(
    (date) => withBoundedRetry(() => server.call('GET', `/daily/leaderboard?date=${date}`)),
  ));
  $('today-empty').hidden = showBoard('today-board', ofToday.records, false) > 0;
  showSpread(ofToday.tiles);
  $('yesterday-empty').hidden = showBoard('yesterday-board', ofYesterday.records, ofYesterday.seed !== null) > 0;
  const noPar = ofYesterday.seed === null ? messages.noPar : messages.parLater;
  $('par').textContent = ofYesterday.par === null ? noPar : fill(messages.par, { score: format(ofYesterday.par) });
  await showArchive();
}

/** The countdown to the next day's game; at zero, the new day is asked for. */
function tick() {
  const left = (target - Date.now()) / 1000;
  $('countdown').textContent = clock(left);
  if (today && left <= 0) {
    target = Infinity;
    refresh();
  }
}

async function refresh() {
  try {
    today = await withRetry(() => server.call('GET', '/daily'));
    showDay();
    await showLeaderboards();
  } catch (err) {
    console.warn('2048: the day could not be loaded', err);
  }
}

/** Beside a finished game, the solver's score after as many moves on its day, once its par is played. */
async function showResultPar(state) {
  const asked = `${shown.day}:${state.moves}`;
  if (asked === parAsked) return;
  parAsked = asked;
  const line = $('result-par');
  line.hidden = true;
  const par = await withBoundedRetry(() => server.call('GET', `/daily/par?date=${shown.day}&moves=${state.moves}`));
  if (par.score === null || parAsked !== asked) return;
  line.textContent = fill(messages.resultPar, { moves: format(par.moves), score: format(par.score), par: format(par.par) });
  line.hidden = false;
}

const say = (text) => {
  $('daily-saved').textContent = text;
};

async function save(event) {
  event.preventDefault();
  const name = $('record-name');
  if (!name.reportValidity()) return;
  say('');
  try {
    await game.whenIdle(); // moves still on their way belong in the record
    const saved = await recordsApi.saveRecord(name.value);
    saveRecordName(name.value.trim());
    remember(MINE_KEY, [...recall(MINE_KEY, []), saved.id].slice(-50));
    say(shown.ranked ? messages.saved : messages.savedPractice);
    await showLeaderboards();
  } catch (err) {
    console.warn('2048: not saved', err);
    say(messages.failed);
  }
}

/** The result as text: the day, score, largest tile, moves and the board's colours, and the page's link. */
function shareText(state) {
  const date = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${shown.day}T00:00:00Z`));
  const tile = Math.max(...state.board.flat());
  const line = fill(messages.shareText, { date, score: format(state.score), tile: format(tile), moves: format(state.moves) });
  return `${line}\n${boardSquares(state.board)}\n${home}`;
}

async function share() {
  const state = game.getState();
  if (!isFinished(state) || !shown.day) return;
  const text = shareText(state);
  const preview = $('share-text');
  preview.textContent = text;
  preview.hidden = false;
  if (await handOver({ text }) === 'copied') say(messages.copied);
}

async function startAttempt() {
  await game.newGame();
  screen.board.focus({ preventScroll: true });
}

bindKeyboard(document, (direction) => game.userInput(direction, 'keyboard'));
bindSwipe(screen.board, (direction) => game.userInput(direction, 'touch'));
$('daily-start').addEventListener('click', startAttempt);
$('try-again').addEventListener('click', startAttempt);
$('overlay-new-game').addEventListener('click', startAttempt);
$('keep-playing').addEventListener('click', () => game.keepPlaying());
$('overlay-share').addEventListener('click', () => share().then(() => $('daily-result').scrollIntoView({ block: 'nearest' })));
$('daily-share').addEventListener('click', share);
$('daily-save').addEventListener('submit', save);
$('record-name').value = loadRecordName();
game.onStateChange((state) => {
  showStatus(state);
  if (isFinished(state) && shown.day && today) {
    markPlayed(shown.day, shown.archive ? ARCHIVE_KEY : undefined);
    showDay();
    showResultPar(state).catch(() => {});
    if (shown.archive) showArchive().catch(() => {});
  }
  if (state.over && shown.day) import('./past-games.js').then((m) => m.keepPastGame(state, api));
});
storage.onGameSaved(() => game.refresh().catch(() => {}));
window.addEventListener('focus', () => game.refresh().catch(() => {}));

/** First the day, then the game kept here if it is still the one to play, then the leaderboards. */
async function load() {
  today = await withRetry(() => server.call('GET', '/daily'));
  showDay();
  const keptDay = recall(DAY_KEY, null);
  const playable = keptDay === today.date || (keptDay === today.previous.date && today.previous.reveals_in > 0);
  const kept = playable ? storage.loadGame() : null;
  if (!playable) storage.saveGame(NO_GAME);
  await game.start(kept);
  await showLeaderboards();
  tick();
  setInterval(tick, 1000);
  $('daily').dataset.ready = 'true';
}

load().catch((err) => console.warn('2048: the daily page could not load', err));
