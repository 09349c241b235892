"""Dice and tables as players read them: zero faces, every die spelling in a table header, whole
table text on the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from ruleslawyer import rulesdb
from ruleslawyer.dice import read_face
from ruleslawyer.errors import RulesInputError

HOUSE = """---
ruleset: homebrew
chapter: tables
title: Tables
kind: house-rules
provenance: a test
---

# Tables

## Fumbles

<!-- table: fumbles -->

| {die} | Result |
|---|---|
| 01–50 | You drop your weapon. |
| 51–00 | You stumble. |
"""


@pytest.mark.parametrize("text, sides, face", [
    ("00", 100, 100), ("0", 100, 100), ("07", 100, 7), (100, 100, 100), ("0", 10, 10), ("10", 10, 10),
    (" 3 ", 6, 3), (6, 6, 6),
])
def test_a_face_as_read_off_the_die(text, sides, face):
    assert read_face(text, sides) == face


@pytest.mark.parametrize("text, sides", [("0", 6), ("00", 20), ("101", 100), ("-1", 100), ("x", 100),
                                         (True, 6), (2.0, 6), ("", 6), ("1e3", 100)])
def test_not_a_face_of_that_die(text, sides):
    with pytest.raises(RulesInputError, match=f"roll: must be a d{sides} face"):
        read_face(text, sides)


@pytest.fixture
def _cli(monkeypatch, capsys):
    """``_cli(*args, db=...)``: ``ruleslawyer ARGS`` on ``db`` in a 100-column terminal, through the CLI's
    main() in this process; its exit status and output as a finished process gives them."""
    from ruleslawyer.cli import main

    def run(*args, db) -> subprocess.CompletedProcess:
        monkeypatch.setenv("RULESLAWYER_DB", str(db))
        monkeypatch.setenv("COLUMNS", "100")
        capsys.readouterr()
        code = main(list(args))
        out = capsys.readouterr()
        return subprocess.CompletedProcess(["ruleslawyer", *args], code, out.out, out.err)
    return run


@pytest.fixture(scope="module")
def db(tmp_path_factory, shipped_db):
    return shipped_db(tmp_path_factory.mktemp("faces") / "rules.db")


def test_roll_00_on_the_trauma_table_is_100(db, _cli):
    out = _cli("roll", "mastery/combat/tables/trauma", "--roll", "00", "--json", db=db)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    # the chapter's row 100: "Broken Back. You lose the use of your legs and cannot walk."
    assert data["roll"] == 100 and data["row"]["cells"][1].startswith("Broken Back.")
    bad = _cli("roll", "mastery/combat/tables/trauma", "--roll", "000x", db=db)
    assert bad.returncode == 1 and '"00" reads as 100' in bad.stderr


@pytest.mark.parametrize("die", ["d%", "1d%", "D100", "1d100"])
def test_every_spelling_of_d100_makes_a_rollable_table(die, tmp_path):
    house = tmp_path / "house"
    house.mkdir()
    (house / "t.md").write_text(HOUSE.format(die=die), encoding="utf-8")
    rulesdb.build(tmp_path / "r.db", house_rules=house)
    t = rulesdb.open_rules(tmp_path / "r.db", house).table("homebrew/tables/tables/fumbles")
    assert (t.sides, t.row_for("00").cells[1], t.row_for(50).cells[1]) == (100, "You stumble.", "You drop your weapon.")


@pytest.mark.parametrize("die", ["2d6", "d0", "1d6+1"])
def test_dice_that_are_not_one_die_fail_the_build_at_the_header(die, tmp_path):
    house = tmp_path / "house"
    house.mkdir()
    (house / "t.md").write_text(HOUSE.format(die=die), encoding="utf-8")
    with pytest.raises(rulesdb.BuildError, match=r"t\.md:15: rollable table homebrew/tables/tables/fumbles"):
        rulesdb.build(tmp_path / "r.db", house_rules=house)


def test_table_prints_every_rule_whole(db, _cli):
    out = _cli("table", "mastery/combat/tables/trauma", db=db)
    assert out.returncode == 0 and "..." not in out.stdout
    assert max(len(line) for line in out.stdout.splitlines()) <= 100
    words = iter(out.stdout.split())
    t = rulesdb.open_rules(db).table("mastery/combat/tables/trauma")
    for row in t.rows:  # every word of every Trauma, in order: nothing cut (other columns interleave)
        for word in row.cells[1].split():
            assert word in words, f"{word!r} of row {row.index} missing or out of order"
    code = ("import sys; from ruleslawyer.cli import main; main(['table', 'mastery/combat/tables/trauma']); "
            "print('pandas' in sys.modules, file=sys.stderr)")
    probe = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                           env={**os.environ, "RULESLAWYER_DB": str(db)})
    assert probe.stderr.strip().splitlines()[-1] == "False"  # the CLI's table printing does not load pandas


def test_a_table_roll_names_the_row_it_cites(db):
    r = rulesdb.roll("mastery/combat/tables/trauma", roll="00", rules=rulesdb.open_rules(db))
    assert r.citation == r.row.unit_id and r.citation.startswith("mastery/combat/") and r.roll == 100
