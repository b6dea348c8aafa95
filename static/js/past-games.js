// This browser's past games (those that are over), for the statistics page (/stats): the last LIMIT of them in
// localStorage, nothing sent anywhere and no account needed. The game page records a game when it
// is over; whether it used help (a hint, auto-play, undo, a restore) only the server knows, so it
// is asked once then.

import { CLASSIC } from './state.js';

const KEY = '2048-finished-games'; // the name players' browsers keep them under
export const LIMIT = 500;

function load() {
  try {
    const games = JSON.parse(window.localStorage.getItem(KEY));
    return Array.isArray(games) ? games : [];
  } catch {
    return []; // no storage, or not ours
  }
}

function store(games) {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(games.slice(-LIMIT)));
  } catch {
    // storage full or disabled: the statistics go without this game
  }
}

/**
 * The past games, oldest first: {size (the board's rows), score, maxTile, moves, date (ms), helped
 * (true, false, or null: unknown)}.
 */
export function readPastGames() {
  return load().filter((game) => game && Number.isFinite(game.score) && Number.isFinite(game.maxTile))
    .map((game) => ({ size: CLASSIC.size, ...game })); // kept before boards had sizes: classic
}

// The same game over is confirmed again (a reload, another window): it is one game, recorded once.
const fingerprint = (state) => `${state.moves}:${state.score}:${state.board.flat().join(',')}`;
let recording = null;

/** Record the game of `state` (the API's) if it is over and not recorded yet; `api` asks whether it used help. */
export async function keepPastGame(state, api) {
  const key = fingerprint(state);
  const games = load();
  if (!state.over || recording === key || (games.length && games[games.length - 1].key === key)) return;
  recording = key;
  let helped = null;
  try {
    const now = await api.getGame();
    if (fingerprint(now) === key) helped = now.helped === true;
  } catch {
    // unknown: the game still counts
  }
  const maxTile = Math.max(...state.board.flat());
  store([...load(), { key, size: state.board.length, score: state.score, maxTile, moves: state.moves, date: Date.now(), helped }]);
  recording = null;
}
