// The slide a move makes, predicted on the page so that tiles move in the frame of the key press.
//
// A view of the engine's rules (app/engine/rules.py slide_line and animation.py slide_tiles),
// pinned to them by tests/e2e/test_page_prediction.py on thousands of boards. Only the slide is
// predicted: the new tile comes from the server, whose answer always wins. The board the game
// page shows is the confirmed one with the slides of the keys still on their way (project).

const SIZE = 4;
const TOP_TILE = 131072; // a pair of these never merges: the top of the tile ladder

/** Slide one line towards index 0: its values, the points gained and where each cell came from. */
export function slideLine(values) {
  const cells = [];
  const origins = [];
  let gained = 0;
  let waiting = -1; // index of the last placed tile while it may still merge
  values.forEach((v, i) => {
    if (!v) return;
    if (waiting >= 0 && values[waiting] === v && v < TOP_TILE) {
      cells[cells.length - 1] = 2 * v;
      origins[origins.length - 1] = [waiting, i];
      gained += 2 * v;
      waiting = -1;
    } else {
      cells.push(v);
      origins.push([i]);
      waiting = i;
    }
  });
  while (cells.length < SIZE) {
    cells.push(0);
    origins.push([]);
  }
  return { cells, origins, gained };
}

const FORWARD = [0, 1, 2, 3];
const BACKWARD = [3, 2, 1, 0];

// Each direction's four lines of [row, col] cells, each listed from the edge the tiles move towards.
const LINES = {
  left: FORWARD.map((r) => FORWARD.map((c) => [r, c])),
  right: FORWARD.map((r) => BACKWARD.map((c) => [r, c])),
  up: FORWARD.map((c) => FORWARD.map((r) => [r, c])),
  down: FORWARD.map((c) => BACKWARD.map((r) => [r, c])),
};

/**
 * The board after sliding `board` towards `direction`, before any new tile: {board, gained, moved,
 * tiles}, where tiles are {row, col, value, from: [[r, c], ...]} as the API's animation gives them.
 */
export function predictMove(board, direction) {
  const next = board.map(() => Array(SIZE).fill(0));
  const tiles = [];
  let gained = 0;
  for (const line of LINES[direction]) {
    const slid = slideLine(line.map(([r, c]) => board[r][c]));
    gained += slid.gained;
    line.forEach(([r, c], i) => {
      const value = slid.cells[i];
      if (!value) return;
      next[r][c] = value;
      tiles.push({ row: r, col: c, value, from: slid.origins[i].map((k) => line[k]) });
    });
  }
  const moved = next.some((row, r) => row.some((v, c) => v !== board[r][c]));
  tiles.sort((a, b) => a.row - b.row || a.col - b.col);
  return { board: next, gained, moved, tiles };
}

/** `state` ({board, score}) after the slides of `directions`, without their new tiles. */
export function project({ board, score }, directions) {
  for (const direction of directions) {
    const slid = predictMove(board, direction);
    board = slid.board;
    score += slid.gained;
  }
  return { board, score };
}
