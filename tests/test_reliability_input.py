"""What the kit reads is bounded (limits.LIMITS), and a slow rebuild says so before it starts.

- ``--input`` reads at most limits.INPUT_FILE_BYTES (1 MB): an endless stream (``/dev/zero`` once
  read until memory ran out) is refused at once; so is standard input past the bound.
- A house-rules file past limits.SOURCE_FILE_BYTES (10 MB) is a build problem naming it, and the last
  good database answers.
- A query that has to rebuild prints ``ruleslawyer: rebuilding the rules database ...`` first (large
  sources: before they are parsed; 100,000 house-rules paragraphs once built for 10 s silently).
- Dice modifiers and counts are bounded (``1d4+99999999999999999999`` dealt 10^20 damage).
- ``odds --tolerance 0.001`` is the bound itself, not "must be from 0 to 0.001, got 0.001".
No test reads a real device: endless input comes from a FIFO made in tmp_path.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

from ruleslawyer import rulesdb
from ruleslawyer.cli import main
from ruleslawyer.dice import MAX_DICE_COUNT, MAX_DICE_MODIFIER, parse_dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.limits import INPUT_FILE_BYTES, LIMITS, NOTICE_SOURCE_BYTES, SOURCE_FILE_BYTES
from ruleslawyer.odds.core import check_tolerance
from ruleslawyer.rulesdb.db import RulesDatabaseNotice

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "ruleslawyer.cli"]
EXAMPLE = ROOT / "examples" / "mastery" / "exchange-melee.json"
HOUSE = "---\nruleset: house\nchapter: ours\ntitle: Ours\n---\n\n# Ours\n\n## Crits\n\nBig crits.\n"


def _endless_fifo(tmp_path: Path) -> tuple[Path, threading.Thread]:
    """A FIFO that yields zero bytes for as long as anyone reads (what ``/dev/zero`` does)."""
    fifo = tmp_path / "zeros"
    os.mkfifo(fifo)

    def feed() -> None:
        try:
            with open(fifo, "wb") as f:
                chunk = b"\0" * 65536
                while True:
                    f.write(chunk)
        except (BrokenPipeError, OSError):
            pass

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    return fifo, thread


def test_an_endless_input_is_refused_once_past_the_bound(tmp_path):
    fifo, feeder = _endless_fifo(tmp_path)
    started = time.monotonic()
    out = subprocess.run([*CLI, "exchange", "mastery", "--input", str(fifo)], capture_output=True, text=True,
                         timeout=120)
    assert time.monotonic() - started < 60
    assert out.returncode == 1
    assert out.stderr == f"ruleslawyer: error: input: {fifo} is larger than 1 MB, the most an input may hold\n"
    feeder.join(timeout=10)


def test_standard_input_past_the_bound_is_refused_and_a_file_at_the_bound_is_read(tmp_path):
    out = subprocess.run([*CLI, "exchange", "mastery", "--input", "-"], input=b" " * (INPUT_FILE_BYTES + 1),
                         capture_output=True, timeout=120)
    assert out.returncode == 1
    assert out.stderr.decode() == ("ruleslawyer: error: input: standard input is larger than 1 MB, the most an "
                                   "input may hold\n")
    text = EXAMPLE.read_text(encoding="utf-8")
    at_bound = tmp_path / "padded.json"
    at_bound.write_text(text + " " * (INPUT_FILE_BYTES - len(text.encode("utf-8"))), encoding="utf-8")
    assert at_bound.stat().st_size == INPUT_FILE_BYTES
    out = subprocess.run([*CLI, "exchange", "mastery", "--input", str(at_bound), "--json"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["trace"]


def test_a_house_rules_file_past_the_bound_names_the_file_and_the_last_good_database_answers(tmp_path, capsys):
    house = tmp_path / "house"
    house.mkdir()
    (house / "ours.md").write_text(HOUSE, encoding="utf-8")
    path = tmp_path / "rules.db"
    rulesdb.build(path, house_rules=house)
    huge = house / "huge.md"
    with open(huge, "wb") as f:  # sparse: 10 MB + 1 of NUL bytes that take no disk
        f.truncate(SOURCE_FILE_BYTES + 1)
    with pytest.raises(rulesdb.BuildError) as exc:
        rulesdb.build(tmp_path / "other.db", house_rules=house)
    assert exc.value.problems == [f"{huge}:1: larger than 10 MB, the most one source file may hold"]
    code = main(["--db", str(path), "search", "crits", "--ruleset", "house"])
    out = capsys.readouterr()
    assert code == 0 and "[house/ours/crits#1]" in out.out
    assert out.err.splitlines() == [
        "ruleslawyer: warning: using the previous rules database; rules build failed:",
        f"  {huge}:1: larger than 10 MB, the most one source file may hold"]


def test_a_slow_rebuild_says_so_before_parsing_and_a_small_first_build_is_quiet(tmp_path, monkeypatch):
    build_mod = importlib.import_module("ruleslawyer.rulesdb.builder")
    house = tmp_path / "house"
    house.mkdir()
    # 1,000 long paragraphs (~620 kB): past the bound as 15,000 short ones are, at a fifth of the build
    paragraphs = "\n\n".join(" ".join(f"House rule number {n} part {k} says the crit doubles." for k in range(12))
                             for n in range(1_000))
    (house / "many.md").write_text(HOUSE + "\n" + paragraphs + "\n", encoding="utf-8")
    assert (house / "many.md").stat().st_size > NOTICE_SOURCE_BYTES
    seen: list[str] = []
    real_parse = build_mod._parse_all

    def parse(*args):
        seen.append("parse")
        return real_parse(*args)

    monkeypatch.setattr(build_mod, "_parse_all", parse)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.showwarning = lambda message, *a, **k: seen.append(str(message))
        rulesdb.ensure_database(tmp_path / "big.db", house)  # first use, but large sources
        rulesdb.ensure_database(tmp_path / "small.db")      # first use of the books alone: under a second
    assert seen[:2] == [f"rebuilding the rules database {tmp_path / 'big.db'} (first use)...", "parse"]
    assert seen[2:] == ["parse"]
    assert [w.category for w in caught] == [] or all(w.category is RulesDatabaseNotice for w in caught)


def test_a_query_rebuilding_changed_sources_says_so_on_stderr(tmp_path, capsys):
    house = tmp_path / "house"
    house.mkdir()
    (house / "ours.md").write_text(HOUSE, encoding="utf-8")
    path = tmp_path / "rules.db"
    rulesdb.build(path, house_rules=house)
    (house / "ours.md").write_text(HOUSE + "\nHuge crits.\n", encoding="utf-8")
    code = main(["--db", str(path), "search", "huge", "--ruleset", "house"])
    out = capsys.readouterr()
    assert code == 0 and "[house/ours/crits#2]" in out.out
    assert out.err == f"ruleslawyer: rebuilding the rules database {path} (the sources changed)...\n"


@pytest.mark.parametrize(("expr", "message"), [
    ("1d4+99999999999999999999", "dice: modifier in '1d4+99999999999999999999' must be from -10000 to 10000, "
                                 "got a number of 20 digits"),
    ("1d4+10001", "dice: modifier in '1d4+10001' must be from -10000 to 10000, got 10001"),
    ("1d4-6000-6000", "dice: the modifier of '1d4-6000-6000' must be from -10000 to 10000, got -12000"),
    ("600d6+600d6", "dice: '600d6+600d6' rolls 1200 dice; at most 1000 in all"),
    ("1d" + "6" * 5000, "must be from 1 to 10000, got a number of 5000 digits"),
])
def test_dice_expressions_past_their_bounds_name_the_field_and_the_bound(expr, message):
    with pytest.raises(RulesInputError) as exc:
        parse_dice(expr)
    assert exc.value.field == "dice" and message in str(exc.value) and len(str(exc.value)) < 250


def test_dice_at_their_bounds_are_read():
    # 1d4+10000: the modifier at its bound; rolls from 1+10000 = 10001 to 4+10000 = 10004
    assert parse_dice(f"1d4+{MAX_DICE_MODIFIER}").outcomes() == range(10001, 10005)
    # 500d6+500d6 = 1000 dice in all: from 1000 x 1 = 1000 to 1000 x 6 = 6000
    assert parse_dice("500d6+500d6").outcomes() == range(MAX_DICE_COUNT, 6 * MAX_DICE_COUNT + 1)


def test_the_cli_refuses_a_weapon_with_a_huge_modifier_naming_the_field(tmp_path):
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["attacker"]["attack"]["weapon"] = "1d4+99999999999999999999"
    f = tmp_path / "in.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    out = subprocess.run([*CLI, "exchange", "mastery", "--input", str(f)], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 1
    assert out.stderr.startswith("ruleslawyer: error: attacker.attack.")
    assert "must be from -10000 to 10000, got a number of 20 digits" in out.stderr


def test_a_tolerance_at_its_bound_is_accepted():
    from fractions import Fraction

    assert check_tolerance(0.001) == Fraction(1, 1000)
    assert check_tolerance(1e-12) == Fraction(1, 10 ** 12)
    with pytest.raises(RulesInputError, match="must be a number from 0 to 0.001, got 0.0011"):
        check_tolerance(0.0011)
    out = subprocess.run([*CLI, "odds", "mastery", "--input", str(EXAMPLE), "--tolerance", "0.001"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "Probability mass cut off" in out.stdout


def test_every_limit_is_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Limits", 1)[1].split("\n## ", 1)[0]
    for name, (value, _what) in LIMITS.items():
        shown = f"{value // 1_000_000} MB" if name.endswith("_bytes") and value % 1_000_000 == 0 else f"{value:,}"
        assert shown in section, (name, shown)
