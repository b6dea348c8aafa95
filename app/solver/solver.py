"""The solver the app asks for hints: iterative deepening under a time budget.

Each suggestion searches 1, 2, ... spawns deep, up to nneonneo's rule (as many
as the board has distinct tiles less 2, at least 3), and answers with the
deepest search that finished. The budget is a promise to the player, so a
deeper search is only started when the previous one suggests it can finish in
the time left, and one that overruns anyway is abandoned.
"""

from dataclasses import dataclass, field
from time import perf_counter

import numpy as np

from app.engine.board import exponents
from app.engine.errors import GameFinished
from app.engine.moves import DIRECTIONS, valid_moves

from . import layout, search
from .heuristic import Weights, build_table

DEFAULT_BUDGET_MS = 100.0
CUT = 1e-4  # spawn paths less likely than this are not searched further (nneonneo's cut-off)
MIN_SPAWNS = 3  # nneonneo's depth rule: at least 3 spawns deep ...
FEWER_SPAWNS = 2  # ... and otherwise as many as the board has distinct tiles, less 2
TABLE_BITS = 18  # 2**18 transposition-table slots (4 MB): a 100 ms search stores tens of thousands of boards
GROWTH = 6.0  # a search one spawn deeper costs about this many times more (measured 3-8)

_tables: dict[Weights, np.ndarray] = {}


class NoValidMove(GameFinished):
    """No slide changes the board: there is nothing to suggest."""


@dataclass
class Suggestion:
    direction: str
    scores: dict[str, float] = field(default_factory=dict)
    depth: int = 0  # moves looked ahead, this one included
    ms: float = 0.0

    def to_dict(self) -> dict:
        return {"direction": self.direction, "scores": self.scores, "depth": self.depth, "ms": self.ms}


def depth_limit(board: int) -> int:
    """Spawns worth searching: more distinct tiles, more to plan for (nneonneo's rule)."""
    return max(MIN_SPAWNS, len(set(exponents(board)) - {0}) - FEWER_SPAWNS)


def _line_table(weights: Weights) -> np.ndarray:
    """Tables are pure, so solvers with equal weights share one."""
    if weights not in _tables:
        _tables[weights] = build_table(weights)
    return _tables[weights]


class Solver:
    """Expectimax player whose transposition table carries over from one move to the next."""

    def __init__(self, weights: Weights = Weights(), cut: float = CUT, table_bits: int = TABLE_BITS):
        self.lines = _line_table(weights)
        self.loss = weights.loss
        slots = 1 << table_bits
        self.keys = np.zeros(slots, dtype=np.int64)
        self.depths = np.zeros(slots, dtype=np.int8)
        self.values = np.zeros(slots)
        self.state = np.zeros(4)
        self.state[search.CUT] = cut

    def score(self, board: int, spawns: int, deadline: float = float("inf")) -> np.ndarray | None:
        """Each direction's value after ``spawns`` spawns (NaN if it changes nothing), or None past ``deadline``."""
        self.state[search.DEADLINE] = deadline
        self.state[search.ABORTED] = 0.0
        scores = search.score_moves(
            layout.to_search(board), spawns, self.lines, self.loss,
            self.keys, self.depths, self.values, self.state,
        )
        return None if self.state[search.ABORTED] else scores

    def suggest(self, board: int, budget_ms: float = DEFAULT_BUDGET_MS) -> Suggestion:
        start = perf_counter()
        deadline = start + budget_ms / 1000
        valid_directions = valid_moves(board)  # the engine's word: the search's view caps tiles at 32768
        if not valid_directions:
            raise NoValidMove("no move changes this board: the game is over")
        scores, spawns, last = self.score(board, 0), 0, 0.0
        for next_spawns in range(1, depth_limit(board) + 1):
            began = perf_counter()
            if began + last * GROWTH > deadline:
                break
            deeper = self.score(board, next_spawns, deadline)
            if deeper is None:
                break
            scores, spawns, last = deeper, next_spawns, perf_counter() - began
        valid = {d: float(s) for d, s in zip(DIRECTIONS, scores, strict=True) if d in valid_directions}
        direction = max(valid, key=valid.get)
        return Suggestion(direction, valid, spawns + 1, (perf_counter() - start) * 1000)
