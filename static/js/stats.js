// The statistics page (/stats): this browser's past games (past-games.js) on the board size the
// page shows (its data's size) summed up, with two charts and their tables. Nothing is asked of the server: the games never left the browser.

import { readPastGames } from './past-games.js';
import { fill, keepForOffline, numberFormat, pageData } from './page.js';
import { progressChart, shareChart } from './stats-charts.js';

const $ = (id) => document.getElementById(id);
const { tiles, size, messages } = pageData();
const format = numberFormat();
const lang = document.documentElement.lang || undefined;
const percent = (share) => new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(share);
const date = (ms) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(new Date(ms));

/** Games played, best and average score, best tile, games that used help. */
function summarise(games) {
  const scores = games.map((game) => game.score);
  return {
    played: games.length,
    best: Math.max(...scores),
    average: Math.round(scores.reduce((sum, score) => sum + score, 0) / games.length),
    bestTile: Math.max(...games.map((game) => game.maxTile)),
    helped: games.filter((game) => game.helped).length,
  };
}

function showSummary(games) {
  const summary = summarise(games);
  $('stats-played').textContent = format(summary.played);
  $('stats-best').textContent = format(summary.best);
  $('stats-average').textContent = format(summary.average);
  $('stats-best-tile').textContent = format(summary.bestTile);
  $('stats-helped').textContent = fill(messages.helpedCount, { count: format(summary.helped), games: format(summary.played) });
}

function row(cells) {
  const tr = document.createElement('tr');
  for (const text of cells) tr.append(Object.assign(document.createElement('td'), { textContent: text }));
  return tr;
}

/** The share of games that reached each tile (the last: it or beyond), as a chart and a table. */
function showReach(games) {
  const bars = tiles.map((tile, index) => {
    const label = index === tiles.length - 1 ? `${format(tile)}+` : format(tile);
    const reached = games.filter((game) => game.maxTile >= tile).length;
    const share = reached / games.length;
    return { label, reached, share, title: fill(messages.reachedLabel, { tile: label, share: percent(share) }) };
  });
  $('reach-chart').replaceChildren(shareChart('reach-title', bars, percent));
  $('reach-table').tBodies[0].replaceChildren(...bars.map((bar) => row([bar.label, format(bar.reached), percent(bar.share)])));
}

/** Every game's largest tile and the best so far, as a chart and a table. */
function showProgress(games) {
  let best = 0;
  const points = games.map((game, index) => {
    best = Math.max(best, game.maxTile);
    return { ...game, best, title: fill(messages.gameLabel, { game: format(index + 1), tile: format(game.maxTile) }) };
  });
  const helped = (game) => messages.helped[game.helped === null || game.helped === undefined ? 'unknown' : game.helped ? 'yes' : 'no'];
  $('progress-chart').replaceChildren(progressChart('progress-title', points, format));
  $('games-table').tBodies[0].replaceChildren(...points.map((game, index) => row([
    format(index + 1), date(game.date), format(game.score), format(game.maxTile), format(game.best), helped(game),
  ])));
}

const games = readPastGames().filter((game) => game.size === size);
if (games.length) {
  showSummary(games);
  showReach(games);
  showProgress(games);
}
$('stats-figures').hidden = !games.length;
$('stats-empty').hidden = games.length > 0;
document.getElementById('stats').dataset.ready = 'true';
keepForOffline();
