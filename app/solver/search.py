"""Expectimax compiled to machine code by numba: the solver's hot path.

A board is one 64-bit integer in the layout of ``layout`` (4 bits a cell).
Left and right slides replace each 16-bit row by its entry in the row tables
(built from the engine's, so the rules still come only from
``app.engine.tables``, and frozen into the machine code as constants); up and
down transpose the board with three bit operations, slide its rows and
transpose back.

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

from app.engine.directions import DIRECTIONS

from .layout import LINE, row_tables

UP, LEFT_MOVE, RIGHT_MOVE = (DIRECTIONS.index(d) for d in ("up", "left", "right"))  # down: the rest
CLOCK_EVERY = 255  # chance nodes between two clock reads, minus one (a bit mask): well under 0.1 ms
HASH = -7046029254386353131  # 0x9E3779B97F4A7C15 (Fibonacci hashing) as a signed 64-bit int
ONES = 0x1111111111111111  # the lowest bit of every cell

# Indices into the search's state array.
DEADLINE, CUT, NODES, ABORTED = range(4)

LEFT, RIGHT = row_tables()


@njit(cache=True)
def _transpose(x):
    """Swap rows and columns: cells three apart, then six apart, trade places."""
    t = (x ^ (x >> 12)) & 0x0000F0F00000F0F0
    x ^= t ^ (t << 12)
    t = (x ^ (x >> 24)) & 0x00000000FF00FF00
    return x ^ t ^ (t << 24)


@njit(cache=True)
def _rows(x, table):
    """Each row replaced by its table entry."""
    return (
        np.int64(table[x & LINE])
        | np.int64(table[x >> 16 & LINE]) << 16
        | np.int64(table[x >> 32 & LINE]) << 32
        | np.int64(table[x >> 48 & LINE]) << 48
    )


@njit(cache=True)
def _slide(x, direction):
    """The board after sliding in ``direction`` (an index into DIRECTIONS)."""
    if direction == LEFT_MOVE:
        return _rows(x, LEFT)
    if direction == RIGHT_MOVE:
        return _rows(x, RIGHT)
    return _transpose(_rows(_transpose(x), LEFT if direction == UP else RIGHT))


@njit(cache=True)
def _evaluate(x, lines):
    """Heuristic of a board: the line table summed over its rows and its columns."""
    t = _transpose(x)
    return (
        lines[x & LINE] + lines[x >> 16 & LINE] + lines[x >> 32 & LINE] + lines[x >> 48 & LINE]
        + lines[t & LINE] + lines[t >> 16 & LINE] + lines[t >> 32 & LINE] + lines[t >> 48 & LINE]
    )


@njit(cache=True)
def _empty_cells(x):
    """One bit (the cell's lowest) set for every empty cell."""
    x |= x >> 2 & 0x3333333333333333
    x |= x >> 1
    return ~x & ONES


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
def chance(x, depth, probability, lines, loss, keys, depths, values, state):
    """Expected value of an afterstate (tile not yet spawned) with ``depth`` spawns and moves to go.

    Up and down slide the transposed board's rows; a board and its transpose are
    worth the same, so a vertical slide's leaf is evaluated without transposing back.
    The max node is written inline rather than as a second function: numba's cache
    crashes loading functions that call each other recursively.
    """
    if depth == 0:
        return _evaluate(x, lines)
    slot = (x * HASH) >> 40 & (keys.shape[0] - 1)
    if depths[slot] >= depth and keys[slot] == x:
        return values[slot]
    if _out_of_time(state):
        return 0.0
    empty = _empty_cells(x)
    count = 0
    rest = empty
    while rest:
        rest &= rest - 1
        count += 1
    total = 0.0
    while empty:
        cell = empty & -empty
        empty ^= cell
        for exponent, weight in ((1, 0.9), (2, 0.1)):
            p = probability * weight / count
            below = depth - 1 if p >= state[CUT] else 0
            spawned = x | cell * exponent
            best = -loss
            for vertical in (False, True):
                board = _transpose(spawned) if vertical else spawned
                for table in (LEFT, RIGHT):
                    moved = _rows(board, table)
                    if moved == board:
                        continue
                    if below:
                        after = _transpose(moved) if vertical else moved
                        value = chance(after, below, p, lines, loss, keys, depths, values, state)
                    else:
                        value = _evaluate(moved, lines)
                    if value > best:
                        best = value
            if state[ABORTED] != 0.0:
                return 0.0
            total += weight * best
    value = total / count
    keys[slot] = x
    depths[slot] = depth
    values[slot] = value
    return value


@njit(cache=True, nogil=True)
def score_moves(x, depth, order, lines, loss, keys, depths, values, state):
    """Value of each slide of the board after a search ``depth`` deep, the slides searched in ``order``.

    NaN where the slide changes nothing, and where the deadline passed before its
    search finished (``state[ABORTED]`` is then set); the slides finished first keep their values.
    """
    scores = np.full(4, np.nan)
    for direction in order:
        moved = _slide(x, direction)
        if moved != x:
            value = chance(moved, depth, 1.0, lines, loss, keys, depths, values, state)
            if state[ABORTED] != 0.0:
                break
            scores[direction] = value
    return scores
