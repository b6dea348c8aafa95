"""Whole-board moves on packed boards: the hot path of the game.

Left and right replace each 20-bit row by its table entry. Up and down first
transpose the board (its columns become rows, via a table), slide those rows
and spread each result back into its column with the same transpose table, so
no move walks single cells.
"""

from .board import ROW_MASK, exponent_grid, exponents
from .rules import has_equal_neighbours
from .tables import (
    GAIN,
    LEFT,
    RIGHT,
    TRANSPOSE_COLUMN,
)

DIRECTIONS = ("up", "down", "left", "right")


def transpose(board: int) -> int:
    """Swap rows and columns: cell (r, c) goes to (c, r)."""
    flip = TRANSPOSE_COLUMN
    return (
        flip[board & ROW_MASK]
        | flip[board >> 20 & ROW_MASK] << 5
        | flip[board >> 40 & ROW_MASK] << 10
        | flip[board >> 60] << 15
    )


def _horizontal(table):
    """Unscored and scored move that replaces each row by its row-table entry."""
    gains = GAIN

    def slide(board: int) -> int:
        return (
            table[board & ROW_MASK]
            | table[board >> 20 & ROW_MASK] << 20
            | table[board >> 40 & ROW_MASK] << 40
            | table[board >> 60] << 60
        )

    def scored(board: int) -> tuple[int, int]:
        a, b, c, d = board & ROW_MASK, board >> 20 & ROW_MASK, board >> 40 & ROW_MASK, board >> 60
        return (
            table[a] | table[b] << 20 | table[c] << 40 | table[d] << 60,
            gains[a] + gains[b] + gains[c] + gains[d],
        )

    return slide, scored


def _vertical(table):
    """Unscored and scored move of columns: slide the transposed rows with the row ``table``,
    and spread each result back into its column with the transpose table.

    The transpose is written out in both functions: a call would cost ~10%.
    """
    flip, gains = TRANSPOSE_COLUMN, GAIN

    def slide(board: int) -> int:
        t = (
            flip[board & ROW_MASK]
            | flip[board >> 20 & ROW_MASK] << 5
            | flip[board >> 40 & ROW_MASK] << 10
            | flip[board >> 60] << 15
        )
        return (
            flip[table[t & ROW_MASK]]
            | flip[table[t >> 20 & ROW_MASK]] << 5
            | flip[table[t >> 40 & ROW_MASK]] << 10
            | flip[table[t >> 60]] << 15
        )

    def scored(board: int) -> tuple[int, int]:
        t = (
            flip[board & ROW_MASK]
            | flip[board >> 20 & ROW_MASK] << 5
            | flip[board >> 40 & ROW_MASK] << 10
            | flip[board >> 60] << 15
        )
        a, b, c, d = t & ROW_MASK, t >> 20 & ROW_MASK, t >> 40 & ROW_MASK, t >> 60
        return (
            flip[table[a]] | flip[table[b]] << 5 | flip[table[c]] << 10 | flip[table[d]] << 15,
            gains[a] + gains[b] + gains[c] + gains[d],
        )

    return slide, scored


move_left, _scored_left = _horizontal(LEFT)
move_right, _scored_right = _horizontal(RIGHT)
move_up, _scored_up = _vertical(LEFT)
move_down, _scored_down = _vertical(RIGHT)

MOVES = {"up": move_up, "down": move_down, "left": move_left, "right": move_right}
"""Unscored move per direction (what valid_moves tries, and the tests' reference search uses)."""

_SCORED = {"up": _scored_up, "down": _scored_down, "left": _scored_left, "right": _scored_right}


def move(board: int, direction: str) -> tuple[int, int]:
    """(board after sliding, points gained). The board is unchanged for an invalid move."""
    try:
        scored = _SCORED[direction]
    except (KeyError, TypeError):
        raise ValueError(f"unknown direction {direction!r}; expected one of {DIRECTIONS}") from None
    return scored(board)


def valid_moves(board: int) -> list[str]:
    """Directions that change the board."""
    return [d for d in DIRECTIONS if MOVES[d](board) != board]


def can_move(board: int) -> bool:
    return (
        move_left(board) != board
        or move_right(board) != board
        or move_up(board) != board
        or move_down(board) != board
    )


def is_over(board: int) -> bool:
    """Full board with no neighbours that could merge.

    For any board holding at least one tile this is the same as ``not can_move``;
    an empty board is neither over nor movable (it never occurs in a game).
    """
    return 0 not in exponents(board) and not has_equal_neighbours(exponent_grid(board))
