"""The solver as the web app uses it: one per worker process, its caches kept across hints."""

import threading
from functools import cache

from .solver import Solver

_lock = threading.Lock()


@cache
def _solver():
    """Built on the first hint, not at start-up: its evaluation table takes a moment."""
    return Solver()


def suggest(board, budget_ms):
    """Threads of one worker take turns, so the solver's caches are never shared mid-search."""
    with _lock:
        return _solver().suggest(board, budget_ms)
