// The solver's review on the replay page: the position shown, and the game's biggest mistakes.
//
// The server analyses one range of positions per request and keeps the results, so the page
// asks for the range of the position shown, and "Find the biggest mistakes" walks the ranges in
// turn: each request is short, and a game reviewed once is never analysed again.

import { withBoundedRetry } from './api.js';
import { directionName, fill } from './page.js';

/** The reviews fetched so far, by position, and the ranges on their way. */
function createRanges(api, record) {
  const reviews = new Map(); // position -> the server's review of it
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

/** The review of the position shown, in `element`: showPosition(position, played). */
function createPositionReview(ranges, { messages, format, element }) {
  const { reviews } = ranges;
  let shown = null;
  const name = (direction) => directionName(messages, direction);

  function describe(position) {
    const item = reviews.get(position);
    const text = [fill(messages.review, { played: name(item.played), best: name(item.best) })];
    text.push(item.loss > 0 ? fill(messages.loss, { loss: format(Math.round(item.loss)) }) : messages.noLoss);
    element.textContent = text.join(' ');
  }

  /** The review of `position` (the move `played` from it), fetched with its range if need be. */
  return async function showPosition(position, played) {
    shown = position;
    if (!played) {
      element.textContent = messages.lastPosition;
      return;
    }
    if (reviews.has(position)) {
      describe(position);
      return;
    }
    element.textContent = messages.reviewing;
    try {
      await ranges.load(position);
    } catch {
      if (shown === position) element.textContent = messages.unavailable;
      return;
    }
    if (shown === position && reviews.has(position)) describe(position);
  };
}

/** One mistake of the list: its link jumps to the position, and its advice links to the strategy page. */
function mistakeItem(item, { messages, format, strategyUrl, jump }) {
  const name = (direction) => directionName(messages, direction);
  const li = document.createElement('li');
  const link = document.createElement('a');
  link.href = `#position-${item.position + 1}`;
  link.dataset.testid = 'mistake';
  link.textContent = fill(messages.mistake, {
    move: format(item.position + 1), played: name(item.played), best: name(item.best), loss: format(Math.round(item.loss)),
  });
  link.addEventListener('click', (event) => {
    event.preventDefault();
    jump(item.position);
  });
  li.append(link);
  if (item.mistake && messages.advice[item.mistake]) {
    const advice = document.createElement('a');
    advice.href = `${strategyUrl}#mistake-${item.mistake}`;
    advice.className = 'mistake-advice';
    advice.dataset.testid = 'mistake-advice';
    advice.textContent = messages.advice[item.mistake];
    li.append(' · ', advice);
  }
  return li;
}

/** "Find the biggest mistakes": review the game range by range from the start, updating the list as it goes. */
function createMistakes(ranges, { api, record, elements, ...texts }) {
  const { messages, format } = texts;
  let searching = false;

  async function showMistakes() {
    const body = await withBoundedRetry(() => api.mistakes(record));
    elements.list.replaceChildren(...body.mistakes.map((item) => mistakeItem(item, texts)));
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

/** `record`: its id; `jump(position)` shows a position; `elements`: move, find, progress, list. */
export function createReview({ api, record, messages, format, strategyUrl, elements, jump }) {
  const ranges = createRanges(api, record);
  const showPosition = createPositionReview(ranges, { messages, format, element: elements.move });
  const findMistakes = createMistakes(ranges, { api, record, elements, messages, format, strategyUrl, jump });
  elements.find.addEventListener('click', findMistakes);
  return { showPosition, findMistakes };
}
