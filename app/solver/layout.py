"""The search's board layout: 16 cells of 4 bits in one 64-bit integer.

It is the layout of the fast C++ and Zig players (nneonneo, ziap): a row is
16 bits, so every table the search reads (left and right slides, the
evaluation) has 65,536 entries and stays in the processor's cache, where the
engine's 20-bit rows need tables of a million entries.

Four bits hold exponents up to 15 (32768); the engine's ladder goes on to
2**17. The search sees a bigger tile as 32768, and two 32768s merging as one
32768: the merge still frees a cell, which is what the search plans for, and no
board before a 65536 is seen differently. ``Solver`` only ever suggests moves
the engine says are valid.

Cells keep the engine's order, (r, c) at bit 4 * (4 * r + c), and the value is
kept as a signed 64-bit integer, the type numba computes with.
"""

import numpy as np

from app.engine.board import exponents
from app.engine.tables import CELL_BITS, LEFT, RIGHT, SIZE, ordinal
from app.engine.variant import CLASSIC

BITS = 4
TOP = (1 << BITS) - 1  # the biggest exponent the search tells apart
LINE = (1 << BITS * SIZE) - 1
LINES = LINE + 1


def line_cells(lines: np.ndarray) -> list[np.ndarray]:
    """The four exponents of each 16-bit line, index 0 lowest."""
    return [lines >> (BITS * i) & TOP for i in range(SIZE)]


def to_search(board: int) -> int:
    """The engine's packed board in the search's layout (tiles above 32768 seen as 32768)."""
    value = 0
    for i, exponent in enumerate(exponents(board, CLASSIC)):
        value |= min(exponent, TOP) << (BITS * i)
    return value - (1 << 64) if value >> 63 else value


def _slide_table(engine_table) -> np.ndarray:
    """The engine's row table read at every 16-bit row, results capped at 15."""
    slid = np.frombuffer(engine_table, dtype=np.uint32)[ordinal(line_cells(np.arange(LINES)))].astype(np.int64)
    return sum(
        np.minimum(slid >> (CELL_BITS * i) & ((1 << CELL_BITS) - 1), TOP) << (BITS * i) for i in range(SIZE)
    ).astype(np.uint16)


def row_tables() -> tuple[np.ndarray, np.ndarray]:
    """Left and right slides of every 16-bit row, from the engine's own row tables."""
    return _slide_table(LEFT), _slide_table(RIGHT)
