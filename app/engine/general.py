"""Whole-board moves for a board of any size: rules.slide_line on each line, every line's slide
worked out once and kept (lines repeat from move to move).

The classic 4x4 has a faster kernel of its own (sliding.py, its tables built from the same
slide_line); tests hold the two to the same results.
"""

from functools import lru_cache
from operator import itemgetter

from .board import exponent_grid, exponents
from .directions import DIRECTIONS
from .rules import has_equal_neighbours, slide_line

# Lines kept per kernel: 4,096 lines of up to eight cells take some 2 MB, and a game's lines repeat.
KEPT_LINES = 1 << 12


def lines_of(size: int) -> dict[str, list[list[int]]]:
    """Each direction's lines as cell numbers (row by row), every line listed from the edge the
    tiles move towards."""
    forward, backward = range(size), range(size - 1, -1, -1)
    return {
        "up": [[r * size + c for r in forward] for c in forward],
        "down": [[r * size + c for r in backward] for c in forward],
        "left": [[r * size + c for c in forward] for r in forward],
        "right": [[r * size + c for c in backward] for r in forward],
    }


class GeneralKernel:
    """Moves on packed boards of one variant, any size."""

    def __init__(self, variant):
        self.variant = variant
        self.lines = lines_of(variant.size)
        self._read = {d: [itemgetter(*line) for line in lines] for d, lines in self.lines.items()}
        top = variant.max_exponent
        self._slide_line = lru_cache(maxsize=KEPT_LINES)(lambda line: slide_line(line, top)[:2])

    def move(self, board: int, direction: str) -> tuple[int, int]:
        """(board after sliding, points gained). The board is unchanged for an invalid move."""
        flat = exponents(board, self.variant)
        slid, gained, slide = [0] * len(flat), 0, self._slide_line
        for cells, read in zip(self.lines[direction], self._read[direction], strict=True):
            exponents_after, points = slide(read(flat))
            gained += points
            for cell, exponent in zip(cells, exponents_after, strict=True):
                slid[cell] = exponent
        return sum(e << shift for e, shift in zip(slid, self.variant.shifts, strict=True) if e), gained

    def valid_moves(self, board: int) -> list[str]:
        """Directions that change the board."""
        return [d for d in DIRECTIONS if self.move(board, d)[0] != board]

    def is_over(self, board: int) -> bool:
        """Full board with no neighbours that could merge (see sliding.is_over)."""
        variant = self.variant
        return 0 not in exponents(board, variant) and not has_equal_neighbours(
            exponent_grid(board, variant), variant.max_exponent
        )
