"""Shared by the benchmark scripts: make the repository importable and give the games to play.

The games are the spec-legal ones the tests use (tests/support/games.py)."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.support.games import hs_long, sv_game  # noqa: E402

__all__ = ["ROOT", "hs_long", "sv_game", "percentile", "summary"]


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q / 100
    low = int(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def summary(values_s: list[float]) -> str:
    ms = [v * 1000 for v in values_s]
    return (f"p50 {percentile(ms, 50):7.3f} ms  p99 {percentile(ms, 99):7.3f} ms  "
            f"mean {statistics.fmean(ms):7.3f} ms  (n={len(ms)})")
