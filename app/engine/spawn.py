"""New tiles: where they appear and what they are.

The generator ``rng`` is anything with random.Random's ``choice(seq)`` (picks
the cell, from the empty cells row by row) and ``random()`` (a draw below 0.9
gives a 2, as in the original game), so tests can inject a fake.
"""

from .board import empty_cells

TWO_PROBABILITY = 0.9


def spawn(board: int, rng, variant) -> tuple[int, tuple[int, int], int]:
    """Put a 2 (90%) or a 4 (10%) on a random empty cell: (board, (row, col), value)."""
    cells = empty_cells(board, variant)
    if not cells:
        raise ValueError("no empty cell to spawn a tile on")
    r, c = rng.choice(cells)
    exponent = 1 if rng.random() < TWO_PROBABILITY else 2
    return board | exponent << variant.shifts[variant.size * r + c], (r, c), 1 << exponent


def start_board(rng, variant) -> int:
    """A new game's board: two tiles on two different random cells."""
    board, _, _ = spawn(0, rng, variant)
    board, _, _ = spawn(board, rng, variant)
    return board
