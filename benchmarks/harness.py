"""Shared benchmark machinery: medians after a warm-up, rows with a reference measured in the same run."""

from __future__ import annotations

import os
import platform
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Row", "median_time", "machine"]

RUNS = 7  # medians of >= 5 runs


@dataclass(frozen=True)
class Row:
    """One line of BENCHMARKS.md: a figure, its reference from the same run, and the goal."""

    name: str
    value: float
    unit: str
    reference: str
    reference_value: float
    goal: str = ""
    note: str = ""
    higher_is_better: bool = False

    @property
    def ratio(self) -> float:
        return self.value / self.reference_value if self.reference_value else float("nan")

    def meets_goal(self) -> bool | None:
        """True/False against a goal written as '<= 1.2x' (ratio) or '<= 100 ms' (value); None if none."""
        if not self.goal:
            return None
        op, num, *_unit = self.goal.split()
        limit = float(num.rstrip("x")) if num.endswith("x") else float(num)
        x = self.ratio if num.endswith("x") else self.value
        return x <= limit if op == "<=" else x >= limit


def median_time(fn: Callable[[], object], runs: int = RUNS, warmup: int = 1, inner: int = 1) -> float:
    """Median wall time of ``fn`` in seconds (per call), after ``warmup`` untimed calls."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - t0) / inner)
    return statistics.median(samples)


def machine() -> str:
    return (f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}, "
            f"SQLite {sqlite3.sqlite_version}, {platform.system()} {platform.release()}; "
            f"medians of {RUNS} runs after a warm-up")
