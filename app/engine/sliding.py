"""The classic 4x4's whole-board moves on packed boards: the hot path of the classic game.

Left and right replace each 20-bit row by its table entry (found from the row's
two halves, see tables). Up and down first transpose the board (its columns
become rows, two cells at a time via a small table), slide those rows and
transpose the result back, so no move walks single cells.
"""

from .board import exponent_grid, exponents
from .directions import DIRECTIONS
from .rules import has_equal_neighbours
from .tables import HALF_ROW, HIGH_HALF, LEFT, LOW_HALF, RIGHT, SPREAD, TOP, WORTH
from .variant import CLASSIC


def transpose(board: int) -> int:
    """Swap rows and columns: cell (r, c) goes to (c, r)."""
    s, h = SPREAD, HALF_ROW
    return (
        s[board & h]
        | s[board >> 10 & h] << 40
        | (s[board >> 20 & h] | s[board >> 30 & h] << 40) << 5
        | (s[board >> 40 & h] | s[board >> 50 & h] << 40) << 10
        | (s[board >> 60 & h] | s[board >> 70] << 40) << 15
    )


def worth(board: int) -> int:
    """The sum of k * 2**k over the board's tiles 2**k: a move raises it by the points it scores (see tables)."""
    w, h = WORTH, HALF_ROW
    return (
        w[board & h]
        + w[board >> 10 & h]
        + w[board >> 20 & h]
        + w[board >> 30 & h]
        + w[board >> 40 & h]
        + w[board >> 50 & h]
        + w[board >> 60 & h]
        + w[board >> 70]
    )


def _horizontal(table):
    """The move that replaces each row by its row-table entry."""
    lo, hi, h = LOW_HALF, HIGH_HALF, HALF_ROW

    def slide(board: int) -> int:
        return (
            table[lo[board & h] + hi[board >> 10 & h]]
            | table[lo[board >> 20 & h] + hi[board >> 30 & h]] << 20
            | table[lo[board >> 40 & h] + hi[board >> 50 & h]] << 40
            | table[lo[board >> 60 & h] + hi[board >> 70]] << 60
        )

    return slide


def _vertical(table):
    """The move of columns: slide the transposed rows with the row ``table`` and transpose
    the result back. Both transposes are written out: calls would make it twice as slow."""
    s, lo, hi, h = SPREAD, LOW_HALF, HIGH_HALF, HALF_ROW

    def slide(board: int) -> int:
        t = (
            s[board & h]
            | s[board >> 10 & h] << 40
            | (s[board >> 20 & h] | s[board >> 30 & h] << 40) << 5
            | (s[board >> 40 & h] | s[board >> 50 & h] << 40) << 10
            | (s[board >> 60 & h] | s[board >> 70] << 40) << 15
        )
        a = table[lo[t & h] + hi[t >> 10 & h]]
        b = table[lo[t >> 20 & h] + hi[t >> 30 & h]]
        c = table[lo[t >> 40 & h] + hi[t >> 50 & h]]
        d = table[lo[t >> 60 & h] + hi[t >> 70]]
        return (
            s[a & h]
            | s[a >> 10] << 40
            | (s[b & h] | s[b >> 10] << 40) << 5
            | (s[c & h] | s[c >> 10] << 40) << 10
            | (s[d & h] | s[d >> 10] << 40) << 15
        )

    return slide


move_left = _horizontal(LEFT)
move_right = _horizontal(RIGHT)
move_up = _vertical(LEFT)
move_down = _vertical(RIGHT)

SLIDES = {"up": move_up, "down": move_down, "left": move_left, "right": move_right}
"""Move per direction (what valid_moves tries, and the tests' reference search uses)."""


def move(board: int, direction: str) -> tuple[int, int]:
    """(board after sliding, points gained). The board is unchanged for an invalid move."""
    moved = SLIDES[direction](board)
    return moved, worth(moved) - worth(board)


def valid_moves(board: int) -> list[str]:
    """Directions that change the board."""
    return [d for d in DIRECTIONS if SLIDES[d](board) != board]


def is_over(board: int) -> bool:
    """Full board with no neighbours that could merge.

    For any board holding at least one tile this is the same as no valid move; an empty
    board is neither over nor movable (it never occurs in a game).
    """
    return 0 not in exponents(board, CLASSIC) and not has_equal_neighbours(exponent_grid(board, CLASSIC), TOP)
