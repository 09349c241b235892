"""Run every benchmarks/bench_*.py and write BENCHMARKS.md (``make bench``)."""

from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness import Row, machine  # noqa: E402

NOTES = HERE / "notes.md"


def fmt(x: float) -> str:
    return f"{x:,.3g}" if abs(x) < 1000 else f"{x:,.0f}"


def main(argv: list[str]) -> int:
    only = set(argv)
    rows: list[tuple[str, Row]] = []
    for path in sorted(HERE.glob("bench_*.py")):
        if only and path.stem not in only:
            continue
        t0 = time.perf_counter()
        mod = importlib.import_module(path.stem)
        for row in mod.run():
            rows.append((path.stem, row))
            verdict = {True: "meets", False: "MISSES", None: ""}[row.meets_goal()]
            print(f"{row.name}: {fmt(row.value)} {row.unit} vs {row.reference} {fmt(row.reference_value)} "
                  f"{row.unit} = {row.ratio:.2f}x {row.goal} {verdict}", flush=True)
        print(f"  ({path.stem} took {time.perf_counter() - t0:.1f} s)", flush=True)
    lines = ["# Benchmarks", "", f"Machine: {machine()}.", "",
             "Each figure is next to its reference, measured in the same run (`make bench`).", "",
             "| figure | value | reference | reference value | ratio | goal | met |",
             "|---|---|---|---|---|---|---|"]
    for _, r in rows:
        met = {True: "yes", False: "**no**", None: "—"}[r.meets_goal()]
        lines.append(f"| {r.name} | {fmt(r.value)} {r.unit} | {r.reference} | {fmt(r.reference_value)} {r.unit} "
                     f"| {r.ratio:.2f}x | {r.goal or '—'} | {met} |")
    notes = [f"- **{r.name}**: {r.note}" for _, r in rows if r.note]
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
