"""Hostile house-rules front matter and cells cost no memory, no time and no command.

- A YAML alias bomb (a few hundred bytes of nested ``&a``/``*a``) once made every command take 15 s
  and 3 GB and print a 522 MB warning: anchors and aliases are refused at file:line, and the last
  good database answers.
- ``title:`` holding a 5,000-digit number once failed every command with "Exceeds the limit (4300
  digits)", naming no file: front matter scalars are text, so it is simply the title.
- A 5,000-digit number in a rollable table's first cell, or in its die, is a build problem at
  file:line echoing at most ~80 characters, never an internal error.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ruleslawyer import rulesdb
from ruleslawyer.cli import main
from ruleslawyer.rulesdb.handle import open_rules

CLI = [sys.executable, "-m", "ruleslawyer.cli"]
GOOD = "---\nruleset: house\nchapter: ours\ntitle: Ours\n---\n\n# Ours\n\n## Crits\n\nBig crits.\n"


def _bomb(levels: int = 9) -> str:
    """Front matter whose ``title`` expands to 5 x 9**levels strings (9 levels: ~1.9 billion)."""
    lines = ["a0: &a0 [lol, lol, lol, lol, lol]"]
    lines += [f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]" for n in range(1, levels + 1)]
    return "---\nruleset: house\nchapter: bomb\n" + "\n".join(lines) + f"\ntitle: *a{levels}\n---\n\n# Bomb\n\nBoom.\n"


def _bounded_memory() -> None:
    """preexec_fn: 1.5 GB of address space at most, so an expansion fails fast instead of eating 3 GB."""
    resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))


@pytest.fixture()
def house_db(tmp_path) -> tuple[Path, Path]:
    house = tmp_path / "house"
    house.mkdir()
    (house / "ours.md").write_text(GOOD, encoding="utf-8")
    path = tmp_path / "rules.db"
    rulesdb.build(path, house_rules=house)
    return path, house


def test_an_alias_bomb_is_refused_at_file_line_and_the_last_good_database_answers(house_db):
    path, house = house_db
    bomb = _bomb()
    assert len(bomb) < 1000
    (house / "bomb.md").write_text(bomb, encoding="utf-8")
    started = time.monotonic()
    out = subprocess.run([*CLI, "--db", str(path), "search", "crits", "--ruleset", "house"], capture_output=True,
                         text=True, timeout=120, preexec_fn=_bounded_memory)
    assert time.monotonic() - started < 30
    assert out.returncode == 0, out.stderr[:500]
    assert "[house/ours/crits#1]" in out.stdout  # the last good database
    assert len(out.stderr) < 1000, out.stderr[:500]
    assert out.stderr.splitlines() == [
        "ruleslawyer: warning: using the previous rules database; rules build failed:",
        f"  {house}/bomb.md:4: front matter is not valid YAML: anchors and aliases (&name, *name) are not "
        "allowed in front matter"]


def test_a_title_of_five_thousand_digits_is_text(house_db, capsys):
    path, house = house_db
    digits = "7" * 5000
    (house / "big.md").write_text(f"---\nruleset: house\nchapter: big\ntitle: {digits}\n---\n\n# Big\n\nText.\n",
                                  encoding="utf-8")
    assert sys.get_int_max_str_digits() == 4300  # Python's default limit, as in a command's own process
    code = main(["--db", str(path), "show", "house/big#1", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err[:500]
    assert f'"breadcrumb": "House › {digits} ¶1"' in out.out
    assert "Exceeds the limit" not in out.err


@pytest.mark.parametrize("value", ["12", "1.5", "yes", "2024-01-01", "0x1f", "1e400", "-.inf", ".nan"])
def test_front_matter_numbers_booleans_and_dates_are_read_as_the_text_written(tmp_path, value):
    house = tmp_path / "house"
    house.mkdir()
    (house / "t.md").write_text(f"---\nruleset: house\nchapter: t\ntitle: {value}\nruleset_title: {value}\n---\n\n"
                                "# T\n\nText.\n", encoding="utf-8")
    path = tmp_path / "rules.db"
    rulesdb.build(path, house_rules=house)
    rules = open_rules(path)
    try:
        assert rules.rule("house/t#1").breadcrumb == f"{value} › {value} ¶1"
    finally:
        rules.reset()


@pytest.mark.parametrize(("table", "line", "words"), [
    ("| d6 | Result |\n|---|---|\n| 1-5 | a |\n| " + "6" * 5000 + " | b |\n", 14,
     "first cell '" + "6" * 79 + "… (5002 characters) is not a face or a range of d6"),
    ("| d" + "6" * 5000 + " | Result |\n|---|---|\n| 1-5 | a |\n", 11, "the die 'd6666666"),
])
def test_a_five_thousand_digit_number_in_a_table_is_a_problem_at_file_line(tmp_path, table, line, words):
    house = tmp_path / "house"
    house.mkdir()
    (house / "t.md").write_text("---\nruleset: house\nchapter: t\ntitle: T\n---\n\n# T\n\n## Fumbles\n\n" + table,
                                encoding="utf-8")
    with pytest.raises(rulesdb.BuildError) as exc:
        rulesdb.build(tmp_path / "rules.db", house_rules=house)
    assert any(p.startswith(f"{house}/t.md:{line}: ") and words in p for p in exc.value.problems), \
        exc.value.problems
    assert max(len(p) for p in exc.value.problems) < 400
