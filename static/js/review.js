// The solver's review on the replay page: the move played from the position shown, and the game's
// biggest mistakes, each rated in a player's words (best, good, inaccuracy, mistake, blunder) with
// how much closer to losing it took the game (app/review.py's share_lost).
//
// Position N is the board after N moves, the one move N + 1 was played from: the solver's arrow for
// that move is drawn on it, the review line names the move by its number, and choosing a mistake in
// the list shows the board it was played from. The last board has no move, so no arrow. The server
// analyses one range of positions per request and keeps the results, so the page asks for the range
// of the position shown, and "Find the biggest mistakes" walks the ranges the server names, the last
// moves first (games are lost at their end): each request is short, and a game reviewed once is never
// analysed again.

import { withBoundedRetry } from './records-api.js';
import { directionName, fill } from './page.js';

/** The reviews fetched so far, by position, asked for one range at a time. */
function createRanges(api, record) {
  const reviews = new Map(); // position -> the server's review of the move played from it
  let queue = Promise.resolve(); // the last request asked for: the next waits for it
  return {
    reviews,
    /**
     * Fetch the range from `first` unless the range before it, still on its way when this was asked
     * (a player stepping on, the walk through the game), brings its review: never the same position twice.
     */
    load(first) {
      const fetched = queue.then(() => (reviews.has(first) ? undefined : withBoundedRetry(() => api.reviewRange(record, first)).then((body) => {
        for (const item of body.reviews) reviews.set(item.position, item);
      })));
      queue = fetched.catch(() => {});
      return fetched;
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

const SMALLEST_SHOWN = 0.001; // a share below it would read "0 %": it is said as "under 0.1 %"

/** A review's share lost in words: how much closer to losing the move took the game. */
function lostText(share, messages, percent) {
  if (share >= 1) return messages.lostGame;
  if (share < SMALLEST_SHOWN) return fill(messages.lostLittle, { share: percent(SMALLEST_SHOWN) });
  return fill(messages.lost, { share: percent(share) });
}

/** A review's rating as a badge: its word (so colour is never the only sign) and the share lost. */
function ratingBadge(item, messages, percent) {
  const badge = document.createElement('span');
  badge.className = `rating rating-${item.rating}`;
  badge.dataset.testid = 'rating';
  const word = (messages.ratings && messages.ratings[item.rating]) || item.rating;
  badge.textContent = item.rating === 'best' ? word : `${word} · ${lostText(item.share_lost, messages, percent)}`;
  return badge;
}

/**
 * The review of the move played from the position shown, in `element`, the solver's move drawn by
 * `arrow` on that board; `last` is the last position, which has no move.
 */
function createPositionReview(ranges, { messages, format, element, arrow, last }) {
  const { reviews } = ranges;
  const percent = percentFormat();
  const name = (direction) => directionName(messages, direction);
  let shown = null;

  function describe(item) {
    const words = { move: format(item.position + 1), played: name(item.played), best: name(item.best) };
    const text = fill(item.played === item.best ? messages.agreed : messages.review, words);
    element.replaceChildren(`${text} `, ratingBadge(item, messages, percent));
    arrow.dataset.direction = item.best;
    arrow.hidden = false;
  }

  /** Review the move played from `position`, fetched with its range if need be. */
  return async function showPosition(position) {
    shown = position;
    arrow.hidden = true;
    if (position >= last) {
      element.textContent = messages.end;
      return;
    }
    if (reviews.has(position)) {
      describe(reviews.get(position));
      return;
    }
    element.textContent = messages.reviewing;
    try {
      await ranges.load(position);
    } catch {
      if (shown === position) element.textContent = messages.unavailable;
      return;
    }
    if (shown === position && reviews.has(position)) describe(reviews.get(position));
  };
}

/** One row of the list: a button that shows the board the move was played from, its rating, and the advice it broke. */
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
  button.addEventListener('click', () => jump(item.position));
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

/** "Find the biggest mistakes": review the game range by range, its last moves first, updating the list as it goes. */
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
      // The server says where to go on: the last moves first, where games are lost, then the rest.
      let body = await showMistakes();
      while (body.next !== null) {
        await ranges.load(body.next);
        body = await showMistakes();
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
 * `record`: its id; `moves`: how many moves it has; `jump(position)` shows a position and brings the
 * board into view; `elements`: move, find, progress, list, and arrow (the solver's move drawn on the board).
 */
export function createReview({ api, record, moves, messages, format, strategyUrl, elements, jump }) {
  const ranges = createRanges(api, record);
  const showPosition = createPositionReview(ranges, { messages, format, element: elements.move, arrow: elements.arrow, last: moves });
  const findMistakes = createMistakes(ranges, { api, record, elements, messages, format, strategyUrl, jump });
  elements.find.addEventListener('click', findMistakes);
  return { showPosition, findMistakes };
}
