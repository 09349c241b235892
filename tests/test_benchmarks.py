"""Smoke test of benchmarks/: every bench module's run() in quick mode gives well-formed rows.

Each ``benchmarks/bench_*.py`` runs in its own subprocess with ``BENCH_QUICK=1`` (one timed run, small
samples; the Monte Carlo of bench_odds cut to 200 samples), all those selected started at once; the
figures are not checked, only that each row has a name, a unit, a reference and positive finite values.
The quick runs of the modules that serve the app and drive a browser of their own (``BROWSER_MODULES``:
a Voila server, its kernels and chromium each, a sixth of the suite's CPU) are marked slow: ``make
test-slow`` runs them, and the browser tests check the app itself in ``make test``.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
MODULES = sorted(p.stem for p in BENCH.glob("bench_*.py"))
#: The modules that start `ruleslawyer app` (Voila) and chromium for their figures.
BROWSER_MODULES = ("bench_app_load", "bench_widgets")

_RUNNER = """
import dataclasses, json, sys
sys.path.insert(0, {bench!r})
import importlib
mod = importlib.import_module({name!r})
if hasattr(mod, "MC_SAMPLES"):
    mod.MC_SAMPLES = 200
rows = [dataclasses.asdict(r) | {{"ratio": r.ratio, "met": r.meets_goal()}} for r in mod.run()]
print("ROWS=" + json.dumps(rows))
"""


@pytest.fixture(scope="module")
def quick_runs(tmp_path_factory, request, shipped_db):
    """Start every bench module this run tests at once in quick mode; module name -> (returncode,
    stdout, stderr). Their default database is a built one of their own (bench_rulesdb times builds
    of its own)."""
    env = {**os.environ, "BENCH_QUICK": "1",
           "RULESLAWYER_DB": str(shipped_db(tmp_path_factory.mktemp("bench") / "rules.db"))}
    wanted = {item.callspec.params["name"] for item in request.session.items
              if getattr(item, "originalname", None) == "test_quick_run_gives_well_formed_rows"}
    procs = {name: subprocess.Popen([sys.executable, "-c", _RUNNER.format(bench=str(BENCH), name=name)],
                                    cwd=BENCH, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for name in MODULES if name in wanted}
    out = {}
    for name, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=600)
        out[name] = (proc.returncode, stdout, stderr)
    return out


def test_every_module_is_found():
    assert {"bench_rulesdb", "bench_engines", "bench_odds", "bench_notebooks", "bench_widgets"} <= set(MODULES)


def test_the_browser_modules_are_bench_modules():
    assert set(BROWSER_MODULES) <= set(MODULES)


@pytest.mark.parametrize("name", [pytest.param(m, marks=pytest.mark.slow) if m in BROWSER_MODULES else m
                                  for m in MODULES])
def test_quick_run_gives_well_formed_rows(quick_runs, name):
    code, stdout, stderr = quick_runs[name]
    assert code == 0, stderr[-3000:]
    line = [ln for ln in stdout.splitlines() if ln.startswith("ROWS=")][-1]
    rows = json.loads(line.removeprefix("ROWS="))
    if name == "bench_widgets" and not rows:
        pytest.skip("no chromium/playwright: the widget rows are skipped")
    assert rows, f"{name}.run() returned no rows"
    for r in rows:
        assert r["name"].strip() and r["unit"].strip() and r["reference"].strip(), r
        for key in ("value", "reference_value", "ratio"):
            assert isinstance(r[key], (int, float)) and math.isfinite(r[key]) and r[key] > 0, (key, r)
        assert r["met"] in (True, False, None)
        assert (r["met"] is None) == (not r["goal"]), r


def _harness():
    sys.path.insert(0, str(BENCH))
    try:
        import harness
    finally:
        sys.path.remove(str(BENCH))
    return harness


def test_goal_checks_ratio_and_value():
    Row = _harness().Row
    # ratio goal: 120 / 100 = 1.2 meets "<= 1.2x"; 121 / 100 = 1.21 misses it
    assert Row("search", 120, "ms", "raw", 100, goal="<= 1.2x").meets_goal() is True
    assert Row("search", 121, "ms", "raw", 100, goal="<= 1.2x").meets_goal() is False
    # value goal: 150 ms meets "<= 150 ms" whatever the reference; 151 ms misses it
    assert Row("click", 150, "ms", "plain", 1, goal="<= 150 ms").meets_goal() is True
    assert Row("click", 151, "ms", "plain", 1000, goal="<= 150 ms").meets_goal() is False
    assert Row("x", 1, "ms", "y", 2).meets_goal() is None


def test_untraced_stub_is_undone_and_changes_no_outcome():
    sys.path.insert(0, str(BENCH))
    try:
        import bench_engines
    finally:
        sys.path.remove(str(BENCH))
    from ruleslawyer.rulesets.mastery import exchange_from_dict
    from ruleslawyer.trace import Step

    data = bench_engines._examples("mastery", bench_engines.MASTERY_PEER)[0][0]
    traced = exchange_from_dict(data, seed=3)
    with bench_engines.untraced() as built:
        stubbed = exchange_from_dict(data, seed=3)
        assert stubbed.trace.label == "untraced"
    assert built == [0]
    assert bench_engines._outcome(stubbed) == bench_engines._outcome(traced)
    again = Step.of("info", "real again")
    assert again.label == "real again"
    assert len(list(traced.trace.walk())) > 10


def test_cli_sole_module_commands_match_the_full_parser():
    from ruleslawyer import cli

    def options(parser, name):
        sub = next(a for a in parser._actions if a.dest == "command")
        return sorted(opt for a in sub.choices[name]._actions for opt in (a.option_strings or [a.dest]))

    full = cli.build_parser()
    for name, module in cli.SOLE_MODULE.items():
        assert options(cli.build_parser((module,)), name) == options(full, name), name
    assert cli._command_name(["--db", "x.db", "search", "parry"]) == "search"
    assert cli._command_name(["--house-rules", "dir", "--db=x", "show", "a#1"]) == "show"
    assert cli._command_name(["--help"]) is None
