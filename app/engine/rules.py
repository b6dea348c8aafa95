"""The 2048 rules for one line, written to be read; everything else derives from them.

A line is any length: a row or a column of a board of any size. A pair of tiles at the top of the
ladder (``top``: 2**17 on the classic 4x4, see variant.py) is never merged: building one takes every
cell, so two can never coexist in real play, and capping keeps every exponent within the cell's bits
and every table index within the ladder.
"""

from typing import NamedTuple


class LineSlide(NamedTuple):
    cells: tuple[int, ...]
    gained: int
    origins: tuple[tuple[int, ...], ...]


def can_merge(a: int, b: int, top: int) -> bool:
    """Two exponents merge when equal, non-empty and below the top of the ladder."""
    return a == b and 0 < a < top


def slide_line(exponents: tuple[int, ...], top: int) -> LineSlide:
    """Slide a line towards index 0.

    Pairs form from index 0 outwards and a merged tile does not merge again,
    so 4 4 4 4 gives 8 8 and 4 4 4 _ gives 8 4.
    """
    cells, origins, gained = [], [], 0
    waiting = None  # index of the last placed tile while it may still merge
    for i, e in enumerate(exponents):
        if not e:
            continue
        if waiting is not None and can_merge(exponents[waiting], e, top):
            cells[-1] = e + 1
            origins[-1] = (waiting, i)
            gained += 1 << (e + 1)
            waiting = None
        else:
            cells.append(e)
            origins.append((i,))
            waiting = i
    padding = len(exponents) - len(cells)
    return LineSlide(tuple(cells) + (0,) * padding, gained, tuple(origins) + ((),) * padding)


def has_equal_neighbours(grid: list[list[int]], top: int) -> bool:
    """Whether any horizontal or vertical neighbours of a square exponent grid could merge."""
    size = len(grid)
    return any(
        (c + 1 < size and can_merge(grid[r][c], grid[r][c + 1], top))
        or (r + 1 < size and can_merge(grid[r][c], grid[r + 1][c], top))
        for r in range(size)
        for c in range(size)
    )
