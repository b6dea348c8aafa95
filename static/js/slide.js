// The slide a move makes, predicted on the page so that tiles move in the frame of the key press.
//
// A view of the engine's rules (app/engine/rules.py slide_line and animation.py slide_tiles) on a
// square board of any size, pinned to them by tests/e2e/test_page_prediction.py on thousands of boards. Only the slide is
// predicted: the new tile comes from the server, whose answer always wins. The board the game
// page shows is the confirmed one with the slides of the keys still on their way (project).

/** Slide one line towards index 0 (a pair of `top` never merges): its values, the points gained and where each cell came from. */
export function slideLine(values, top) {
  const slid = [];
  const origins = [];
  let gained = 0;
  let waiting = -1; // index of the last placed tile while it may still merge
  values.forEach((v, i) => {
    if (!v) return;
    if (waiting >= 0 && values[waiting] === v && v < top) {
      slid[slid.length - 1] = 2 * v;
      origins[origins.length - 1] = [waiting, i];
      gained += 2 * v;
      waiting = -1;
    } else {
      slid.push(v);
      origins.push([i]);
      waiting = i;
    }
  });
  while (slid.length < values.length) {
    slid.push(0);
    origins.push([]);
  }
  return { cells: slid, origins, gained };
}

// Each direction's lines of [row, col] cells on a board of `size` rows, each listed from the edge the tiles move towards.
function linesOf(size) {
  const on = [...Array(size).keys()];
  const back = on.slice().reverse();
  return {
    left: on.map((r) => on.map((c) => [r, c])),
    right: on.map((r) => back.map((c) => [r, c])),
    up: on.map((c) => on.map((r) => [r, c])),
    down: on.map((c) => back.map((r) => [r, c])),
  };
}

const LINES = new Map(); // size -> linesOf(size)

/**
 * The board after sliding `board` towards `direction`, before any new tile: {board, gained, moved,
 * tiles}, where tiles are {row, col, value, from: [[r, c], ...]} as the API's animation gives them.
 */
export function predictMove(board, direction) {
  const size = board.length;
  if (!LINES.has(size)) LINES.set(size, linesOf(size));
  const next = board.map(() => Array(size).fill(0));
  const tiles = [];
  let gained = 0;
  for (const line of LINES.get(size)[direction]) {
    const slid = slideLine(line.map(([r, c]) => board[r][c]), 2 ** (size * size + 1)); // the top of the ladder
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
