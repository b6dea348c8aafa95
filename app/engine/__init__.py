"""The pure-Python 2048 engine: the rules for every variant, packed boards, fast moves and the game.

It knows nothing of the web; the Flask app and the solver build on it. docs/architecture.md
("The engine") maps it: the variant, the two kernels, the tables and the bit layout.
"""

from .animation import slide_tiles
from .board import empty_cells, max_tile, pack, symmetries, unpack
from .directions import DIRECTIONS
from .errors import CannotUndo, EngineError, GameFinished, InvalidState, UnknownDirection
from .game import UNDO_DEPTH, Game, MoveOutcome
from .kernels import kernel_for
from .rules import LineSlide, has_equal_neighbours, slide_line
from .spawn import spawn, start_board
from .state import check_count
from .variant import CLASSIC, SIZES, VARIANTS, Variant, variant_of

__all__ = [
    "CLASSIC",
    "DIRECTIONS",
    "SIZES",
    "UNDO_DEPTH",
    "VARIANTS",
    "CannotUndo",
    "EngineError",
    "Game",
    "GameFinished",
    "InvalidState",
    "LineSlide",
    "MoveOutcome",
    "UnknownDirection",
    "Variant",
    "check_count",
    "empty_cells",
    "has_equal_neighbours",
    "kernel_for",
    "max_tile",
    "pack",
    "slide_line",
    "slide_tiles",
    "spawn",
    "start_board",
    "symmetries",
    "unpack",
    "variant_of",
]
