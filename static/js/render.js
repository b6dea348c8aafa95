// Everything the player sees: tiles and their animations, scores, overlay, notices; and the
// game page's screen made of them (createScreen).

import { loadOnce, numberFormat } from './page.js';

const SLIDE_MS = 100; // tile slide, as the original
// Tiles merged away stay under the merged tile until its pop (200ms, after the slide) has
// grown it past full size, so the cell never looks empty.
const COVERED_MS = 100;

/** The player's choice, or the system's wish (settings-early.js's data-motion on <html>). */
export function reducedMotion() {
  return document.documentElement.dataset.motion === 'reduce';
}

/** How many times the original's time the tiles' animations take (style.css's --speed, the player's choice). */
function animationScale() {
  return Number(getComputedStyle(document.documentElement).getPropertyValue('--speed')) || 1;
}

const key = (row, col) => `${row},${col}`;

/**
 * The board as a screen reader reads it: a table of its rows and cells in reading order, each a value
 * or "empty" (the animated tiles are hidden from it); its rows are made here, to the board's size,
 * their headings in the table's words (data-column, data-row); spoken.js reads it out whole.
 */
export class BoardTable {
  constructor(table, { empty, format }) {
    Object.assign(this, { table, empty, format, rows: [], cells: [] });
  }

  fit(size) {
    const make = (tag, props) => Object.assign(document.createElement(tag), props);
    const numbers = Array.from({ length: size }, (_, i) => this.format(i + 1));
    const heading = (scope, words, n) => make('th', { scope, textContent: words.replace('{number}', n) });
    const { column, row } = this.table.dataset;
    this.table.tHead.replaceChildren(make('tr'));
    this.table.tHead.rows[0].append(make('td'), ...numbers.map((n) => heading('col', column, n)));
    this.rows = numbers.map(() => make('tr'));
    this.rows.forEach((tr, i) => tr.append(heading('row', row, numbers[i])));
    this.table.tBodies[0].replaceChildren(...this.rows);
    this.cells = this.rows.map((tr) => numbers.map(() => tr.insertCell()));
  }

  show(board) {
    if (board.length !== this.rows.length) this.fit(board.length);
    board.forEach((row, r) => row.forEach((value, c) => {
      const text = value ? this.format(value) : this.empty;
      const cell = this.cells[r][c];
      if (cell.textContent !== text) cell.textContent = text;
    }));
  }
}

/**
 * The board, of the size of the board shown (its element's --size); tiles are DOM elements that carry
 * data-row, data-col and data-value, placed by --r and --c.
 */
export class BoardView {
  constructor(container, { onIdle, table } = {}) {
    this.container = container;
    this.element = container.closest('.game-container');
    this.size = 0;
    this.table = table;
    this.tiles = new Map();      // "row,col" -> element
    this.leaving = new Set();    // tiles merged away, removed when their animation ends
    this.timer = 0;
    this.onIdle = onIdle || (() => {});
  }

  get idle() {
    return this.leaving.size === 0;
  }

  /**
   * Slide the tiles as a move does (the API's animation tiles, or the page's prediction of
   * them): each tile moves from its cell, merged ones pop. Returns false, changing nothing, when
   * the tiles shown are not the ones the slide starts from.
   */
  slide(tiles) {
    this.finish();
    const sources = tiles.flatMap((t) => t.from.map(([row, col]) => [this.tiles.get(key(row, col)), t]));
    const used = new Set(sources.map(([el]) => el));
    const fits = sources.every(([el, t]) => el && Number(el.dataset.value) === t.value / t.from.length);
    if (!fits || used.size !== sources.length || used.size !== this.tiles.size) return false;
    const next = new Map();
    for (const t of tiles) {
      const [first, second] = t.from.map(([row, col]) => this.tiles.get(key(row, col)));
      if (second) {
        for (const el of [first, second]) {
          el.classList.add('tile-leaving');
          this.place(el, t.row, t.col);
          this.leaving.add(el);
        }
        next.set(key(t.row, t.col), this.create(t.value, t.row, t.col, 'tile-merged'));
      } else {
        this.place(first, t.row, t.col);
        next.set(key(t.row, t.col), first);
      }
    }
    this.tiles = next;
    this.table.show(this.board());
    if (this.leaving.size) {
      this.timer = setTimeout(() => this.finish(), reducedMotion() ? 0 : (SLIDE_MS + COVERED_MS) * animationScale());
    }
    return true;
  }

  /**
   * Show `board`: tiles already in place stay, the others appear (a new tile, or a correction
   * of a prediction the server did not confirm), and tiles on cells now empty go. With
   * `replace` (a new game) every tile appears afresh.
   */
  show(board, { replace = false } = {}) {
    if (board.length !== this.size) this.fit(board.length);
    const next = new Map();
    board.forEach((row, r) => row.forEach((v, c) => {
      if (!v) return;
      const el = this.tiles.get(key(r, c));
      const stays = el && !replace && Number(el.dataset.value) === v;
      next.set(key(r, c), stays ? el : this.create(v, r, c, 'tile-new'));
    }));
    const kept = new Set(next.values());
    for (const el of this.tiles.values()) if (!kept.has(el)) el.remove();
    this.tiles = next;
    this.table.show(board);
  }

  /** A grid of `size` rows of empty cells, and no tile. */
  fit(size) {
    this.finish();
    for (const el of this.tiles.values()) el.remove();
    this.tiles = new Map();
    this.size = size;
    this.element.style.setProperty('--size', size);
    const cell = () => Object.assign(document.createElement('div'), { className: 'grid-cell' });
    this.element.querySelector('.grid').replaceChildren(...Array.from({ length: size * size }, cell));
  }

  /** The board the tiles show (merged-away tiles are not on it). */
  board() {
    const board = Array.from({ length: this.size }, () => Array(this.size).fill(0));
    for (const el of this.tiles.values()) board[el.dataset.row][el.dataset.col] = Number(el.dataset.value);
    return board;
  }

  /** End pending animations now: drop tiles that were merged away. */
  finish() {
    clearTimeout(this.timer);
    this.timer = 0;
    if (!this.leaving.size) return;
    for (const el of this.leaving) el.remove();
    this.leaving.clear();
    this.onIdle();
  }

  create(value, row, col, extraClass) {
    const el = document.createElement('div');
    const digits = String(value).length;
    el.className = `tile tile-${value <= 131072 ? value : 'super'} tile-d${Math.min(digits, 7)}`;
    if (extraClass) el.classList.add(extraClass);
    el.dataset.value = String(value);
    this.place(el, row, col);
    const inner = document.createElement('div');
    inner.className = 'tile-inner';
    inner.textContent = String(value);
    el.append(inner);
    this.container.append(el);
    return el;
  }

  place(el, row, col) {
    el.dataset.row = String(row);
    el.dataset.col = String(col);
    el.style.setProperty('--r', row);
    el.style.setProperty('--c', col);
  }
}

/**
 * Current and best score, with the floating "+N": one at a time, rising within the score's box (a
 * new one takes the place of the last, so fast play never piles them up over the page).
 */
export class ScoreView {
  constructor(scoreEl, bestEl, format) {
    this.scoreEl = scoreEl;
    this.bestEl = bestEl;
    this.format = format;
    this.plus = null;
  }

  update(score, best, gained = 0) {
    this.scoreEl.textContent = this.format(score);
    this.bestEl.textContent = this.format(best);
    if (gained > 0 && !reducedMotion()) {
      this.plus?.remove();
      const plus = document.createElement('span');
      plus.className = 'score-addition';
      plus.setAttribute('aria-hidden', 'true');
      plus.textContent = `+${this.format(gained)}`;
      plus.addEventListener('animationend', () => plus.remove(), { once: true });
      setTimeout(() => plus.remove(), 1000);
      this.scoreEl.parentElement.append(plus);
      this.plus = plus;
    }
  }
}

/**
 * The win / game-over overlay (overlay.js), loaded when a game first ends: most visits never
 * show it. Shown once loaded, unless hidden meanwhile; a failed load is tried again next time.
 */
function lazyOverlay(load) {
  const loading = loadOnce(load);
  let overlay = null;
  let wanted = null; // the last show()'s arguments, until hide()
  return {
    show(...args) {
      wanted = args;
      loading().then((loaded) => {
        overlay = loaded;
        if (wanted) overlay.show(...wanted);
      }, (err) => console.warn('2048: no overlay', err));
    },
    hide() {
      wanted = null;
      if (overlay) overlay.hide();
    },
  };
}

/**
 * The notice under the board (in the flow: it covers nothing, and the board never moves): the
 * server cannot be reached, said from show() until hide(); or a short message (flash) when
 * nothing else is said.
 */
export class Notice {
  constructor(el) {
    this.el = el;
    this.unreachable = el.textContent;
    this.down = false;
    this.timer = 0;
    this.watchers = new Set();
  }

  /** Call `listener(down)` whenever the server stops or starts answering; returns the unsubscribe. */
  watch(listener) {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  show() {
    this.setDown(true);
    this.say(this.unreachable);
  }

  hide() {
    this.setDown(false);
    if (!this.timer) this.el.hidden = true;
  }

  setDown(down) {
    if (down === this.down) return;
    this.down = down;
    for (const listener of this.watchers) listener(down);
  }

  /** `text` (by default: the server cannot be reached) for a few seconds, unless the server is down. */
  flash(text = this.unreachable) {
    if (this.down) return;
    this.say(text);
    this.timer = setTimeout(() => {
      this.timer = 0;
      if (!this.down) this.el.hidden = true;
    }, 4000);
  }

  say(text) {
    clearTimeout(this.timer);
    this.timer = 0;
    this.el.textContent = text;
    this.el.hidden = false;
  }
}

/**
 * A polite live region. Messages said in the same frame are spoken together, each once, in the
 * order they were said: a promise of one (a text loaded first) holds back those said after it.
 */
export class Announcer {
  constructor(el) {
    this.el = el;
    this.pending = [];
    this.turn = Promise.resolve();
  }

  say(text) {
    const coming = Promise.resolve(text).catch(() => '');
    this.turn = this.turn.then(() => coming).then((said) => said && this.add(said));
  }

  add(text) {
    if (!this.pending.length) {
      this.el.textContent = ''; // cleared first, so that a repeated message counts as a change
      window.requestAnimationFrame(() => {
        this.el.textContent = this.pending.join(' ');
        this.pending = [];
      });
    }
    if (!this.pending.includes(text)) this.pending.push(text);
  }
}

/** The game page's parts, on its elements; `onIdle()` runs when the board's animations end. */
export function createScreen(doc, messages, onIdle) {
  const $ = (id) => doc.getElementById(id);
  const board = $('board');
  const format = numberFormat();
  const table = new BoardTable($('cells'), { empty: messages.empty, format });
  return {
    board,
    table,
    format,
    view: new BoardView($('tiles'), { onIdle, table }),
    score: new ScoreView($('score'), $('best-score'), format),
    overlay: lazyOverlay(() => import('./overlay.js').then(({ createOverlay }) => createOverlay(
      $('game-message'),
      [$('message-text'), $('final-score')],
      { keepPlaying: $('keep-playing'), tryAgain: $('try-again'), newGame: $('overlay-new-game') },
    ))),
    notice: new Notice($('notice')),
    announcer: new Announcer($('announcer')),
    setBusy: (busy) => {
      board.dataset.busy = String(busy);
    },
  };
}
