"""The notebook suite under nbval, against the same pytest + nbval run of a one-cell notebook.

Both run as ``python -m pytest --nbval-lax --nbval-current-env <path>`` in a subprocess, timed in
turns (suite, trivial, suite, ...) after a warm-up, on a prebuilt database (the db build is its own
row); ``BENCH_QUICK=1`` (the smoke test) runs the one-cell notebook once, as both. The trivial notebook (one cell, ``1 + 1``) is written on the fly to a temp dir, so the
reference is pytest + nbval start-up plus one kernel start and shutdown: the ratio is what the
suite costs over that floor.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from harness import QUICK, Row, bytecode_env, interleaved, scratch

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def _trivial(folder: Path) -> Path:
    import nbformat

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("1 + 1", execution_count=1)
    cell.outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "2"}, execution_count=1)]
    nb.cells = [cell]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = folder / "trivial.ipynb"
    nbformat.write(nb, path)
    return path


def run() -> list[Row]:
    tmp = scratch("rl-bench-nb-")
    db = tmp / "rules.db"
    env = {**bytecode_env(), "RULESLAWYER_DB": str(db), "RULESLAWYER_TEST_DB": str(db)}
    env.pop("RULESLAWYER_HOUSE_RULES", None)
    trivial = _trivial(tmp)
    if not QUICK:  # the quick run (the smoke test) times the one-cell notebook as both: no database
        subprocess.run([sys.executable, "-m", "ruleslawyer.cli", "build"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
    targets = [str(trivial)] if QUICK else [str(NOTEBOOKS)]
    count = 1 if QUICK else len(list(NOTEBOOKS.glob("*.ipynb")))
    summaries: list[str] = []

    def pytest(paths: list[str], cwd: Path, keep: bool = False):
        def go():
            p = subprocess.run([sys.executable, "-m", "pytest", "--nbval-lax", "--nbval-current-env", "-q",
                                "-p", "no:cacheprovider", *paths], cwd=cwd, env=env, capture_output=True, text=True)
            if keep:
                lines = [ln for ln in p.stdout.splitlines() if re.search(r"\d+ (passed|failed|error)", ln)]
                summaries.append(lines[-1].strip("= ") if lines else f"exit {p.returncode}")
        return go

    if QUICK:  # the one-cell notebook is both: one run of it stands for both (a smoke test of this module)
        t = interleaved({"suite": pytest(targets, ROOT, keep=True)}, clock=time.perf_counter)
        t["trivial"] = t["suite"]
    else:
        t = interleaved({"suite": pytest(targets, ROOT, keep=True), "trivial": pytest([str(trivial)], tmp)},
                        runs=5, clock=time.perf_counter)
    outcome = summaries[-1] if summaries else "?"
    what = "the one-cell notebook (quick mode)" if QUICK else f"notebooks/ ({count} notebooks)"
    return [
        Row(f"notebook suite under nbval: {what}", t["suite"], "s",
            "the same pytest + nbval run of a one-cell notebook", t["trivial"],
            note=f"last run: {outcome}; wall clock, 5 runs in turns after a warm-up, prebuilt db; "
                 f"the suite costs ≈ {(t['suite'] - t['trivial']) / count:.1f} s per notebook over the floor"),
    ]


if __name__ == "__main__":
    for r in run():
        print(r)
