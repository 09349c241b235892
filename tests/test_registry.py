"""The ruleset registry: the three rulesets are found through entry points, and a fourth ruleset,
installed as a separate package from a temp folder, reaches search, rulings, audit, compare, its
own command and the app without an edit to the kit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ruleslawyer import registry
from ruleslawyer.errors import RulesInputError

ROOT = Path(__file__).resolve().parents[1]
TOY = Path(__file__).resolve().parent / "toy_ruleset"


def test_the_three_rulesets_in_display_order():
    assert registry.ruleset_ids() == ("mastery", "mythras", "darkmaster")
    mastery = registry.get_ruleset("mastery")
    assert mastery.title == "Mastery" and (mastery.sources / "combat.md").is_file()
    with pytest.raises(RulesInputError, match="choose one of: mastery, mythras, darkmaster"):
        registry.get_ruleset("dnd")


def test_all_rulings_do_not_depend_on_what_was_imported_first():
    # Each count in a fresh process, after importing nothing, one engine, or every engine.
    code = ("import sys; {pre}; from ruleslawyer.registry import all_rulings; "
            "print(len(all_rulings()), len(all_rulings('mastery')), len(all_rulings('kit')))")
    counts = set()
    for pre in ("pass", "import ruleslawyer.rulesets.mythras.exchange",
                "import ruleslawyer.rulesets.mastery.exchange, ruleslawyer.rulesets.darkmaster.trs"):
        out = subprocess.run([sys.executable, "-c", code.format(pre=pre)], capture_output=True, text=True,
                             check=True, cwd=ROOT).stdout.split()
        counts.add(tuple(int(x) for x in out))
    assert len(counts) == 1
    total, mastery, kit = counts.pop()
    assert kit == 1 and mastery >= 30 and total >= mastery + 25


@pytest.fixture(scope="module")
def toy_env(tmp_path_factory):
    """A process environment where the toy ruleset package is installed (pip --target)."""
    import shutil

    tmp = tmp_path_factory.mktemp("toy")
    site = tmp / "site"
    src = shutil.copytree(TOY, tmp / "toy_ruleset")  # pip writes build/ and *.egg-info beside the sources
    # --no-build-isolation: built with this environment's setuptools (the test group's), not one pip
    # installs into a fresh build environment first (a second or more of the test)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--target", str(site), str(src)], check=True, capture_output=True, timeout=300)
    env = {**os.environ, "PYTHONPATH": str(site), "RULESLAWYER_DB": str(tmp / "rules.db")}
    return env


def _cli(env, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruleslawyer.cli", *args], capture_output=True, text=True,
                          env=env, timeout=120, cwd=env["RULESLAWYER_DB"].rsplit("/", 1)[0])


def test_fourth_ruleset_reaches_search_rulings_audit_compare_and_its_command(toy_env):
    hits = json.loads(_cli(toy_env, "search", "goblin shove", "--json").stdout)["hits"]
    assert hits[0]["id"] == "toy/combat/shoving#1"
    assert hits[0]["ruleset"] == "toy"
    rulings = json.loads(_cli(toy_env, "rulings", "--ruleset", "toy", "--json").stdout)
    assert [r["id"] for r in rulings] == ["toy.shove-tie"]
    audit = json.loads(_cli(toy_env, "audit", "--ruleset", "toy", "--json").stdout)
    assert [(r["id"], r["missing_cites"]) for r in audit["rulings"]] == [("toy.shove-tie", [])]
    compare = json.loads(_cli(toy_env, "compare", "flanking", "--json").stdout)
    assert [c["ruleset"] for c in compare["cells"]] == ["mastery", "mythras", "darkmaster", "toy"]
    assert compare["cells"][-1]["cites"][0]["id"] == "toy/combat/shoving#1"
    shove = _cli(toy_env, "toy-shove", "3")
    assert shove.returncode == 0 and shove.stdout.strip() == "shoved 6 feet [toy/combat/shoving#1]"
    show = _cli(toy_env, "show", "toy/combat/shoving#1")
    assert "Toy Skirmish › Combat › Shoving" in show.stdout


def test_fourth_ruleset_gets_a_tab_in_the_app(toy_env):
    code = ("from ruleslawyer.widgets.app import app; a = app(); "
            "print([t for t in a.panels])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=toy_env,
                         timeout=120, check=True).stdout
    tabs = eval(out)  # noqa: S307 - our own printed list
    assert "Toy shove" in tabs
    assert tabs.index("Toy shove") > tabs.index("Darkmaster round")


def test_a_broken_entry_point_names_itself(tmp_path):
    bad = tmp_path / "bad-0.1.dist-info"
    bad.mkdir()
    (bad / "entry_points.txt").write_text("[ruleslawyer.rulesets]\nbad = nosuchmodule.here:RULESET\n")
    code = ("import ruleslawyer.registry as r\ntry:\n    r.rulesets()\nexcept r.RulesDataError as e:\n"
            "    print(e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)}).stdout
    assert out.startswith("ruleset entry point bad = nosuchmodule.here:RULESET cannot be loaded")
