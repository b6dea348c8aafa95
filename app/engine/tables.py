"""Row lookup tables, built once at import from rules.slide_line.

Every table is a list of 2**20 entries indexed by a 20-bit row (four 5-bit
exponents, index 0 lowest). Only rows whose exponents are all within
0..MAX_EXPONENT are filled (18**4 rows); the other entries stay 0 because such
rows never occur on a board. Two 2**17 tiles in a row stay unmerged (see
rules), so every result is again a row within the ladder.

GAIN serves both directions: tiles only pair up within a run of equal tiles
(gaps between them aside), and a run of n equal tiles makes n // 2 pairs of the
same value whichever end it starts from, so a row scores the same either way.

"Column" tables hold a row result spread into column layout: cell i moved to
bit 20 * i, so shifting it left by 5 * c places it in column c of a board.
"""

from itertools import product

from .board import MAX_EXPONENT, ROW_BITS, SIZE, line_bits
from .rules import slide_line

TABLE_SIZE = 1 << ROW_BITS

LEFT = [0] * TABLE_SIZE
RIGHT = [0] * TABLE_SIZE
GAIN = [0] * TABLE_SIZE
TRANSPOSE_COLUMN = [0] * TABLE_SIZE


def _column(line) -> int:
    a, b, c, d = line
    return a | b << ROW_BITS | c << 2 * ROW_BITS | d << 3 * ROW_BITS


def _build() -> None:
    """Slide every possible row once; its mirror image gives the rightward result."""
    for line in product(range(MAX_EXPONENT + 1), repeat=SIZE):
        slid = slide_line(line)
        row = line_bits(line)
        mirror = line_bits(line[::-1])
        LEFT[row] = line_bits(slid.cells)
        RIGHT[mirror] = line_bits(slid.cells[::-1])
        GAIN[row] = slid.gained
        TRANSPOSE_COLUMN[row] = _column(line)


_build()
UP_COLUMN = [TRANSPOSE_COLUMN[result] for result in LEFT]
DOWN_COLUMN = [TRANSPOSE_COLUMN[result] for result in RIGHT]
