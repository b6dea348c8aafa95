"""Board evaluation from one per-line lookup table (the general solver rates lines of any length alike).

A board's value is the sum of the table entries of its 4 rows and its 4 columns
(the rows of its transpose), so evaluating costs 8 array lookups. The table rates
a line on what keeps a game alive: empty cells, neighbours that can merge,
monotonic order (big tiles gathered at one end) and few big tiles in the two
inner cells, minus a cost that grows steeply with tile size so that merging
always pays. All weights are named in ``Weights`` and were chosen by benchmark
(see ``templates/solver.html`` for how).
"""

from dataclasses import dataclass

import numpy as np

from .layout import LINES, line_cells


@dataclass(frozen=True)
class Weights:
    empty: float = 270.0
    merges: float = 700.0
    monotonicity: float = 47.0
    monotonicity_power: float = 4.0
    sum: float = 11.0
    sum_power: float = 3.5
    inner: float = 0.0
    inner_power: float = 3.0
    loss: float = 1_600_000.0  # what a board with no move left is worth, below zero


def _lines() -> np.ndarray:
    """Every line of the search's layout, one per row, in the order of its 16-bit index: shape (16**4, 4)."""
    return np.stack(line_cells(np.arange(LINES)), axis=1)


def _merges(lines: np.ndarray) -> np.ndarray:
    """Pairs that one slide could merge, gaps ignored; a run of k equal tiles counts k."""
    merges = np.zeros(len(lines))
    previous = np.zeros(len(lines), dtype=lines.dtype)
    run = np.zeros(len(lines))
    for i in range(lines.shape[1]):
        rank = lines[:, i]
        tile = rank > 0
        same = tile & (rank == previous)
        ends = tile & ~same & (run > 0)
        merges += np.where(ends, run + 1, 0)
        run = np.where(same, run + 1, np.where(tile, 0, run))
        previous = np.where(tile, rank, previous)
    return merges + np.where(run > 0, run + 1, 0)


def _monotonicity(lines: np.ndarray, power: float) -> np.ndarray:
    """Size of the smaller of the line's rises and falls: 0 for a sorted line."""
    weight = lines.astype(float) ** power
    rises = np.zeros(len(lines))
    falls = np.zeros(len(lines))
    for i in range(1, lines.shape[1]):
        step = weight[:, i] - weight[:, i - 1]
        falling = lines[:, i - 1] > lines[:, i]
        falls += np.where(falling, -step, 0)
        rises += np.where(falling, 0, step)
    return np.minimum(rises, falls)


def build_table(weights: Weights) -> np.ndarray:
    """Value of every line, indexed by the search's 16-bit rows (the array the compiled search reads)."""
    return line_values(_lines(), weights)


def line_values(lines: np.ndarray, weights: Weights) -> np.ndarray:
    """Value of each line (a row of ``lines``: its exponents, index 0 first), of any length."""
    ranks = lines.astype(float)
    return (
        weights.empty * (lines == 0).sum(axis=1)
        + weights.merges * _merges(lines)
        - weights.monotonicity * _monotonicity(lines, weights.monotonicity_power)
        - weights.sum * (ranks**weights.sum_power).sum(axis=1)
        - weights.inner * (ranks[:, 1:-1] ** weights.inner_power).sum(axis=1)
    )
