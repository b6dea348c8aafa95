"""The solver as the web app uses it: one per worker process, its table kept across hints.

The solver works on one position at a time on a machine (all workers sharing an instance
folder: the slot is a lock file), so however many hints and reviews arrive, the other
workers stay free for moves. A player's hint goes first: a hint that finds another hint
in the slot is refused at once (SolverBusy: 429 with Retry-After) rather than tying up its
worker, but one that finds a review there says so (it touches ``solver-wanted``) and waits
for that review's position to end (a review's budget, shorter than a hint's). A review
yields the solver whenever a hint asked for it within the last HINT_GRACE seconds, or the
slot is taken: it is refused, keeping what it has done, and asked again later.

Lock files: ``solver.lock`` is the slot; a review holds ``solver-review.lock`` for as long
as it holds the slot, so that a hint can tell whom it waits for.
"""

import gc
import os
import threading
import time
from contextlib import contextmanager, suppress
from functools import cache
from pathlib import Path
from time import perf_counter

from .engine import CLASSIC, Game
from .errors import ApiError
from .faults import SolverUnavailable
from .lockfiles import closing_fd, open_lock_file, try_flock
from .solver import GeneralSolver, Solver

_lock = threading.Lock()


class SolverBusy(ApiError):
    """Another worker's hint, or a hint before this review, has the solver right now."""

    def __init__(self):
        super().__init__(429, "solver_busy", "the solver is working out another hint; try again in a moment", 1)


@cache
def _solver(variant=CLASSIC):
    """The worker's solver of ``variant``: the compiled search for the classic 4x4, the general one
    for the other sizes. What it keeps for the worker's lifetime is moved out of the cycle
    collector's sight: a full collection walking it could start in the middle of any hint."""
    solver = Solver() if variant == CLASSIC else GeneralSolver(variant)
    gc.freeze()
    return solver


def warm_up():
    """Build the solver and load (or, the first time, compile) its machine code.

    Called when a worker starts, before it takes requests, so that no player's hint
    waits for numba: loading a filled cache is quick, compiling takes longer (docs/deployment.md
    says how long each takes).
    """
    with _lock:
        _solver().suggest(Game.new(0).board, 1.0)


SLOT, REVIEWING, WANTED = "solver.lock", "solver-review.lock", "solver-wanted"
POLL_SECONDS = 0.0005
HINT_GRACE = 0.25  # seconds after a hint asked for the solver in which no review takes it


@contextmanager
def _slot_for_a_hint(folder, deadline):
    """The slot; if a review holds it, once that review's position ends (by ``deadline`` at the latest)."""
    with closing_fd(open_lock_file(folder / SLOT, SolverUnavailable)) as slot:
        if not try_flock(slot):
            with closing_fd(open_lock_file(folder / REVIEWING, SolverUnavailable)) as reviewing:
                if try_flock(reviewing, shared=True):
                    raise SolverBusy  # no review holds the slot: a hint does
            with suppress(OSError):  # a folder that cannot take it: the reviews only yield later
                (folder / WANTED).touch(mode=0o600)
            _poll(lambda: try_flock(slot), deadline)
        yield


@contextmanager
def _slot_for_a_review(folder):
    """The slot, unless a hint asked for the solver a moment ago; held with the reviewing lock."""
    try:
        wanted = time.time() - (folder / WANTED).stat().st_mtime < HINT_GRACE
    except FileNotFoundError:
        wanted = False
    if wanted:
        raise SolverBusy
    with closing_fd(open_lock_file(folder / REVIEWING, SolverUnavailable)) as reviewing:
        if not try_flock(reviewing):
            raise SolverBusy  # another review
        with closing_fd(open_lock_file(folder / SLOT, SolverUnavailable)) as slot:
            if not try_flock(slot):
                raise SolverBusy
            yield


def check_slot(instance_path):
    """The solver's lock file opens (SolverUnavailable if the instance folder cannot hold it)."""
    os.close(open_lock_file(Path(instance_path) / SLOT, SolverUnavailable))


def _poll(attempt, deadline):
    while not attempt():
        if perf_counter() >= deadline:
            raise SolverBusy
        time.sleep(POLL_SECONDS)


def suggest(board, variant, budget_ms, instance_path):
    """A player's hint. Threads of one worker take turns, so the solver's table is never shared mid-search.

    The budget runs from here, so taking the slot (opening and locking a file, slow enough
    just after a search to matter at 10 ms: see docs/benchmarks.md), and waiting for a review's
    position to end, count against it.
    """
    started = perf_counter()
    with _slot_for_a_hint(Path(instance_path), started + budget_ms / 1000), _lock:
        return _solver(variant).suggest(board, budget_ms, started)


def review(board, variant, budget_ms, instance_path):
    """The solver's view of one position of a review, if no hint needs the solver (else SolverBusy)."""
    started = perf_counter()
    with _slot_for_a_review(Path(instance_path)), _lock:
        return _solver(variant).suggest(board, budget_ms, started)
