"""The two statistics the page benchmarks report: the median of runs and a percentile of samples."""

from __future__ import annotations

import statistics


def median(values: list[float]) -> float:
    """The median, NaN for no values."""
    return statistics.median(values) if values else float("nan")


def percentile(values: list[float], p: float) -> float | None:
    """The nearest-rank p-th percentile, None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]
