// A record's positions rebuilt from its directions and the tiles its moves placed, as the server
// rebuilds them (app/engine/history.py's positions): the page needs no seed, which a game that can
// still move keeps secret.

import { predictMove } from './slide.js';

// A tile's code: its cell (row * size + col), plus the board's number of cells for a 4; written in
// base 32, in one letter while every code fits one (3x3, 4x4), else in two (high * 32 + low).
const TILE_LETTERS = '0123456789abcdefghijklmnopqrstuv';

/** The tile codes of a record's `tiles` text on a board of `cells` cells. */
function tileCodes(text, cells) {
  const digits = [...text].map((letter) => TILE_LETTERS.indexOf(letter));
  if (2 * cells <= TILE_LETTERS.length) return digits;
  return digits.filter((_, i) => i % 2 === 0).map((high, i) => high * TILE_LETTERS.length + digits[2 * i + 1]);
}

function placed(board, code) {
  const size = board.length;
  const cells = size * size;
  const next = board.map((row) => row.slice());
  const cell = code % cells;
  next[Math.floor(cell / size)][cell % size] = code < cells ? 2 : 4;
  return next;
}

/**
 * Every board and score of a record's `replay` ({start, directions, tiles} as the API gives it) on a
 * board of `size` rows, before each move and after the last. A game the server began (start null)
 * opens with its two start tiles.
 */
export function positions(replay, directions, size) {
  let codes = tileCodes(replay.tiles, size * size);
  let board = replay.start ? replay.start.board : null;
  let score = replay.start ? replay.start.score : 0;
  if (!board) {
    const empty = Array.from({ length: size }, () => Array(size).fill(0));
    board = placed(placed(empty, codes[0]), codes[1]);
    codes = codes.slice(2);
  }
  const boards = [board];
  const scores = [score];
  directions.forEach((direction, i) => {
    const slid = predictMove(board, direction);
    board = placed(slid.board, codes[i]);
    score += slid.gained;
    boards.push(board);
    scores.push(score);
  });
  return { boards, scores };
}
