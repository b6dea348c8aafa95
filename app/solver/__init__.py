"""The built-in 2048 solver: expectimax hints within a thinking-time budget, for every board size."""

from .general import GeneralSolver
from .heuristic import Weights
from .solver import DEFAULT_BUDGET_MS, NoValidMove, Solver, Suggestion

__all__ = ["DEFAULT_BUDGET_MS", "GeneralSolver", "NoValidMove", "Solver", "Suggestion", "Weights"]
