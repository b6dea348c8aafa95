"""The pure-Python 2048 engine: rules, packed boards, fast moves and the game.

It knows nothing of the web; the Flask app and the solver build on it.
"""

from .animation import slide_tiles
from .board import MAX_EXPONENT, MAX_TILE, empty_cells, max_tile, pack, symmetries, unpack
from .errors import CannotUndo, EngineError, GameFinished, InvalidState, UnknownDirection
from .game import Game, MoveOutcome, check_stored
from .rules import WIN_TILE, LineSlide, has_equal_neighbours, slide_line
from .sliding import (
    DIRECTIONS,
    SLIDES,
    is_over,
    move,
    move_down,
    move_left,
    move_right,
    move_up,
    transpose,
    valid_moves,
)
from .spawn import spawn, start_board
from .state import MAX_MOVES, MAX_SCORE, check_count

__all__ = [
    "DIRECTIONS",
    "MAX_EXPONENT",
    "MAX_MOVES",
    "MAX_SCORE",
    "MAX_TILE",
    "SLIDES",
    "WIN_TILE",
    "CannotUndo",
    "EngineError",
    "Game",
    "GameFinished",
    "InvalidState",
    "LineSlide",
    "MoveOutcome",
    "UnknownDirection",
    "check_count",
    "check_stored",
    "empty_cells",
    "has_equal_neighbours",
    "is_over",
    "max_tile",
    "move",
    "move_down",
    "move_left",
    "move_right",
    "move_up",
    "pack",
    "slide_line",
    "slide_tiles",
    "spawn",
    "start_board",
    "symmetries",
    "transpose",
    "unpack",
    "valid_moves",
]
