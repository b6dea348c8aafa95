"""The solver the app asks for hints: iterative deepening under a time budget.

Each suggestion searches depth 1, 2, ... and answers with the deepest search
that finished. The budget is a promise to the player, so a deeper search is only
started when the previous ones suggest it can finish in the time left, and one
that overruns anyway is abandoned. Tight boards (many distinct tiles) are
allowed to go deeper than open ones, which are easy and answered fast.
"""

import gc
from dataclasses import dataclass, field
from time import perf_counter

from app.engine.board import exponents
from app.engine.errors import GameFinished
from app.engine.moves import DIRECTIONS, MOVES

from .heuristic import Weights, build_table
from .search import Expectimax, OutOfTime

DEFAULT_BUDGET_MS = 100.0
CUT = 1 / 8  # a depth-d search stops at spawn paths less likely than CUT / 4**d
MAX_ENTRIES = 200_000  # per cache dict: about 30 MB each at most
GROWTH = 10.0  # a search one move deeper costs about this many times more (measured 10-14)
MIN_DEPTH = 3  # at depth 2 even the opening can go wrong: a benchmark game died at 1024
OPEN = 5  # boards with this many empty cells or more are easy: MIN_DEPTH is enough

_tables: dict[Weights, list[float]] = {}


class NoValidMove(GameFinished):
    """No slide changes the board: there is nothing to suggest."""


@dataclass
class Suggestion:
    direction: str
    scores: dict[str, float] = field(default_factory=dict)
    depth: int = 0
    ms: float = 0.0

    def to_dict(self) -> dict:
        return {"direction": self.direction, "scores": self.scores, "depth": self.depth, "ms": self.ms}


def depth_limit(board: int) -> int:
    """Deepest search worth its time: more distinct tiles, more to plan for; open boards are easy."""
    cells = exponents(board)
    if cells.count(0) >= OPEN:
        return MIN_DEPTH
    return max(MIN_DEPTH, len(set(cells) - {0}) - 3)


def _line_table(weights: Weights) -> list[float]:
    """Tables are big (2**20 entries) and pure, so solvers with equal weights share one."""
    if weights not in _tables:
        _tables[weights] = build_table(weights)
    return _tables[weights]


class Solver:
    """Expectimax player whose caches carry over from one move to the next."""

    def __init__(
        self,
        weights: Weights = Weights(),
        cut: float = CUT,
        max_entries: int = MAX_ENTRIES,
    ):
        self.cut = cut
        self.search = Expectimax(_line_table(weights), weights.loss, max_entries)

    def suggest(self, board: int, budget_ms: float = DEFAULT_BUDGET_MS) -> Suggestion:
        """A hint keeps its deadline: searches run with Python's cycle collector paused (a
        search makes no cycles, and a full collection over the caches' entries alone can
        take longer than a budget), and the caches' trim after them drops only the few
        entries added since the last trim inside the search."""
        start = perf_counter()
        children = {d: MOVES[d](board) for d in DIRECTIONS}
        children = {d: child for d, child in children.items() if child != board}
        if not children:
            raise NoValidMove("no move changes this board: the game is over")
        deadline = start + budget_ms / 1000
        collecting = gc.isenabled()
        gc.disable()
        try:
            scores, depth = self._deepen(board, children, deadline)
        finally:
            if collecting:
                gc.enable()
        self.search.trim()
        direction = max(scores, key=scores.get)
        return Suggestion(direction, scores, depth, (perf_counter() - start) * 1000)

    def _deepen(self, board, children, deadline):
        """Search depth 1, 2, ... while the next depth is expected to finish in time."""
        scores, depth, last = {}, 0, 0.0
        chance = self.search.chance
        self.search.deadline = deadline
        for next_depth in range(1, depth_limit(board) + 1):
            began = perf_counter()
            if scores and began + last * GROWTH > deadline:
                break
            self.search.cut = self.cut / 4**next_depth
            try:
                scores = {d: chance(child, next_depth - 1, 1.0) for d, child in children.items()}
            except OutOfTime:
                break
            depth, last = next_depth, perf_counter() - began
        return scores, depth
