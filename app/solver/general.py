"""The solver of every board size but the classic 4x4: an expectimax search in Python over the
engine's general kernel, deepened pass by pass within the same time budget as the compiled search.

A board is rated as the classic search rates it, line by line (heuristic.line_values on every row
and column, the lines not seen yet worked out together, each value kept), so its advice reads the same: empty cells,
merges, big tiles gathered at one end. A chance node weighs the tiles to come (a 2 at 0.9, a 4 at
0.1) on at most SAMPLED_CELLS empty cells spread over the board: a large board has too many to try
every one in time, and cells close together lead to much the same. Each pass looks one spawn
deeper, up to the classic search's depth rule (solver.depth_limit); a pass the deadline cuts off is
dropped and the last finished pass's move stands, so a hint always gives a move that changes the board.
"""

from operator import itemgetter
from time import perf_counter

import numpy as np

from app.engine.board import exponents
from app.engine.directions import DIRECTIONS
from app.engine.general import lines_of
from app.engine.kernels import kernel_for

from .heuristic import Weights, line_values
from .solver import DEFAULT_BUDGET_MS, FEWER_SPAWNS, MIN_SPAWNS, NoValidMove, Suggestion

SAMPLED_CELLS = 6
SPAWNS = ((1, 0.9), (2, 0.1))  # a new tile's exponent and its chance (engine/spawn.py)
KEPT_LINES = 1 << 13  # line values kept (some 2 MB at most); all are dropped when full


class _OutOfTime(Exception):
    """The deadline came in the middle of a pass."""


class GeneralSolver:
    """Expectimax player for one variant, any size."""

    def __init__(self, variant, weights: Weights = Weights()):
        self.variant, self.kernel = variant, kernel_for(variant)
        lines = lines_of(variant.size)
        self._readers = [itemgetter(*line) for line in lines["left"] + lines["up"]]
        self.weights, self.loss = weights, -weights.loss
        self._values: dict[tuple, float] = {}

    def evaluate(self, board: int) -> float:
        flat, values = exponents(board, self.variant), self._values
        lines = [read(flat) for read in self._readers]
        new = [line for line in lines if line not in values]
        if new:
            if len(values) + len(new) > KEPT_LINES:
                values.clear()
            values.update(zip(new, line_values(np.array(new), self.weights).tolist(), strict=True))
        return sum(values[line] for line in lines)

    def suggest(self, board: int, budget_ms: float = DEFAULT_BUDGET_MS, started: float | None = None) -> Suggestion:
        """The best move of the deepest pass that finished within the budget (from ``started``, a
        ``perf_counter`` reading, when the hint began before this call), with that pass's scores."""
        start = perf_counter() if started is None else started
        deadline = start + budget_ms / 1000
        after = {d: moved for d in DIRECTIONS if (moved := self.kernel.move(board, d)[0]) != board}
        if not after:
            raise NoValidMove("no move changes this board: the game is over")
        scores, spawns = {d: self.evaluate(moved) for d, moved in after.items()}, 0
        distinct = len(set(exponents(board, self.variant)) - {0})
        for depth in range(1, max(MIN_SPAWNS, distinct - FEWER_SPAWNS) + 1):
            try:
                scores = {d: self._chance(moved, depth, deadline) for d, moved in after.items()}
            except _OutOfTime:
                break
            spawns = depth
        best = max(scores, key=scores.__getitem__)
        return Suggestion(best, scores, spawns + 1, (perf_counter() - start) * 1000)

    def _chance(self, board: int, depth: int, deadline: float) -> float:
        """The expected value of ``board`` once a tile has come, ``depth`` spawns searched."""
        if perf_counter() > deadline:
            raise _OutOfTime
        variant = self.variant
        empty = [i for i, exponent in enumerate(exponents(board, variant)) if not exponent]
        cells = empty[:: -(-len(empty) // SAMPLED_CELLS)] if len(empty) > SAMPLED_CELLS else empty
        total = 0.0
        for cell in cells:
            for exponent, chance in SPAWNS:
                total += chance * self._best(board | exponent << variant.shifts[cell], depth - 1, deadline)
        return total / len(cells)

    def _best(self, board: int, depth: int, deadline: float) -> float:
        """The value of the best move from ``board`` (the loss when none is left)."""
        moves = [moved for d in DIRECTIONS if (moved := self.kernel.move(board, d)[0]) != board]
        if not moves:
            return self.loss
        if not depth:
            if perf_counter() > deadline:
                raise _OutOfTime
            return max(map(self.evaluate, moves))
        return max(self._chance(moved, depth, deadline) for moved in moves)
