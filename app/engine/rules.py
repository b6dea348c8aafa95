"""The 2048 rules for one line, written to be read; everything else derives from them.

A pair of 2**17 tiles is never merged: 2**17 is the top of the tile ladder (and
the most a 4x4 board can ever build; building one takes all 16 cells, so two
can never coexist in real play). Capping keeps every exponent within 5 bits and
every table index within the ladder.
"""

from typing import NamedTuple

from .board import MAX_EXPONENT, SIZE

WIN_TILE = 2048


class LineSlide(NamedTuple):
    cells: tuple[int, int, int, int]
    gained: int
    origins: tuple[tuple[int, ...], ...]


def can_merge(a: int, b: int) -> bool:
    """Two exponents merge when equal, non-empty and below the top of the ladder."""
    return a == b and 0 < a < MAX_EXPONENT


def slide_line(exponents: tuple[int, int, int, int]) -> LineSlide:
    """Slide a line towards index 0.

    Pairs form from index 0 outwards and a merged tile does not merge again,
    so 4 4 4 4 gives 8 8 and 4 4 4 _ gives 8 4.
    """
    cells, origins, gained = [], [], 0
    waiting = None  # index of the last placed tile while it may still merge
    for i, e in enumerate(exponents):
        if not e:
            continue
        if waiting is not None and can_merge(exponents[waiting], e):
            cells[-1] = e + 1
            origins[-1] = (waiting, i)
            gained += 1 << (e + 1)
            waiting = None
        else:
            cells.append(e)
            origins.append((i,))
            waiting = i
    padding = SIZE - len(cells)
    return LineSlide(
        tuple(cells) + (0,) * padding, gained, tuple(origins) + ((),) * padding
    )


def has_equal_neighbours(grid: list[list[int]]) -> bool:
    """Whether any horizontal or vertical neighbours of an exponent grid could merge."""
    return any(
        (c + 1 < SIZE and can_merge(grid[r][c], grid[r][c + 1]))
        or (r + 1 < SIZE and can_merge(grid[r][c], grid[r + 1][c]))
        for r in range(SIZE)
        for c in range(SIZE)
    )
