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
from pathlib import Path

__all__ = ["Row", "median_time", "interleaved", "bytecode_env", "scratch", "machine", "load", "QUICK", "RUNS"]

#: ``BENCH_QUICK=1``: one timed run, no warm-up, small samples — for the smoke test only; the
#: figures it gives are not the ones BENCHMARKS.md reports.
QUICK = os.environ.get("BENCH_QUICK", "") not in ("", "0")
RUNS = 1 if QUICK else 7  # medians of >= 5 runs


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
    """Median wall time of ``fn`` in seconds (per call), after ``warmup`` untimed calls.

    Under ``BENCH_QUICK=1`` every call is timed once, without a warm-up.
    """
    if QUICK:
        runs, warmup, inner = 1, 0, 1
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - t0) / inner)
    return statistics.median(samples)


def interleaved(fns: dict[str, Callable[[], object]], runs: int = RUNS, warmup: int = 1,
                clock: Callable[[], float] = time.process_time) -> dict[str, float]:
    """Median time per call of each function, timed in turns (a, b, c, a, b, c, ...) after a warm-up.

    Taking turns spreads a change in machine load over every function alike, so their ratio holds
    up better than timing one function's runs and then the other's. The default clock is this
    process's CPU time (``time.process_time``): other processes on a shared machine slow the wall
    clock, far less the CPU time of an in-process, single-threaded loop.
    """
    if QUICK:
        runs, warmup = 1, 0
    for _ in range(warmup):
        for fn in fns.values():
            fn()
    samples: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(runs):
        for key, fn in fns.items():
            t0 = clock()
            fn()
            samples[key].append(clock() - t0)
    return {k: statistics.median(v) for k, v in samples.items()}


def scratch(prefix: str) -> Path:
    """A new temp directory, removed when the benchmark process exits."""
    import atexit
    import shutil
    import tempfile

    path = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, path, True)
    return path


def bytecode_env() -> dict[str, str]:
    """The environment for timed subprocesses: bytecode caching on, as after ``pip install``.

    This machine sets ``PYTHONDONTWRITEBYTECODE=1``, which makes every Python start compile the
    kit's modules from source again; a user's install has ``.pyc`` files. The caches go to one temp
    dir per benchmark run (``PYTHONPYCACHEPREFIX``), never into the repository, and the warm-up run
    fills them — for the figure and its reference alike. Under ``BENCH_QUICK=1`` (no warm-up, figures
    not kept) the caller's environment is returned unchanged: a fresh cache would only make the one
    timed run compile every imported module, the installed packages' too, from source.
    """
    global _PYCACHE
    if QUICK:
        return dict(os.environ)
    if _PYCACHE is None:
        _PYCACHE = str(scratch("rl-bench-pyc-"))
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = _PYCACHE
    return env


_PYCACHE: str | None = None


def load() -> str:
    """The 1-, 5- and 15-minute load averages (the machine is shared; a high load reads slower)."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:  # pragma: no cover - not on Linux
        return "unknown"
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min) on {os.cpu_count()} cores"


def machine() -> str:
    return (f"{os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}, "
            f"SQLite {sqlite3.sqlite_version}, {platform.system()} {platform.release()}; "
            f"medians of >= 5 runs after a warm-up (7 unless a row says otherwise)")
