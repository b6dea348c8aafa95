// Everything the player sees: tiles and their animations, scores, overlay, notices.

const SLIDE_MS = 100; // tile slide, as the original
// Tiles merged away stay under the merged tile until its pop (200ms, after the slide) has
// grown it past full size, so the cell never looks empty.
const COVERED_MS = 100;

export function reducedMotion() {
  return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

const key = (row, col) => `${row},${col}`;

/** The 4x4 board. Tiles are DOM elements that carry data-row, data-col and data-value. */
export class BoardView {
  constructor(container, { onIdle } = {}) {
    this.container = container;
    this.tiles = new Map();      // "row,col" -> element
    this.leaving = new Set();    // tiles merged away, removed when their animation ends
    this.timer = 0;
    this.onIdle = onIdle || (() => {});
  }

  get idle() {
    return this.leaving.size === 0;
  }

  /**
   * Show `board`. With the move response's `animation`, existing tiles slide, merged ones pop
   * and the spawned one appears; whatever happens, the tiles end up equal to `board`.
   */
  render(board, animation = null, { appear = false } = {}) {
    this.finish();
    if (animation && this.animate(animation)) {
      if (this.matches(board)) {
        if (this.leaving.size) {
          this.timer = setTimeout(() => this.finish(), reducedMotion() ? 0 : SLIDE_MS + COVERED_MS);
        }
        return;
      }
      this.finish(); // the animation did not lead to the server's board: show that board as it is
    }
    if (!this.matches(board)) this.rebuild(board, appear);
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

  animate(animation) {
    const old = this.tiles;
    const next = new Map();
    const take = ([row, col]) => {
      const el = old.get(key(row, col));
      if (!el) return null;
      old.delete(key(row, col));
      return el;
    };
    for (const t of animation.tiles || []) {
      const from = t.from || [];
      if (from.length === 1) {
        const el = take(from[0]);
        if (!el || Number(el.dataset.value) !== t.value) return this.abort(next, old);
        this.place(el, t.row, t.col);
        next.set(key(t.row, t.col), el);
      } else if (from.length === 2) {
        for (const src of from) {
          const el = take(src);
          if (!el) return this.abort(next, old);
          el.classList.add('tile-leaving');
          this.place(el, t.row, t.col);
          this.leaving.add(el);
        }
        next.set(key(t.row, t.col), this.create(t.value, t.row, t.col, 'tile-merged'));
      } else {
        return this.abort(next, old);
      }
    }
    for (const el of old.values()) el.remove(); // nothing should be left; be safe
    const s = animation.spawned;
    if (s) next.set(key(s.row, s.col), this.create(s.value, s.row, s.col, 'tile-new'));
    this.tiles = next;
    return true;
  }

  abort(next, old) {
    for (const el of next.values()) el.remove();
    for (const el of old.values()) el.remove();
    for (const el of this.leaving) el.remove();
    this.leaving.clear();
    this.tiles = new Map();
    return false;
  }

  matches(board) {
    let count = 0;
    for (let r = 0; r < 4; r += 1) {
      for (let c = 0; c < 4; c += 1) {
        const v = board[r][c];
        if (!v) continue;
        count += 1;
        const el = this.tiles.get(key(r, c));
        if (!el || Number(el.dataset.value) !== v) return false;
      }
    }
    return count === this.tiles.size;
  }

  rebuild(board, appear) {
    for (const el of this.tiles.values()) el.remove();
    this.tiles = new Map();
    board.forEach((row, r) => row.forEach((v, c) => {
      if (v) this.tiles.set(key(r, c), this.create(v, r, c, appear ? 'tile-new' : ''));
    }));
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
  }
}

/** Current and best score, with the floating "+N". */
export class ScoreView {
  constructor(scoreEl, bestEl, format) {
    this.scoreEl = scoreEl;
    this.bestEl = bestEl;
    this.format = format;
  }

  update(score, best, gained = 0) {
    this.scoreEl.textContent = this.format(score);
    this.bestEl.textContent = this.format(best);
    if (gained > 0 && !reducedMotion()) {
      const plus = document.createElement('span');
      plus.className = 'score-addition';
      plus.setAttribute('aria-hidden', 'true');
      plus.textContent = `+${this.format(gained)}`;
      plus.addEventListener('animationend', () => plus.remove(), { once: true });
      setTimeout(() => plus.remove(), 1000);
      this.scoreEl.parentElement.append(plus);
    }
  }
}

/** The win / game-over overlay on the board. */
export class Overlay {
  constructor(root, text, buttons) {
    this.root = root;
    this.text = text;
    this.buttons = buttons; // { keepPlaying, tryAgain, newGame }
    this.kind = null;
  }

  /** kind: "won" (keep going or new game), "won-over" (new game only), "over" (try again). */
  show(kind, message) {
    if (this.kind === kind && !this.root.hidden) return;
    this.kind = kind;
    this.text.textContent = message;
    const won = kind !== 'over';
    this.root.classList.toggle('game-won', won);
    this.root.classList.toggle('game-over', !won);
    this.buttons.keepPlaying.hidden = kind !== 'won';
    this.buttons.newGame.hidden = !won;
    this.buttons.tryAgain.hidden = won;
    this.root.hidden = false;
    const first = kind === 'won' ? this.buttons.keepPlaying : won ? this.buttons.newGame : this.buttons.tryAgain;
    first.focus({ preventScroll: true });
  }

  hide() {
    if (this.root.hidden) return;
    const hadFocus = this.root.contains(document.activeElement);
    this.root.hidden = true;
    this.kind = null;
    if (hadFocus && document.activeElement && document.activeElement !== document.body) {
      document.activeElement.blur();
    }
  }

  get visible() {
    return !this.root.hidden;
  }
}

/** A small "connection problem" notice. */
export class Notice {
  constructor(el) {
    this.el = el;
  }

  show() {
    this.el.hidden = false;
  }

  hide() {
    this.el.hidden = true;
  }
}

/** A polite live region. */
export class Announcer {
  constructor(el) {
    this.el = el;
  }

  say(text) {
    // Clearing first makes a repeated message count as a change.
    this.el.textContent = '';
    window.requestAnimationFrame(() => {
      this.el.textContent = text;
    });
  }
}
