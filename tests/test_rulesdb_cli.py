"""The database subcommands of the ``ruleslawyer`` CLI, run as a user would: their exit status, standard
output and standard error, through the CLI's ``main()`` in this process (``run``); in a process of their
own where that is the point (the cold search's imports, a ``pip install`` of the kit, two commands of
which the second finds the house rules changed since the first)."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "ruleslawyer.cli"]


@pytest.fixture
def run(monkeypatch, capsys):
    """``run(*args, env=None)``: ``ruleslawyer ARGS`` in the repository's folder, ``env`` (variables to
    set) added to the environment; its exit status and output as a finished process gives them."""
    from ruleslawyer.cli import main

    def go(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
        monkeypatch.chdir(ROOT)
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        capsys.readouterr()
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code
        out = capsys.readouterr()
        return subprocess.CompletedProcess([*CLI, *args], code, out.out, out.err)
    return go


def test_search_json_has_hits_with_citations(run):
    out = run("search", "parries", "--ruleset", "mythras", "--limit", "3", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["query"] == "parries"
    assert len(data["hits"]) == 3
    first = data["hits"][0]
    assert first["ruleset"] == "mythras"
    assert set(first) >= {"id", "ruleset", "breadcrumb", "snippet", "text", "score"}
    assert "<mark>" in first["snippet"]


def test_search_without_results_exits_zero_with_a_hint(run):
    out = run("search", "xylophone")
    assert out.returncode == 0
    assert out.stdout.startswith("No rules match 'xylophone'.")


@pytest.mark.parametrize("query", ["AND", "NEAR(", '"', "*", "<img src=x onerror=alert(1)>", "attacker's"])
def test_search_accepts_any_string(query, run):
    out = run("search", query, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["query"] == query
    assert all("<img" not in hit["snippet"] for hit in data["hits"])


def test_show_prints_the_rule_with_neighbours(run):
    out = run("show", "mastery/combat/death/fighting-on#2")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "Mastery › Combat › Death › Fighting On ¶2"
    assert "> Any health damage you take results in a Trauma." in lines
    assert "  If you succeed on the Endurance trial and choose to remain conscious at 0 health:" in lines


def test_show_bad_id_fails_with_one_line(run):
    out = run("show", "mastery/combat/death/fighting-of#2")
    assert out.returncode == 1
    assert out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1
    assert "no rule with id 'mastery/combat/death/fighting-of#2'" in out.stderr
    assert "did you mean mastery/combat/death/fighting-on#2" in out.stderr


def test_tables_json_lists_rollable_trauma(run):
    out = run("tables", "--json")
    tables = {t["id"]: t for t in json.loads(out.stdout)}
    assert tables["mastery/combat/tables/trauma"]["dice"] == "d100"
    assert tables["mastery/combat/tables/other-actions"]["rows"] == 20
    assert tables["mastery/combat/tables/other-actions"]["dice"] is None


def test_table_csv_round_trips(run):
    out = run("table", "mastery/combat/tables/other-actions", "--csv")
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert len(rows) == 20
    assert rows[0]["Action Type"] == "Item, Catch" and rows[0]["AP Cost"] == "1"


def test_roll_with_an_entered_result(run):
    out = run("roll", "mastery/combat/tables/trauma", "--roll", "100", "--json")
    data = json.loads(out.stdout)
    assert data["roll"] == 100
    assert data["row"]["cells"][1] == "Broken Back. You lose the use of your legs and cannot walk."
    assert data["row"]["unit_id"].startswith("mastery/combat/wounds-injuries-and-trauma/trauma-table#")


def test_roll_seeded_is_reproducible(run):
    a = json.loads(run("roll", "mastery/combat/tables/trauma", "--seed", "5", "--json").stdout)
    b = json.loads(run("roll", "mastery/combat/tables/trauma", "--seed", "5", "--json").stdout)
    assert a["roll"] == b["roll"] and a["seed"] == 5


@pytest.mark.parametrize("args", [("roll", "mastery/combat/tables/other-actions"),
                                  ("roll", "mastery/combat/tables/trauma", "--roll", "101"),
                                  ("roll", "mastery/combat/tables/trauma", "--roll", "000x"),
                                  ("table", "no/such/table")])
def test_bad_roll_or_table_fails_with_one_line(args, run):
    out = run(*args)
    assert out.returncode == 1
    assert out.stderr.startswith("ruleslawyer: error: ")
    assert len(out.stderr.strip().splitlines()) == 1


def test_search_import_path_stays_light():
    code = ("import sys; from ruleslawyer.cli import main; main(['search', 'parry', '--json']); "
            "heavy = [m for m in ('pandas', 'ipywidgets', 'markdown_it', 'numpy', 'yaml') if m in sys.modules]; "
            "print('HEAVY', heavy, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "HEAVY []" in out.stderr, out.stderr


def test_build_reports_counts(tmp_path, run):
    out = run("build", "--out", str(tmp_path / "x.db"), "--json")
    data = json.loads(out.stdout)
    assert data["units"] > 300 and data["tables"] >= 3
    assert Path(data["path"]) == tmp_path / "x.db"


def test_plain_pip_install_works_from_any_folder(tmp_path):
    target = tmp_path / "site"
    # --no-build-isolation: built with this environment's setuptools (the test group's), not one pip
    # installs into a fresh build environment first (1.3 CPU-s of the test's 2.7); --no-compile: the
    # import below compiles the modules it reads, not pip every module of the kit (0.3 CPU-s)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-compile", "--target", str(target), str(ROOT)], check=True, capture_output=True, timeout=300)
    env = {**os.environ, "PYTHONPATH": str(target), "RULESLAWYER_DB": str(tmp_path / "r.db")}
    code = ("import ruleslawyer, ruleslawyer.rulesdb, ruleslawyer.widgets, pathlib; "
            "assert 'site' in ruleslawyer.rulesdb.__file__, ruleslawyer.rulesdb.__file__; "
            "print(ruleslawyer.rulesdb.search('fighting on')[0].id)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().startswith("mastery/combat/death/fighting-on")
    # Every module and data file of the source tree made it into the installed package.
    installed = target / "ruleslawyer"
    trees = {ROOT / "src" / "ruleslawyer": installed, ROOT / "rulesdb": installed / "rulesdata",
             ROOT / "widgets": installed / "assets"}
    missing = []
    for src, dst in trees.items():
        for f in src.rglob("*"):
            if f.suffix in {".py", ".md", ".json", ".css", ".sql"} and "__pycache__" not in f.parts \
                    and f.name != "README.md":
                rel = f.relative_to(src)
                if not (dst / rel).exists():
                    missing.append(str(f.relative_to(ROOT)))
    assert missing == [], f"not shipped by `pip install .`: {missing}"


def test_errors_under_json_are_json_too(run):
    out = run("show", "nope", "--json")
    assert out.returncode == 1
    error = json.loads(out.stdout)["error"]
    assert error["type"] == "UnknownIdError"
    assert error["message"].startswith("no rule with id 'nope'")
    # (a "rebuilding the rules database..." notice may come first when the sources just changed)
    assert out.stderr.splitlines()[-1].startswith("ruleslawyer: error: no rule with id 'nope'")


def test_search_text_output_says_how_the_query_was_rewritten(run):
    out = run("search", "attack", "of", "opportunity", "--ruleset", "mastery", "--limit", "1")
    assert out.returncode == 0, out.stderr
    via = [ln for ln in out.stdout.splitlines() if ln.startswith("via synonym: attack of opportunity → ")]
    assert len(via) == 1 and "reprisal attack" in via[0].split(" → ", 1)[1].split(", ")


def test_broken_house_rules_warn_in_one_tidy_block_naming_the_real_file(tmp_path):
    # two commands, each a process of its own: the second finds the sources changed since the first
    house = tmp_path / "hr"
    house.mkdir()
    good = "---\nruleset: house\nchapter: ours\ntitle: Ours\n---\n\n# Ours\n\n## Crits\n\nBig.\n"
    (house / "ours.md").write_text(good, encoding="utf-8")
    env = {**os.environ, "RULESLAWYER_DB": str(tmp_path / "r.db"), "RULESLAWYER_HOUSE_RULES": str(house)}

    def run(*args, env):
        return subprocess.run([*CLI, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)

    assert run("search", "crits", env=env).returncode == 0
    (house / "ours.md").write_text(good + "\nSee [x](no/such/id).\n", encoding="utf-8")
    out = run("search", "crits", env=env)
    assert out.returncode == 0
    assert "1. House › Ours › Crits  [house/ours/crits]" in out.stdout  # the last good database answered
    assert out.stderr.splitlines()[0] == "ruleslawyer: warning: using the previous rules database; rules build failed:"
    assert f"  {house}/ours.md:13: cross-reference to 'no/such/id', which does not exist" in out.stderr.splitlines()
    assert "ensure_database" not in out.stderr and "Traceback" not in out.stderr
