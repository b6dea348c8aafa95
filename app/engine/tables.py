"""The classic 4x4's row lookup tables, built once at import from rules.slide_line.

LEFT and RIGHT give the 20-bit row (four 5-bit exponents, index 0 lowest)
that a row slides to. A row's cells hold one of 18 exponents (0 to 17), so
the tables hold the 18**4 rows that occur, each at its ordinal: its
exponents read as base-18 digits, found from its two 10-bit halves (LOW_HALF
plus HIGH_HALF). Indexed by the 20-bit row itself they would have 2**20
entries, nine in ten never used: 8 MB more in every worker. They are arrays
of 32-bit unsigned integers; the solver's search reads its own 16-bit row
tables out of them. Two 2**17 tiles in a row stay unmerged (see rules), so
every result is again a row within the ladder.

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

from .rules import slide_line
from .variant import CLASSIC

SIZE, CELL_BITS, CELL_MASK, TOP = CLASSIC.size, CLASSIC.cell_bits, CLASSIC.cell_mask, CLASSIC.max_exponent
# The packed layout written out below and in sliding.py: four cells of five bits a row.
if (SIZE, CELL_BITS) != (4, 5):
    raise ImportError("the classic kernel is written for 4x4 boards of 5-bit cells")
ROW_BITS = CELL_BITS * SIZE
LADDER = TOP + 1  # the exponents a cell can hold: 0 (empty) to 17
HALF_ROW = (1 << 2 * CELL_BITS) - 1  # a 10-bit half row: two cells
PAIRS = range(HALF_ROW + 1)


def _ordinal_of_half(pair: int) -> int:
    """Two cells' exponents as base-18 digits (0 for pairs that never occur)."""
    low, high = pair & CELL_MASK, pair >> CELL_BITS
    return low + LADDER * high if max(low, high) < LADDER else 0


LOW_HALF = tuple(_ordinal_of_half(pair) for pair in PAIRS)
HIGH_HALF = tuple(LADDER**2 * ordinal for ordinal in LOW_HALF)
LEFT = array("I", [0]) * LADDER**SIZE
RIGHT = array("I", [0]) * LADDER**SIZE
SPREAD = tuple(pair & CELL_MASK | (pair >> CELL_BITS) << ROW_BITS for pair in PAIRS)
WORTH = tuple(sum(e << e for e in (pair & CELL_MASK, pair >> CELL_BITS)) for pair in PAIRS)


def line_bits(line) -> int:
    """Pack four exponents into 20 bits, index 0 lowest: a row of the board."""
    a, b, c, d = line
    return a | b << CELL_BITS | c << 2 * CELL_BITS | d << 3 * CELL_BITS


def _build() -> None:
    """Slide every possible row once; its mirror image gives the rightward result."""
    for line in product(range(LADDER), repeat=SIZE):
        slid = slide_line(line, TOP)
        LEFT[ordinal(line)] = line_bits(slid.cells)
        RIGHT[ordinal(line[::-1])] = line_bits(slid.cells[::-1])


def ordinal(line) -> int:
    """Where a line of four exponents (index 0 first) sits in LEFT and RIGHT (numpy arrays of them too)."""
    return sum(exponent * LADDER**i for i, exponent in enumerate(line))


_build()
