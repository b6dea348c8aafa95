"""Row lookup tables, built once at import from rules.slide_line.

Every table has 2**20 entries indexed by a 20-bit row (four 5-bit exponents,
index 0 lowest). LEFT, RIGHT and GAIN are arrays of 32-bit unsigned integers
(4 MB each rather than 10 MB as lists; the solver's search reads its own
16-bit row tables out of LEFT and RIGHT); TRANSPOSE_COLUMN holds 65-bit values, so it stays a list.
Only rows whose exponents are all within 0..MAX_EXPONENT are filled (18**4 rows); the other entries stay 0 because such
rows never occur on a board. Two 2**17 tiles in a row stay unmerged (see
rules), so every result is again a row within the ladder.

GAIN serves both directions: tiles only pair up within a run of equal tiles
(gaps between them aside), and a run of n equal tiles makes n // 2 pairs of the
same value whichever end it starts from, so a row scores the same either way.

TRANSPOSE_COLUMN holds a row spread into column layout: cell i moved to
bit 20 * i, so shifting it left by 5 * c places it in column c of a board.
"""

from array import array
from itertools import product

from .board import MAX_EXPONENT, ROW_BITS, SIZE, line_bits
from .rules import slide_line

TABLE_SIZE = 1 << ROW_BITS

LEFT = array("I", [0]) * TABLE_SIZE
RIGHT = array("I", [0]) * TABLE_SIZE
GAIN = array("I", [0]) * TABLE_SIZE
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
