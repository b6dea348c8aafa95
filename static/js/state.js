// The game state as the API gives it: its shape, a copy of its fields, whether two are the same
// game at the same point, and whether it is finished.

/** The classic game: a game kept before boards had sizes is one, and so is every day's game. */
export const CLASSIC = { size: 4, goal: 2048 };

function isTile(v) {
  return Number.isInteger(v) && (v === 0 || (v >= 2 && (v & (v - 1)) === 0));
}

const isSquare = (board) => Array.isArray(board) && board.length > 0
  && board.every((row) => Array.isArray(row) && row.length === board.length && row.every(isTile));

/** True when `s` has the shape of the API's state object. */
export function isGameState(s) {
  return !!s && typeof s === 'object'
    && isSquare(s.board) && s.size === s.board.length && isTile(s.goal) && s.goal > 0
    && Number.isInteger(s.score) && s.score >= 0
    && typeof s.won === 'boolean' && typeof s.over === 'boolean'
    && typeof s.keep_playing === 'boolean'
    && Number.isInteger(s.moves) && s.moves >= 0
    // the server's own rules: keep_playing only after a win, and the goal tile means won
    && (!s.keep_playing || s.won)
    && (s.won || s.board.every((row) => row.every((v) => v < s.goal)));
}

/** Only the fields of the API's state object. */
export function pickState(s) {
  return {
    board: s.board.map((row) => row.slice()),
    size: s.size,
    goal: s.goal,
    score: s.score,
    won: s.won,
    over: s.over,
    keep_playing: s.keep_playing,
    moves: s.moves,
  };
}

/** Whether two states are the same game at the same point (either may be missing). */
export const sameState = (a, b) => !!a && !!b && a.size === b.size && a.score === b.score && a.moves === b.moves
  && a.won === b.won && a.keep_playing === b.keep_playing
  && a.board.every((row, r) => row.every((v, c) => v === b.board[r][c]));

/** True when the server refuses moves: game over, or won and the player has not chosen to keep playing. */
export const isFinished = (s) => !!s && (s.over || (s.won && !s.keep_playing));
