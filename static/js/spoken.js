// What a screen reader is told about the board on request (Read the board) and after confirmed
// moves; display.js and controls.js load this module on first use.

import { directionName, fill } from './page.js';
import { predictMove } from './slide.js';

/** What confirmed moves did, briefly: the keys, the merges, the new tile, the score. */
export function describeMoves({ messages, format }, before, state, directions) {
  let { board } = before;
  const merged = [];
  for (const direction of directions) {
    const slid = predictMove(board, direction);
    board = slid.board;
    merged.push(...slid.tiles.filter((t) => t.from.length === 2).map((t) => format(t.value)));
  }
  const keys = directions.map((d) => directionName(messages, d)).join(', ');
  const parts = [`${keys.charAt(0).toUpperCase()}${keys.slice(1)}.`];
  if (merged.length) parts.push(fill(messages.merged, { tiles: merged.join(', ') }));
  state.board.forEach((row, r) => row.forEach((value, c) => {
    if (value && board[r][c] !== value) {
      parts.push(fill(messages.newTile, { value: format(value), row: r + 1, col: c + 1 }));
    }
  }));
  if (state.score !== before.score) parts.push(fill(messages.score, { score: format(state.score) }));
  return parts.join(' ');
}

/** The board as render.js's BoardTable shows it, row by row, as one message (`rowTemplate` has {row} and {cells}). */
export function describeBoard(table, rowTemplate) {
  const rows = table.cells.map((row) => row.map((cell) => cell.textContent));
  return rows.map((cells, r) => rowTemplate.replace('{row}', r + 1).replace('{cells}', cells.join(', '))).join(' ');
}
