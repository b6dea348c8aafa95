"""Row lookup tables, built once at import from rules.slide_line.

LEFT and RIGHT have 2**20 entries indexed by a 20-bit row (four 5-bit
exponents, index 0 lowest). They are arrays of 32-bit unsigned integers (4 MB
each rather than 10 MB as lists; the solver's search reads its own 16-bit row
tables out of LEFT and RIGHT). Only rows whose exponents are all within
0..MAX_EXPONENT are filled (18**4 rows); the other entries stay 0 because such
rows never occur on a board. Two 2**17 tiles in a row stay unmerged (see
rules), so every result is again a row within the ladder.

WORTH gives the points of any slide without a table of its own: it holds the
worth of two cells (a 10-bit half row), the sum of k * 2**k over their tiles
2**k. Two merging tiles 2**k are worth 2 * k * 2**k = k * 2**(k+1), and the
tile they make (k + 1) * 2**(k+1): a move raises the board's worth by exactly
the points it scores, and a tile that only slides changes nothing.

SPREAD turns two cells (a 10-bit half row) into column layout: the second cell
moved to bit 20, a row's length on. A row spread into column c of a board is
then SPREAD[low half] | SPREAD[high half] << 40, shifted left by 5 * c. A
table of whole rows made vertical moves twice as fast, but it held 65-bit
values in a list of 2**20: 12 MB in every worker, against 8 KB.
"""

from array import array
from itertools import product

from .board import CELL_BITS, CELL_MASK, MAX_EXPONENT, ROW_BITS, SIZE, line_bits
from .rules import slide_line

TABLE_SIZE = 1 << ROW_BITS

LEFT = array("I", [0]) * TABLE_SIZE
RIGHT = array("I", [0]) * TABLE_SIZE
PAIRS = range(1 << 2 * CELL_BITS)
SPREAD = tuple(pair & CELL_MASK | (pair >> CELL_BITS) << ROW_BITS for pair in PAIRS)
WORTH = tuple(sum(e << e for e in (pair & CELL_MASK, pair >> CELL_BITS)) for pair in PAIRS)


def _build() -> None:
    """Slide every possible row once; its mirror image gives the rightward result."""
    for line in product(range(MAX_EXPONENT + 1), repeat=SIZE):
        slid = slide_line(line)
        row = line_bits(line)
        mirror = line_bits(line[::-1])
        LEFT[row] = line_bits(slid.cells)
        RIGHT[mirror] = line_bits(slid.cells[::-1])


_build()
