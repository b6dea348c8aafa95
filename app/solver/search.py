"""Expectimax compiled to machine code by numba: the solver's hot path.

A board is searched as its four 20-bit rows (``int64`` each: the packed
80-bit board does not fit a machine word). Left and right slides look rows up
in the engine's own row tables (arrays, read in place), so the rules still come only
from ``app.engine.tables``; up and down transpose with bit operations, slide
the columns as rows and transpose back.

Chance nodes average over every empty cell x {2: 0.9, 4: 0.1}; max nodes take
the best of the four slides. A spawn path less likely than ``cut`` (from the
root) is not searched further, as in nneonneo/2048-ai. A transposition table
(fixed-size arrays, always-replace, kept between hints) maps an afterstate to
the value of a search at least as deep as the one asked for.

Numba cannot read a clock in compiled code, so every ``CLOCK_EVERY`` chance
nodes the search reads ``time.perf_counter`` in object mode; past the deadline
it unwinds at once and stores nothing more.
"""

import time

import numpy as np
from numba import njit, objmode

from app.engine.board import CELL_BITS, CELL_MASK, ROW_BITS, ROW_MASK, SIZE
from app.engine.moves import DIRECTIONS
from app.engine.tables import LEFT, RIGHT

UP, DOWN, LEFT_MOVE, RIGHT_MOVE = (DIRECTIONS.index(d) for d in ("up", "down", "left", "right"))
CLOCK_EVERY = 63  # chance nodes between two clock reads, minus one (a bit mask): about 0.1 ms
HASH = -7046029254386353131  # 0x9E3779B97F4A7C15 (Fibonacci hashing) as a signed 64-bit int

# Indices into the search's state array.
DEADLINE, CUT, NODES, ABORTED = range(4)


def row_tables() -> tuple[np.ndarray, np.ndarray]:
    """The engine's left and right row tables, read in place by the compiled code (no copy)."""
    return np.frombuffer(LEFT, dtype=np.uint32), np.frombuffer(RIGHT, dtype=np.uint32)


def rows_of(board: int) -> np.ndarray:
    """The packed board's four rows, row 0 first."""
    return np.array([board >> (ROW_BITS * r) & ROW_MASK for r in range(SIZE)], dtype=np.int64)


def board_of(rows) -> int:
    return sum(int(row) << (ROW_BITS * r) for r, row in enumerate(rows))


@njit(cache=True)
def _column(r0, r1, r2, r3, shift):
    """Column ``shift // CELL_BITS`` of the board as a row (row 0's cell lowest)."""
    return (
        (r0 >> shift & CELL_MASK)
        | (r1 >> shift & CELL_MASK) << CELL_BITS
        | (r2 >> shift & CELL_MASK) << 2 * CELL_BITS
        | (r3 >> shift & CELL_MASK) << 3 * CELL_BITS
    )


@njit(cache=True)
def _transpose(r0, r1, r2, r3):
    return (
        _column(r0, r1, r2, r3, 0),
        _column(r0, r1, r2, r3, CELL_BITS),
        _column(r0, r1, r2, r3, 2 * CELL_BITS),
        _column(r0, r1, r2, r3, 3 * CELL_BITS),
    )


@njit(cache=True)
def _slide(r0, r1, r2, r3, direction, left, right):
    """The four rows after sliding in ``direction`` (an index into DIRECTIONS)."""
    if direction == LEFT_MOVE:
        return np.int64(left[r0]), np.int64(left[r1]), np.int64(left[r2]), np.int64(left[r3])
    if direction == RIGHT_MOVE:
        return np.int64(right[r0]), np.int64(right[r1]), np.int64(right[r2]), np.int64(right[r3])
    table = left if direction == UP else right
    c0, c1, c2, c3 = _transpose(r0, r1, r2, r3)
    return _transpose(np.int64(table[c0]), np.int64(table[c1]), np.int64(table[c2]), np.int64(table[c3]))


@njit(cache=True, nogil=True)
def slide(rows, direction, left, right):
    """One slide of a board given as its rows: the compiled engine move, for tests and benchmarks."""
    r0, r1, r2, r3 = _slide(rows[0], rows[1], rows[2], rows[3], direction, left, right)
    return np.array([r0, r1, r2, r3], dtype=np.int64)


@njit(cache=True, nogil=True)
def slide_many(boards, left, right):
    """Every slide of every board (rows per line of ``boards``); returns a checksum so none is skipped."""
    total = 0
    for i in range(boards.shape[0]):
        for direction in range(4):
            r0, r1, r2, r3 = _slide(boards[i, 0], boards[i, 1], boards[i, 2], boards[i, 3], direction, left, right)
            total ^= r0 ^ r1 ^ r2 ^ r3
    return total


@njit(cache=True)
def _evaluate(r0, r1, r2, r3, lines):
    """Heuristic of a board: the line table summed over its rows and its columns."""
    c0, c1, c2, c3 = _transpose(r0, r1, r2, r3)
    return lines[r0] + lines[r1] + lines[r2] + lines[r3] + lines[c0] + lines[c1] + lines[c2] + lines[c3]


@njit(cache=True, nogil=True)
def evaluate(rows, lines):
    return _evaluate(rows[0], rows[1], rows[2], rows[3], lines)


@njit(cache=True)
def _slot(key, r3, mask):
    """Table slot of a board: its first three rows (``key``) and last row hashed to ``mask``'s bits."""
    return ((key ^ r3 * 0x5851F42D) * HASH) >> 40 & mask


@njit(cache=True)
def _out_of_time(state):
    """Counts a chance node; every CLOCK_EVERY + 1 nodes, checks the deadline."""
    state[NODES] += 1
    if int(state[NODES]) & CLOCK_EVERY == 0:
        with objmode(now="float64"):
            now = time.perf_counter()
        if now > state[DEADLINE]:
            state[ABORTED] = 1.0
    return state[ABORTED] != 0.0


@njit(cache=True)
def chance(r0, r1, r2, r3, depth, probability, left, right, lines, loss, keys, lasts, depths, values, state):
    """Expected value of an afterstate (tile not yet spawned) with ``depth`` spawns and moves to go."""
    if depth == 0:
        return _evaluate(r0, r1, r2, r3, lines)
    key = r0 | r1 << ROW_BITS | r2 << 2 * ROW_BITS
    slot = _slot(key, r3, keys.shape[0] - 1)
    if depths[slot] >= depth and keys[slot] == key and lasts[slot] == r3:
        return values[slot]
    if _out_of_time(state):
        return 0.0
    rows = (r0, r1, r2, r3)
    count = 0
    for r in range(SIZE):
        for shift in range(0, ROW_BITS, CELL_BITS):
            if rows[r] >> shift & CELL_MASK == 0:
                count += 1
    total = 0.0
    for r in range(SIZE):
        for shift in range(0, ROW_BITS, CELL_BITS):
            if rows[r] >> shift & CELL_MASK:
                continue
            for exponent, weight in ((1, 0.9), (2, 0.1)):
                p = probability * weight / count
                s0, s1, s2, s3 = r0, r1, r2, r3
                tile = np.int64(exponent) << shift
                if r == 0:
                    s0 |= tile
                elif r == 1:
                    s1 |= tile
                elif r == 2:
                    s2 |= tile
                else:
                    s3 |= tile
                below = depth - 1 if p >= state[CUT] else 0
                best = -loss
                for direction in range(4):
                    m0, m1, m2, m3 = _slide(s0, s1, s2, s3, direction, left, right)
                    if m0 == s0 and m1 == s1 and m2 == s2 and m3 == s3:
                        continue
                    if below:
                        value = chance(
                            m0, m1, m2, m3, below, p, left, right, lines, loss, keys, lasts, depths, values, state
                        )
                    else:
                        value = _evaluate(m0, m1, m2, m3, lines)
                    if value > best:
                        best = value
                if state[ABORTED] != 0.0:
                    return 0.0
                total += weight * best
    value = total / count
    keys[slot] = key
    lasts[slot] = r3
    depths[slot] = depth
    values[slot] = value
    return value


@njit(cache=True, nogil=True)
def score_moves(rows, depth, left, right, lines, loss, keys, lasts, depths, values, state):
    """Value of each slide of the board (NaN where it changes nothing) after a search ``depth`` deep.

    ``state[ABORTED]`` is set when the deadline passed: the values are then worthless.
    """
    scores = np.full(4, np.nan)
    r0, r1, r2, r3 = rows[0], rows[1], rows[2], rows[3]
    for direction in range(4):
        m0, m1, m2, m3 = _slide(r0, r1, r2, r3, direction, left, right)
        if m0 == r0 and m1 == r1 and m2 == r2 and m3 == r3:
            continue
        scores[direction] = chance(
            m0, m1, m2, m3, depth, 1.0, left, right, lines, loss, keys, lasts, depths, values, state
        )
    return scores
