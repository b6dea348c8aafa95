"""The solver the app asks for hints: iterative deepening under a time budget.

Each suggestion searches 1, 2, ... spawns deep, up to nneonneo's rule (as many
as the board has distinct tiles less 2, at least 3). The budget is a promise
to the player, and a pass one spawn deeper costs several times the last, so
most deepest passes do not finish. Rather than waste the time left, a pass is
started whenever more time is left than the last pass took, with the moves in
the order the last pass ranked them; when the deadline cuts it off, the moves
it finished still count: if the leader is among them, the best of them wins.
"""

from dataclasses import dataclass, field
from time import perf_counter

import numpy as np

from app.engine.board import exponents
from app.engine.directions import DIRECTIONS
from app.engine.errors import GameFinished
from app.engine.sliding import valid_moves
from app.engine.variant import CLASSIC

from . import layout, search
from .heuristic import Weights, build_table

DEFAULT_BUDGET_MS = 100.0
CUT = 1e-4  # spawn paths less likely than this are not searched further (nneonneo's cut-off)
MIN_SPAWNS = 3  # nneonneo's depth rule: at least 3 spawns deep ...
FEWER_SPAWNS = 2  # ... and otherwise as many as the board has distinct tiles, less 2
TABLE_BITS = 18  # 2**18 transposition-table slots (4 MB): a 100 ms search stores tens of thousands of boards
ALL_DIRECTIONS = np.arange(len(DIRECTIONS))

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
    return max(MIN_SPAWNS, len(set(exponents(board, CLASSIC)) - {0}) - FEWER_SPAWNS)


def _line_table(weights: Weights) -> np.ndarray:
    """Tables are pure, so solvers with equal weights share one."""
    if weights not in _tables:
        _tables[weights] = build_table(weights)
    return _tables[weights]


def _best_first(directions: list[int], scores: np.ndarray) -> list[int]:
    return sorted(directions, key=scores.__getitem__, reverse=True)


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

    def score(
        self, board: int, spawns: int, deadline: float = float("inf"), order: np.ndarray = ALL_DIRECTIONS
    ) -> tuple[np.ndarray, bool]:
        """Each direction's value after ``spawns`` spawns, searched in ``order``; and whether all finished.

        A value is NaN where the move changes nothing or ``deadline`` came before its search finished.
        """
        self.state[search.DEADLINE] = deadline
        self.state[search.ABORTED] = 0.0
        scores = search.score_moves(
            layout.to_search(board),
            spawns,
            np.asarray(order),
            self.lines,
            self.loss,
            self.keys,
            self.depths,
            self.values,
            self.state,
        )
        return scores, not self.state[search.ABORTED]

    def suggest(self, board: int, budget_ms: float = DEFAULT_BUDGET_MS, started: float | None = None) -> Suggestion:
        """The best move, with the scores of the deepest pass that finished.

        A pass cut off by the deadline may still change the move (see the module's docstring); the
        scores then come from the pass before it, which is why the move need not have the top score.
        The budget runs from ``started`` (a ``perf_counter`` reading) when the hint began before this call.
        """
        start = perf_counter() if started is None else started
        deadline = start + budget_ms / 1000
        valid_directions = valid_moves(board)  # the engine's word: the search's view caps tiles at 32768
        if not valid_directions:
            raise NoValidMove("no move changes this board: the game is over")
        valid = [DIRECTIONS.index(d) for d in valid_directions]
        scores, _ = self.score(board, 0)
        ranked = _best_first(valid, scores)
        choice, spawns, last = ranked[0], 0, 0.0
        for next_spawns in range(1, depth_limit(board) + 1):
            began = perf_counter()
            if deadline - began < last:
                break
            deeper, finished = self.score(board, next_spawns, deadline, np.array(ranked))
            if finished:
                scores, last = deeper, perf_counter() - began
                ranked = _best_first(valid, scores)
                choice, spawns = ranked[0], next_spawns
                continue
            if not np.isnan(deeper[ranked[0]]):
                choice = max((d for d in valid if not np.isnan(deeper[d])), key=deeper.__getitem__)
                spawns = next_spawns
            break
        return Suggestion(
            DIRECTIONS[choice],
            {DIRECTIONS[d]: float(scores[d]) for d in valid},
            spawns + 1,
            (perf_counter() - start) * 1000,
        )
