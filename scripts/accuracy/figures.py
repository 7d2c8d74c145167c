"""The benchmarks' small figures: a share in percent, a median and a p95."""

from __future__ import annotations

import statistics


def percent(part: float, whole: float) -> float | None:
    """part / whole in %, None when there is no whole."""
    return 100.0 * part / whole if whole else None


def median_p95(samples: list[float]) -> tuple[float, float] | None:
    """Median and 95th percentile, None when there are no samples."""
    if not samples:
        return None
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[
        min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))
    ]
