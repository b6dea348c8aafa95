"""Where every tile of a move comes from, for the front end's slide animation.

It runs rules.slide_line on the lines of the move direction, so it follows
exactly the same rules as both kernels.
"""

from functools import cache, lru_cache
from operator import itemgetter

from .board import exponents
from .general import lines_of
from .rules import slide_line


@cache
def _lines(size: int) -> dict:
    """Each direction's lines (general.lines_of) and their readers out of a board's exponents."""
    lines = lines_of(size)
    return {direction: [(tuple(line), itemgetter(*line)) for line in each] for direction, each in lines.items()}


@lru_cache(maxsize=1 << 16)
def _line_tiles(size: int, top: int, cells: tuple, line: tuple) -> tuple:
    """The tiles of one line after its slide, each as (cell number, tile): lines repeat from move to
    move, so each is worked out once. The tiles are shared by every answer that has them: read only."""
    slid = slide_line(line, top)
    return tuple(
        (
            cell,
            {
                "row": cell // size,
                "col": cell % size,
                "value": 1 << exponent,
                "from": [list(divmod(cells[i], size)) for i in origins],
            },
        )
        for cell, exponent, origins in zip(cells, slid.cells, slid.origins, strict=True)
        if exponent
    )


def slide_tiles(board: int, direction: str, variant) -> list[dict]:
    """Every tile after sliding (before any spawn), row by row, with its source cells.

    ``from`` lists one cell for a tile that slid or stayed and two for a merge.
    """
    flat, size, top = exponents(board, variant), variant.size, variant.max_exponent
    placed = [None] * variant.cells
    for cells, read in _lines(size)[direction]:
        for cell, tile in _line_tiles(size, top, cells, read(flat)):
            placed[cell] = tile
    return [tile for tile in placed if tile is not None]
