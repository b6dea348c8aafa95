"""The solver as the web app uses it: one per worker process, its table kept across hints.

Only one hint is worked out at a time on a machine (all workers sharing an instance
folder), so however many hints arrive, the other workers stay free for moves. A hint
that finds the solver busy is refused at once (SolverBusy: 429 with Retry-After)
rather than tying up its worker while it waits.
"""

import gc
import threading
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from time import perf_counter

from .engine import Game
from .solver import Solver
from .store.lockfiles import open_lock_file, try_flock

_lock = threading.Lock()


class SolverBusy(Exception):
    """Another worker is working out a hint right now."""


@cache
def _solver():
    """The worker's solver. What it keeps for the worker's lifetime is moved out of the cycle
    collector's sight: a full collection walking it could start in the middle of any hint."""
    solver = Solver()
    gc.freeze()
    return solver


def warm_up():
    """Build the solver and load (or, the first time, compile) its machine code.

    Called when a worker starts, before it takes requests, so that no player's hint
    waits for numba: with its cache filled this takes about a second, without it longer
    (see the README).
    """
    with _lock:
        _solver().suggest(Game.new(seed=0).board, 1.0)


@contextmanager
def _machine_slot(instance_path):
    with open_lock_file(Path(instance_path) / "solver.lock") as file:
        if not try_flock(file):
            raise SolverBusy
        yield


def suggest(board, budget_ms, instance_path):
    """Threads of one worker take turns, so the solver's table is never shared mid-search.

    The budget runs from here, so taking the slot (opening and locking a file, slow enough
    just after a search to matter at 10 ms: see the README) counts against it.
    """
    started = perf_counter()
    with _machine_slot(instance_path), _lock:
        return _solver().suggest(board, budget_ms, started)
