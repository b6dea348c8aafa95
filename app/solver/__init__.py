"""The built-in 2048 solver: expectimax hints within a thinking-time budget."""

from .heuristic import Weights
from .solver import DEFAULT_BUDGET_MS, NoValidMove, Solver, Suggestion

__all__ = ["DEFAULT_BUDGET_MS", "NoValidMove", "Solver", "Suggestion", "Weights"]
