// The one HTTP client of every page: the game's and the records' JSON API, and the one retry
// policy. No other module calls fetch or decides when to try again.

export class ApiError extends Error {
  constructor({ status = 0, data = null, network = false, retryAfter = null, message = '' }) {
    super(message || (network ? 'network error' : `HTTP ${status}`));
    this.name = 'ApiError';
    this.status = status;       // 0 for a network error
    this.data = data;           // parsed JSON body, if any
    this.network = network;
    this.retryAfter = retryAfter; // seconds, from Retry-After; null when the answer had none
  }
}

/**
 * A failure worth retrying: the network, the server (5xx), a rate limit (429), another request
 * of the same game still running (409 "busy"), or a session closed because its game was put back
 * in another at the same moment (409 "game_elsewhere": asked again, the game is put back as a fork).
 */
export function isRetryable(err) {
  if (!(err instanceof ApiError)) return false;
  const code = err.data && err.data.error && err.data.error.code;
  return err.network || err.status >= 500 || err.status === 429 || (err.status === 409 && /^(busy|game_elsewhere)$/.test(code));
}

function parseRetryAfter(value) {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

/**
 * Delay before retry number `attempt` (0-based): 300ms doubling to 8s, with jitter, and never
 * sooner than the answer's Retry-After (at most a minute). An answer without one (nginx's 429s)
 * waits the backoff: a missing value never means "at once".
 */
function backoffDelay(attempt, retryAfter = null) {
  const base = Math.min(8000, 300 * 2 ** attempt);
  const jittered = base * (0.8 + Math.random() * 0.4);
  return retryAfter !== null ? Math.max(jittered, Math.min(retryAfter, 60) * 1000) : jittered;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request: its JSON answer, or an ApiError. */
async function request(url, method, body, headers) {
  const init = { method, credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json', ...headers } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (e) {
    throw new ApiError({ network: true, message: String(e && e.message || e) });
  }
  let data;
  try {
    data = await response.json();
  } catch {
    data = null; // no body, or not JSON
  }
  if (!response.ok) {
    throw new ApiError({
      status: response.status,
      data,
      retryAfter: parseRetryAfter(response.headers.get('Retry-After')),
      message: data && data.error && data.error.message,
    });
  }
  if (data === null) throw new ApiError({ status: response.status, message: 'invalid JSON' });
  return data;
}

/**
 * Requests under `root` (the page data's apiRoot), each with `headers` (the daily page's name its
 * game): `call(method, path, body)`, each one request.
 */
export const caller = (root, headers = {}) => (method, path, body) => request(root + path, method, body, headers);

/** The game's API under `root`. Each call is one request: retrying is the caller's choice of withRetry. */
export function createApi(root = '/api', headers = {}) {
  const call = caller(root, headers);
  return {
    getGame: () => call('GET', '/game'),
    /** A new game: `options` may name its {size} (the classic when none) and its {seed}. */
    newGame: (options = {}) => call('POST', '/game', options),
    /** Put a saved game back; with the sealed copy the server gave for it (`token`), as the server had it. */
    putGame: (state, token) => call('PUT', '/game', token ? { ...state, token } : state),
    sealedCopy: () => call('GET', '/game/token'),
    /** A batch of directions played in order `from` the game at {moves} valid moves, or {after} the batch of that id. */
    move: (directions, from, id) => call('POST', '/game/moves', { directions, ...from, id }),
    keepPlaying: () => call('POST', '/game/keep-playing', {}),
    /** Take the last move back, from the game at `moves` valid moves: the state before it. */
    undo: (moves) => call('POST', '/game/undo', { moves }),
    hint: () => call('POST', '/game/hint', {}),
    autoplay: () => call('POST', '/game/autoplay', {}),
    /** Any other request, `call(method, path, body)` (the daily page's own). */
    call,
  };
}

/**
 * Call `fn` until it succeeds; retryable failures wait with backoff, others are thrown, and so is
 * the last failure once `retries` retries are spent. `onRetry(err, attempt)` runs before each wait.
 */
export async function withRetry(fn, { onRetry, retries = Infinity } = {}) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await fn();
    } catch (err) {
      if (!isRetryable(err) || attempt >= retries) throw err;
      if (onRetry) onRetry(err, attempt);
      await sleep(backoffDelay(attempt, err.retryAfter));
    }
  }
}

