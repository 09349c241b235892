"""Run every benchmarks/bench_*.py and write BENCHMARKS.md (``make bench``)."""

from __future__ import annotations

import importlib
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness import Row, load, machine  # noqa: E402

NOTES = HERE / "notes.md"


def fmt(x: float) -> str:
    return f"{x:,.3g}" if abs(x) < 1000 else f"{x:,.0f}"


def fmt_ratio(r: float) -> str:
    """``6.19x``; a ratio far below 1 as ``1.9e-05x (1/52,000)`` rather than ``0.00x``."""
    if r != r:  # nan
        return "n/a"
    return f"{r:.2f}x" if r >= 0.1 else f"{r:.1e}x (1/{1 / r:,.0f})"


def revision() -> str:
    """The commit measured (``abc1234``, plus ``with local changes`` when the tree is dirty)."""
    import subprocess

    try:
        sha = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=HERE,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return f"{sha}{' with local changes' if dirty else ''}"


def _quality() -> list[str]:
    """The blind question sets' figures, on a fresh build in a temp folder."""
    import tempfile

    import search_blind
    from ruleslawyer.rulesdb import build, open_rules

    with tempfile.TemporaryDirectory(prefix="rl-bench-blind-") as tmp:
        db = Path(tmp) / "rules.db"
        build(db)
        lines = search_blind.markdown(open_rules(db))
    print("search quality on the blind sets: done", flush=True)
    return lines


def main(argv: list[str]) -> int:
    only = set(argv)
    rows: list[tuple[str, Row, float]] = []
    loads: list[str] = []
    start_load = load()
    for path in sorted(HERE.glob("bench_*.py")):
        if only and path.stem not in only:
            continue
        t0 = time.perf_counter()
        mod = importlib.import_module(path.stem)
        for row in mod.run():
            one_min = os.getloadavg()[0]
            rows.append((path.stem, row, one_min))
            verdict = {True: "meets", False: "MISSES", None: ""}[row.meets_goal()]
            print(f"{row.name}: {fmt(row.value)} {row.unit} vs {row.reference} {fmt(row.reference_value)} "
                  f"{row.unit} = {fmt_ratio(row.ratio)} {row.goal} {verdict}", flush=True)
        took = time.perf_counter() - t0
        loads.append(f"{path.stem} ({took:.0f} s): {load()}")
        print(f"  ({path.stem} took {took:.1f} s; load {load()})", flush=True)
    lines = ["# Benchmarks", "", f"Machine: {machine()}.", "", f"Code: commit {revision()}.", "",
             f"Load average at the start of the run: {start_load}; after each module:", "",
             *[f"- {x}" for x in loads], "",
             "The machine is shared: other work runs beside the benchmarks, so wall-clock figures read slower "
             "under load. Ratios are the figure to read; in-process rows time each figure and its reference "
             "in turns (see notes).", "",
             "Each figure is next to its reference, measured in the same run (`make bench`).", "",
             "| figure | value | reference | reference value | ratio | goal | met | load (1 min) |",
             "|---|---|---|---|---|---|---|---|"]
    for _, r, one_min in rows:
        met = {True: "yes", False: "**no**", None: "—"}[r.meets_goal()]
        lines.append(f"| {r.name} | {fmt(r.value)} {r.unit} | {r.reference} | {fmt(r.reference_value)} {r.unit} "
                     f"| {fmt_ratio(r.ratio)} | {r.goal or '—'} | {met} | {one_min:.1f} |")
    if not only or "search_blind" in only:
        lines += ["", *_quality()]
    notes = [f"- **{r.name}** vs {r.reference}: {r.note}" for _, r, _ in rows if r.note]
    if notes:
        lines += ["", "## Notes", "", *notes]
    if NOTES.exists():
        lines += ["", NOTES.read_text(encoding="utf-8").strip()]
    if not only:
        (HERE.parent / "BENCHMARKS.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print("wrote BENCHMARKS.md")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
