"""Where every tile of a move comes from, for the front end's slide animation.

It runs rules.slide_line on the four lines of the move direction, so it follows
exactly the same rules as the lookup tables built from that function.
"""

from functools import lru_cache

from .board import SIZE, exponents
from .rules import slide_line

# Lines repeat from move to move, and a slide's result is immutable: worth remembering.
_slide = lru_cache(maxsize=1 << 16)(slide_line)

_FORWARD = range(SIZE)
_BACKWARD = range(SIZE - 1, -1, -1)

# Each direction's four lines, every line listed from the edge the tiles move towards.
LINES = {
    "left": [[(r, c) for c in _FORWARD] for r in _FORWARD],
    "right": [[(r, c) for c in _BACKWARD] for r in _FORWARD],
    "up": [[(r, c) for r in _FORWARD] for c in _FORWARD],
    "down": [[(r, c) for r in _BACKWARD] for c in _FORWARD],
}


def slide_tiles(board: int, direction: str) -> list[dict]:
    """Every tile after sliding (before any spawn), row by row, with its source cells.

    ``from`` lists one cell for a tile that slid or stayed and two for a merge.
    """
    tiles = []
    flat = exponents(board)
    for line in LINES[direction]:
        slid = _slide(tuple(flat[r * SIZE + c] for r, c in line))
        for (r, c), exponent, origins in zip(line, slid.cells, slid.origins, strict=True):
            if exponent:
                sources = [list(line[i]) for i in origins]
                tiles.append({"row": r, "col": c, "value": 1 << exponent, "from": sources})
    tiles.sort(key=lambda tile: (tile["row"], tile["col"]))
    return tiles
