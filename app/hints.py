"""The solver as the web app uses it: one per worker process, its caches kept across hints.

Only one hint is worked out at a time on a machine (all workers sharing an instance
folder), so however many hints arrive, the other workers stay free for moves. A hint
that finds the solver busy is refused at once (SolverBusy: 429 with Retry-After)
rather than tying up its worker while it waits.
"""

import fcntl
import gc
import threading
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from .solver import Solver
from .store import StoreUnavailable

_lock = threading.Lock()


class SolverBusy(Exception):
    """Another worker is working out a hint right now."""


@cache
def _solver():
    """Built on the first hint, not at start-up: its evaluation table takes a moment.

    Its tables (a million entries) live as long as the worker, so they are moved out of
    the cycle collector's sight: a full collection walking them took longer than a hint's
    whole budget, and one could start in the middle of any hint.
    """
    solver = Solver()
    gc.freeze()
    return solver


@contextmanager
def _machine_slot(instance_path):
    with _solver_lock_file(instance_path) as file:
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SolverBusy from None
        yield


def _solver_lock_file(instance_path):
    try:
        return open(Path(instance_path) / "solver.lock", "ab")
    except OSError as error:
        raise StoreUnavailable(f"cannot open the solver's lock file: {error}") from error


def suggest(board, budget_ms, instance_path):
    """Threads of one worker take turns, so the solver's caches are never shared mid-search."""
    with _machine_slot(instance_path), _lock:
        return _solver().suggest(board, budget_ms)
