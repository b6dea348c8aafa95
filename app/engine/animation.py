"""Where every tile of a move comes from, for the front end's slide animation.

It runs rules.slide_line on the four lines of the move direction, so it follows
exactly the same rules as the lookup tables built from that function.
"""

from functools import lru_cache
from operator import itemgetter

from .board import SIZE, exponents
from .rules import slide_line

_FORWARD = range(SIZE)
_BACKWARD = range(SIZE - 1, -1, -1)

# Each direction's four lines, every line listed from the edge the tiles move towards.
LINES = {
    "left": [[(r, c) for c in _FORWARD] for r in _FORWARD],
    "right": [[(r, c) for c in _BACKWARD] for r in _FORWARD],
    "up": [[(r, c) for r in _FORWARD] for c in _FORWARD],
    "down": [[(r, c) for r in _BACKWARD] for c in _FORWARD],
}
# Each line's cells read out of a board's exponents (board.exponents: row by row) in one step.
_READ_LINE = {
    direction: [itemgetter(*(r * SIZE + c for r, c in line)) for line in lines] for direction, lines in LINES.items()
}


@lru_cache(maxsize=1 << 16)
def _line_tiles(direction: str, index: int, line: tuple) -> tuple:
    """The tiles of one line after its slide, each as (cell number, tile): lines repeat from move to
    move, so each is worked out once. The tiles are shared by every answer that has them: read only."""
    cells = LINES[direction][index]
    slid = slide_line(line)
    return tuple(
        (r * SIZE + c, {"row": r, "col": c, "value": 1 << exponent, "from": [list(cells[i]) for i in origins]})
        for (r, c), exponent, origins in zip(cells, slid.cells, slid.origins, strict=True)
        if exponent
    )


def slide_tiles(board: int, direction: str) -> list[dict]:
    """Every tile after sliding (before any spawn), row by row, with its source cells.

    ``from`` lists one cell for a tile that slid or stayed and two for a merge.
    """
    flat = exponents(board)
    placed = [None] * (SIZE * SIZE)
    for index, read in enumerate(_READ_LINE[direction]):
        for cell, tile in _line_tiles(direction, index, read(flat)):
            placed[cell] = tile
    return [tile for tile in placed if tile is not None]
