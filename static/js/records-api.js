// The records' part of the JSON API (api.js's one client and retry policy): saving the session's
// game, a record, and the solver's review of it; for the record menu, the replay and the daily page.

import { caller, withRetry } from './api.js';

/** The records' API under `root` (the page data's apiRoot), with `headers` (api.js's caller); each call is one request. */
export function createRecordsApi(root = '/api', headers = {}) {
  const call = caller(root, headers);
  return {
    /**
     * Save the session's game under `name`, listed in the hall of fame unless `listed` is false (a
     * link only): {id, url}. Sent once: a retry after a lost answer would save it twice.
     */
    saveRecord: (name, listed = true) => call('POST', '/records', listed ? { name } : { name, listed }),
    record: (id) => call('GET', `/records/${id}`),
    /** The solver's review of the range of positions from `from`: {reviews, next}. */
    reviewRange: (id, from) => call('GET', `/records/${id}/review?from=${from}`),
    mistakes: (id) => call('GET', `/records/${id}/mistakes`),
  };
}

/** api.js's policy for a page that gives up and says so (the replay, its review): about 10 s of backoff. */
export const withBoundedRetry = (fn) => withRetry(fn, { retries: 5 });
