// A record's positions rebuilt from its directions and the tiles its moves placed, as the server
// rebuilds them (app/engine/history.py's positions): the page needs no seed, which a game that can
// still move keeps secret.

import { predictMove } from './slide.js';

const TILE_LETTERS = '0123456789abcdefghijklmnopqrstuv'; // a tile: its cell row by row, plus 16 for a 4
const CELLS = 16;

function placed(board, code) {
  const next = board.map((row) => row.slice());
  const cell = code % CELLS;
  next[Math.floor(cell / 4)][cell % 4] = code < CELLS ? 2 : 4;
  return next;
}

/**
 * Every board and score of a record's `replay` ({start, directions, tiles} as the API gives it), before
 * each move and after the last. A game the server began (start null) opens with its two start tiles.
 */
export function positions(replay, directions) {
  let codes = [...replay.tiles].map((letter) => TILE_LETTERS.indexOf(letter));
  let board = replay.start ? replay.start.board : null;
  let score = replay.start ? replay.start.score : 0;
  if (!board) {
    board = placed(placed([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], codes[0]), codes[1]);
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
