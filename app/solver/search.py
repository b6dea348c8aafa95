"""Depth-limited expectimax over packed boards, written for CPython's speed.

Chance nodes average over every empty cell x {2: 0.9, 4: 0.1}; max nodes take
the best of the four slides. Python pays for every name lookup and call, so the
hot functions are closures with the engine's tables bound as default arguments
(fast locals), slides are the engine's table lookups written out in place, and
empty cells are found with bit tricks instead of a cell loop.

Two dicts make it fast across moves: ``evals`` caches the heuristic of a board,
``table`` (the transposition table) maps an afterstate to (depth, value). Both
survive between searches, since the next move's tree overlaps this one's, and
are trimmed oldest-first when they pass ``max_entries``: during a search by an
eighth at a time (a few milliseconds at most, so a search never overruns its deadline
by much), and after it by the few entries its last steps added.
"""

from itertools import islice
from time import perf_counter

from app.engine.board import CELL_BITS, ROW_MASK, SIZE
from app.engine.tables import DOWN_COLUMN, LEFT, RIGHT, TRANSPOSE_COLUMN, UP_COLUMN

# The lowest bit of every cell: a set bit per empty cell is also where a 2 goes.
CELL_LOW_BITS = sum(1 << (CELL_BITS * i) for i in range(SIZE * SIZE))
TRIM_SHARE = 8  # a trim during a search drops this fraction of the entries: 1/8


class OutOfTime(Exception):
    """The deadline passed inside a search; its partial result is worthless."""


class Expectimax:
    def __init__(self, line_table: list[float], loss: float, max_entries: int):
        self.evals: dict[int, float] = {}
        self.table: dict[int, tuple[int, float]] = {}
        self.max_entries = max_entries
        self.deadline = float("inf")
        self.cut = 0.0  # spawn paths less likely than this are not searched further
        self.chance = self._build(line_table, -loss)

    def _build(self, line_table, lost):
        evals, table, search, limit = self.evals, self.table, self, self.max_entries

        def evaluate(board, H=line_table, T=TRANSPOSE_COLUMN, M=ROW_MASK):
            """Heuristic of a board not yet in ``evals``: its rows plus its transpose's rows."""
            t = T[board & M] | T[board >> 20 & M] << 5 | T[board >> 40 & M] << 10 | T[board >> 60] << 15
            value = evals[board] = (
                H[board & M] + H[board >> 20 & M] + H[board >> 40 & M] + H[board >> 60]
                + H[t & M] + H[t >> 20 & M] + H[t >> 40 & M] + H[t >> 60]
            )
            return value

        def leaf(
            board, L=LEFT, R=RIGHT, T=TRANSPOSE_COLUMN, U=UP_COLUMN, D=DOWN_COLUMN, M=ROW_MASK,
            cached=evals.get,
        ):
            """Max node at the horizon: the best heuristic among the slides of ``board``."""
            r0 = board & M
            r1 = board >> 20 & M
            r2 = board >> 40 & M
            r3 = board >> 60
            best = lost
            child = L[r0] | L[r1] << 20 | L[r2] << 40 | L[r3] << 60
            if child != board:
                best = cached(child) or evaluate(child)
            child = R[r0] | R[r1] << 20 | R[r2] << 40 | R[r3] << 60
            if child != board:
                value = cached(child) or evaluate(child)
                if value > best:
                    best = value
            t = T[r0] | T[r1] << 5 | T[r2] << 10 | T[r3] << 15
            c0 = t & M
            c1 = t >> 20 & M
            c2 = t >> 40 & M
            c3 = t >> 60
            child = U[c0] | U[c1] << 5 | U[c2] << 10 | U[c3] << 15
            if child != board:
                value = cached(child) or evaluate(child)
                if value > best:
                    best = value
            child = D[c0] | D[c1] << 5 | D[c2] << 10 | D[c3] << 15
            if child != board:
                value = cached(child) or evaluate(child)
                if value > best:
                    best = value
            return best

        def inner(
            board, depth, probability, L=LEFT, R=RIGHT, T=TRANSPOSE_COLUMN, U=UP_COLUMN, D=DOWN_COLUMN, M=ROW_MASK
        ):
            """Max node above the horizon: the best chance value among the slides of ``board``."""
            r0 = board & M
            r1 = board >> 20 & M
            r2 = board >> 40 & M
            r3 = board >> 60
            best = lost
            child = L[r0] | L[r1] << 20 | L[r2] << 40 | L[r3] << 60
            if child != board:
                best = chance(child, depth, probability)
            child = R[r0] | R[r1] << 20 | R[r2] << 40 | R[r3] << 60
            if child != board:
                value = chance(child, depth, probability)
                if value > best:
                    best = value
            t = T[r0] | T[r1] << 5 | T[r2] << 10 | T[r3] << 15
            c0 = t & M
            c1 = t >> 20 & M
            c2 = t >> 40 & M
            c3 = t >> 60
            child = U[c0] | U[c1] << 5 | U[c2] << 10 | U[c3] << 15
            if child != board:
                value = chance(child, depth, probability)
                if value > best:
                    best = value
            child = D[c0] | D[c1] << 5 | D[c2] << 10 | D[c3] << 15
            if child != board:
                value = chance(child, depth, probability)
                if value > best:
                    best = value
            return best

        def chance(
            board, depth, probability, LOW=CELL_LOW_BITS, stored=table.get, cached=evals.get, clock=perf_counter
        ):
            """Expected value of an afterstate (tile not yet spawned) with ``depth`` moves to go.

            A spawn less likely than ``cut`` (from the root) ends the search below it.
            """
            if not depth:
                return cached(board) or evaluate(board)
            entry = stored(board)
            if entry is not None and entry[0] >= depth:
                return entry[1]
            if clock() > search.deadline:
                raise OutOfTime
            if len(evals) > limit:
                search.trim(limit - limit // TRIM_SHARE)
            free = LOW & ~(board | board >> 1 | board >> 2 | board >> 3 | board >> 4)
            count = free.bit_count()
            p2 = probability * 0.9 / count
            p4 = probability * 0.1 / count
            below = depth - 1
            deep2 = below and p2 >= search.cut
            deep4 = below and p4 >= search.cut
            total = 0.0
            while free:
                two = free & -free
                free ^= two
                total += 0.9 * (inner(board | two, below, p2) if deep2 else leaf(board | two))
                total += 0.1 * (inner(board | two << 1, below, p4) if deep4 else leaf(board | two << 1))
            value = total / count
            table[board] = (depth, value)
            return value

        return chance

    def trim(self, keep: int | None = None) -> None:
        """Drop the oldest entries of a dict that outgrew ``max_entries``, down to ``keep`` (or it)."""
        keep = self.max_entries if keep is None else keep
        for entries in (self.evals, self.table):
            if len(entries) > self.max_entries:
                for key in list(islice(entries, len(entries) - keep)):
                    del entries[key]
