"""The solver as the web app uses it: one per worker process, its table kept across hints.

The solver works on one position at a time on a machine (all workers sharing an instance
folder: the slot is a lock file), so however many hints and reviews arrive, the other
workers stay free for moves. A player's hint goes first: a hint that finds another hint
in the slot is refused at once (SolverBusy: 429 with Retry-After) rather than tying up its
worker, but one that finds a review there waits for that review's position to end (a
review's budget, shorter than a hint's), and meanwhile no review takes the slot again.
A review yields whenever a hint waits or the slot is taken: it is refused, keeping what
it has done, and asked again later.

Two lock files: ``solver.lock`` is the slot; on ``solver-queue.lock`` a review holds an
exclusive lock for as long as it holds the slot, and a waiting hint a shared one.
"""

import gc
import threading
import time
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


SLOT, QUEUE = "solver.lock", "solver-queue.lock"
POLL_SECONDS = 0.0005


@contextmanager
def _slot_for_a_hint(folder, deadline):
    """The slot; if a review holds it, once that review's position ends (by ``deadline`` at the latest)."""
    with open_lock_file(folder / SLOT) as slot:
        if not try_flock(slot):
            with open_lock_file(folder / QUEUE) as queue:
                if try_flock(queue, shared=True):
                    raise SolverBusy  # no review holds the queue: a hint holds the slot
                _poll(lambda: try_flock(queue, shared=True), deadline)
                _poll(lambda: try_flock(slot), deadline)
        yield


@contextmanager
def _slot_for_a_review(folder):
    """The slot, only while no hint waits for it; the queue is held with it, and let go after it."""
    with open_lock_file(folder / QUEUE) as queue:
        if not try_flock(queue):
            raise SolverBusy
        with open_lock_file(folder / SLOT) as slot:
            if not try_flock(slot):
                raise SolverBusy
            yield


def _poll(attempt, deadline):
    while not attempt():
        if perf_counter() >= deadline:
            raise SolverBusy
        time.sleep(POLL_SECONDS)


def suggest(board, budget_ms, instance_path):
    """A player's hint. Threads of one worker take turns, so the solver's table is never shared mid-search.

    The budget runs from here, so taking the slot (opening and locking a file, slow enough
    just after a search to matter at 10 ms: see the README), and waiting for a review's
    position to end, count against it.
    """
    started = perf_counter()
    with _slot_for_a_hint(Path(instance_path), started + budget_ms / 1000), _lock:
        return _solver().suggest(board, budget_ms, started)


def review(board, budget_ms, instance_path):
    """The solver's view of one position of a review, if no hint needs the solver (else SolverBusy)."""
    started = perf_counter()
    with _slot_for_a_review(Path(instance_path)), _lock:
        return _solver().suggest(board, budget_ms, started)
