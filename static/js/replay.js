// The replay page: a saved game's positions shown move by move (play/pause, step, speed, scrubber,
// keyboard and swipes), with the solver's review of the move played from the position shown and of
// the whole game.
//
// The page rebuilds every position from the record's directions and tiles (positions.js), animates a
// step with the same slide prediction the game page uses, then shows the next position, whose new
// tile appears.

import { bindSwipe } from './input.js';
import { fill, keepForOffline, numberFormat, pageData } from './page.js';
import { positions } from './positions.js';
import { BoardTable, BoardView, reducedMotion } from './render.js';
import { createRecordsApi, withBoundedRetry } from './records-api.js';
import { createReview } from './review.js';
import { predictMove } from './slide.js';

const PAUSES = { slow: 900, normal: 350, fast: 90 };
const LETTERS = { u: 'up', d: 'down', l: 'left', r: 'right' };

const $ = (id) => document.getElementById(id);
const root = $('replay');
const { apiRoot, record: recordId, moves, strategyUrl, messages } = pageData();
const api = createRecordsApi(apiRoot);
const format = numberFormat();

const view = new BoardView($('tiles'), { table: new BoardTable($('cells'), { empty: messages.empty, format }) });
const scrubber = $('scrubber');
const playButton = $('play');
let boards = [];
let scores = [];
let directions = [];
let position = 0;
let timer = 0;

const review = createReview({ api, record: recordId, moves, messages, format, strategyUrl,
  elements: { move: $('review-move'), find: $('find-mistakes'), progress: $('review-progress'), list: $('mistakes'), arrow: $('solver-arrow') },
  jump: (to) => {
    pause();
    show(to);
    $('board').scrollIntoView({ block: 'center', behavior: reducedMotion() ? 'auto' : 'smooth' });
  } });

function describe() {
  const score = format(scores[position]);
  $('position').textContent = position === 0
    ? fill(messages.start, { score })
    : fill(messages.position, { move: format(position), moves: format(directions.length), score });
}

/** Show position `to`: animated when it is the next one, at once otherwise. */
function show(to) {
  const next = Math.max(0, Math.min(to, directions.length));
  if (next === position + 1) {
    view.slide(predictMove(boards[position], directions[position]).tiles);
  }
  position = next;
  view.show(boards[position]);
  scrubber.value = String(position);
  describe();
  review.showPosition(position);
}

function pause() {
  clearTimeout(timer);
  timer = 0;
  playButton.textContent = messages.play;
  playButton.setAttribute('aria-pressed', 'false');
}

function play() {
  if (position >= directions.length) show(0);
  playButton.textContent = messages.pause;
  playButton.setAttribute('aria-pressed', 'true');
  const tick = () => {
    show(position + 1);
    timer = position < directions.length ? setTimeout(tick, PAUSES[$('replay-speed').value] ?? PAUSES.normal) : 0;
    if (!timer) pause();
  };
  timer = setTimeout(tick, 0);
}

const toggle = () => (timer ? pause() : play());
const step = (by) => {
  pause();
  show(position + by);
};

function bindControls() {
  playButton.addEventListener('click', toggle);
  $('step-back').addEventListener('click', () => step(-1));
  $('step-forward').addEventListener('click', () => step(1));
  scrubber.addEventListener('input', () => {
    pause();
    show(Number(scrubber.value));
  });
  document.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    // The scrubber steps with the arrows itself; Space, which it ignores, plays or pauses there too.
    const inField = event.target.closest('input, select, textarea');
    if (inField && !(inField === scrubber && event.key === ' ')) return;
    const keys = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), ' ': toggle,
      Home: () => { pause(); show(0); }, End: () => { pause(); show(directions.length); } };
    if (!keys[event.key] || (event.key === ' ' && event.target.closest('button'))) return;
    event.preventDefault();
    keys[event.key]();
  });
  bindSwipe($('board'), (direction) => {
    if (direction === 'left') step(1);
    if (direction === 'right') step(-1);
  });
  $('copy-link').addEventListener('click', async () => {
    const link = $('share-link');
    link.select();
    try {
      await navigator.clipboard.writeText(link.value);
    } catch {
      document.execCommand('copy');
    }
    $('copy-status').textContent = messages.copied;
  });
}

async function start() {
  try {
    const record = await withBoundedRetry(() => api.record(recordId));
    directions = [...record.replay.directions].map((letter) => LETTERS[letter]);
    ({ boards, scores } = positions(record.replay, directions, record.size));
  } catch {
    $('position').textContent = messages.unavailable;
    return;
  }
  bindControls();
  view.show(boards[0], { replace: true });
  show(0);
  root.dataset.ready = 'true';
  if (window.location.hash === '#review') review.findMistakes();
}

start();
keepForOffline();
