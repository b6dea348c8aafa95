"""The shape of a game: the side of its board and the tile that wins it, a value handed to the rules.

Every bound of a game follows from its side: a board of ``cells`` cells can build at most the tile
2**(cells + 1) (every cell full, each tile double the next, a 4 spawned last), so that is the top
of its tile ladder; a cell's exponent then fits ``cell_bits`` bits (5 on the classic 4x4).
"""

from dataclasses import dataclass
from functools import cached_property

from .errors import InvalidState

JSON_EXACT = 2**53 - 1  # the largest whole number a page's JavaScript holds exactly


@dataclass(frozen=True)
class Variant:
    """A board of ``size`` x ``size`` cells whose game is won by the tile ``goal``."""

    size: int
    goal: int

    @cached_property
    def cells(self) -> int:
        return self.size * self.size

    @cached_property
    def max_exponent(self) -> int:
        """The top of the tile ladder: two tiles of it never merge (none can be built beside another)."""
        return self.cells + 1

    @cached_property
    def max_tile(self) -> int:
        return 1 << self.max_exponent

    @cached_property
    def cell_bits(self) -> int:
        return self.max_exponent.bit_length()

    @cached_property
    def cell_mask(self) -> int:
        return (1 << self.cell_bits) - 1

    @cached_property
    def shifts(self) -> tuple[int, ...]:
        """Where each cell sits in a packed board, row by row (app/engine/board.py)."""
        return tuple(self.cell_bits * i for i in range(self.cells))

    @cached_property
    def max_score(self) -> int:
        """Every tile from 4 to the top built from 2s (a 2**k tile scores (k - 1) * 2**k on its way),
        kept within what JSON carries exactly: play never passes it."""
        return min(sum((k - 1) << k for k in range(2, self.max_exponent + 1)), JSON_EXACT)

    @cached_property
    def max_moves(self) -> int:
        """A game's move count: each move adds at least a 2 to the tiles' sum, which a game from a new
        board keeps below 2 * max_tile."""
        return min(self.max_tile, JSON_EXACT)

    @cached_property
    def max_directions(self) -> int:
        """The valid moves any game can play after its start, even one put back at its bounds: the
        tiles' sum never passes cells * max_tile."""
        return min(self.cells * self.max_tile // 2, JSON_EXACT)


# The winning tile of each size. 2048 on the classic board and larger; on 3x3, where the top of the
# ladder is 1024 and the solver at a hint's budget reaches 512 in some games and 1024 in none, 512
# (docs/benchmarks.md, bench.sizes).
GOALS = {3: 512, 4: 2048, 5: 2048, 6: 2048, 7: 2048, 8: 2048}
VARIANTS = {size: Variant(size, goal) for size, goal in GOALS.items()}
CLASSIC = VARIANTS[4]
SIZES = tuple(VARIANTS)


def variant_of(size) -> Variant:
    """The variant of a board of ``size`` x ``size``, else InvalidState."""
    if type(size) is not int or size not in VARIANTS:
        raise InvalidState(f"size must be a whole number from {SIZES[0]} to {SIZES[-1]}, got {size!r}"[:120])
    return VARIANTS[size]
