// The solver's review on the replay page: the move that led to the position shown, and the game's
// biggest mistakes, each rated in a player's words (best, good, inaccuracy, mistake, blunder) with
// the share of the best move's expected value it lost.
//
// Move N is the move that led to position N, so the list, the board's "Move N of M" and the review
// of the position shown all count alike. The server analyses one range of positions per request
// and keeps the results, so the page asks for the range of the move shown, and "Find the biggest
// mistakes" walks the ranges in turn: each request is short, and a game reviewed once is never
// analysed again.

import { withBoundedRetry } from './api.js';
import { directionName, fill } from './page.js';

/** The reviews fetched so far, by position, and the ranges on their way. */
function createRanges(api, record) {
  const reviews = new Map(); // position -> the server's review of the move played from it
  const loading = new Map(); // first position of a range -> its request
  return {
    reviews,
    /** The range from `first` ({reviews, next}), asked once however often it is wanted meanwhile. */
    load(first) {
      if (!loading.has(first)) {
        loading.set(first, withBoundedRetry(() => api.reviewRange(record, first)).then((body) => {
          for (const item of body.reviews) reviews.set(item.position, item);
          return body;
        }).finally(() => loading.delete(first)));
      }
      return loading.get(first);
    },
  };
}

/** A share (0.123) as the page's language writes a percentage (12.3 %). */
function percentFormat() {
  try {
    const nf = new Intl.NumberFormat(document.documentElement.lang || undefined, { style: 'percent', maximumFractionDigits: 1 });
    return (share) => nf.format(share);
  } catch {
    return (share) => `${Math.round(share * 1000) / 10}%`;
  }
}

/** A review's rating as a badge: its word (so colour is never the only sign) and the share lost. */
function ratingBadge(item, messages, percent) {
  const badge = document.createElement('span');
  badge.className = `rating rating-${item.rating}`;
  badge.dataset.testid = 'rating';
  const word = (messages.ratings && messages.ratings[item.rating]) || item.rating;
  // A share above the whole (the solver's values near zero or below) reads as all of it to a player.
  const lost = item.share_lost >= 1 ? messages.lostAll : fill(messages.lost, { share: percent(item.share_lost) });
  badge.textContent = item.rating === 'best' ? word : `${word} · ${lost}`;
  return badge;
}

/** The review of the move that led to the position shown, in `element`, its solver's move drawn by `arrow`. */
function createPositionReview(ranges, { messages, format, element, arrow }) {
  const { reviews } = ranges;
  const percent = percentFormat();
  const name = (direction) => directionName(messages, direction);
  let shown = null;

  function describe(item) {
    const text = fill(messages.review, { move: format(item.position + 1), played: name(item.played), best: name(item.best) });
    element.replaceChildren(`${text} `, ratingBadge(item, messages, percent));
    arrow.dataset.direction = item.best;
    arrow.hidden = false;
  }

  /** Review move `position` (the one that led to the position of that number), fetched with its range if need be. */
  return async function showPosition(position) {
    shown = position;
    arrow.hidden = true;
    const item = position > 0 ? reviews.get(position - 1) : null;
    if (position === 0 || item) {
      if (item) describe(item);
      else element.textContent = messages.firstMove;
      return;
    }
    element.textContent = messages.reviewing;
    try {
      await ranges.load(position - 1);
    } catch {
      if (shown === position) element.textContent = messages.unavailable;
      return;
    }
    if (shown === position && reviews.has(position - 1)) describe(reviews.get(position - 1));
  };
}

/** One row of the list: a button that shows the move on the board, its rating, and the advice it broke. */
function mistakeItem(item, { messages, format, strategyUrl, jump, percent }) {
  const name = (direction) => directionName(messages, direction);
  const li = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'mistake';
  button.dataset.testid = 'mistake';
  button.dataset.move = String(item.position + 1);
  const text = document.createElement('span');
  text.textContent = fill(messages.mistake, { move: format(item.position + 1), played: name(item.played), best: name(item.best) });
  button.append(text, ' ', ratingBadge(item, messages, percent));
  button.addEventListener('click', () => jump(item.position + 1));
  li.append(button);
  if (item.mistake && messages.advice[item.mistake]) {
    const advice = document.createElement('a');
    advice.href = `${strategyUrl}#mistake-${item.mistake}`;
    advice.className = 'mistake-advice';
    advice.dataset.testid = 'mistake-advice';
    advice.textContent = messages.advice[item.mistake];
    li.append(advice);
  }
  return li;
}

/** "Find the biggest mistakes": review the game range by range from the start, updating the list as it goes. */
function createMistakes(ranges, { api, record, elements, ...texts }) {
  const { messages, format } = texts;
  const row = { ...texts, percent: percentFormat() };
  let searching = false;

  async function showMistakes() {
    const body = await withBoundedRetry(() => api.mistakes(record));
    // The costliest in the player's measure (the share lost) first, not in the solver's units.
    const costliest = [...body.mistakes].sort((a, b) => b.share_lost - a.share_lost);
    elements.list.replaceChildren(...costliest.map((item) => mistakeItem(item, row)));
    elements.progress.textContent = body.analysed >= body.positions
      ? `${messages.done}${body.mistakes.length ? '' : ` ${messages.noMistakes}`}`
      : fill(messages.progress, { analysed: format(body.analysed), moves: format(body.positions) });
    return body;
  }

  return async function findMistakes() {
    if (searching) return;
    searching = true;
    elements.find.setAttribute('aria-busy', 'true');
    try {
      let next = 0;
      await showMistakes();
      while (next !== null) {
        next = (await ranges.load(next)).next;
        await showMistakes();
      }
    } catch {
      elements.progress.textContent = messages.unavailable;
    } finally {
      searching = false;
      elements.find.removeAttribute('aria-busy');
    }
  };
}

/**
 * `record`: its id; `jump(position)` shows a position and brings the board into view; `elements`:
 * move, find, progress, list, and arrow (the solver's move drawn on the board).
 */
export function createReview({ api, record, messages, format, strategyUrl, elements, jump }) {
  const ranges = createRanges(api, record);
  const showPosition = createPositionReview(ranges, { messages, format, element: elements.move, arrow: elements.arrow });
  const findMistakes = createMistakes(ranges, { api, record, elements, messages, format, strategyUrl, jump });
  elements.find.addEventListener('click', findMistakes);
  return { showPosition, findMistakes };
}
