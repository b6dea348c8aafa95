// The game state as the API gives it: its shape, a copy of its fields, whether two are the same
// game at the same point, and whether it is finished.

function isTile(v) {
  return Number.isInteger(v) && (v === 0 || (v >= 2 && (v & (v - 1)) === 0));
}

/** True when `s` has the shape of the API's state object. */
export function isGameState(s) {
  return !!s && typeof s === 'object'
    && Array.isArray(s.board) && s.board.length === 4
    && s.board.every((row) => Array.isArray(row) && row.length === 4 && row.every(isTile))
    && Number.isInteger(s.score) && s.score >= 0
    && typeof s.won === 'boolean' && typeof s.over === 'boolean'
    && typeof s.keep_playing === 'boolean'
    && Number.isInteger(s.moves) && s.moves >= 0
    // the server's own rules: keep_playing only after a win, and a 2048 tile means won
    && (!s.keep_playing || s.won)
    && (s.won || s.board.every((row) => row.every((v) => v < 2048)));
}

/** Only the fields of the API's state object. */
export function pickState(s) {
  return {
    board: s.board.map((row) => row.slice()),
    score: s.score,
    won: s.won,
    over: s.over,
    keep_playing: s.keep_playing,
    moves: s.moves,
  };
}

/** Whether two states are the same game at the same point (either may be missing). */
export const sameState = (a, b) => !!a && !!b && a.score === b.score && a.moves === b.moves
  && a.won === b.won && a.keep_playing === b.keep_playing
  && a.board.every((row, r) => row.every((v, c) => v === b.board[r][c]));

/** True when the server refuses moves: game over, or won and the player has not chosen to keep playing. */
export const isFinished = (s) => !!s && (s.over || (s.won && !s.keep_playing));
