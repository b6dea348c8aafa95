// Thin client for the game's JSON API, plus retry with backoff.

export class ApiError extends Error {
  constructor({ status = 0, data = null, network = false, retryAfter = null, message = '' }) {
    super(message || (network ? 'network error' : `HTTP ${status}`));
    this.name = 'ApiError';
    this.status = status;       // 0 for a network error
    this.data = data;           // parsed JSON body, if any
    this.network = network;
    this.retryAfter = retryAfter; // seconds, from Retry-After
  }
}

/**
 * A failure worth retrying: the network, the server (5xx), a rate limit (429) or another request
 * of the same game still running (409 "busy").
 */
export function isRetryable(err) {
  if (!(err instanceof ApiError)) return false;
  const code = err.data && err.data.error && err.data.error.code;
  return err.network || err.status >= 500 || err.status === 429 || (err.status === 409 && code === 'busy');
}

function parseRetryAfter(value) {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

/** Delay before retry number `attempt` (0-based): 300ms doubling to 8s, with jitter. */
function backoffDelay(attempt, retryAfter = null) {
  const base = Math.min(8000, 300 * 2 ** attempt);
  const jittered = base * (0.8 + Math.random() * 0.4);
  return retryAfter !== null ? Math.max(jittered, Math.min(retryAfter, 60) * 1000) : jittered;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function createApi(root = '/api') {
  async function request(method, path, body) {
    const init = { method, credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(root + path, init);
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

  return {
    getGame: () => request('GET', '/game'),
    newGame: (seed) => request('POST', '/game', seed === undefined ? {} : { seed }),
    /** Put a saved game back; with the sealed copy the server gave for it (`token`), as the server had it. */
    putGame: (state, token) => request('PUT', '/game', token ? { ...state, token } : state),
    sealedCopy: () => request('GET', '/game/token'),
    /** A batch of directions played in order from the game at `moves` valid moves. */
    move: (directions, moves, id) => request('POST', '/game/moves', { directions, moves, id }),
    keepPlaying: () => request('POST', '/game/keep-playing', {}),
    hint: () => request('GET', '/game/hint'),
    autoplay: () => request('POST', '/game/autoplay', {}),
  };
}

/**
 * Call `fn` until it succeeds; retryable failures wait with backoff, others are thrown.
 * `hooks.onRetry(err, attempt)` runs before each wait.
 */
export async function withRetry(fn, hooks = {}) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await fn();
    } catch (err) {
      if (!isRetryable(err)) throw err;
      if (hooks.onRetry) hooks.onRetry(err, attempt);
      await sleep(backoffDelay(attempt, err.retryAfter));
    }
  }
}
