"""Statistics the benchmarks share (no numba or numpy: HTTP-only benchmarks import it too)."""

import math


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile: the smallest value with ``share`` of values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]
