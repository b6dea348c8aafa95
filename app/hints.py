"""The solver as the web app uses it: one per worker process, its table kept across hints."""

import threading
from functools import cache

from .engine import Game
from .solver import Solver

_lock = threading.Lock()


@cache
def _solver():
    return Solver()


def warm_up():
    """Build the solver and load (or, the first time, compile) its machine code.

    Called when a worker starts, before it takes requests, so that no player's hint
    waits for numba: with its cache filled this takes about a second, without it longer
    (see the README).
    """
    suggest(Game.new(seed=0).board, 1.0)


def suggest(board, budget_ms):
    """Threads of one worker take turns, so the solver's table is never shared mid-search."""
    with _lock:
        return _solver().suggest(board, budget_ms)
